"""Every design in every slot at once: a layout joined with one tile's slot left empty (a hole).

What the rest of the layout connects decides what any design laid in the hole would do. The hole's
six ends fall into blocks (the partition of the six sides that the rest already joins, one of 203),
some blocks carry landmarks, and the layout has its extra edges and joined landmark pairs without
the tile. A design at a turn joins the hole's ends by its trails (another partition of the six), so
the terms with it are table look-ups:

- the cycles it closes are ``6 - trails - blocks + blocks of the join`` (a trail's ends already
  joined close one each);
- two landmark-carrying blocks joined by it add the product of their landmark counts to the pairs.

Summed over the six turns (a tile is laid at a random turn, so this is the average a layout's
chances give it), both are tables of (partition, design): ``F`` and ``M``. Duplicate joins (two
joins between the same two places meeting the same two trails are one edge) depend on which of the
hole's ends a design puts on one trail and on the other place's ends, so they too are counted per
(row, design) and read per layout (``dup_counts``). The result, ``values``, is exactly the mean
over the six turns of the plain kernel's terms with the design there (checked in the tests), for
every tile and design of a layout, for about forty plain layouts' work.

The numbers above are the classic game's; one code serves every geometry: a hole of ``E`` ends falls into
one of ``bell(E)`` partitions, and the mean is over a tile's rotations. The partition code takes ``E ** E``
values, so holes apply where ``E`` is at most ``MOST_ENDS`` (``unavailable`` says so for the rest).

Glossary
--------
partition  of the six sides of a slot into blocks, as a restricted growth string (the block of side
           d is its first side's rank among blocks); numbered 0..202.
hole       a slot whose six ends are left out of a layout's union-find.
"""

from __future__ import annotations

import functools

import numpy as np

from generator.jitcache import njit
from generator.model.geometry import bell
from generator.scoring.kernel import BLOCK, _duplicates, _find, _join
from generator.scoring.layouts import _end_table, _place
from generator.scoring.tables import BoardArrays


def _growth_strings(n: int = 6) -> list[tuple[int, ...]]:
    """Every partition of ``n`` sides as a restricted growth string, in lexicographic order."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: list[int], top: int) -> None:
        if len(prefix) == n:
            out.append(tuple(prefix))
            return
        for v in range(top + 2):
            grow(prefix + [v], max(top, v))

    grow([0], 0)
    return out


@functools.cache
def tables(designs: tuple[tuple[tuple[int, ...], ...], ...], ends: int = 6) -> tuple[np.ndarray, ...]:
    """(code, blocks, F, M) for ``designs`` (each its turns, of ``ends`` trail ids each).

    ``code[sum(block(d) * ends**d)]`` numbers a partition; ``blocks[p]`` its block count;
    ``F[p, design]`` the cycles the design closes over its turns in a hole of partition p;
    ``M[p, b1, b2, design]`` the turns in which it joins blocks b1 < b2 of p.
    """
    parts = _growth_strings(ends)
    code = np.full(ends**ends, -1, dtype=np.int64)
    for i, p in enumerate(parts):
        code[sum(v * ends**d for d, v in enumerate(p))] = i

    def number(labels) -> int:
        seen: dict[int, int] = {}
        return int(code[sum(seen.setdefault(x, len(seen)) * ends**d for d, x in enumerate(labels))])

    def joined(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, ...]:
        label = list(range(ends))
        for part in (p, q):
            for d in range(ends):
                for e in range(d):
                    if part[e] == part[d] and label[e] != label[d]:
                        old, new = label[d], label[e]
                        label = [new if x == old else x for x in label]
        return tuple(label)

    blocks = np.array([max(p) + 1 for p in parts], dtype=np.int64)
    first = [[p.index(b) for b in range(max(p) + 1)] for p in parts]  # a side of each block
    F = np.zeros((len(parts), len(designs)), dtype=np.int64)
    M = np.zeros((len(parts), ends, ends, len(designs)), dtype=np.int64)
    for k, turns in enumerate(designs):
        for turn in turns:
            q = number(turn)
            for s, p in enumerate(parts):
                j = joined(p, parts[q])
                F[s, k] += ends - blocks[q] - blocks[s] + len(set(j))
                for b1 in range(blocks[s]):
                    for b2 in range(b1 + 1, blocks[s]):
                        M[s, b1, b2, k] += j[first[s][b1]] == j[first[s][b2]]
    return code, blocks, F, M


HOLE_TABLE_LIMIT = 10_000_000  # entries of F and M worth holding and filling
MOST_ENDS = 6  # a hole's partition code takes ends ** ends values


def unavailable(geometry) -> str | None:
    """Why holes (and so the polish's screen by holes) do not apply to tiles of ``geometry``; None where they do.

    A hole's ends fall into one of ``bell(ends)`` partitions, whatever the trails may be, and the tables hold
    ``1 + ends**2`` entries per (partition, design) (``F`` and ``M``): 203 x 43 in the classic game, 15 x 7 for
    square tiles with one end an edge, 4,213,597 x 1,799 for hex tiles with two ends an edge. The kernel numbers
    a partition by a code of ``ends ** ends`` values, so it takes at most ``MOST_ENDS`` ends.
    """
    from generator.model.designs import designs

    count, parts = len(designs(geometry)), bell(geometry.ends)
    entries = parts * count * (1 + geometry.ends**2)
    if entries > HOLE_TABLE_LIMIT:
        return (
            f"a hole's {geometry.ends} ends fall into {parts:,} partitions: tables of them by "
            f"{count:,} designs would hold {entries:,} entries (at most {HOLE_TABLE_LIMIT:,})"
        )
    if geometry.ends > MOST_ENDS:
        return (
            f"the tables ({parts:,} partitions by {count:,} designs) would fit, but the hole kernel numbers a "
            f"partition by one of {geometry.ends}**{geometry.ends} codes, and so takes at most six ends"
        )
    return None


def exact_for(board: BoardArrays) -> bool:
    """Whether ``values`` is exact on this board: each group of duplicate joins is one pair of joins."""
    return bool((board.same_ends[:, 4] == 1).all()) if len(board.same_ends) else True


def hole_rows(board: BoardArrays) -> tuple[np.ndarray, np.ndarray]:
    """The duplicate-join rows that touch each slot: ``rows[start[s]:start[s + 1]]`` for slot s."""
    same, n = board.same_ends.astype(np.int64), board.ends
    lists = [
        [q for q in range(len(same)) if any(n * s <= e < n * s + n for e in same[q, :4])] for s in range(board.slots)
    ]
    start = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
    rows = same[[q for x in lists for q in x]].reshape(-1, 5) if start[-1] else np.zeros((1, 5), np.int64)
    return start, rows


def _arm_holds(arm, inside: list[bool], sides: list[int], trail) -> bool:
    """Whether both pairs of ends of ``arm`` are one trail's on the slot's side (``sides``: each end's side
    when in the slot; ``trail``: the design's trail of each side at one turn)."""
    if any(inside[x] != inside[y] for x, y in arm):
        return False
    return all(trail[sides[x]] == trail[sides[y]] for x, y in arm if inside[x])


def dup_counts(start: np.ndarray, rows: np.ndarray, designs: np.ndarray, ends: int = 6) -> np.ndarray:
    """``C[q, design, arm]``: the turns of a design in which row q's pair of joins is one edge on the slot's side.

    Row q's joins meet ends (0, 1) and (2, 3); they are one edge when 0~2 and 1~3 (arm 0) or 0~3 and 1~2
    (arm 1) are on one trail; arm 2 counts the turns where both hold. A pair with one end in the slot and one
    out never is; a pair in the slot is decided by the design, one out of it by the layout (``_layout_bit``).
    """
    C = np.zeros((max(len(rows), 1), len(designs), 3), dtype=np.int64)
    for s in range(len(start) - 1):
        for q in range(start[s], start[s + 1]):
            inside = [bool(ends * s <= e < ends * s + ends) for e in rows[q, :4]]
            sides = [int(e) - ends * s for e in rows[q, :4]]
            for k, turns in enumerate(designs):
                for trail in turns:
                    a = _arm_holds(((0, 2), (1, 3)), inside, sides, trail)
                    b = _arm_holds(((0, 3), (1, 2)), inside, sides, trail)
                    C[q, k] += (a, b, a and b)
    return C


@njit(cache=True, inline="always")
def _layout_bit(placed, r, k, inside, x, y):
    """The layout's half of a pair of ends: 1 when both are in the slot (the design decides), 0 when one is in
    and one out, else whether the rest put them on one trail."""
    if inside[x] != inside[y]:
        return 0
    if inside[x]:
        return 1
    return np.int64(placed[r, k, x] == placed[r, k, y])


@njit(cache=True, inline="always")
def _partition(parent, r, s, n, ends, work, pair_a, pair_b):
    """The hole at slot ``s`` of joined union-find ``r``: (partition code, blocks, pairs joined by the rest
    alone); ``label[d]`` the block of end d, ``weight[b]`` the landmarks on block b (``work``)."""
    label, weight, roots, on, root = work
    landmarks = on.shape[0]
    c = 0
    m = 0
    scale = 1
    for d in range(ends):
        roots[d] = _find(parent, r, ends * s + d)
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
        root[k] = _find(parent, r, ends * n + k)
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
def _open(parent, placed_all, r, s, ends, start, srow, placed):
    """Union-find ``r``: the placed layout ``placed_all`` with slot ``s``'s ends left apart (a hole); ``placed``
    keeps the placed values of the ends of its duplicate-join rows."""
    parent[r] = placed_all
    for d in range(ends):
        parent[r, ends * s + d] = ends * s + d
    for q in range(start[s], start[s + 1]):
        for z in range(4):
            placed[r, q - start[s], z] = parent[r, srow[q, z]]


@njit(cache=True, inline="always")
def _arms(placed, r, s, ends, start, srow, inside, arm0, arm1):
    """The layout's half of each duplicate-join row of slot ``s`` (``_layout_bit``), for both arms; their number."""
    for k in range(start[s + 1] - start[s]):
        q = start[s] + k
        for z in range(4):
            inside[z] = srow[q, z] >= ends * s and srow[q, z] < ends * s + ends
        arm0[k] = _layout_bit(placed, r, k, inside, 0, 2) * _layout_bit(placed, r, k, inside, 1, 3)
        arm1[k] = _layout_bit(placed, r, k, inside, 0, 3) * _layout_bit(placed, r, k, inside, 1, 2)
    return start[s + 1] - start[s]


@njit(cache=True, inline="always")
def _fill(out, i, t, hole, weight, arms, first, tabs, dupc, weights, rotations):
    """``out[i, t, k]`` for every design k, from the hole's (partition, blocks, extra edges, joined pairs), averaged
    over a tile's ``rotations`` turns (6 on the classic hexagon)."""
    _, _, F, M = tabs
    p, m, edges, joined = hole
    rows_here, arm0, arm1 = arms
    for k in range(F.shape[1]):
        cycles = F[p, k]
        for j in range(rows_here):
            a, b = arm0[j], arm1[j]
            cycles -= a * dupc[first + j, k, 0] + b * dupc[first + j, k, 1] - a * b * dupc[first + j, k, 2]
        across = 0
        for b1 in range(m):
            if weight[b1] > 0:
                for b2 in range(b1 + 1, m):
                    across += weight[b1] * weight[b2] * M[p, b1, b2, k]
        out[i, t, k] = (
            weights[0] * (rotations * edges + cycles) + weights[1] * (rotations * joined + across)
        ) / rotations


@njit(cache=True, inline="always")
def _buffers(ends, n, landmarks, start):
    """The union-finds of a block of holes, the placed layout, and the work buffers of ``_partition``, ``_open``
    and ``_arms``."""
    size = ends * n + landmarks
    parent = np.empty((BLOCK, size), dtype=np.uint16)
    widest = max(1, np.max(start[1:] - start[:-1]))
    placed = np.empty((BLOCK, widest, 4), np.int64)
    weight = np.empty(ends, np.int64)
    on, root = np.empty(landmarks, np.int64), np.empty(landmarks, np.int64)
    work = (np.empty(ends, np.int64), weight, np.empty(ends, np.int64), on, root)
    arms = (np.zeros(4, np.bool_), np.empty(widest, np.int64), np.empty(widest, np.int64))
    return parent, np.empty(size, dtype=np.uint16), placed, work, arms


@njit(cache=True, nogil=True)
def _values(flat, shape, perm, turn, slot_of, rows, landmarks, board, start, srow, dupc, tabs, weights, out):
    """``out[i, t, k]``: layout ``rows[i]``'s per-layout objective, averaged over the rotations, with design k in
    tile t's slot (see the module docstring); ``shape``: (ends, turns, rotations) of a tile. Four holes of a
    layout are joined together (``BLOCK``)."""
    ends_a, ends_b, attach, same_ends, pair_a, pair_b = board
    ends, turns, rotations = shape
    n = perm.shape[1]
    first = _end_table(flat, ends)
    parent, placed_all, placed, work, (inside, arm0, arm1) = _buffers(ends, n, landmarks, start)
    weight = work[1]
    slots, extra = np.empty(BLOCK, np.int64), np.empty(BLOCK, np.int64)
    for i in range(rows.shape[0]):
        _place(first, ends, turns, perm, turn, rows[i], parent, 0)
        placed_all[:] = parent[0]
        for t0 in range(0, n, BLOCK):
            for r in range(BLOCK):
                slots[r] = slot_of[rows[i], min(t0 + r, n - 1)]
                _open(parent, placed_all, r, slots[r], ends, start, srow, placed)
                extra[r] = ends_a.shape[0] - _duplicates(same_ends, parent, r)
            unions = _join(ends_a, ends_b, attach, parent)
            for r in range(min(BLOCK, n - t0)):
                c, m, rest = _partition(parent, r, slots[r], n, ends, work, pair_a, pair_b)
                joined = rest
                for b in range(m):
                    joined += weight[b] * (weight[b] - 1) // 2
                arms = (_arms(placed, r, slots[r], ends, start, srow, inside, arm0, arm1), arm0, arm1)
                hole = (tabs[0][c], m, extra[r] - unions[r], joined)
                _fill(out, i, t0 + r, hole, weight, arms, start[slots[r]], tabs, dupc, weights, rotations)


class Holes:
    """A board's holes, ready to fill: ``values`` for any tile set and any rows of a bank of layouts, on any
    geometry of at most ``MOST_ENDS`` ends."""

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
        """``out[i, t, k]`` for layouts ``rows`` of a bank (``perm``, ``turn`` as ``kernel.Bank`` keeps them,
        ``slot_of[row, tile]`` the slot of each tile) and tile table ``table``: the per-layout objective
        ``weights[0] * extra edges + weights[1] * pairs joined``, averaged over the rotations of design k in
        tile t's slot."""
        flat = np.ascontiguousarray(table, dtype=np.uint8).ravel()
        rows = np.asarray(rows, dtype=np.int64)
        args = (self.board.landmarks, self.args, self.start, self.rows, self.dupc, self.tables, weights, out)
        _values(flat, self.shape, perm, turn, slot_of, rows, *args)
