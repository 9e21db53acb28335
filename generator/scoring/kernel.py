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
def _below(s, bound):
    """A random int in [0, bound) by multiply-shift on the top 32 bits."""
    return np.int64(((_next(s) >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _draw(s, perm, flip, rot):
    """One random layout: a shuffle of tiles over slots, a coin flip and a d6 turn each."""
    n = perm.shape[0]
    for i in range(n):
        perm[i] = i
    for i in range(n - 1, 0, -1):
        j = _below(s, i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
    for i in range(n):
        r = _next(s)
        flip[i] = np.uint8(r & np.uint64(1))
        rot[i] = np.uint8(((r >> np.uint64(32)) * np.uint64(6)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True, inline="always")
def _score_one(table, perm, flip, rot, a_slot, a_dir, b_slot, b_dir, b_fixed, same_ends,
               pair_a, pair_b, parent, u, v):
    """(extra edges, joined-pair mask, joined-pair count) of one layout."""
    n_joins = a_slot.shape[0]
    for i in range(parent.shape[0]):
        parent[i] = i
    for j in range(n_joins):
        sa = a_slot[j]
        u[j] = 6 * sa + table[perm[sa], flip[sa], rot[sa], a_dir[j]]
        if b_fixed[j] >= 0:
            v[j] = b_fixed[j]
        else:
            sb = b_slot[j]
            v[j] = 6 * sb + table[perm[sb], flip[sb], rot[sb], b_dir[j]]
    duplicates = 0
    for p in range(same_ends.shape[0]):
        j = same_ends[p, 0]
        k = same_ends[p, 1]
        if u[j] >= 0 and ((u[j] == u[k] and v[j] == v[k]) or (u[j] == v[k] and v[j] == u[k])):
            u[j] = -1  # a second join between the same two vertices: one edge in a simple graph
            duplicates += 1
    unions = 0
    for j in range(n_joins):
        if u[j] < 0:
            continue
        ra = _find(parent, u[j])
        rb = _find(parent, v[j])
        if ra != rb:
            parent[ra] = rb
            unions += 1
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        if _find(parent, pair_a[p]) == _find(parent, pair_b[p]):
            mask |= np.uint64(1) << np.uint64(p)
            joined += 1
    return n_joins - duplicates - unions, mask, joined


@njit(cache=True)
def _sample(n, count, seed):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.int16)
    flip = np.empty((count, n), dtype=np.uint8)
    rot = np.empty((count, n), dtype=np.uint8)
    for i in range(count):
        _draw(s, perm[i], flip[i], rot[i])
    return perm, flip, rot


@njit(cache=True)
def _sample_and_score(table, count, seed, a_slot, a_dir, b_slot, b_dir, b_fixed, same_ends,
                      pair_a, pair_b, vertices):
    n = table.shape[0]
    s = _seed_state(seed)
    perm = np.empty(n, dtype=np.int16)
    flip = np.empty(n, dtype=np.uint8)
    rot = np.empty(n, dtype=np.uint8)
    parent = np.empty(vertices, dtype=np.int32)
    u = np.empty(a_slot.shape[0], dtype=np.int32)
    v = np.empty(a_slot.shape[0], dtype=np.int32)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(count):
        _draw(s, perm, flip, rot)
        e, m, c = _score_one(table, perm, flip, rot, a_slot, a_dir, b_slot, b_dir, b_fixed,
                             same_ends, pair_a, pair_b, parent, u, v)
        extra[i] = e
        masks[i] = m
        joined[i] = c
    return extra, masks, joined


@njit(cache=True)
def _score_given(table, perm, flip, rot, index, a_slot, a_dir, b_slot, b_dir, b_fixed,
                 same_ends, pair_a, pair_b, vertices, extra, masks, joined):
    parent = np.empty(vertices, dtype=np.int32)
    u = np.empty(a_slot.shape[0], dtype=np.int32)
    v = np.empty(a_slot.shape[0], dtype=np.int32)
    for k in range(index.shape[0]):
        i = index[k]
        e, m, c = _score_one(table, perm[i], flip[i], rot[i], a_slot, a_dir, b_slot, b_dir,
                             b_fixed, same_ends, pair_a, pair_b, parent, u, v)
        extra[i] = e
        masks[i] = m
        joined[i] = c


def _board_args(board: BoardArrays) -> tuple:
    return (board.a_slot, board.a_dir, board.b_slot, board.b_dir, board.b_fixed, board.same_ends,
            board.pair_a, board.pair_b)


def sample_layouts(slots: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random layouts as arrays ``perm[i, slot]``, ``flip[i, slot]``, ``rot[i, slot]``."""
    return _sample(slots, count, seed & _MASK64)


def sample_and_score(table: np.ndarray, board: BoardArrays, count: int, seed: int):
    """Draw ``count`` layouts from ``seed`` and score them: ``(extra, mask, joined)`` arrays."""
    vertices = 6 * board.slots + board.landmarks
    return _sample_and_score(table, count, seed & _MASK64, *_board_args(board), vertices)


def score_layouts(table: np.ndarray, board: BoardArrays, perm, flip, rot, index=None, out=None):
    """Score given layouts (only rows ``index`` when given, in place into ``out``)."""
    count = perm.shape[0]
    if out is None:
        out = (np.zeros(count, np.int16), np.zeros(count, np.uint64), np.zeros(count, np.int8))
    if index is None:
        index = np.arange(count, dtype=np.int64)
    vertices = 6 * board.slots + board.landmarks
    _score_given(table, perm, flip, rot, np.asarray(index, dtype=np.int64), *_board_args(board),
                 vertices, *out)
    return out
