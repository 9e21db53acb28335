"""The fast engine: layouts drawn and scored in compiled code (numba, cached on disk).

Random layouts come from xoshiro256** seeded through splitmix64, so a seed gives the same
layouts on every machine. ``sample_layouts`` and the fused ``sample_and_score`` draw exactly
the same layouts, so the networkx reference can score the very layouts the kernel scored.

Per layout the kernel returns the article's graph terms: the number of independent cycles
(``E - (V - C)`` of the simple graph) and a bit mask of the landmark pairs that are joined.
Union-find with path halving does the work: about 60 unions and 135 finds per layout.
The scoring loops release the GIL, so threads can score several tile sets at once.
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
    Each 64-bit draw gives two 32-bit halves, high half first.
    """
    n = perm.shape[0]
    low = np.uint64(0xFFFFFFFF)
    for i in range(n):
        perm[i] = i
    i = n - 1
    while i >= 1:  # Fisher-Yates, two swaps per draw
        word = _next(s)
        j = _bounded(word >> np.uint64(32), i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
        if i >= 2:
            j = _bounded(word & low, i)
            tmp = perm[i - 1]
            perm[i - 1] = perm[j]
            perm[j] = tmp
        i -= 2
    for i in range(0, n, 2):
        word = _next(s)
        turn[i] = np.uint8(_bounded(word >> np.uint64(32), 12))
        if i + 1 < n:
            turn[i + 1] = np.uint8(_bounded(word & low, 12))


@njit(cache=True, nogil=True)
def _end_table(flat):
    """``ends[(tile*12 + turn)*6 + d]``: the first side of the trail leaving through side ``d``.

    ``flat`` is the tile table ``[tile, face, rot, d]`` of trail ids, flattened. A placed
    tile's ends point at their trail's first end, which stands for the trail's vertex.
    """
    ends = np.empty(flat.shape[0], dtype=np.uint8)
    for row in range(0, flat.shape[0], 6):
        for d in range(6):
            first = d
            for e in range(d - 1, -1, -1):
                if flat[row + e] == flat[row + d]:
                    first = e
            ends[row + d] = first
    return ends


@njit(cache=True, inline="always")
def _place(ends, perm, turn, parent):
    """Reset the union-find for one layout: each slot end ``6*slot + d`` points at its trail's first end.

    Landmark ends, after the slot ends, are their own roots.
    """
    n = perm.shape[0]
    for s in range(n):
        b = (np.uint32(perm[s]) * np.uint32(12) + np.uint32(turn[s])) * np.uint32(6)
        first = 6 * s
        for d in range(6):
            parent[first + d] = first + ends[b + d]
    for k in range(6 * n, parent.shape[0]):
        parent[k] = k


@njit(cache=True, inline="always")
def _find(parent, x):
    """The root of ``x``, and ``x`` pointed straight at it.

    Two steps up without a branch reach the root for nearly every end here (trees stay
    shallow), so the loop runs only in the rare deeper case: fewer mispredicted branches.
    """
    root = parent[parent[x]]
    while parent[root] != root:
        root = parent[root]
    parent[x] = root
    return root


@njit(cache=True, inline="always")
def _duplicates(same_ends, parent):
    """Joins that repeat an earlier join's edge, read from a freshly placed layout.

    Two joins between the same two places that meet the same two trails are one edge; a join's
    rows are adjacent, so it counts once, at its last row, if any row matched. Right after
    ``_place`` an end's parent is its trail's first end, so equal parents mean the same trail.
    """
    duplicates = 0
    hit = 0
    for p in range(same_ends.shape[0]):
        a = parent[same_ends[p, 0]]
        b = parent[same_ends[p, 1]]
        c = parent[same_ends[p, 2]]
        d = parent[same_ends[p, 3]]
        last = np.int64(same_ends[p, 4])
        hit |= np.int64(((a == c) & (b == d)) | ((a == d) & (b == c)))
        duplicates += hit & last
        hit &= last ^ 1
    return duplicates


@njit(cache=True, inline="always")
def _join_two(ends_a, ends_b, parent1, parent2):
    """Union-find over the joins of two layouts at once; returns each one's successful unions.

    The two layouts are independent, so the processor overlaps their chains of loads.
    Join ``j`` meets ends ``ends_a[j]`` and ``ends_b[j]``.
    """
    unions1 = 0
    unions2 = 0
    for j in range(ends_a.shape[0]):
        a = ends_a[j]
        b = ends_b[j]
        x1 = _find(parent1, a)
        y1 = _find(parent1, b)
        x2 = _find(parent2, a)
        y2 = _find(parent2, b)
        parent1[max(x1, y1)] = min(x1, y1)  # a no-op when x1 == y1: no branch
        parent2[max(x2, y2)] = min(x2, y2)
        unions1 += x1 != y1
        unions2 += x2 != y2
    return unions1, unions2


@njit(cache=True, inline="always")
def _pairs(pair_a, pair_b, first_landmark, parent, roots):
    """(joined-pair mask, joined-pair count) of one layout after its union-find."""
    for k in range(roots.shape[0]):
        roots[k] = _find(parent, first_landmark + k)
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        same = roots[pair_a[p]] == roots[pair_b[p]]
        mask |= np.uint64(same) << np.uint64(p)
        joined += same
    return mask, joined


@njit(cache=True, inline="always")
def _score_two(ends, perm1, turn1, perm2, turn2, ends_a, ends_b, same_ends, pair_a, pair_b, parent, roots):
    """Score two layouts: ``(extra, mask, joined)`` of each.

    ``parent`` and ``roots`` are work buffers with one row per layout. The extra edges are
    ``E - (V - C)``: joins, less duplicate edges, less the unions that joined two components.
    """
    _place(ends, perm1, turn1, parent[0])
    _place(ends, perm2, turn2, parent[1])
    dup1 = _duplicates(same_ends, parent[0])
    dup2 = _duplicates(same_ends, parent[1])
    unions1, unions2 = _join_two(ends_a, ends_b, parent[0], parent[1])
    first_landmark = 6 * perm1.shape[0]
    n_joins = ends_a.shape[0]
    m1, c1 = _pairs(pair_a, pair_b, first_landmark, parent[0], roots[0])
    m2, c2 = _pairs(pair_a, pair_b, first_landmark, parent[1], roots[1])
    return n_joins - dup1 - unions1, m1, c1, n_joins - dup2 - unions2, m2, c2


@njit(cache=True, inline="always")
def _buffers(n, ends_a, pair_a, roots_count):
    parent = np.empty((2, 6 * n + roots_count), dtype=np.uint16)
    roots = np.empty((2, roots_count), dtype=np.uint16)
    return parent, roots


@njit(cache=True)
def _sample(n, count, seed):
    s = _seed_state(seed)
    perm = np.empty((count, n), dtype=np.uint16)
    turn = np.empty((count, n), dtype=np.uint8)
    for i in range(count):
        _draw(s, perm[i], turn[i])
    return perm, turn


@njit(cache=True, nogil=True)
def _sample_and_score(flat, n, landmarks, count, seed, ends_a, ends_b, same_ends, pair_a, pair_b):
    ends = _end_table(flat)
    s = _seed_state(seed)
    perm = np.zeros((2, n), dtype=np.uint16)  # the second row stays a valid layout for an odd count
    turn = np.zeros((2, n), dtype=np.uint8)
    parent, roots = _buffers(n, ends_a, pair_a, landmarks)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(0, count, 2):
        _draw(s, perm[0], turn[0])
        if i + 1 < count:
            _draw(s, perm[1], turn[1])
        e1, m1, c1, e2, m2, c2 = _score_two(ends, perm[0], turn[0], perm[1], turn[1], ends_a, ends_b,
                                            same_ends, pair_a, pair_b, parent, roots)
        extra[i] = e1
        masks[i] = m1
        joined[i] = c1
        if i + 1 < count:
            extra[i + 1] = e2
            masks[i + 1] = m2
            joined[i + 1] = c2
    return extra, masks, joined


@njit(cache=True, nogil=True)
def _accumulate(flat, n, landmarks, count, state, ends_a, ends_b, same_ends, pair_a, pair_b, hist, hits):
    """Draw ``count`` layouts from xoshiro state ``state`` and add them to the running counts.

    ``hist[extra, joined]`` counts layouts by their two terms; ``hits[p]`` the layouts that join
    pair ``p``. Integer counts: any split of the layouts into calls adds up to the same numbers.
    """
    ends = _end_table(flat)
    s = state.copy()
    perm = np.zeros((2, n), dtype=np.uint16)  # the second row stays a valid layout for an odd count
    turn = np.zeros((2, n), dtype=np.uint8)
    parent, roots = _buffers(n, ends_a, pair_a, landmarks)
    for i in range(0, count, 2):
        _draw(s, perm[0], turn[0])
        second = i + 1 < count
        if second:
            _draw(s, perm[1], turn[1])
        e1, m1, c1, e2, m2, c2 = _score_two(ends, perm[0], turn[0], perm[1], turn[1], ends_a, ends_b,
                                            same_ends, pair_a, pair_b, parent, roots)
        hist[e1, c1] += 1
        if second:
            hist[e2, c2] += 1
        for p in range(hits.shape[0]):
            hits[p] += np.int64((m1 >> np.uint64(p)) & np.uint64(1))
            if second:
                hits[p] += np.int64((m2 >> np.uint64(p)) & np.uint64(1))


@njit(cache=True, nogil=True)
def _score_given(flat, perm, turn, index, landmarks, ends_a, ends_b, same_ends, pair_a, pair_b,
                 extra, masks, joined):
    ends = _end_table(flat)
    n = perm.shape[1]
    parent, roots = _buffers(n, ends_a, pair_a, landmarks)
    for k in range(0, index.shape[0], 2):
        i1 = index[k]
        i2 = index[k + 1] if k + 1 < index.shape[0] else i1
        e1, m1, c1, e2, m2, c2 = _score_two(ends, perm[i1], turn[i1], perm[i2], turn[i2], ends_a, ends_b,
                                            same_ends, pair_a, pair_b, parent, roots)
        extra[i1] = e1
        masks[i1] = m1
        joined[i1] = c1
        extra[i2] = e2
        masks[i2] = m2
        joined[i2] = c2


def _board_args(board: BoardArrays) -> tuple:
    return board.ends_a, board.ends_b, board.same_ends, board.pair_a, board.pair_b


def sample_layouts(slots: int, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random layouts as arrays ``perm[i, slot]``, ``flip[i, slot]``, ``rot[i, slot]``."""
    perm, turn = _sample(slots, count, seed & _MASK64)
    return perm, turn // 6, turn % 6


def _flat(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.uint8).ravel()


def sample_and_score(table: np.ndarray, board: BoardArrays, count: int, seed: int):
    """Draw ``count`` layouts from ``seed`` and score them: ``(extra, mask, joined)`` arrays."""
    return _sample_and_score(_flat(table), board.slots, board.landmarks, count, seed & _MASK64, *_board_args(board))


def score_layouts(table: np.ndarray, board: BoardArrays, perm, flip, rot, index=None, out=None):
    """Score given layouts (only rows ``index`` when given, in place into ``out``)."""
    count = perm.shape[0]
    if out is None:
        out = (np.zeros(count, np.int16), np.zeros(count, np.uint64), np.zeros(count, np.int8))
    bank = Bank(board, perm, flip, rot)
    bank.score(table, np.arange(count, dtype=np.int64) if index is None else index, out)
    return out


class Bank:
    """Layouts kept to be scored many times, by row: the search's shared bank.

    The layouts and the board's arrays are prepared once, so scoring a few rows costs only
    those rows (no copies of the layouts per call). Threads may score one bank at once.
    """

    def __init__(self, board: BoardArrays, perm, flip, rot):
        self.perm = np.ascontiguousarray(perm, dtype=np.uint16)
        self.turn = np.asarray(flip, dtype=np.uint8) * np.uint8(6) + np.asarray(rot, dtype=np.uint8)
        self.landmarks = board.landmarks
        self.args = _board_args(board)

    def score(self, table: np.ndarray, rows: np.ndarray, out) -> None:
        """Score layouts ``rows`` for tile table ``table`` into the same rows of ``out`` (extra, mask, joined)."""
        _score_given(_flat(table), self.perm, self.turn, np.asarray(rows, dtype=np.int64), self.landmarks, *self.args,
                     *out)
