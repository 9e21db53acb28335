"""The fast engine: layouts scored in compiled code (numba, cached on disk), for every tile geometry.

Layouts are drawn and placed by ``layouts``; ``sample_layouts`` and the fused ``sample_and_score`` draw
exactly the same layouts, so the networkx reference can score the very layouts the kernel scored.

Per layout the kernel returns the article's graph terms: the number of independent cycles
(``E - (V - C)`` of the simple graph) and a bit mask of the landmark pairs that are joined.
Union-find does the work: its elements are the slot ends themselves, each starting at its
trail's first end, so placing a tile is a few stores and no vertex map is read. The joins that
reach an untouched slot or landmark come first and attach it with one store (classic board:
25 of 66 joins; hexagon37: 42 of 108); the rest are unions, linked to the smaller root, which
on the board's slot-by-slot join order keeps trees shallow. Four layouts are scored together
(``BLOCK``), so the processor overlaps their chains of dependent loads. The scoring loops
release the GIL, so threads can score at once (``accumulate``: chunks of one seed's stream).

One source serves every geometry: a tile's ``ends`` and ``turns`` are arguments, and a tile of an even
number of ends is placed two 16-bit ends at a time (three 32-bit stores a classic tile). Each entry point
has a twin, ``*_classic``, that compiles the same body with the classic game's six ends and twelve turns
as constants (the compiler then unrolls the tile loops), and the classic tiles take it (``_compiled``):
the same code, worth about 1.2 times on the classic board (``benchmarks geometry``); both give the same
numbers (``tests/test_geometry_scoring``).
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.scoring.layouts import _bounded, _draw, _end_table, _next, _place, _place_wide, _sample, _seed_state  # noqa: F401 (generator.play.rng uses them)
from generator.scoring.tables import BoardArrays

_MASK64 = (1 << 64) - 1
CLASSIC_ENDS, CLASSIC_TURNS = 6, 12  # the classic game's tile: the geometry the entry points specialise for


@njit(cache=True, inline="always")
def _find(parent, r, x):
    """The root of ``x`` in union-find ``r``, and ``x`` pointed straight at it.

    Four steps up without a branch (a root is its own parent) reach the root for over 99% of
    the ends here (an end, its trail's first end, and a root or two above that), so the loop
    runs only in the rare deeper case: a mispredicted branch costs more than a load.
    """
    root = parent[r, parent[r, parent[r, parent[r, x]]]]
    while parent[r, root] != root:
        root = parent[r, root]
    parent[r, x] = root
    return root


@njit(cache=True, inline="always")
def _duplicates(same_ends, parent, r):
    """Joins that repeat an earlier join's edge, read from freshly placed layout ``r``.

    Two joins between the same two places that meet the same two trails are one edge; a join's
    rows are adjacent, so it counts once, at its last row, if any row matched. Right after
    ``_place`` an end's parent is its trail's first end, so equal parents mean the same trail.
    """
    duplicates = np.int64(0)
    hit = np.int64(0)
    for p in range(same_ends.shape[0]):
        a = parent[r, same_ends[p, 0]]
        b = parent[r, same_ends[p, 1]]
        c = parent[r, same_ends[p, 2]]
        d = parent[r, same_ends[p, 3]]
        last = np.int64(same_ends[p, 4])
        hit |= np.int64(((a == c) & (b == d)) | ((a == d) & (b == c)))
        duplicates += hit & last
        hit &= last ^ 1
    return duplicates


BLOCK = 4  # layouts scored together, so the processor overlaps their chains of loads


@njit(cache=True, inline="always")
def _union(parent, r, a, b):
    """Join ends ``a`` and ``b`` in union-find ``r``.

    The larger root is linked under the smaller: on the board's join order (slot by slot) that
    keeps trees about two steps deep. When both roots are one, the store is a no-op: no branch.
    """
    x = _find(parent, r, a)
    y = _find(parent, r, b)
    parent[r, max(x, y)] = min(x, y)
    return np.int64(x != y)


@njit(cache=True, inline="always")
def _attach(parent, r, a, b):
    """Join ends ``a`` and ``b`` in union-find ``r`` when ``b``'s place is untouched so far.

    ``b``'s trail is then a tree of one vertex, its root ``parent[b]``, never ``a``'s root; it
    goes under ``a``'s root, one step deep. While only such joins have been made, no root was
    ever linked under another, so every vertex is a root or one step below one, and ``a``'s
    root is two steps up: three loads and a store, no find and no comparison.
    """
    parent[r, parent[r, b]] = parent[r, parent[r, a]]


@njit(cache=True)
def _join(ends_a, ends_b, attach, parent):
    """Union-find over the joins of the ``BLOCK`` layouts in ``parent``; the unions made in each.

    Join ``j`` meets ends ``ends_a[j]`` and ``ends_b[j]``; the first ``attach`` each reach an
    untouched place (a union each). The four layouts are independent, so their finds overlap in
    the processor. Compiled on its own, so the loop keeps its counts and rows in registers.
    """
    for j in range(attach):
        a = ends_a[j]
        b = ends_b[j]
        _attach(parent, 0, a, b)
        _attach(parent, 1, a, b)
        _attach(parent, 2, a, b)
        _attach(parent, 3, a, b)
    u0 = u1 = u2 = u3 = np.int64(attach)
    for j in range(attach, ends_a.shape[0]):
        a = ends_a[j]
        b = ends_b[j]
        u0 += _union(parent, 0, a, b)
        u1 += _union(parent, 1, a, b)
        u2 += _union(parent, 2, a, b)
        u3 += _union(parent, 3, a, b)
    return u0, u1, u2, u3


@njit(cache=True, inline="always")
def _pairs(pair_a, pair_b, first_landmark, parent, r, roots):
    """(joined-pair mask, joined-pair count) of layout ``r`` after its union-find."""
    for k in range(roots.shape[0]):
        roots[k] = _find(parent, r, first_landmark + k)
    mask = np.uint64(0)
    joined = 0
    for p in range(pair_a.shape[0]):
        same = roots[pair_a[p]] == roots[pair_b[p]]
        mask |= np.uint64(same) << np.uint64(p)
        joined += same
    return mask, joined


@njit(cache=True, inline="always")
def _score_placed(first_landmark, board, work, extra, masks, joined):
    """Score the ``BLOCK`` placed layouts of ``work`` into ``extra[r], masks[r], joined[r]``.

    The extra edges are ``E - (V - C)``: joins, less duplicate edges, less the unions that
    joined two components.
    """
    ends_a, ends_b, attach, same_ends, pair_a, pair_b = board
    parent, _, roots = work
    for r in range(BLOCK):
        extra[r] = ends_a.shape[0] - _duplicates(same_ends, parent, r)
    unions = _join(ends_a, ends_b, attach, parent)
    for r in range(BLOCK):
        extra[r] -= unions[r]
        masks[r], joined[r] = _pairs(pair_a, pair_b, first_landmark, parent, r, roots)


@njit(cache=True, inline="always")
def _buffers(flat, ends, n, landmarks):
    """The tile table's first ends (``_end_table``), one block's layouts (all zeros: a valid layout) and turns,
    their rows, work buffers (the union-finds, of an even width to be seen as 32-bit words) and results."""
    first = _end_table(flat, ends)
    perm = np.zeros((BLOCK, n), dtype=np.uint16)
    turn = np.zeros((BLOCK, n), dtype=np.uint16)
    rows = np.arange(BLOCK)
    size = ends * n + landmarks
    parent = np.empty((BLOCK, size + size % 2), dtype=np.uint16)
    work = (parent, parent.view(np.uint32), np.empty(landmarks, dtype=np.uint16))
    out = (np.zeros(BLOCK, dtype=np.int16), np.zeros(BLOCK, dtype=np.uint64), np.zeros(BLOCK, dtype=np.int8))
    return (first, first.view(np.uint32)), (perm, turn), rows, work, out


@njit(cache=True, inline="always")
def _place_row(first, wide, ends, turns, perm, turn, row, work, r):
    """Stored layout ``row`` into union-find ``r`` of ``work``: two ends a 32-bit word (``_place_wide``) where a
    tile has an even number of ends, else one by one (``_place``)."""
    parent, pairs = work[0], work[1]
    if ends % 2 == 0:
        _place_wide(wide, ends, turns, perm, turn, row, parent, pairs, r)
    else:
        _place(first, ends, turns, perm, turn, row, parent, r)


@njit(cache=True, inline="always")
def _draw_block(s, first, wide, ends, turns, perm, turn, k, work):
    """Draw ``k`` layouts into rows ``0..k-1``; a short block copies row 0 into the rest.

    The joins take every row to be freshly placed, so a stale row (already joined) must not stay.
    """
    parent = work[0]
    for r in range(k):
        _draw(s, perm, turn, r, turns)
        _place_row(first, wide, ends, turns, perm, turn, r, work, r)
    for r in range(k, BLOCK):
        parent[r] = parent[0]


@njit(cache=True, inline="always")
def _sample_and_score_body(flat, ends, turns, n, landmarks, count, seed, board):
    (first, wide), (perm, turn), rows, work, (e, m, c) = _buffers(flat, ends, n, landmarks)
    s = _seed_state(seed)
    extra = np.empty(count, dtype=np.int16)
    masks = np.empty(count, dtype=np.uint64)
    joined = np.empty(count, dtype=np.int8)
    for i in range(0, count, BLOCK):
        k = min(BLOCK, count - i)
        _draw_block(s, first, wide, ends, turns, perm, turn, k, work)
        _score_placed(ends * n, board, work, e, m, c)
        for r in range(k):
            extra[i + r], masks[i + r], joined[i + r] = e[r], m[r], c[r]
    return extra, masks, joined


@njit(cache=True, nogil=True)
def _sample_and_score(flat, ends, turns, n, landmarks, count, seed, board):
    return _sample_and_score_body(flat, ends, turns, n, landmarks, count, seed, board)


@njit(cache=True, nogil=True)
def _sample_and_score_classic(flat, ends, turns, n, landmarks, count, seed, board):
    return _sample_and_score_body(flat, CLASSIC_ENDS, CLASSIC_TURNS, n, landmarks, count, seed, board)


@njit(cache=True, inline="always")
def _accumulate_body(flat, ends, turns, n, landmarks, count, state, board, hist, hits):
    (first, wide), (perm, turn), rows, work, (e, m, c) = _buffers(flat, ends, n, landmarks)
    for i in range(0, count, BLOCK):
        k = min(BLOCK, count - i)
        _draw_block(state, first, wide, ends, turns, perm, turn, k, work)
        _score_placed(ends * n, board, work, e, m, c)
        for r in range(k):
            hist[e[r], c[r]] += 1
            for p in range(hits.shape[0]):
                hits[p] += np.int64((m[r] >> np.uint64(p)) & np.uint64(1))


@njit(cache=True, nogil=True)
def _accumulate(flat, ends, turns, n, landmarks, count, state, board, hist, hits):
    """Draw ``count`` layouts from xoshiro state ``state`` (advanced past them) and add them to the counts.

    ``hist[extra, joined]`` counts layouts by their two terms; ``hits[p]`` the layouts that join
    pair ``p``. Integer counts: any split of the layouts into calls adds up to the same numbers.
    """
    _accumulate_body(flat, ends, turns, n, landmarks, count, state, board, hist, hits)


@njit(cache=True, nogil=True)
def _accumulate_classic(flat, ends, turns, n, landmarks, count, state, board, hist, hits):
    _accumulate_body(flat, CLASSIC_ENDS, CLASSIC_TURNS, n, landmarks, count, state, board, hist, hits)


@njit(cache=True, inline="always")
def _score_given_body(flat, ends, turns, perm, turn, index, landmarks, board, extra, masks, joined):
    n = perm.shape[1]
    (first, wide), _, rows, work, (e, m, c) = _buffers(flat, ends, n, landmarks)
    for i in range(0, index.shape[0], BLOCK):
        k = min(BLOCK, index.shape[0] - i)
        for r in range(BLOCK):
            rows[r] = index[i + min(r, k - 1)]  # a short last block scores its last row again
        for r in range(BLOCK):
            _place_row(first, wide, ends, turns, perm, turn, rows[r], work, r)
        _score_placed(ends * n, board, work, e, m, c)
        for r in range(k):
            extra[rows[r]], masks[rows[r]], joined[rows[r]] = e[r], m[r], c[r]


@njit(cache=True, nogil=True)
def _score_given(flat, ends, turns, perm, turn, index, landmarks, board, extra, masks, joined):
    """Score bank rows ``index`` in place, a block at a time, read straight from the bank."""
    _score_given_body(flat, ends, turns, perm, turn, index, landmarks, board, extra, masks, joined)


@njit(cache=True, nogil=True)
def _score_given_classic(flat, ends, turns, perm, turn, index, landmarks, board, extra, masks, joined):
    _score_given_body(flat, CLASSIC_ENDS, CLASSIC_TURNS, perm, turn, index, landmarks, board, extra, masks, joined)


def _compiled(general, classic, ends: int, turns: int):
    """The entry point for tiles of ``ends`` and ``turns``: the body compiled for the classic tile's constants
    (``classic``) where they are its, else for any (``general``). Each is compiled on its first call, so a
    game compiles only the one it runs."""
    return classic if (ends, turns) == (CLASSIC_ENDS, CLASSIC_TURNS) else general


def _board_args(board: BoardArrays) -> tuple:
    return (board.ends_a, board.ends_b, board.attach, board.same_ends, board.pair_a, board.pair_b)


def _seed64(seed: int) -> np.uint64:
    """``seed`` modulo 2**64 as a numpy ``uint64``: a Python int would compile each kernel that takes it twice
    (numba types it as int64 below 2**63 and uint64 above, and seeds derived by hashing are either)."""
    return np.uint64(seed & _MASK64)


def seed_state(seed: int) -> np.ndarray:
    """The xoshiro256** state a seed's layouts start from."""
    return _seed_state(_seed64(seed))


def _flat(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.uint8).ravel()


def _tiles_and_board(table: np.ndarray, board: BoardArrays) -> tuple:
    """The first arguments of the layout-drawing kernels: the tile table, ends, turns, slots and landmarks."""
    return _flat(table), board.ends, board.turns, board.slots, board.landmarks


def accumulate_chunk(table: np.ndarray, board: BoardArrays, count: int, state: np.ndarray, hist, hits) -> None:
    """Add ``count`` layouts drawn from xoshiro ``state`` to ``hist[extra, joined]`` and ``hits[pair]``.

    ``state`` is advanced past them, to where the next layout starts.
    """
    accumulate = _compiled(_accumulate, _accumulate_classic, board.ends, board.turns)
    accumulate(*_tiles_and_board(table, board), count, state, _board_args(board), hist, hits)


def sample_layouts(
    slots: int, count: int, seed: int, turns: int = CLASSIC_TURNS, rotations: int = 6
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` random layouts as arrays ``perm[i, slot]``, ``flip[i, slot]``, ``rot[i, slot]`` of tiles with
    ``turns`` turns, ``rotations`` a face (flip 0 when single-sided); the classic game's by default."""
    perm, turn = _sample(slots, count, _seed64(seed), turns)
    return perm, (turn // rotations).astype(np.uint8), (turn % rotations).astype(np.uint8)


def board_layouts(board: BoardArrays, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``sample_layouts`` for the tiles of ``board``."""
    return sample_layouts(board.slots, count, seed, board.turns, board.rotations)


@njit(cache=True)
def _slots_of(perm):
    out = np.empty(perm.shape, dtype=np.int64)
    for i in range(perm.shape[0]):
        for s in range(perm.shape[1]):
            out[i, perm[i, s]] = s
    return out


def slots_of(perm: np.ndarray) -> np.ndarray:
    """``slot[i, tile]``: where layout ``i`` of ``sample_layouts`` lays each tile (the inverse of ``perm``)."""
    return _slots_of(np.ascontiguousarray(perm))


def sample_and_score(table: np.ndarray, board: BoardArrays, count: int, seed: int):
    """Draw ``count`` layouts from ``seed`` and score them: ``(extra, mask, joined)`` arrays."""
    sample_and_score = _compiled(_sample_and_score, _sample_and_score_classic, board.ends, board.turns)
    return sample_and_score(*_tiles_and_board(table, board), count, _seed64(seed), _board_args(board))


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
    ``turn = rotations * flip + rot`` for each slot.
    """

    def __init__(self, board: BoardArrays, perm, flip, rot):
        self.perm = np.ascontiguousarray(perm, dtype=np.uint16)
        self.turn = np.asarray(flip, dtype=np.uint16) * np.uint16(board.rotations) + np.asarray(rot, dtype=np.uint16)
        self.ends, self.turns, self.landmarks = board.ends, board.turns, board.landmarks
        self.args = _board_args(board)

    def score(self, table: np.ndarray, rows: np.ndarray, out) -> None:
        """Score layouts ``rows`` for tile table ``table`` into the same rows of ``out`` (extra, mask, joined)."""
        rows = np.asarray(rows, dtype=np.int64)
        score = _compiled(_score_given, _score_given_classic, self.ends, self.turns)
        score(_flat(table), self.ends, self.turns, self.perm, self.turn, rows, self.landmarks, self.args, *out)
