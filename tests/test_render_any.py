"""Drawing sides of other geometries (``generator.render.anyside``): every design of the small geometries is
drawn with exactly its minimum crossings, read back from the drawn curves and from the SVG."""

import re
from itertools import combinations

import pytest

from generator.model.designs import designs
from generator.model.geometry import TileGeometry
from generator.model.tiles import pair_crossings
from generator.render.anyside import crossings_of, layout_any, svg_any


def _check(side) -> None:
    layout = layout_any(side)
    for a, b in combinations(layout.shapes, 2):
        assert len(crossings_of(a, b)) == pair_crossings(a.trail, b.trail)
    assert len(layout.bridges) == side.min_crossings
    assert tuple(s.trail for s in layout.shapes) == side.trails
    svg = svg_any(side)
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


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize(
    ("geometry", "stride"),
    [(TileGeometry("hex", 2, "pairs", 2), 60), (TileGeometry("square", 2, "any", 2), 40)],
    ids=str,
)
def test_a_sample_of_the_large_geometries_is_drawn_with_exactly_its_bridges(geometry, stride):
    for side in designs(geometry)[::stride]:
        _check(side)
