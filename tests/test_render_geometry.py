"""Tile sides checked on the drawn geometry: the SVG's own paths, read back and measured with shapely.

Every partition of the six directions (203, every side design in every rotation) is drawn and
checked: exits at the edge midpoints with the trail's width, exactly ``Side.min_crossings``
bridges, bridges apart, and trails that never touch except under a bridge deck.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from generator.model import Side, Tile, pair_crossings
from generator.render import load_style, render_side
from generator.render.side import layout_side
from generator.render.style import TRAIL_WIDTH_RANGE
from generator.units import MM_PER_PT

SVG = "{http://www.w3.org/2000/svg}"
STYLE = load_style()
W = STYLE.tile_width_mm
APOTHEM_MM = W / 2 * math.sqrt(3) / 2


def partitions(items):
    """Every set partition of ``items`` (Bell number many)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest):
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1 :]
        yield [[first]] + p


ALL_SIDES = sorted({Side.of(p) for p in partitions(list(range(6)))})
DESIGNS = sorted({s.canonical for s in ALL_SIDES})


def _cubic(p0, p1, p2, p3, n=120):
    t = np.linspace(0, 1, n)[:, None]
    p0, p1, p2, p3 = map(np.asarray, (p0, p1, p2, p3))
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3


def path_lines(d: str) -> list[np.ndarray]:
    """The polylines of an SVG path made of M, L, H, V and C commands (absolute)."""
    tokens = re.findall(r"[MLCHV]|-?[0-9.]+(?:e-?\d+)?", d)
    lines, current, i, cmd = [], [], 0, None
    while i < len(tokens):
        if tokens[i] in "MLCHV":
            cmd = tokens[i]
            i += 1
        if cmd == "M":
            if len(current) > 1:
                lines.append(np.array(current))
            current = [(float(tokens[i]), float(tokens[i + 1]))]
            i += 2
        elif cmd == "L":
            current.append((float(tokens[i]), float(tokens[i + 1])))
            i += 2
        elif cmd == "H":
            current.append((float(tokens[i]), current[-1][1]))
            i += 1
        elif cmd == "V":
            current.append((current[-1][0], float(tokens[i])))
            i += 1
        elif cmd == "C":
            pts = [(float(tokens[i + 2 * k]), float(tokens[i + 2 * k + 1])) for k in range(3)]
            current.extend(map(tuple, _cubic(current[-1], *pts)[1:]))
            i += 6
    if len(current) > 1:
        lines.append(np.array(current))
    return lines


def polygon_points(text: str) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in text.split()]


def drawn(svg: str):
    """(trail shapes by index, deck polygons, metadata) read back from a side's SVG."""
    root = ET.fromstring(svg)
    trails = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "trail":
            continue
        parts = []
        first = g.find(f"{SVG}path")
        width = float(first.get("stroke-width"))
        for line in path_lines(first.get("d")):
            parts.append(LineString(line).buffer(width / 2, cap_style="flat", join_style="round"))
        for c in g.findall(f"{SVG}circle"):
            parts.append(Point(float(c.get("cx")), float(c.get("cy"))).buffer(float(c.get("r"))))
        for p in g.findall(f"{SVG}path"):
            if p.get("class") == "terminator":
                for line in path_lines(p.get("d")):
                    parts.append(LineString(line).buffer(float(p.get("stroke-width")) / 2))
        trails[int(g.get("data-trail"))] = (unary_union(parts), width)
    decks = [Polygon(polygon_points(p.get("points"))) for p in root.iter(f"{SVG}polygon") if p.get("class") == "deck"]
    meta = json.loads(root.find(f"{SVG}metadata").text)
    return trails, decks, meta, root


def hexagon(radius):
    return Polygon(
        [(radius * math.cos(math.radians(60 * k)), radius * math.sin(math.radians(60 * k))) for k in range(6)]
    )


def midpoint(d, dist=APOTHEM_MM):
    a = math.radians(60 * d)
    return np.array([dist * math.sin(a), -dist * math.cos(a)])


@cache
def side_svg(side: Side, style=STYLE, bleed_mm=0.0) -> str:
    return render_side(Tile("7", side, side), "front", style, bleed_mm=bleed_mm)


def check_side(side: Side, style=STYLE) -> None:
    """Every geometric promise of one drawn side."""
    trails, decks, meta, _ = drawn(side_svg(side, style))
    width = style.trail_width_mm
    assert meta["bridges"] == side.min_crossings == len(decks), side
    assert meta["trails"] == side.names()
    assert sorted(trails) == list(range(len(side.trails)))
    cut = hexagon(style.tile_width_mm / 2)
    apothem = style.tile_width_mm / 2 * math.sqrt(3) / 2
    for i, trail in enumerate(side.trails):
        shape, drawn_width = trails[i]
        assert drawn_width == pytest.approx(width, abs=1e-3)
        # (0.1 mm: the sampled stroke's flat cap is square to a chord, not to the exact tangent)
        assert shape.difference(cut.buffer(0.1)).area < 1e-6, f"{side}: trail {i} leaves the hexagon"
        for d in range(6):
            # the cut edge through d's midpoint, a little way in: the trail crosses it exactly
            # at the midpoint with its full width when d is one of its exits, and not at all otherwise
            m, along = (
                midpoint(d, apothem - 0.2),
                np.array([math.cos(math.radians(60 * d)), math.sin(math.radians(60 * d))]),
            )
            edge = LineString([m - along * style.tile_width_mm / 4, m + along * style.tile_width_mm / 4])
            hit = shape.intersection(edge)
            if d in trail:
                assert hit.length == pytest.approx(width, abs=0.05), (side, i, d)
                assert Point(hit.centroid.coords[0]).distance(Point(m)) < 0.03, (side, i, d)
            else:
                assert hit.length < 1e-6, (side, i, d)
    # bridges never stack: decks apart from each other
    for a in range(len(decks)):
        for b in range(a + 1, len(decks)):
            assert decks[a].distance(decks[b]) > 0.5, side
    # trails touch only under decks, each deck covering exactly one crossing of one pair
    used = [0] * len(decks)
    for i in range(len(side.trails)):
        for j in range(i + 1, len(side.trails)):
            meet = trails[i][0].intersection(trails[j][0])
            pieces = [] if meet.is_empty else list(getattr(meet, "geoms", [meet]))
            pieces = [p for p in pieces if p.area > 1e-9]
            assert len(pieces) == pair_crossings(side.trails[i], side.trails[j]), (side, i, j)
            for piece in pieces:
                inside = [k for k, deck in enumerate(decks) if piece.difference(deck).area < 1e-6]
                assert len(inside) == 1, f"{side}: trails {i} and {j} meet outside a bridge"
                used[inside[0]] += 1
            if not pieces:
                assert trails[i][0].distance(trails[j][0]) > 0.5 * width, (side, i, j)
    assert used == [1] * len(decks), side


@pytest.mark.parametrize("side", ALL_SIDES, ids=str)
def test_every_partition_is_drawn_as_promised(side):
    check_side(side)


def test_the_partitions_are_all_203_and_39_designs_have_at_most_four_trails():
    assert len(ALL_SIDES) == 203
    assert len(DESIGNS) == 43
    assert sum(len(d.trails) <= 4 for d in DESIGNS) == 39


@pytest.mark.slow
@pytest.mark.parametrize("fraction", TRAIL_WIDTH_RANGE)
def test_every_design_draws_at_both_ends_of_the_trail_width_range(fraction):
    style = replace(STYLE, trail_width=fraction)
    for side in DESIGNS:
        check_side(side, style)


def test_bridges_match_the_minimum_crossings_in_known_cases():
    three_diameters = Side.of([[0, 3], [1, 4], [2, 5]])
    interleaved_triples = Side.of([[0, 2, 4], [1, 3, 5]])
    nested = Side.of([[0, 1], [2, 5], [3, 4]])
    assert [len(layout_side(s, 0.2).bridges) for s in (three_diameters, interleaved_triples, nested)] == [3, 2, 0]


def test_a_rotated_side_is_the_same_drawing_turned():
    side = Side.of([[0, 2], [1, 4], [3], [5]])
    base, turned = layout_side(side, 0.2), layout_side(side.rotated(2), 0.2)
    a = math.radians(120)
    for shape in base.shapes:
        twin = turned.shapes[turned.side.trails.index(tuple(sorted((d + 2) % 6 for d in shape.trail)))]
        for c1, c2 in zip(shape.curves, twin.curves, strict=True):
            for (x, y), (u, v) in zip(c1, c2, strict=True):
                assert (math.cos(a) * x - math.sin(a) * y, math.sin(a) * x + math.cos(a) * y) == pytest.approx((u, v))


def test_bleed_grows_the_root_and_carries_ground_and_trails_to_its_edge():
    side = Side.of([[0, 3], [1, 4], [2], [5]])
    b = 3.175
    svg = side_svg(side, STYLE, b)
    root = ET.fromstring(svg)
    h = W * math.sqrt(3) / 2
    assert root.get("width") == f"{W + 2 * b:.3f}".rstrip("0").rstrip(".") + "mm"
    assert float(root.get("height")[:-2]) == pytest.approx(h + 2 * b, abs=1e-3)
    box = [float(v) for v in root.get("viewBox").split()]
    assert box == pytest.approx([-W / 2 - b, -h / 2 - b, W + 2 * b, h + 2 * b], abs=1e-3)
    trails, _, _, root = drawn(svg)
    ground = Polygon(polygon_points(root.find(f"{SVG}polygon").get("points")))
    assert ground.buffer(1e-3).contains(hexagon(W / 2).buffer(b * 0.999, join_style="mitre"))
    for i, trail in enumerate(side.trails):
        for d in trail:  # the trail reaches the grown hexagon's edge, still perpendicular and as wide
            m = midpoint(d, APOTHEM_MM + b - 0.01)
            along = np.array([math.cos(math.radians(60 * d)), math.sin(math.radians(60 * d))])
            hit = trails[i][0].intersection(LineString([m - along * 10, m + along * 10]))
            assert hit.length == pytest.approx(STYLE.trail_width_mm, abs=0.05)


EDGE_STYLES = {
    "default": "",
    # the smallest tile, the narrowest trail and the thinnest lines allowed
    "thinnest": "[tile]\nwidth_mm = 15\n[trail]\nwidth = 0.06\nedge_pt = 0.25\n[bridge]\nrail_pt = 0.25\n"
    "plank_pt = 0.25\n[board]\nslot_edge_pt = 0.25\n[label]\nshow = false\n",
    # the smallest tile and narrowest trail with the widest verges they leave room for
    "widest-verge": "[tile]\nwidth_mm = 15\n[trail]\nwidth = 0.06\nedge_pt = 1.15\n[label]\nshow = false\n",
    # the largest tile and widest trail with the widest lines allowed
    "largest": "[tile]\nwidth_mm = 300\n[trail]\nwidth = 0.105\nedge_pt = 10\n[bridge]\nrail_pt = 10\n"
    "plank_pt = 10\n[board]\nslot_edge_pt = 10\n",
}


@pytest.mark.parametrize("name", sorted(EDGE_STYLES))
def test_no_line_is_thinner_than_a_quarter_point(name, tmp_path, classic, random20):
    from generator.render import render_board, render_preview

    path = tmp_path / f"{name}.toml"
    path.write_text(EDGE_STYLES[name])
    style = load_style(path)
    svgs = [render_side(Tile("12", side, side), "back", style, bleed_mm=3) for side in DESIGNS]
    svgs += [render_board(classic, style), render_preview(random20, classic, style, seed=3)]
    assert min(w for svg in svgs for w in stroke_widths(svg)) >= 0.25 * MM_PER_PT - 1e-3, name


def stroke_widths(svg: str) -> list[float]:
    """Every stroke width in an SVG, negative ones included."""
    found = re.findall(r'stroke-width="(-?[0-9.]+(?:e-?[0-9]+)?)"', svg)
    assert len(found) == svg.count('stroke-width="'), "a stroke width the pattern cannot read"
    return [float(w) for w in found]


def test_the_width_reader_sees_negative_widths():
    unchecked = replace(STYLE, trail_edge_pt=10)  # what load_style now refuses
    assert min(stroke_widths(side_svg(DESIGNS[0], unchecked))) == pytest.approx(6.35 - 2 * 10 * MM_PER_PT, abs=1e-3)


def test_a_drawing_does_not_hang_on_the_last_bits_of_floating_point(monkeypatch):
    """Symmetric designs have several drawings of equal cost; noise of 1e-12 must not pick another."""
    from generator.render import drawn, sidesearch
    from generator.render import side as drawing

    monkeypatch.setenv(drawn.ENV, drawn.OFF)  # every drawing searched here, none read from disk

    symmetric = [Side.of([[0, 3], [1, 4], [2, 5]]), Side.of([[0, 2, 4], [1, 3, 5]]), Side.of([[0, 1, 2], [3, 4, 5]])]
    width = 2 * STYLE.trail_width
    drawing.clear_caches()
    plain = [layout_side(s, width) for s in symmetric]
    noise = np.random.default_rng(37)
    original = sidesearch._candidates

    def jittered(*args, **kwargs):
        return [(prior + float(noise.uniform(-1e-12, 1e-12)), shape) for prior, shape in original(*args, **kwargs)]

    monkeypatch.setattr(sidesearch, "_candidates", jittered)
    for _ in range(2):
        drawing.clear_caches()
        assert [layout_side(s, width) for s in symmetric] == plain
    drawing.clear_caches()


GAME_CRAFTER_WIDTHS_MM = {"large": 95.25, "medium": 63.5, "small": 50.8, "mini": 31.75}  # publish/profiles.toml
# too crowded for "120 front" even at 4 pt on the mini hex: labelled "120F" instead, never dropped
SHORT = {
    ("mini", "120", "N-NE-SE-S-SW-NW"),
    ("mini", "120", "N-NE-S-SW | SE-NW"),
    ("mini", "120", "N-SE-SW | NE-S-NW"),
    ("mini", "120", "N-S | NE-SW | SE-NW"),
}


@pytest.mark.parametrize("product", sorted(GAME_CRAFTER_WIDTHS_MM))
@pytest.mark.parametrize("tile_id", ["7", "120"])
def test_every_design_gets_a_label_in_the_safe_zone_clear_of_the_art(product, tile_id):
    from generator.render.labels import SAFE_ZONE_MM, label_box

    style = replace(STYLE, tile_width_mm=GAME_CRAFTER_WIDTHS_MM[product])
    safe = hexagon(style.tile_width_mm / 2).buffer(-SAFE_ZONE_MM, join_style="mitre")
    short = set()
    for side in DESIGNS:
        trails, decks, _, root = drawn(render_side(Tile(tile_id, side, side), "front", style))
        text = root.find(f"{SVG}text")
        assert text is not None and text.text in (f"{tile_id} front", f"{tile_id}F"), side
        if text.text == f"{tile_id}F":
            short.add((product, tile_id, str(side)))
        x, y, angle = map(
            float, re.match(r"translate\(([-0-9.]+) ([-0-9.]+)\) rotate\(([-0-9.]+)\)", text.get("transform")).groups()
        )
        size = float(text.get("font-size"))
        assert size >= 4 * MM_PER_PT - 1e-3
        box = Polygon(label_box(x, y, angle, size, text.text))
        assert safe.buffer(1e-3).contains(box), (product, side)
        art = unary_union([t for t, _ in trails.values()] + decks)
        assert box.distance(art) > 0.1, (product, side)
    assert short == {r for r in SHORT if r[:2] == (product, tile_id)}


def test_a_large_font_shrinks_to_fit_and_a_hopeless_label_is_refused_by_name():
    from generator.errors import TrailwrightError

    side = Side.of([[0, 3], [1, 4], [2, 5]])
    svg = render_side(Tile("120", side, side), "front", replace(STYLE, label_font_size_pt=12))
    assert 4 * MM_PER_PT - 1e-3 <= float(drawn(svg)[3].find(f"{SVG}text").get("font-size")) < 12 * MM_PER_PT
    with pytest.raises(TrailwrightError, match=r"tile Lighthouse-of-the-north front: no room .* 31\.75 mm tile"):
        render_side(Tile("Lighthouse-of-the-north", side, side), "front", replace(STYLE, tile_width_mm=31.75))
