"""Random layouts, drawn in compiled code (numba, cached on disk), and placed into a union-find.

A layout is a shuffle of the tiles over the slots (``perm[slot]``) and a turn of each
(``turn[slot] = rotations * flip + rot``, one of the geometry's ``turns``: twelve on the classic game).
Layouts come from xoshiro256** seeded through splitmix64, so a seed gives the same layouts on every machine;
layout ``i`` of a seed uses words ``i*n`` to ``i*n + n - 1`` of its stream (``n`` slots). Placing a layout
writes, for each slot end ``ends*slot + d``, the first end of its trail (``_end_table``): the union-find the
kernel scores.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit


def derived_seed(seed: int, *purpose: int) -> int:
    """A seed for another stream of layouts, from ``seed`` and what the stream is for (63 bits)."""
    return int(np.random.SeedSequence([seed, *purpose]).generate_state(1, np.uint64)[0] >> np.uint64(1))


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
def _step(s0, s1, s2, s3):
    """One xoshiro256** output and the next state, as scalars the compiler keeps in registers."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def _next(s):
    """One xoshiro256** output; advances the state array ``s``."""
    result, s[0], s[1], s[2], s[3] = _step(s[0], s[1], s[2], s[3])
    return result


@njit(cache=True, inline="always")
def _bounded(x32, bound):
    """Map 32 random bits to [0, bound) by multiply-shift (bias below 2**-29 for bound < 8)."""
    return np.uint32((x32 * np.uint64(bound)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _shuffle(perm, row, s0, s1, s2, s3):
    """Fisher-Yates over row ``row`` of ``perm`` from xoshiro state ``s0..s3``; returns the state after.

    Two swaps per 64-bit draw (high half first). The state stays in registers while drawing
    (in an array, each draw would wait for the last one's stores).
    """
    n = perm.shape[1]
    for i in range(n):
        perm[row, i] = i
    i = n - 1
    while i >= 1:
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        j = _bounded(word >> np.uint64(32), i + 1)
        tmp = perm[row, i]
        perm[row, i] = perm[row, j]
        perm[row, j] = tmp
        if i >= 2:
            j = _bounded(word & np.uint64(0xFFFFFFFF), i)
            tmp = perm[row, i - 1]
            perm[row, i - 1] = perm[row, j]
            perm[row, j] = tmp
        i -= 2
    return s0, s1, s2, s3


@njit(cache=True, inline="always")
def _draw(s, perm, turn, row, turns):
    """One random layout into row ``row``: a shuffle of tiles over slots, then a turn of each slot.

    ``turn[row, slot]`` is ``rotations * flip + rot``, uniform over ``0..turns-1`` (on the classic game a fair
    coin and a fair d6), two per 64-bit draw, high half first. ``s`` is advanced past the layout.
    """
    n = perm.shape[1]
    s0, s1, s2, s3 = _shuffle(perm, row, s[0], s[1], s[2], s[3])
    for i in range(0, n, 2):
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        turn[row, i] = _bounded(word >> np.uint64(32), turns)
        if i + 1 < n:
            turn[row, i + 1] = _bounded(word & np.uint64(0xFFFFFFFF), turns)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@njit(cache=True)
def _sample(n, count, seed, turns):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint16)
    for i in range(count):
        _draw(s, perm, turn, i, turns)
    return perm, turn


@njit(cache=True, nogil=True)
def _end_table(flat, ends):
    """``first[(tile * turns + turn) * ends + d]``: the first end of the trail leaving through end ``d``.

    ``flat`` is the tile table ``[tile, face, rot, d]`` of trail ids, flattened. A placed tile's ends point at
    their trail's first end, which stands for the trail's vertex.
    """
    size = flat.shape[0]
    first = np.zeros(size + size % 2, dtype=np.uint16)
    for row in range(size // ends):
        base = row * ends
        for d in range(ends):
            f = d
            for e in range(d - 1, -1, -1):
                if flat[base + e] == flat[base + d]:
                    f = e
            first[base + d] = f
    return first


@njit(cache=True, inline="always")
def _place_tile(first, ends, turns, tile, turn, slot, parent, r):
    """Tile ``tile`` turned ``turn`` into ``slot`` of union-find ``r``: each end points at its trail's first end."""
    base = (np.int64(tile) * turns + np.int64(turn)) * ends
    offset = ends * slot
    for k in range(ends):
        parent[r, offset + k] = first[base + k] + offset


@njit(cache=True, inline="always")
def _place_pairs(wide, ends, turns, tile, turn, slot, pairs, r):
    """``_place_tile`` two 16-bit ends at a time, for an even number of ends: ``wide`` and ``pairs`` are the end
    table and the union-find seen as 32-bit words."""
    half = ends // 2
    base = (np.uint32(tile) * np.uint32(turns) + np.uint32(turn)) * np.uint32(half)
    both = np.uint32(ends * slot) * np.uint32(0x10001)  # the offset added to both halves
    for k in range(half):
        pairs[r, half * slot + k] = wide[base + np.uint32(k)] + both


@njit(cache=True, inline="always")
def _landmark_roots(parent, r, first):
    """Landmark ends, after the slot ends (from ``first``), are their own roots."""
    for k in range(first, parent.shape[1]):
        parent[r, k] = k


@njit(cache=True, inline="always")
def _place(first, ends, turns, perm, turn, row, parent, r):
    """Reset union-find ``r`` for stored layout ``row``. Every array is indexed by row (no row views:
    a view costs two reference-count updates, more than placing a tile)."""
    n = perm.shape[1]
    for slot in range(n):
        _place_tile(first, ends, turns, perm[row, slot], turn[row, slot], slot, parent, r)
    _landmark_roots(parent, r, ends * n)


@njit(cache=True, inline="always")
def _place_wide(wide, ends, turns, perm, turn, row, parent, pairs, r):
    """``_place`` two ends at a time (``_place_pairs``)."""
    n = perm.shape[1]
    for slot in range(n):
        _place_pairs(wide, ends, turns, perm[row, slot], turn[row, slot], slot, pairs, r)
    _landmark_roots(parent, r, ends * n)
