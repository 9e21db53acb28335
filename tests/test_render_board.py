"""The board and maze previews: slot sizes with clearance, trail ends that meet the tiles, the scorer's layouts."""

import json
import math
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from generator.board import SlotSide
from generator.render import load_style, render_board, render_preview, render_sheet
from generator.render.board import board_frame
from generator.scoring.kernel import sample_layouts
from generator.scoring.reference import placed_sides, score_layout
from tests.test_render_geometry import SVG, path_lines, polygon_points

STYLE = load_style()


def _meta(svg):
    return json.loads(ET.fromstring(svg).find(f"{SVG}metadata").text)


def _polygons_filled(root, colour):
    for g in root.iter(f"{SVG}g"):
        if g.get("fill") == colour:
            return [np.array(polygon_points(p.get("points"))) for p in g.findall(f"{SVG}polygon")]
    return []


@pytest.mark.parametrize("clearance", [0.0, 0.5, 1.0])
def test_slots_are_tiles_grown_by_the_clearance(classic, clearance):
    svg = render_board(classic, STYLE, clearance_mm=clearance)
    root = ET.fromstring(svg)
    frame = board_frame(classic, STYLE, clearance)
    assert root.get("width") == f"{frame.width_mm:.3f}".rstrip("0").rstrip(".") + "mm"
    slots = _polygons_filled(root, STYLE.board_slot)
    assert len(slots) == 20
    for poly in slots:
        centre = poly.mean(axis=0)
        apothem = min(np.linalg.norm((poly[k] + poly[(k + 1) % 6]) / 2 - centre) for k in range(6))
        assert apothem - STYLE.tile_height_mm / 2 == pytest.approx(clearance, abs=0.002)
    assert _meta(svg)["clearance_mm"] == clearance


def _ends(svg_part_paths):
    out = []
    for d in svg_part_paths:
        for line in path_lines(d):
            out += [tuple(np.round(line[0], 2)), tuple(np.round(line[-1], 2))]
    return out


def _tile_edge_midpoint(frame, board, side: SlotSide):
    x, y = frame.at(board.slots[side.slot])
    a = math.radians(60 * side.direction)
    r = STYLE.tile_height_mm / 2
    return np.array([x + r * math.sin(a), y - r * math.cos(a)])


def test_landmark_and_connector_trails_end_on_the_tiles_edges(classic):
    frame = board_frame(classic, STYLE, 0.5)
    root = ET.fromstring(render_board(classic, STYLE))
    ends = np.array(_ends(p.get("d") for p in root.iter(f"{SVG}path") if p.get("stroke") == STYLE.trail_edge))
    widths = {float(p.get("stroke-width")) for p in root.iter(f"{SVG}path") if p.get("stroke") == STYLE.trail_edge}
    assert sorted(widths) == pytest.approx([STYLE.trail_width_mm], abs=1e-3)  # as wide as the tiles' exits
    wanted = [s for lm in classic.landmarks for s in lm.sides] + [s for c in classic.connectors for s in (c.a, c.b)]
    assert len(wanted) == 3 + 6 + 2 + 2 + 3 + 3 + 14
    for side in wanted:
        target = _tile_edge_midpoint(frame, classic, side)
        assert np.linalg.norm(ends - target, axis=1).min() < 0.01, side
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert all(lm.name in texts for lm in classic.landmarks)


def test_the_wall_closes_every_other_side(classic):
    frame = board_frame(classic, STYLE, 0.5)
    from generator.board import neighbour

    for side in classic.wall_sides():
        assert neighbour(classic.slots[side.slot], side.direction) in frame.walls


def test_hexagon37_board_renders(hexagon37):
    assert _meta(render_board(hexagon37, STYLE))["slots"] == 37


def test_a_preview_shows_the_layout_the_scorer_scores(random20, classic):
    svg = render_preview(random20, classic, STYLE, 11)
    meta = _meta(svg)
    perm, flip, rot = sample_layouts(20, 1, 11)
    (layout,) = meta["layouts"]
    assert layout["tiles"] == [random20.tiles[int(p)].id for p in perm[0]]
    assert layout["flip"] == [int(f) for f in flip[0]] and layout["rot"] == [int(r) for r in rot[0]]
    _, _, joined = score_layout(classic, placed_sides(random20, perm[0], flip[0], rot[0]))
    assert len(layout["joined"]) == joined
    assert f"{joined} of 15 landmark pairs joined" in svg
    assert render_preview(random20, classic, STYLE, 11) == svg
    assert STYLE.preview_highlight[0] in svg
    assert STYLE.preview_highlight[0] not in render_preview(random20, classic, STYLE, 11, highlight=False)


def test_a_preview_draws_each_tile_rotated_in_its_slot(random20, classic):
    svg = render_preview(random20, classic, STYLE, 4)
    _, _, rot = sample_layouts(20, 1, 4)
    turns = [int(r) for r in re.findall(r'rotate\((\d+)\)"[^>]*><polygon', svg)]
    assert turns == [60 * int(r) for r in rot[0]]


def test_a_sheet_holds_count_layouts(random20, classic):
    svg = render_sheet(random20, classic, STYLE, 2, 4)
    meta = _meta(svg)
    assert meta["count"] == 4 and len(meta["layouts"]) == 4
    frame = board_frame(classic, STYLE, 0.5)
    width = float(ET.fromstring(svg).get("width")[:-2])
    assert width == pytest.approx(2 * frame.width_mm + 8, abs=0.01)
    perm, _, _ = sample_layouts(20, 4, 2)
    assert [m["tiles"][0] for m in meta["layouts"]] == [random20.tiles[int(p[0])].id for p in perm]
