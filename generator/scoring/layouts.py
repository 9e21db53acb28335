"""Random layouts, drawn in compiled code (numba, cached on disk), and placed into a union-find.

A layout is a shuffle of the tiles over the slots (``perm[slot]``) and a turn of each
(``turn[slot] = 6 * flip + rot``). Layouts come from xoshiro256** seeded through splitmix64, so
a seed gives the same layouts on every machine; layout ``i`` of a seed uses words ``i*n`` to
``i*n + n - 1`` of its stream (``n`` slots). Placing a layout writes, for each slot end
``6*slot + d``, the first end of its trail (``_end_table``): the union-find the kernel scores.
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
def _draw(s, perm, turn, row):
    """One random layout into row ``row``: a shuffle of tiles over slots, then a coin and a d6 for each slot.

    ``turn[row, slot]`` is ``6 * flip + rot`` (uniform over 0..11: a fair coin and a fair d6),
    two per 64-bit draw, high half first. ``s`` is advanced past the layout.
    """
    n = perm.shape[1]
    s0, s1, s2, s3 = _shuffle(perm, row, s[0], s[1], s[2], s[3])
    for i in range(0, n, 2):
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        turn[row, i] = np.uint8(_bounded(word >> np.uint64(32), 12))
        if i + 1 < n:
            turn[row, i + 1] = np.uint8(_bounded(word & np.uint64(0xFFFFFFFF), 12))
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@njit(cache=True)
def _sample(n, count, seed):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint8)
    for i in range(count):
        _draw(s, perm, turn, i)
    return perm, turn


@njit(cache=True, nogil=True)
def _end_table(flat):
    """``ends[tile*12 + turn, d]``: the first side of the trail leaving through side ``d``, as pairs.

    ``flat`` is the tile table ``[tile, face, rot, d]`` of trail ids, flattened. A placed
    tile's ends point at their trail's first end, which stands for the trail's vertex. The
    table is returned as 32-bit words, each the 16-bit values of sides ``2k`` and ``2k+1``
    (in the machine's byte order), so placing a tile is three stores.
    """
    ends = np.empty((flat.shape[0] // 6, 6), dtype=np.uint16)
    for row in range(ends.shape[0]):
        for d in range(6):
            first = d
            for e in range(d - 1, -1, -1):
                if flat[6 * row + e] == flat[6 * row + d]:
                    first = e
            ends[row, d] = first
    return ends.reshape(-1).view(np.uint32)


@njit(cache=True, inline="always")
def _place_tile(ends, tile, turn, slot, pairs, r):
    """Tile ``tile`` turned ``turn`` into ``slot`` of union-find ``r``: each end points at its trail's first end.

    ``pairs`` is the union-find seen as 32-bit words, so two 16-bit ends are written at a time.
    """
    b = (np.uint32(tile) * np.uint32(12) + np.uint32(turn)) * np.uint32(3)
    first = np.uint32(6 * slot) * np.uint32(0x10001)  # 6*slot added to both halves
    for k in range(3):
        pairs[r, 3 * slot + k] = ends[b + np.uint32(k)] + first


@njit(cache=True, inline="always")
def _landmark_roots(parent, r, n):
    """Landmark ends, after the ``6*n`` slot ends, are their own roots."""
    for k in range(6 * n, parent.shape[1]):
        parent[r, k] = k


@njit(cache=True, inline="always")
def _place(ends, perm, turn, row, parent, pairs, r):
    """Reset union-find ``r`` for stored layout ``row``. Every array is indexed by row (no row views:
    a view costs two reference-count updates, more than placing a tile)."""
    n = perm.shape[1]
    for slot in range(n):
        _place_tile(ends, perm[row, slot], turn[row, slot], slot, pairs, r)
    _landmark_roots(parent, r, n)


@njit(cache=True, inline="always")
def _draw_placed(s, ends, perm, parent, pairs, r):
    """``_draw`` into row ``r``, each turn placed as it is drawn (the turns are never stored)."""
    n = perm.shape[1]
    s0, s1, s2, s3 = _shuffle(perm, r, s[0], s[1], s[2], s[3])
    for i in range(0, n, 2):
        word, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        _place_tile(ends, perm[r, i], _bounded(word >> np.uint64(32), 12), i, pairs, r)
        if i + 1 < n:
            _place_tile(ends, perm[r, i + 1], _bounded(word & np.uint64(0xFFFFFFFF), 12), i + 1, pairs, r)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3
    _landmark_roots(parent, r, n)
