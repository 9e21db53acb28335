"""The fast engine for any tile geometry: the classic kernel's method, for any ends and turns per tile.

The classic kernel (``kernel``) is tuned to six ends and twelve turns (three 32-bit stores place a
tile; four layouts are scored together). This one reads both from the board's arrays
(``BoardArrays.ends``, ``.turns``) and scores one layout at a time, with the same union-find, the
same duplicate-edge rule and the same landmark-pair mask (it calls the classic kernel's pieces).

Layouts are drawn from the same xoshiro256** stream in the same way: a Fisher-Yates shuffle, then
one bounded draw per slot for its turn (``faces * rotations`` values; ``turn = rotations * flip +
rot``). With twelve turns these are exactly the classic kernel's layouts, so on the classic board
this engine and the classic one give the same numbers layout by layout (``tests/test_geometry_scoring``).
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.scoring import kernel
from generator.scoring.kernel import _attach, _duplicates, _find, _union
from generator.scoring.layouts import _bounded, _seed_state, _shuffle, _step
from generator.scoring.tables import BoardArrays


@njit(cache=True, nogil=True)
def _first_ends(flat, ends):
    """``first[row * ends + k]``: the first end of the trail through end ``k`` of table row ``row``."""
    first = np.empty(flat.shape[0], dtype=np.uint16)
    for row in range(flat.shape[0] // ends):
        base = row * ends
        for k in range(ends):
            f = k
            for e in range(k - 1, -1, -1):
                if flat[base + e] == flat[base + k]:
                    f = e
            first[base + k] = f
    return first


@njit(cache=True, inline="always")
def _place_tile(first, ends, turns, tile, turn, slot, parent):
    """Tile ``tile`` turned ``turn`` into ``slot``: each end points at its trail's first end."""
    base = (np.int64(tile) * turns + np.int64(turn)) * ends
    offset = ends * slot
    for k in range(ends):
        parent[0, offset + k] = first[base + k] + offset


@njit(cache=True, inline="always")
def _draw(s, perm, turn_out, row, n, turns):
    """Layout ``row``'s permutation and turns drawn from state ``s`` (advanced past them): two turns a word."""
    s0, s1, s2, s3 = _shuffle(perm, row, s[0], s[1], s[2], s[3])
    for i in range(0, n, 2):
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        turn_out[row, i] = _bounded(word >> np.uint64(32), turns)
        if i + 1 < n:
            turn_out[row, i + 1] = _bounded(word & np.uint64(0xFFFFFFFF), turns)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@njit(cache=True, inline="always")
def _draw_placed(s, first, ends, turns, perm, parent, n, turn_out, row):
    """One layout drawn from state ``s`` (advanced past it) and placed; its turns stored in ``turn_out[row]``."""
    _draw(s, perm, turn_out, row, n, turns)
    for slot in range(n):
        _place_tile(first, ends, turns, perm[row, slot], turn_out[row, slot], slot, parent)


@njit(cache=True, inline="always")
def _join_ends(parent, ends_a, ends_b, attach, same_ends):
    """Unite every joined pair of ends in ``parent`` (row 0, tiles placed) and return the extra edges: joins that
    close a cycle, less duplicates (the classic kernel's rules: ``_duplicates``, ``_attach``, ``_union``)."""
    extra = np.int64(ends_a.shape[0]) - _duplicates(same_ends, parent, 0)
    for j in range(attach):
        _attach(parent, 0, ends_a[j], ends_b[j])
    extra -= attach
    for j in range(attach, ends_a.shape[0]):
        extra -= _union(parent, 0, ends_a[j], ends_b[j])
    return extra


@njit(cache=True, inline="always")
def _score_placed(parent, n, ends, landmarks, board, roots):
    """(extra edges, joined-pair mask, joined-pair count) of the placed layout in ``parent``."""
    ends_a, ends_b, attach, same_ends, pair_a, pair_b = board
    first_landmark = ends * n
    for k in range(first_landmark, first_landmark + landmarks):
        parent[0, k] = k
    extra = _join_ends(parent, ends_a, ends_b, attach, same_ends)
    for k in range(landmarks):
        roots[k] = _find(parent, 0, first_landmark + k)
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        same = roots[pair_a[p]] == roots[pair_b[p]]
        mask |= np.uint64(same) << np.uint64(p)
        joined += same
    return extra, mask, joined


@njit(cache=True, nogil=True)
def _accumulate(flat, ends, turns, n, landmarks, count, state, board, hist, hits):
    """Draw ``count`` layouts from xoshiro ``state`` (advanced past them) into ``hist[extra, joined]`` and ``hits``."""
    first = _first_ends(flat, ends)
    perm = np.empty((1, n), dtype=np.uint16)
    turn = np.empty((1, n), dtype=np.uint16)
    parent = np.empty((1, ends * n + landmarks), dtype=np.uint16)
    roots = np.empty(max(landmarks, 1), dtype=np.uint16)
    for _ in range(count):
        _draw_placed(state, first, ends, turns, perm, parent, n, turn, 0)
        e, m, c = _score_placed(parent, n, ends, landmarks, board, roots)
        hist[e, c] += 1
        for p in range(hits.shape[0]):
            hits[p] += np.int64((m >> np.uint64(p)) & np.uint64(1))


@njit(cache=True, nogil=True)
def _sample_and_score(flat, ends, turns, n, landmarks, count, seed, board):
    first = _first_ends(flat, ends)
    s = _seed_state(seed)
    perm = np.empty((1, n), dtype=np.uint16)
    turn = np.empty((1, n), dtype=np.uint16)
    parent = np.empty((1, ends * n + landmarks), dtype=np.uint16)
    roots = np.empty(max(landmarks, 1), dtype=np.uint16)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(count):
        _draw_placed(s, first, ends, turns, perm, parent, n, turn, 0)
        extra[i], masks[i], joined[i] = _score_placed(parent, n, ends, landmarks, board, roots)
    return extra, masks, joined


@njit(cache=True)
def _sample(n, count, seed, turns):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint16)
    for i in range(count):
        _draw(s, perm, turn, i, n, turns)
    return perm, turn


@njit(cache=True, nogil=True)
def _score_given(flat, ends, turns, perm, turn, index, landmarks, board, extra, masks, joined):
    """Score bank rows ``index`` in place (the search's bank: only the rows a move changes)."""
    first = _first_ends(flat, ends)
    n = perm.shape[1]
    parent = np.empty((1, ends * n + landmarks), dtype=np.uint16)
    roots = np.empty(max(landmarks, 1), dtype=np.uint16)
    for j in range(index.shape[0]):
        i = index[j]
        for slot in range(n):
            _place_tile(first, ends, turns, perm[i, slot], turn[i, slot], slot, parent)
        extra[i], masks[i], joined[i] = _score_placed(parent, n, ends, landmarks, board, roots)


def tuned(board: BoardArrays) -> bool:
    """Whether the classic kernel's tuned code applies: six ends and twelve turns a tile."""
    return board.ends == 6 and board.turns == 12


def _board_args(board: BoardArrays) -> tuple:
    return (board.ends_a, board.ends_b, board.attach, board.same_ends, board.pair_a, board.pair_b)


def _flat(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.uint8).ravel()


def _tiles_and_board(table: np.ndarray, board: BoardArrays) -> tuple:
    """The first arguments of the layout-drawing kernels: the tile table, ends, turns, slots and landmarks."""
    return _flat(table), board.ends, board.turns, board.slots, board.landmarks


def accumulate_chunk(table: np.ndarray, board: BoardArrays, count: int, state: np.ndarray, hist, hits) -> None:
    """As ``kernel.accumulate_chunk``, for any geometry (the classic kernel's where ``tuned``)."""
    if tuned(board):
        return kernel.accumulate_chunk(table, board, count, state, hist, hits)
    _accumulate(*_tiles_and_board(table, board), count, state, _board_args(board), hist, hits)


def sample_and_score(table: np.ndarray, board: BoardArrays, count: int, seed: int):
    """As ``kernel.sample_and_score``, for any geometry (the classic kernel's where ``tuned``)."""
    if tuned(board):
        return kernel.sample_and_score(table, board, count, seed)
    return _sample_and_score(*_tiles_and_board(table, board), count, kernel._seed64(seed), _board_args(board))


def sample_layouts(board: BoardArrays, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random layouts: ``perm[i, slot]``, ``flip[i, slot]`` (0 when single-sided), ``rot[i, slot]``."""
    if tuned(board):
        return kernel.sample_layouts(board.slots, count, seed)
    perm, turn = _sample(board.slots, count, kernel._seed64(seed), board.turns)
    return perm, turn // board.rotations, turn % board.rotations


def score_layouts(table: np.ndarray, board: BoardArrays, perm, flip, rot):
    """Score given layouts: ``(extra, mask, joined)`` arrays (the classic kernel's where ``tuned``)."""
    if tuned(board):
        return kernel.score_layouts(table, board, perm, flip, rot)
    count = perm.shape[0]
    out = (np.zeros(count, np.int16), np.zeros(count, np.uint64), np.zeros(count, np.int8))
    Bank(board, perm, flip, rot).score(table, np.arange(count, dtype=np.int64), out)
    return out


class Bank:
    """As ``kernel.Bank`` (layouts kept to be scored many times, by row), for any geometry. ``bank`` gives the
    classic kernel's own where ``tuned``."""

    def __init__(self, board: BoardArrays, perm, flip, rot):
        self.perm = np.ascontiguousarray(perm, dtype=np.uint16)
        self.turn = np.asarray(flip, dtype=np.uint16) * np.uint16(board.rotations) + np.asarray(rot, dtype=np.uint16)
        self.ends, self.turns, self.landmarks = board.ends, board.turns, board.landmarks
        self.args = _board_args(board)

    def score(self, table: np.ndarray, rows: np.ndarray, out) -> None:
        """Score layouts ``rows`` for tile table ``table`` into the same rows of ``out`` (extra, mask, joined)."""
        _score_given(
            _flat(table),
            self.ends,
            self.turns,
            self.perm,
            self.turn,
            np.asarray(rows, dtype=np.int64),
            self.landmarks,
            self.args,
            *out,
        )


def bank(board: BoardArrays, perm, flip, rot) -> kernel.Bank | Bank:
    """The search's bank of layouts: the classic kernel's where ``tuned``, else this engine's."""
    if tuned(board):
        return kernel.Bank(board, perm, flip, rot)
    return Bank(board, perm, flip, rot)
