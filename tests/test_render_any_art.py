"""Sides of every geometry drawn in the style, checked on the SVG itself (as ``test_render_geometry`` checks the
classic sides): the outline from the corners, each trail leaving its ends with its full width and touching no
other end, exactly ``min_crossings`` decks read back, decks apart, and trails that meet only under a deck, once
per deck."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from shapely.geometry import LineString, Point, Polygon

from generator.board import load_board
from generator.cli import main
from generator.model import Side, Tile, pair_crossings, read_tileset
from generator.model.designs import designs
from generator.model.geometry import TileGeometry
from generator.render import load_style
from generator.render.board import board_frame, connector_path, render_board
from generator.render.curves import cubic, sample
from generator.render.decks import deck_box
from generator.render.proof import deck, fits, sound
from generator.render.shapes import TrailShape, _exit, crossings_of
from generator.render.side import layout_side, plain_svg
from generator.render.sidesearch import _unfit, _usable
from generator.render.style import TRAIL_WIDTH_RANGE
from generator.render.tiles import render_side, scale_of, side_layout, trail_width
from tests.test_render_geometry import SVG, drawn, path_lines, polygon_points

STYLE = load_style()
SQUARE = TileGeometry("square", 1, "any", 1)
TSURO = TileGeometry("square", 2, "pairs", 1)
HEX1 = TileGeometry("hex", 1, "any", 1)  # the classic ends, single-sided: drawn by the any-geometry renderer
HEX2 = TileGeometry("hex", 2, "pairs", 2)
SQUARE2 = TileGeometry("square", 2, "any", 2)
HEX1_PAIRS = TileGeometry("hex", 1, "pairs", 1)
SQUARE_PAIRS = TileGeometry("square", 1, "pairs", 1)


@cache
def side_svg(side: Side, style=STYLE, bleed_mm: float = 0.0, face: str = "front") -> str:
    return render_side(Tile("7", side, side), face, style, bleed_mm=bleed_mm)


def folds(root, width: float) -> list[int]:
    """The trails whose centre line turns tighter than half the stroke's width anywhere but under a junction's
    disc: there the inner edge of the stroke folds over (a kink)."""
    found = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "trail":
            continue
        discs = np.array([(float(c.get("cx")), float(c.get("cy"))) for c in g.findall(f"{SVG}circle")]).reshape(-1, 2)
        for line in path_lines(g.find(f"{SVG}path").get("d")):
            steps = np.diff(line, axis=0)
            v1, v2, at = steps[:-1], steps[1:], line[1:-1]
            turn = np.abs(np.arctan2(v1[:, 0] * v2[:, 1] - v1[:, 1] * v2[:, 0], (v1 * v2).sum(axis=1)))
            run = (np.linalg.norm(v1, axis=1) + np.linalg.norm(v2, axis=1)) / 2
            free = ~(np.linalg.norm(at[:, None] - discs[None], axis=2) < width / 2).any(axis=1)
            if (free & (run > 0.01) & (turn * width / 2 > run)).any():
                found.append(int(g.get("data-trail")))
    return found


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
    assert not folds(root, width), f"{side}: the stroke of trail {folds(root, width)} folds"
    crowded = side_layout(side, style).crowded  # the last resort (sidesearch.CROWDED): decks may touch or overlap
    for a in range(len(decks)):
        for b in range(a + 1, len(decks)):
            assert crowded or decks[a].distance(decks[b]) > 0.5, side
    used = [0] * len(decks)
    for i in range(len(side.trails)):
        for j in range(i + 1, len(side.trails)):
            meet = trails[i][0].intersection(trails[j][0])
            pieces = [p for p in ([] if meet.is_empty else getattr(meet, "geoms", [meet])) if p.area > 1e-9]
            assert len(pieces) >= pair_crossings(side.trails[i], side.trails[j]), (side, i, j)  # more: see model
            for piece in pieces:
                inside = [k for k, deck in enumerate(decks) if piece.difference(deck).area < 1e-6]
                assert inside, f"{side}: trails {i} and {j} meet outside a bridge"  # crowded sides too
                assert crowded or len(inside) == 1, f"{side}: trails {i} and {j} meet under overlapping decks"
                used[inside[0]] += 1
            if not pieces:
                assert trails[i][0].distance(trails[j][0]) > 0.1 * width, (side, i, j)
    assert crowded or used == [1] * len(decks), side


@pytest.mark.parametrize(("geometry", "stride"), [(SQUARE, 1), (TSURO, 5)], ids=str)
def test_the_designs_of_the_small_geometries_are_drawn_as_promised(geometry, stride):
    for side in designs(geometry)[::stride]:
        check_side(side)


def _read_back(job: tuple[TileGeometry, int]) -> tuple[int, bool, str]:
    """(design number, drawn crowded, why it fails or "") of one design: a worker of the exhaustive read-back."""
    geometry, k = job
    side = designs(geometry)[k]
    try:
        check_side(side)
    except Exception as e:  # noqa: BLE001  (every failure is reported, the first ten by name)
        return k, False, f"{side}: {type(e).__name__}: {str(e)[:200]}"
    return k, side_layout(side, STYLE).crowded, ""


SHARDS = 4  # hex/2/pairs is read back in this many parts, each under a few minutes on 2 cores


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("geometry", "shard"),
    [(HEX1, 0), (HEX1_PAIRS, 0), (SQUARE, 0), (SQUARE_PAIRS, 0), (TSURO, 0), (SQUARE2, 0)]
    + [(HEX2, k) for k in range(SHARDS)],
    ids=str,
)
def test_every_design_of_every_geometry_is_drawn_as_promised(geometry, shard):
    """The read-back of every design of every geometry that can be listed (hex/2/any cannot: the model refuses it),
    on 2 processes; hex/2/pairs in ``SHARDS`` parts (every ``SHARDS``-th design from ``shard``). A busy side may
    be drawn crowded (decks may touch, ``sidesearch.CROWDED``), at most one in twenty."""
    import multiprocessing

    every = range(len(designs(geometry)))[shard :: SHARDS if geometry == HEX2 else 1]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        found = pool.map(_read_back, [(geometry, k) for k in every], chunksize=4)
    failed = [why for _, _, why in found if why]
    crowded = [k for k, busy, _ in found if busy]
    print(f"{geometry}: {len(found)} designs read back, {len(failed)} fail, {len(crowded)} crowded: {crowded}")
    assert not failed, f"{len(failed)} of {len(found)} fail: " + " / ".join(failed[:10])
    assert len(crowded) <= len(found) // 20


@pytest.mark.slow
@pytest.mark.parametrize("fraction", TRAIL_WIDTH_RANGE)
def test_the_small_geometries_draw_at_both_ends_of_the_trail_width_range(fraction):
    style = replace(STYLE, trail_width=fraction)
    for geometry in (SQUARE, TSURO):
        for side in designs(geometry):
            check_side(side, style)


@pytest.mark.slow
@pytest.mark.parametrize(
    "side",
    [
        Side.of([[0, 1], [2, 5], [3, 6], [4, 11], [7, 10], [8, 9]], HEX2),  # was: a U pinched at its end
        Side.of([[0, 2], [1, 5], [3, 9], [4, 6], [7, 10], [8, 11]], HEX2),  # was: a trail past the cut
        Side.of([[0, 2], [1, 8], [3, 10], [4, 9], [5, 6], [7, 11]], HEX2),  # was: trails met outside a bridge
        Side.of([[0], [1, 2, 3, 6], [4, 7], [5]], SQUARE2),  # was: a crossing on an H's link end
        Side.of([[0, 2, 4, 6], [1, 5], [3, 7]], SQUARE2),  # needs 4 bridges, one more than its pairs' minima
    ],
    ids=str,
)
def test_sides_that_failed_the_read_back_are_drawn_as_promised(side):
    check_side(side)


@pytest.mark.slow
def test_a_side_no_level_draws_at_first_gets_more_tries_before_it_is_drawn_crowded():
    side = Side.of([[0, 5], [1, 3], [2, 8], [4, 10], [6, 11], [7, 9]], HEX2)  # crowded with two tries a level
    assert not side_layout(side, STYLE).crowded
    check_side(side)


def _painted(shape, width: float):
    """A trail's stroke as the read-back builds it (flat ends, round joins), in tile units."""
    line = LineString(np.vstack([sample(c, 120) for c in shape.curves]))
    return line.buffer(width / 2, cap_style="flat", join_style="round")


def _bent(trail: tuple[int, int], scale: float, bend: float) -> TrailShape:
    """A two-end trail as ``shapes`` draws one: handles ``scale`` of the chord, stretched and shrunk by ``bend``."""
    (p, n), (q, m) = _exit(HEX2, trail[0]), _exit(HEX2, trail[1])
    chord = float(np.linalg.norm(q - p))
    return TrailShape(trail, (cubic(p, p + chord * scale * (1 + bend) * n, q + chord * scale * (1 - bend) * m, q),))


def test_a_stroke_that_pinches_at_its_end_or_bulges_past_the_cut_is_never_a_candidate():
    pinched, plain = _bent((0, 1), 0.45, 0.3), _bent((0, 1), 0.45, 0.0)  # a U on one edge: its short end bends hard
    bulging = _bent((8, 11), 0.18, 0.6)
    cut = Polygon(HEX2.corners())
    assert _painted(bulging, 0.09).difference(cut.buffer(0.004)).area > 1e-6  # past the cut by over 0.1 mm
    assert not fits(HEX2, bulging, 0.09) and not fits(HEX2, pinched, 0.09) and fits(HEX2, plain, 0.09)
    for trail in [(0, 1), (0, 5), (2, 9), (4, 7), (8, 11)]:  # every candidate that fits stays inside, its width too
        for k, cand in enumerate(_usable(HEX2, trail, 0.09)):
            if k not in _unfit(HEX2, trail, 0.09):
                assert _painted(cand.shape, 0.09).difference(cut.buffer(0.004)).area < 1e-9, (trail, cand.shape)


def test_two_trails_are_sound_only_when_they_meet_under_their_own_decks():
    a = TrailShape((0, 6), (((0.0, -0.7), (0.0, -0.2), (0.0, 0.2), (0.0, 0.7)),))
    b = TrailShape((3, 9), (((-0.7, 0.0), (-0.2, 0.0), (0.2, 0.0), (0.7, 0.0)),))
    near = TrailShape((3, 9), (((0.1, -0.7), (0.1, -0.2), (0.1, 0.2), (0.1, 0.7)),))
    on = deck((0.0, 0.0), math.pi / 2, 0.15, 0.07)
    assert sound(a, b, 0.09, [on])
    assert not sound(a, b, 0.09, [deck((0.03, 0.0), math.pi / 2, 0.15, 0.07)])  # the crossing pokes out
    assert not sound(a, b, 0.09, [])  # a crossing with no deck
    assert not sound(a, near, 0.09, []) and sound(a, near, 0.08, [])  # 0.1 apart: too close at 0.09 wide


def test_a_busy_paired_hex_side_keeps_its_decks_apart():
    kept = layout_side(Side.of([[0, 2], [1, 6], [3, 9], [4, 7], [5, 11], [8, 10]], HEX2))  # 7 crossings
    assert len(kept.bridges) == 7 and not kept.crowded


@pytest.mark.slow
def test_a_side_too_busy_for_decks_apart_still_has_exactly_its_bridges():
    star = Side.of([[k, k + 6] for k in range(6)], HEX2)  # six near-diameters: every pair crosses
    layout = layout_side(star)
    assert star.min_crossings == len(layout.bridges) == 15 and layout.crowded
    for a, b in combinations(layout.shapes, 2):
        assert len(crossings_of(a, b)) == pair_crossings(a.trail, b.trail) == 1
    assert plain_svg(star).count('class="bridge"') == 15


def test_decks_keep_apart_and_off_the_trails_they_do_not_carry():
    side = Side.of([[0, 4], [1, 6], [2, 7], [3, 5]], TSURO)
    layout = layout_side(side)
    assert len(layout.bridges) == side.min_crossings == 4 and not layout.crowded
    boxes = [Polygon(deck_box(b, layout.width)) for b in layout.bridges]
    for a, b in combinations(boxes, 2):
        assert a.distance(b) > 0.0
    for b, box in zip(layout.bridges, boxes, strict=True):
        for k, shape in enumerate(layout.shapes):
            if k not in (b.upper, b.lower):
                assert box.distance(LineString(np.vstack([sample(c) for c in shape.curves]))) > layout.width / 2 - 1e-3


def test_a_rotated_side_is_its_designs_drawing_turned():
    side = Side.of([[0, 5], [1, 3], [2, 6], [4, 7]], TSURO)
    base, turned = layout_side(side), layout_side(side.rotated(1))
    for shape in base.shapes:
        twin = turned.shapes[turned.side.trails.index(tuple(sorted(TSURO.turned(d, 1) for d in shape.trail)))]
        for c1, c2 in zip(shape.curves, twin.curves, strict=True):
            for (x, y), (u, v) in zip(c1, c2, strict=True):
                assert (-y, x) == pytest.approx((u, v))  # a quarter turn clockwise on screen
    centres = sorted((-y, x) for x, y in (b.centre for b in base.bridges))
    assert np.allclose(sorted(b.centre for b in turned.bridges), centres)


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
    side = Side.of([[0, 4], [1, 2], [3, 6], [5, 7]], TSURO)
    svg = render_side(Tile("3", side, side), "front", river)
    root = ET.fromstring(svg)
    cut = root.find(f".//{SVG}clipPath[@id='tw-cut']/{SVG}polygon")
    assert len(cut.get("points").split()) == 4  # the square outline clips the ground art
    assert 'fill="url(#tw-ground)"' in svg or 'clip-path="url(#tw-cut)"' in svg
    assert svg.count('class="bridge"') == side.min_crossings == 2


def test_the_square_board_puts_every_cell_at_its_centre_with_the_tile_outline_and_names_its_landmarks():
    board = load_board("square-jungle")
    svg = render_board(board, STYLE)
    frame = board_frame(board, STYLE, 0.5)
    slots = re.findall(r'<polygon class="board-slot" points="([^"]+)"', svg)
    assert len(slots) == len(board.slots) == 30
    side = STYLE.tile_width_mm + 2 * 0.5  # the slot: the tile and its clearance on every side
    for cell, points in zip(board.slots, slots, strict=True):
        box = Polygon(polygon_points(points))
        assert box.area == pytest.approx(side * side, rel=1e-3)
        assert box.centroid.coords[0] == pytest.approx(frame.at(cell), abs=1e-3)
    assert svg.count('class="board-landmark"') == sum(len(lm.hexes) for lm in board.landmarks) == 9
    assert all(f">{lm.name}</text>" in svg for lm in board.landmarks)
    assert svg.count('class="board-connector"') == 2
    root = ET.fromstring(svg)
    walls = [p for g in root.iter(f"{SVG}g") if g.get("fill") == STYLE.board_wall for p in g]
    assert len(walls) == len(frame.walls)
    g, held = board.geometry, set(board.slots) | {c for lm in board.landmarks for c in lm.hexes}
    held |= {c.hex for c in board.connectors} | set(frame.walls)
    assert all(g.neighbour(c, e) in held for c in board.slots for e in range(4))  # closed all round
    assert (6, -1) in frame.walls  # and at the corners (a cell touching only a slot's corner)


def test_a_two_end_connector_prints_two_trails_that_do_not_cross():
    board = load_board("hex-pairs")
    d = connector_path(board, board_frame(board, STYLE), 0)
    assert d.count("M") == 2  # end p of one edge to end m - 1 - p of the other: nested, never crossing
    a, b = [LineString(np.array(re.findall(r"-?[\d.]+", part), float).reshape(-1, 2)) for part in d.split("M")[1:]]
    assert not a.intersects(b)


def test_render_and_preview_take_a_theme_bleed_and_labels_on_every_geometry(tmp_path, capsys):
    out = tmp_path / "art"
    argv = ["render", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(out)]
    assert main([*argv, "--theme", "river", "--bleed", "2"]) == 0
    svg = (out / "tile-01-front.svg").read_text()
    w = 50.0  # the kit's size for square tiles (its profile, square-50mm), which render draws too
    assert f'width="{w + 4:g}mm"' in svg and 'id="tw-cut"' in svg
    assert '">1</text>' in svg and "front" not in svg.split("<metadata>")[0]  # one face: its label is the tile
    tiles = read_tileset("examples/optimized-square-jungle.json")
    assert sum(p.read_text().count('class="bridge"') for p in out.glob("tile-*.svg")) == tiles.crossings
    assert main([*argv, "--no-labels"]) == 0 and '">1</text>' not in (out / "tile-01-front.svg").read_text()
    sheet = tmp_path / "preview.svg"
    assert main(["preview", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(sheet),
                 "--dpi", "10"]) == 0  # fmt: skip
    root = ET.fromstring(sheet.read_text())
    assert root.find(f"{SVG}metadata").text.count('"joined"') == 1
    assert sheet.with_suffix(".png").exists()
    capsys.readouterr()
