"""Drawing sides of other geometries (``generator.render.side``): every design of the small geometries is
drawn with exactly its minimum crossings, each pair of trails crossing at least its own minimum, read back from
the drawn curves and from the SVG."""

import re
from itertools import combinations

import pytest

from generator.model.designs import designs
from generator.model.geometry import TileGeometry
from generator.model.tiles import Side, pair_crossings
from generator.render.shapes import crossings_of
from generator.render.side import layout_side, plain_svg


def _check(side) -> None:
    layout = layout_side(side)
    crossed = []
    for a, b in combinations(layout.shapes, 2):
        crossed.append(len(crossings_of(a, b)))
        assert crossed[-1] >= pair_crossings(a.trail, b.trail)  # a pair may cross more where the side needs it
    assert sum(crossed) == len(layout.bridges) == side.min_crossings
    assert tuple(s.trail for s in layout.shapes) == side.trails
    svg = plain_svg(side)
    assert svg.count('class="bridge"') == side.min_crossings
    assert svg.count('class="end"') == side.geometry.ends
    outline = re.search(r'class="outline" points="([^"]+)"', svg)
    assert outline is not None and len(outline.group(1).split()) == side.geometry.edges


@pytest.mark.parametrize(
    "geometry", [TileGeometry("square", 1, "any", 1), TileGeometry("square", 2, "pairs", 1)], ids=str
)
def test_every_design_is_drawn_with_exactly_its_bridges(geometry):
    for side in designs(geometry):
        _check(side)


def test_a_side_whose_trails_cannot_all_meet_their_pairs_minima_is_drawn_with_its_own_count():
    """Two ends an edge, a four-end trail between two crossing chords: the pairs sum to 3, the side needs 4
    (``generator.model.crossings``), and one pair crosses twice. Every design of every geometry is read back in
    ``tests/test_render_any_art.py`` (``make test-heavy``)."""
    g = TileGeometry("square", 2, "any", 2)
    for trails in (
        [["N1", "E1", "S1", "W1"], ["N2", "S2"], ["E2", "W2"]],
        [["N1", "S1"], ["N2", "E2", "S2", "W2"], ["E1", "W1"]],
    ):
        side = Side.from_names(trails, g)
        assert side.min_crossings == 4
        _check(side)
