"""The fewest crossings a side's trails need, read off how each trail may branch.

Summing each pair of trails' minimum (``tiles.pair_crossings``) is exact when each trail's drawing can
be chosen for all its neighbours at once: always on the classic tiles and with paired trails, whose
straight chords meet every pair's minimum. A trail with four or more ends can branch in several ways,
though, and with two ends an edge the way that suits one neighbour may not suit another:
``N1-E1-S1-W1 | N2-S2 | E2-W2`` sums to 3 but needs 4.

The count here is exact where the sum is, and otherwise a lower bound that is tight on every side the
renderer draws (``tests/test_render_any_art.py`` reads every design back). The facts it rests on:

- A trail drawn as a tree with its ends ``t0 < t1 < ... < t(m-1)`` as leaves cuts the tile into ``m``
  *regions*, region ``i`` lying along the outline between ``t(i)`` and ``t(i+1)``.
- Each branch of the tree has region ``i`` on one side and region ``j`` on the other. The twigs to the
  ends join neighbouring regions (a cycle); the inner branches are diagonals that never cross. So a
  way to branch is a dissection of an ``m``-gon, and branching in pairs (every fork of three) is a
  triangulation, which joins at least the regions any coarser branching joins.
- Another trail whose ends lie in several regions crosses the tree at least as often as the fewest
  branches joining those regions: a Steiner tree in that region graph.

So two trails with chosen branchings cross at least the larger of the two Steiner counts, and a side
needs at least the smallest, over a triangulation per trail, of the sum over pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

Trail = tuple[int, ...]
Diagonals = frozenset[tuple[int, int]]


@cache
def triangulations(m: int) -> tuple[Diagonals, ...]:
    """Every triangulation of a convex ``m``-gon (vertices 0..m-1) as its set of diagonals."""
    return tuple(frozenset(t) for t in _triangulate(tuple(range(m))))


def _triangulate(poly: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """The triangulations of polygon ``poly``, whose side ``poly[0]``-``poly[-1]`` lies in one triangle."""
    if len(poly) < 3:
        return [[]]
    found = []
    for k in range(1, len(poly) - 1):  # the triangle on that side has its apex at ``poly[k]``
        own = [(poly[0], poly[k])] if k > 1 else []
        own += [(poly[k], poly[-1])] if k < len(poly) - 2 else []
        for left in _triangulate(poly[: k + 1]):
            for right in _triangulate(poly[k:]):
                found.append(own + left + right)
    return found


@cache
def _adjacency(m: int, diagonals: Diagonals) -> tuple[int, ...]:
    """Bit masks of the region graph: region ``i`` joins ``i ± 1`` and its diagonals' other ends."""
    adj = [(1 << (i + 1) % m) | (1 << (i - 1) % m) for i in range(m)]
    for a, b in diagonals:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    return tuple(mask & ~(1 << i) for i, mask in enumerate(adj))


@cache
def _steiner(m: int, diagonals: Diagonals, terminals: int) -> int:
    """The fewest region-graph edges joining the regions in bit mask ``terminals``."""
    if terminals & (terminals - 1) == 0:
        return 0
    adj = _adjacency(m, diagonals)
    others = [r for r in range(m) if not terminals >> r & 1]
    for extra in range(len(others) + 1):  # the fewest regions added that connect them (the cycle always does)
        for chosen in combinations(others, extra):
            nodes = terminals | sum(1 << r for r in chosen)
            if _connected(nodes, adj):
                return bin(nodes).count("1") - 1
    raise AssertionError("unreachable: the regions round a trail form a cycle")


def _connected(nodes: int, adj: tuple[int, ...]) -> bool:
    """Whether the regions in bit mask ``nodes`` form a connected subgraph."""
    seen = frontier = nodes & -nodes
    while frontier:
        grown = 0
        for r in range(len(adj)):
            if frontier >> r & 1:
                grown |= adj[r]
        frontier = grown & nodes & ~seen
        seen |= frontier
    return seen == nodes


def _regions(trail: Trail, other: Trail) -> int:
    """Bit mask of ``trail``'s regions that hold an end of ``other`` (region ``i``: after ``trail[i]``)."""
    mask = 0
    for end in other:
        below = sum(t < end for t in trail)  # ends before it clockwise; region ``below - 1`` (cyclic)
        mask |= 1 << (below - 1) % len(trail)
    return mask


def _pair(a: Trail, ta: Diagonals, b: Trail, tb: Diagonals) -> int:
    """The crossings two trails branched as ``ta`` and ``tb`` need at least."""
    return max(_steiner(len(a), ta, _regions(a, b)), _steiner(len(b), tb, _regions(b, a)))


def side_crossings(trails: Sequence[Trail]) -> int:
    """The fewest crossings of a side's ``trails`` (sorted ends, numbered clockwise), per the module's rule."""
    multi = [t for t in trails if len(t) >= 2]
    choices = [triangulations(len(t)) for t in multi]
    pairs = list(combinations(range(len(multi)), 2))
    best = None
    for chosen in product(*choices):
        total = sum(_pair(multi[i], chosen[i], multi[j], chosen[j]) for i, j in pairs)
        if best is None or total < best:
            best = total
    return best or 0
