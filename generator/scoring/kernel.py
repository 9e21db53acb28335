"""The fast engine: layouts drawn and scored in compiled code (numba, cached on disk).

Random layouts come from xoshiro256** seeded through splitmix64, so a seed gives the same
layouts on every machine. ``sample_layouts`` and the fused ``sample_and_score`` draw exactly
the same layouts, so the networkx reference can score the very layouts the kernel scored.

Per layout the kernel returns the article's graph terms: the number of independent cycles
(``E - (V - C)`` of the simple graph) and a bit mask of the landmark pairs that are joined.
Union-find with path halving does the work: about 60 unions and 135 finds per layout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.scoring.tables import BoardArrays

_MASK64 = (1 << 64) - 1


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def _seed_state(seed):
    """xoshiro256** state from an integer seed, via splitmix64."""
    state = np.empty(4, dtype=np.uint64)
    z = np.uint64(seed)
    for i in range(4):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        x = z
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        state[i] = x ^ (x >> np.uint64(31))
    return state


@njit(cache=True, inline="always")
def _next(s):
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@njit(cache=True, inline="always")
def _bounded(x32, bound):
    """Map 32 random bits to [0, bound) by multiply-shift (bias below 2**-29 for bound < 8)."""
    return np.uint32((x32 * np.uint64(bound)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _draw(s, perm, turn):
    """One random layout: a shuffle of tiles over slots, then a coin and a d6 for each slot.

    ``turn[slot]`` is ``6 * flip + rot`` (uniform over 0..11: a fair coin and a fair d6).
    Each 64-bit draw gives two 32-bit halves, used in order.
    """
    n = perm.shape[0]
    for i in range(n):
        perm[i] = i
    half = 0
    word = np.uint64(0)
    for i in range(n - 1, 0, -1):
        if half == 0:
            word = _next(s)
            x32 = word >> np.uint64(32)
            half = 1
        else:
            x32 = word & np.uint64(0xFFFFFFFF)
            half = 0
        j = _bounded(x32, i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
    half = 0
    for i in range(n):
        if half == 0:
            word = _next(s)
            x32 = word >> np.uint64(32)
            half = 1
        else:
            x32 = word & np.uint64(0xFFFFFFFF)
            half = 0
        turn[i] = np.uint8(_bounded(x32, 12))


@njit(cache=True, inline="always")
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True, inline="always")
def _score_one(flat, perm, turn, a_slot, a_dir, b_slot, b_dir, l_slot, l_dir, l_vertex,
               same_ends, pair_a, pair_b, first_landmark, parent, base, u, v, roots):
    """(extra edges, joined-pair mask, joined-pair count) of one layout.

    ``flat`` is the tile table ``[tile, face, rot, dir]`` flattened, so one offset per slot
    finds the trail of each of its directions. Indices are unsigned, which spares numba's
    negative-index checks in the hot loop. Joins ``0..len(a_slot)-1`` meet two slots;
    the rest meet a slot and a landmark.
    """
    n_slots = perm.shape[0]
    n_pairs = a_slot.shape[0]
    for i in range(parent.shape[0]):
        parent[i] = i
    for s in range(n_slots):
        base[s] = (np.uint32(perm[s]) * np.uint32(12) + np.uint32(turn[s])) * np.uint32(6)
    unions = 0
    for j in range(n_pairs):
        sa = a_slot[j]
        sb = b_slot[j]
        x = np.uint32(6) * sa + np.uint32(flat[base[sa] + a_dir[j]])
        y = np.uint32(6) * sb + np.uint32(flat[base[sb] + b_dir[j]])
        u[j] = x
        v[j] = y
        rx = _find(parent, x)
        ry = _find(parent, y)
        if rx != ry:
            parent[rx] = ry
            unions += 1
    for k in range(l_slot.shape[0]):
        sa = l_slot[k]
        x = np.uint32(6) * sa + np.uint32(flat[base[sa] + l_dir[k]])
        y = l_vertex[k]
        u[n_pairs + k] = x
        v[n_pairs + k] = y
        rx = _find(parent, x)
        ry = _find(parent, y)
        if rx != ry:
            parent[rx] = ry
            unions += 1
    duplicates = 0
    for p in range(same_ends.shape[0]):
        j = same_ends[p, 0]
        k = same_ends[p, 1]
        if (u[j] == u[k] and v[j] == v[k]) or (u[j] == v[k] and v[j] == u[k]):
            # a second join between the same two vertices: one edge in a simple graph
            u[j] = np.uint32(0xFFFFFFFF)
            duplicates += 1
    for k in range(roots.shape[0]):
        roots[k] = _find(parent, np.uint32(first_landmark + k))
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        if roots[pair_a[p]] == roots[pair_b[p]]:
            mask |= np.uint64(1) << np.uint64(p)
            joined += 1
    n_joins = n_pairs + l_slot.shape[0]
    return n_joins - duplicates - unions, mask, joined


@njit(cache=True)
def _sample(n, count, seed):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint8)
    for i in range(count):
        _draw(s, perm[i], turn[i])
    return perm, turn


@njit(cache=True)
def _sample_and_score(flat, n, count, seed, a_slot, a_dir, b_slot, b_dir, l_slot, l_dir,
                      l_vertex, same_ends, pair_a, pair_b, n_landmarks):
    s = _seed_state(seed)
    perm = np.empty(n, dtype=np.uint16)
    turn = np.empty(n, dtype=np.uint8)
    parent = np.empty(6 * n + n_landmarks, dtype=np.uint16)
    base = np.empty(n, dtype=np.uint32)
    u = np.empty(a_slot.shape[0] + l_slot.shape[0], dtype=np.uint32)
    v = np.empty(a_slot.shape[0] + l_slot.shape[0], dtype=np.uint32)
    roots = np.empty(n_landmarks, dtype=np.uint16)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(count):
        _draw(s, perm, turn)
        e, m, c = _score_one(flat, perm, turn, a_slot, a_dir, b_slot, b_dir, l_slot, l_dir,
                             l_vertex, same_ends, pair_a, pair_b, 6 * n, parent, base, u, v, roots)
        extra[i] = e
        masks[i] = m
        joined[i] = c
    return extra, masks, joined


@njit(cache=True)
def _score_given(flat, perm, turn, index, a_slot, a_dir, b_slot, b_dir, l_slot, l_dir, l_vertex,
                 same_ends, pair_a, pair_b, n_landmarks, extra, masks, joined):
    n = perm.shape[1]
    parent = np.empty(6 * n + n_landmarks, dtype=np.uint16)
    base = np.empty(n, dtype=np.uint32)
    u = np.empty(a_slot.shape[0] + l_slot.shape[0], dtype=np.uint32)
    v = np.empty(a_slot.shape[0] + l_slot.shape[0], dtype=np.uint32)
    roots = np.empty(n_landmarks, dtype=np.uint16)
    for k in range(index.shape[0]):
        i = index[k]
        e, m, c = _score_one(flat, perm[i], turn[i], a_slot, a_dir, b_slot, b_dir, l_slot, l_dir,
                             l_vertex, same_ends, pair_a, pair_b, 6 * n, parent, base, u, v, roots)
        extra[i] = e
        masks[i] = m
        joined[i] = c


def _board_args(board: BoardArrays) -> tuple:
    return (board.a_slot, board.a_dir, board.b_slot, board.b_dir, board.l_slot, board.l_dir,
            board.l_vertex, board.same_ends, board.pair_a, board.pair_b, board.landmarks)


def sample_layouts(slots: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random layouts as arrays ``perm[i, slot]``, ``flip[i, slot]``, ``rot[i, slot]``."""
    perm, turn = _sample(slots, count, seed & _MASK64)
    return perm, turn // 6, turn % 6


def _flat(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.uint8).ravel()


def sample_and_score(table: np.ndarray, board: BoardArrays, count: int, seed: int):
    """Draw ``count`` layouts from ``seed`` and score them: ``(extra, mask, joined)`` arrays."""
    return _sample_and_score(_flat(table), board.slots, count, seed & _MASK64, *_board_args(board))


def score_layouts(table: np.ndarray, board: BoardArrays, perm, flip, rot, index=None, out=None):
    """Score given layouts (only rows ``index`` when given, in place into ``out``)."""
    count = perm.shape[0]
    if out is None:
        out = (np.zeros(count, np.int16), np.zeros(count, np.uint64), np.zeros(count, np.int8))
    if index is None:
        index = np.arange(count, dtype=np.int64)
    turn = np.asarray(flip, dtype=np.uint8) * np.uint8(6) + np.asarray(rot, dtype=np.uint8)
    _score_given(_flat(table), np.asarray(perm, dtype=np.uint16), turn, np.asarray(index, dtype=np.int64),
                 *_board_args(board), *out)
    return out
