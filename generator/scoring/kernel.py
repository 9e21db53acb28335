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
def _score_one(flat, perm, turn, ends_a, ends_b, same_ends, pair_a, pair_b, parent, vertex, roots):
    """(extra edges, joined-pair mask, joined-pair count) of one layout.

    ``flat`` is the tile table ``[tile, face, rot, dir]`` flattened. First every slot end
    ``6*slot + dir`` gets its vertex ``6*slot + trail`` (landmark ends, after the slot ends,
    are their own vertices and never change); then union-find over the joins, join ``j``
    meeting ends ``ends_a[j]`` and ``ends_b[j]``. Indices are unsigned, which spares numba's
    negative-index checks, and the tests after the union-find are branch-free.
    """
    n_slots = perm.shape[0]
    for i in range(parent.shape[0]):
        parent[i] = i
    for s in range(n_slots):
        b = (np.uint32(perm[s]) * np.uint32(12) + np.uint32(turn[s])) * np.uint32(6)
        first = np.uint16(6 * s)
        for d in range(6):
            vertex[6 * s + d] = first + np.uint16(flat[b + np.uint32(d)])
    unions = 0
    for j in range(ends_a.shape[0]):
        rx = _find(parent, vertex[ends_a[j]])
        ry = _find(parent, vertex[ends_b[j]])
        parent[rx] = ry  # a no-op when rx == ry (a root is its own parent): no branch
        unions += rx != ry
    duplicates = 0
    for p in range(same_ends.shape[0]):
        # two joins between the same two places that meet the same two vertices are one edge
        a = vertex[same_ends[p, 0]]
        b = vertex[same_ends[p, 1]]
        c = vertex[same_ends[p, 2]]
        d = vertex[same_ends[p, 3]]
        duplicates += ((a == c) & (b == d)) | ((a == d) & (b == c))
    first_landmark = 6 * n_slots
    for k in range(roots.shape[0]):
        roots[k] = _find(parent, np.uint16(first_landmark + k))
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        same = roots[pair_a[p]] == roots[pair_b[p]]
        mask |= np.uint64(same) << np.uint64(p)
        joined += same
    return ends_a.shape[0] - duplicates - unions, mask, joined


def _vertex_buffer(n_slots, n_landmarks):
    """The end-to-vertex map; landmark ends (after the slot ends) are their own vertices."""
    return np.arange(6 * n_slots + n_landmarks, dtype=np.uint16)


@njit(cache=True)
def _sample(n, count, seed):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint8)
    for i in range(count):
        _draw(s, perm[i], turn[i])
    return perm, turn


@njit(cache=True)
def _sample_and_score(flat, n, count, seed, ends_a, ends_b, same_ends, pair_a, pair_b, vertex):
    s = _seed_state(seed)
    perm = np.empty(n, dtype=np.uint16)
    turn = np.empty(n, dtype=np.uint8)
    parent = np.empty(vertex.shape[0], dtype=np.uint16)
    roots = np.empty(vertex.shape[0] - 6 * perm.shape[-1], dtype=np.uint16)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(count):
        _draw(s, perm, turn)
        e, m, c = _score_one(flat, perm, turn, ends_a, ends_b, same_ends, pair_a, pair_b, parent, vertex, roots)
        extra[i] = e
        masks[i] = m
        joined[i] = c
    return extra, masks, joined


@njit(cache=True)
def _score_given(flat, perm, turn, index, ends_a, ends_b, same_ends, pair_a, pair_b, vertex,
                 extra, masks, joined):
    parent = np.empty(vertex.shape[0], dtype=np.uint16)
    roots = np.empty(vertex.shape[0] - 6 * perm.shape[-1], dtype=np.uint16)
    for k in range(index.shape[0]):
        i = index[k]
        e, m, c = _score_one(flat, perm[i], turn[i], ends_a, ends_b, same_ends, pair_a, pair_b, parent,
                             vertex, roots)
        extra[i] = e
        masks[i] = m
        joined[i] = c


def _board_args(board: BoardArrays) -> tuple:
    return (board.ends_a, board.ends_b, board.same_ends, board.pair_a, board.pair_b,
            _vertex_buffer(board.slots, board.landmarks))


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
