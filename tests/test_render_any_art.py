"""Sides of every geometry drawn in the style, checked on the SVG itself (as ``test_render_geometry`` checks the
classic sides): the outline from the corners, each trail leaving its ends with its full width and touching no
other end, exactly ``min_crossings`` decks read back, decks apart, and trails that meet only under a deck, once
per deck."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon

from generator.model import Side, Tile, pair_crossings
from generator.model.designs import designs
from generator.model.geometry import TileGeometry
from generator.render import load_style
from generator.render.anyside import layout_any, svg_any
from generator.render.anytiles import render_side_any, scale_of, trail_width
from generator.render.style import TRAIL_WIDTH_RANGE
from tests.test_render_geometry import SVG, drawn, polygon_points

STYLE = load_style()
SQUARE = TileGeometry("square", 1, "any", 1)
TSURO = TileGeometry("square", 2, "pairs", 1)
HEX1 = TileGeometry("hex", 1, "any", 1)  # the classic ends, single-sided: drawn by the any-geometry renderer
HEX2 = TileGeometry("hex", 2, "pairs", 2)
SQUARE2 = TileGeometry("square", 2, "any", 2)


@cache
def side_svg(side: Side, style=STYLE, bleed_mm: float = 0.0, face: str = "front") -> str:
    return render_side_any(Tile("7", side, side), face, style, bleed_mm=bleed_mm)


def check_side(side: Side, style=STYLE) -> None:
    """Every geometric promise of one drawn side of any geometry."""
    g = side.geometry
    trails, decks, meta, root = drawn(side_svg(side, style))
    scale = scale_of(g, style)
    width = trail_width(g, style) * scale
    assert meta["bridges"] == side.min_crossings == len(decks), side
    assert meta["trails"] == side.names()
    outline = Polygon(polygon_points(root.find(f"{SVG}polygon").get("points")))
    cut = Polygon([(scale * x, scale * y) for x, y in g.corners()])
    assert outline.symmetric_difference(cut).area < 1e-4 * cut.area  # the ground: the outline from the corners
    corners = np.array(g.corners()) * scale
    spacing = scale * math.dist(g.corners()[0], g.corners()[1]) / (g.ends_per_edge + 1)
    for i, trail in enumerate(side.trails):
        shape, drawn_width = trails[i]
        assert drawn_width == pytest.approx(width, abs=1e-3)
        assert shape.difference(cut.buffer(0.1)).area < 1e-6, f"{side}: trail {i} leaves the tile"
        for end in range(g.ends):
            edge = g.edge_of(end)
            along = corners[(edge + 1) % g.edges] - corners[edge]
            along /= np.linalg.norm(along)
            inward = np.array([-along[1], along[0]])  # corners run clockwise on screen (y down)
            at = np.array(g.end_point(end)) * scale + 0.2 * inward
            hit = shape.intersection(LineString([at - along * spacing / 2, at + along * spacing / 2]))
            if end in trail:  # crossed square at the end, with the full width
                assert hit.length == pytest.approx(width, abs=0.05), (side, i, end)
                assert Point(hit.centroid.coords[0]).distance(Point(at)) < 0.03, (side, i, end)
            else:
                assert hit.length < 1e-6, (side, i, end)
    for a in range(len(decks)):
        for b in range(a + 1, len(decks)):
            assert decks[a].distance(decks[b]) > 0.5, side
    used = [0] * len(decks)
    for i in range(len(side.trails)):
        for j in range(i + 1, len(side.trails)):
            meet = trails[i][0].intersection(trails[j][0])
            pieces = [p for p in ([] if meet.is_empty else getattr(meet, "geoms", [meet])) if p.area > 1e-9]
            assert len(pieces) == pair_crossings(side.trails[i], side.trails[j]), (side, i, j)
            for piece in pieces:
                inside = [k for k, deck in enumerate(decks) if piece.difference(deck).area < 1e-6]
                assert len(inside) == 1, f"{side}: trails {i} and {j} meet outside a bridge"
                used[inside[0]] += 1
            if not pieces:
                assert trails[i][0].distance(trails[j][0]) > 0.1 * width, (side, i, j)
    assert used == [1] * len(decks), side


@pytest.mark.parametrize("geometry", [SQUARE, TSURO, HEX1], ids=str)
def test_every_design_of_the_small_geometries_is_drawn_as_promised(geometry):
    for side in designs(geometry):
        check_side(side)


@pytest.mark.slow
@pytest.mark.parametrize(("geometry", "stride"), [(HEX2, 45), (SQUARE2, 36)], ids=str)
def test_a_sample_of_the_large_geometries_is_drawn_as_promised(geometry, stride):
    for side in designs(geometry)[::stride]:
        check_side(side)


@pytest.mark.slow
@pytest.mark.parametrize("fraction", TRAIL_WIDTH_RANGE)
def test_the_small_geometries_draw_at_both_ends_of_the_trail_width_range(fraction):
    style = replace(STYLE, trail_width=fraction)
    for geometry in (SQUARE, TSURO):
        for side in designs(geometry):
            check_side(side, style)


def test_the_busiest_paired_hex_side_keeps_its_fifteen_decks_apart():
    star = Side.of([[k, k + 6] for k in range(6)], HEX2)  # six near-diameters: every pair crosses
    assert star.min_crossings == 15
    layout = layout_any(star)
    assert len(layout.bridges) == 15
    svg = svg_any(star)
    assert svg.count('class="bridge"') == 15


def test_a_rotated_side_is_its_designs_drawing_turned():
    side = Side.of([[0, 5], [1, 3], [2, 6], [4, 7]], TSURO)
    base, turned = layout_any(side), layout_any(side.rotated(1))
    for shape in base.shapes:
        twin = turned.shapes[turned.side.trails.index(tuple(sorted(TSURO.turned(d, 1) for d in shape.trail)))]
        for c1, c2 in zip(shape.curves, twin.curves, strict=True):
            for (x, y), (u, v) in zip(c1, c2, strict=True):
                assert (-y, x) == pytest.approx((u, v))  # a quarter turn clockwise on screen
    assert sorted(b.centre for b in turned.bridges) == pytest.approx(sorted((-y, x) for x, y in (b.centre for b in base.bridges)))


def test_bleed_grows_the_square_ground_and_carries_the_trails_to_its_edge():
    side = Side.of([[0, 2], [1], [3]], SQUARE)
    b = 3.0
    root = ET.fromstring(side_svg(side, STYLE, b))
    w = STYLE.tile_width_mm  # a square tile's side
    assert root.get("viewBox").split() == [f"{-w / 2 - b:g}", f"{-w / 2 - b:g}", f"{w + 2 * b:g}", f"{w + 2 * b:g}"]
    ground = Polygon(polygon_points(root.find(f"{SVG}polygon").get("points")))
    assert ground.bounds == pytest.approx((-w / 2 - b, -w / 2 - b, w / 2 + b, w / 2 + b), abs=1e-3)
    trails, _, _, _ = drawn(side_svg(side, STYLE, b))
    width = trail_width(SQUARE, STYLE) * scale_of(SQUARE, STYLE)
    hit = trails[0][0].intersection(LineString([(-10, -w / 2 - b + 0.01), (10, -w / 2 - b + 0.01)]))
    assert hit.length == pytest.approx(width, abs=0.05)  # the N-S trail runs on, square, out to the bleed


def test_a_back_has_a_mark_by_every_corner_and_the_label_sits_clear_inside_the_safe_zone():
    side = Side.of([[0, 7], [1, 6], [2, 5], [3, 4], [8, 11], [9, 10]], HEX2)
    root = ET.fromstring(side_svg(side, STYLE, 0.0, "back"))
    marks = [c for c in root.iter(f"{SVG}circle") if c.get("fill") is None]
    assert len(marks) == 6
    label = next(t for t in root.iter(f"{SVG}text"))
    assert label.text == "7 back"


def test_a_theme_paints_other_tiles_with_its_art_cut_to_the_outline():
    river = load_style("river")
    side = Side.of([[0, 5], [1, 2], [3, 4], [6, 7]], TSURO)
    svg = render_side_any(Tile("3", side, side), "front", river)
    root = ET.fromstring(svg)
    cut = root.find(f".//{SVG}clipPath[@id='tw-cut']/{SVG}polygon")
    assert len(cut.get("points").split()) == 4  # the square outline clips the ground art
    assert 'fill="url(#tw-ground)"' in svg or "clip-path=\"url(#tw-cut)\"" in svg
    assert svg.count('class="bridge"') == side.min_crossings == 1
