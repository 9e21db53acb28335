"""A side's minimum crossings (``generator.model.crossings``): triangulations, the sum over pairs where it is
exact, and the sides where branching trails cannot suit every neighbour at once. The drawing search that
confirms the count on every design of square/2/any is ``tests/test_geometry.py``'s."""

from itertools import combinations
from math import comb

import pytest

from generator.errors import TrailwrightError
from generator.model import Side, pair_crossings
from generator.model.crossings import side_crossings, triangulations
from generator.model.designs import designs, sides
from generator.model.geometry import CLASSIC, MOST_SIDES, TileGeometry
from tests.test_geometry import _drawn_crossings, _hubs

SQUARE_2_ANY = TileGeometry("square", 2, "any", 2)
SUM_EXACT = [CLASSIC, TileGeometry("square", 1, "any", 1), TileGeometry("square", 2, "pairs", 1)]
SUM_EXACT += [TileGeometry("hex", 2, "pairs", 2), TileGeometry("hex", 1, "pairs", 1)]


def pairwise(side: Side) -> int:
    return sum(pair_crossings(a, b) for a, b in combinations(side.trails, 2))


def _cross(d, e) -> bool:
    (a, b), (c, f) = sorted(d), sorted(e)
    return a < c < b < f or c < a < f < b


@pytest.mark.parametrize("m", range(2, 10))
def test_a_polygon_has_catalan_many_triangulations_of_non_crossing_diagonals(m):
    found = triangulations(m)
    n = m - 2
    assert len(found) == comb(2 * n, n) // (n + 1) and len(set(found)) == len(found)
    for diagonals in found:
        assert len(diagonals) == max(m - 3, 0)
        assert all(1 < b - a < m - 1 for a, b in diagonals)  # diagonals, not sides
        assert not any(_cross(d, e) for d, e in combinations(diagonals, 2))


@pytest.mark.parametrize("geometry", SUM_EXACT, ids=str)
def test_the_sum_over_pairs_stands_where_every_trail_can_suit_all_its_neighbours(geometry):
    """One end an edge (the classic game's rule, unchanged) and paired trails (straight chords)."""
    for side in sides(geometry):
        assert side.min_crossings == pairwise(side), side


def test_two_ends_an_edge_with_branching_trails_raise_the_sum_on_exactly_two_designs():
    raised = {str(side): side.min_crossings for side in designs(SQUARE_2_ANY) if side.min_crossings != pairwise(side)}
    assert raised == {"N1-E1-S1-W1 | N2-S2 | E2-W2": 4, "N1-S1 | N2-E2-S2-W2 | E1-W1": 4}
    assert all(side.min_crossings >= pairwise(side) for side in sides(SQUARE_2_ANY))


def test_a_four_end_trail_between_two_crossing_chords_needs_four():
    """Each chord splits the trail's ends two and two; however the trail branches, it crosses one chord once
    and the other twice (its two forks lie on one chord's two sides), and the chords cross: 1 + 2 + 1."""
    side = Side.from_names([["N1", "E1", "S1", "W1"], ["N2", "S2"], ["E2", "W2"]], SQUARE_2_ANY)
    assert pairwise(side) == 3 and side_crossings(side.trails) == 4
    assert _drawn_crossings(side, _hubs(SQUARE_2_ANY)) == 4  # and a drawing with four exists


def test_a_geometry_with_too_many_sides_to_list_is_refused_in_one_line():
    """Hex tiles with two ends an edge and branching trails: Bell(12) partitions."""
    assert [g.side_count for g in SUM_EXACT[:3] + [SQUARE_2_ANY]] == [203, 15, 105, 4_140]
    assert TileGeometry("hex", 2, "pairs", 2).side_count == 10_395 <= MOST_SIDES
    with pytest.raises(TrailwrightError, match=r"4,213,597 possible sides are too many .*at most 20,000.*pairs"):
        TileGeometry("hex", 2, "any", 1)
