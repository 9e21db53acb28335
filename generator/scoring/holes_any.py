"""Holes for any tile geometry: ``holes``' method for ``E`` ends and ``R`` rotations a tile.

``holes`` is tuned to the classic game (six ends, twelve turns, four holes joined together). This module
fills the same values for any geometry one hole at a time, with the engine for any geometry's placement
(``kernel_any``): a layout joined with one tile's slot left empty, its ends falling into one of ``bell(E)``
partitions, and the tables of (partition, design) (``holes.tables`` with ``E`` ends) giving every design's
terms in the hole, averaged over its ``R`` rotations. ``holes_for`` picks the tuned class on the classic
game. The tables have ``E ** E`` codes, so holes apply where ``E`` is at most ``MOST_ENDS``
(``holes.unavailable`` says so for the rest).
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.scoring import kernel_any
from generator.scoring.holes import MOST_ENDS, Holes, _fill, dup_counts, exact_for, hole_rows, tables
from generator.scoring.kernel import _find
from generator.scoring.kernel_any import _first_ends, _join_ends, _place_tile
from generator.scoring.tables import BoardArrays


@njit(cache=True, inline="always")
def _partition(parent, s, n, ends, work, pair_a, pair_b):
    """The hole at slot ``s``: (partition code, blocks, pairs joined by the rest alone); ``label[d]`` the block
    of end d, ``weight[b]`` the landmarks on block b (``work``)."""
    label, weight, roots, on, root = work
    landmarks = on.shape[0]
    c = 0
    m = 0
    scale = 1
    for d in range(ends):
        roots[d] = _find(parent, 0, ends * s + d)
        label[d] = -1
        for e in range(d):
            if roots[e] == roots[d]:
                label[d] = label[e]
                break
        if label[d] < 0:
            label[d] = m
            weight[m] = 0
            m += 1
        c += label[d] * scale
        scale *= ends
    for k in range(landmarks):
        on[k] = -1
        root[k] = _find(parent, 0, ends * n + k)
        for d in range(ends):
            if roots[d] == root[k]:
                on[k] = label[d]
                weight[label[d]] += 1
                break
    rest = np.int64(0)
    for p in range(pair_a.shape[0]):
        rest += np.int64(on[pair_a[p]] < 0 and root[pair_a[p]] == root[pair_b[p]])
    return c, m, rest


@njit(cache=True, inline="always")
def _bit(placed, k, inside, x, y):
    """The layout's half of a pair of ends (``holes._layout_bit``): 1 when both are in the slot, 0 when one is in
    and one out, else whether the rest put them on one trail."""
    if inside[x] != inside[y]:
        return np.int64(0)
    if inside[x]:
        return np.int64(1)
    return np.int64(placed[k, x] == placed[k, y])


@njit(cache=True, inline="always")
def _arms(placed, s, ends, start, srow, inside, arm0, arm1):
    """The layout's half of each duplicate-join row of slot ``s``, for both arms; their number."""
    for k in range(start[s + 1] - start[s]):
        q = start[s] + k
        for z in range(4):
            inside[z] = srow[q, z] >= ends * s and srow[q, z] < ends * s + ends
        arm0[k] = _bit(placed, k, inside, 0, 2) * _bit(placed, k, inside, 1, 3)
        arm1[k] = _bit(placed, k, inside, 0, 3) * _bit(placed, k, inside, 1, 2)
    return start[s + 1] - start[s]


@njit(cache=True, nogil=True)
def _values(flat, shape, perm, turn, slot_of, rows, landmarks, board, start, srow, dupc, tabs, weights, out):
    """``out[i, t, k]``: layout ``rows[i]``'s per-layout objective, averaged over the rotations, with design k in
    tile t's slot. ``shape``: (ends, turns, rotations) of a tile."""
    ends_a, ends_b, attach, same_ends, pair_a, pair_b = board
    ends, turns, rotations = shape
    n = perm.shape[1]
    first_ends = _first_ends(flat, ends)
    size = ends * n + landmarks
    parent = np.empty((1, size), dtype=np.uint16)
    placed_all = np.empty(size, dtype=np.uint16)
    widest = max(1, np.max(start[1:] - start[:-1]))
    placed = np.empty((widest, 4), np.int64)
    weight = np.empty(ends, np.int64)
    lists = (np.empty(ends, np.int64), np.empty(ends, np.int64), np.empty(landmarks, np.int64))
    work = (lists[0], weight, lists[1], lists[2], np.empty(landmarks, np.int64))
    inside, arm0, arm1 = np.zeros(4, np.bool_), np.empty(widest, np.int64), np.empty(widest, np.int64)
    for i in range(rows.shape[0]):
        row = rows[i]
        for s in range(n):
            _place_tile(first_ends, ends, turns, perm[row, s], turn[row, s], s, parent)
        for k in range(ends * n, size):
            parent[0, k] = k
        placed_all[:] = parent[0]
        for t in range(n):
            s = slot_of[row, t]
            parent[0] = placed_all
            for d in range(ends):
                parent[0, ends * s + d] = ends * s + d
            for q in range(start[s], start[s + 1]):
                for z in range(4):
                    placed[q - start[s], z] = parent[0, srow[q, z]]
            extra = _join_ends(parent, ends_a, ends_b, attach, same_ends)
            c, m, rest = _partition(parent, s, n, ends, work, pair_a, pair_b)
            joined = rest
            for b in range(m):
                joined += weight[b] * (weight[b] - 1) // 2
            arms = (_arms(placed, s, ends, start, srow, inside, arm0, arm1), arm0, arm1)
            _fill(out, i, t, (tabs[0][c], m, extra, joined), weight, arms, start[s], tabs, dupc, weights, rotations)


class HolesAny:
    """As ``holes.Holes``, for any geometry of at most ``MOST_ENDS`` ends (``perm``, ``turn`` as
    ``kernel_any.Bank`` keeps them: ``turn = rotations * face + rotation``)."""

    def __init__(self, board: BoardArrays, designs: np.ndarray):
        if not exact_for(board):
            raise ValueError("this board has a join repeated three times or more: holes are not exact on it")
        if board.ends > MOST_ENDS:
            raise ValueError(f"a hole of {board.ends} ends: holes take at most {MOST_ENDS}")
        self.board = board
        self.designs = np.asarray(designs)
        key = tuple(tuple(tuple(int(x) for x in turn) for turn in d) for d in self.designs)
        self.tables = tables(key, board.ends)
        self.start, self.rows = hole_rows(board)
        self.dupc = dup_counts(self.start, self.rows, self.designs, board.ends)
        self.args = (board.ends_a, board.ends_b, board.attach, board.same_ends, board.pair_a, board.pair_b)
        self.shape = (board.ends, board.turns, board.rotations)

    def values(self, table, perm, turn, slot_of, rows, weights: tuple[float, float], out) -> None:
        """``out[i, t, k]`` for layouts ``rows`` of a bank: see ``holes.Holes.values``."""
        flat = np.ascontiguousarray(table, dtype=np.uint8).ravel()
        _values(
            flat,
            self.shape,
            perm,
            turn,
            slot_of,
            np.asarray(rows, dtype=np.int64),
            self.board.landmarks,
            self.args,
            self.start,
            self.rows,
            self.dupc,
            self.tables,
            weights,
            out,
        )


def holes_for(board: BoardArrays, designs: np.ndarray) -> Holes | HolesAny:
    """The holes of ``board`` for ``designs``: the classic game's tuned ones where ``kernel_any.tuned``."""
    return Holes(board, designs) if kernel_any.tuned(board) else HolesAny(board, designs)
