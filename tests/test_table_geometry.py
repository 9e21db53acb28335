"""The virtual tables on other tile geometries (issue 44): the play table's page and board, offline."""

import json
import math
import re

import pytest

from generator.render.board import CLEARANCE_MM
from generator.table import draw_pile, play_files, tabletop_files
from generator.table.playtable import board_svg, page_data
from generator.table.tabletop import TILE_UNITS_AT_SCALE_1
from tests.table_helpers import any_table_art

BOARDS = ("square-pathways", "square-jungle", "hex-pairs")


def test_the_classic_pile_is_the_general_pile_with_two_faces_and_six_turns():
    for seed in (0, 7, 2**32 - 1):
        assert draw_pile(30, seed) == draw_pile(30, seed, faces=2, turns=6)


def test_a_single_sided_square_pile_shows_fronts_turned_by_quarters():
    pile = draw_pile(36, 11, faces=1, turns=4)
    assert sorted(d.tile for d in pile) == list(range(36))
    assert {d.face for d in pile} == {"front"} and {d.rot for d in pile} == {0, 1, 2, 3}
    assert pile != draw_pile(36, 11, faces=2, turns=4)  # no coin is drawn: the die rolls come earlier


def _polygons(svg: str, cls: str) -> list[list[tuple[float, float]]]:
    found = re.findall(rf'<polygon class="{cls}" data-slot="\d+" points="([^"]+)"', svg)
    return [[tuple(map(float, p.split(","))) for p in pts.split()] for pts in found]


def test_a_square_tables_slots_are_squares_on_a_grid_of_the_tiles_width_plus_clearance():
    table = any_table_art("square-pathways")
    data, width = page_data(table, 3), table.style.tile_width_mm
    pitch = width + 2 * CLEARANCE_MM
    assert data["geometry"] == {"shape": "square", "turns": 4, "step": 90.0, "ends": 8, "endsPerEdge": 2, "faces": 1}
    centres = dict(zip(table.board.slots, data["slots"], strict=True))
    for (x, y), (cx, cy) in centres.items():
        if (x + 1, y) in centres:
            assert centres[x + 1, y] == pytest.approx([cx + pitch, cy], abs=2e-3)
        if (x, y + 1) in centres:
            assert centres[x, y + 1] == pytest.approx([cx, cy + pitch], abs=2e-3)
    slots = _polygons(board_svg(table), "slot")
    assert len(slots) == 36
    for corners, (cx, cy) in zip(slots, data["slots"], strict=True):
        assert len(corners) == 4
        assert sorted({round(abs(x - cx), 2) for x, _ in corners}) == [round(pitch / 2, 2)]
        assert sorted({round(abs(y - cy), 2) for _, y in corners}) == [round(pitch / 2, 2)]


@pytest.mark.parametrize("name", BOARDS)
def test_joins_pair_each_end_with_its_mirror_on_the_cell_across(name):
    table = any_table_art(name)
    board, g = table.board, table.board.geometry
    joins = page_data(table, 1)["joins"]
    landmark_cells = [set(lm.hexes) for lm in board.landmarks]
    connectors = {c.hex for c in board.connectors}
    seen = set()
    for slot, end, other, other_end in joins:
        across = g.neighbour(board.slots[slot], g.edge_of(end))
        if other < 0:
            assert across in landmark_cells[-1 - other] and other_end == -1
        elif across in connectors:  # a printed trail: the two edges' ends, never crossing
            assert g.neighbour(board.slots[other], g.edge_of(other_end)) == across
        else:
            assert board.slots[other] == across and other_end == g.facing_end(end)
        seen.add((slot, end))
    # every end facing a slot, a landmark or a connector is joined, each end of an edge once
    edges = {(j.a.slot, j.a.direction) for j in board.joins()}
    assert seen >= {(s, g.end_at(e, p)) for s, e in edges for p in range(g.ends_per_edge)}
    assert len(joins) == len(board.joins()) * g.ends_per_edge


def test_a_single_sided_table_carries_fronts_only_and_words_its_turns():
    html = play_files(any_table_art("square-pathways"), 2)["play/index.html"].decode()
    assert 'id="side-0-front"' in html and 'id="side-0-back"' not in html
    assert "a sixth" not in html
    data = json.loads(re.search(r'id="trailwright-data">(.*?)</script>', html).group(1))
    assert len(data["tiles"]) == 36 and data["geometry"]["turns"] == 4


def test_connector_trails_reach_the_ends_they_join():
    table = any_table_art("square-jungle")
    svg = board_svg(table)
    reach = re.findall(r'class="connector-reach" data-slot="(\d+)" data-end="(\d+)" d="M([-\d.]+) ([-\d.]+)', svg)
    assert len(reach) == len(table.board.connectors) * table.board.geometry.ends_per_edge
    frame, g = table.frame, table.board.geometry
    for slot, end, x, y in reach:  # each starts where its slot's tile's end lies, across the slot's clearance
        sx, sy = frame.at(table.board.slots[int(slot)])
        ex, ey = g.end_point(int(end))
        r = frame.tile_radius_mm
        assert math.hypot(float(x) - (sx + r * ex), float(y) - (sy + r * ey)) < 0.01


def test_a_square_single_sided_kit_for_tabletop_simulator_has_box_tiles_without_backs_snapped_to_a_square_grid():
    jsonschema = pytest.importorskip("jsonschema")
    from tests.test_table_tabletop import BASE, local_to_world, png, saved, schema

    table = any_table_art("square-pathways")
    files = tabletop_files(table, BASE, tile_dpi=30, board_dpi=20)
    data = saved(files)
    jsonschema.Draft202012Validator(schema()).validate(data)
    tiles = next(o for o in data["ObjectStates"] if o["Name"] == "Bag")["ContainedObjects"]
    assert len(tiles) == 36 and not any(n.endswith("-back.png") for n in files)
    width_in = table.style.tile_width_mm / 25.4
    for tile, obj in zip(table.tileset, tiles, strict=True):
        image = obj["CustomImage"]
        assert image["CustomTile"]["Type"] == 0 and image["ImageSecondaryURL"] == ""
        assert obj["Nickname"] == f"Tile {tile.id} ({tile.id}F)" and obj["Description"] == f"front: {tile.front}"
        picture = png(files, image["ImageURL"])
        assert picture.width == picture.height  # a square's box
        assert obj["Transform"]["scaleZ"] * TILE_UNITS_AT_SCALE_1 == pytest.approx(width_in, abs=1e-3)
    mat = data["ObjectStates"][0]
    snaps = [local_to_world(s["Position"], mat["Transform"]) for s in mat["AttachedSnapPoints"]]
    pitch = (table.style.tile_width_mm + 2 * CLEARANCE_MM) / 25.4
    at = dict(zip(table.board.slots, snaps, strict=True))
    for (x, y), (wx, wz) in at.items():  # x to the right, y down the board: z towards the first seat
        if (x + 1, y) in at:
            assert at[x + 1, y] == pytest.approx((wx + pitch, wz), abs=1e-3)
        if (x, y + 1) in at:
            assert at[x, y + 1] == pytest.approx((wx, wz - pitch), abs=1e-3)
    assert [o["Name"] for o in data["ObjectStates"] if o["Name"].startswith("Die_")] == ["Die_6", "Die_4"]
    readme = files["tabletop/README.txt"].decode()
    assert "coin" not in readme and "rotation snap to 90 degrees so one press is one quarter" in readme


def test_hostile_ids_and_landmark_names_on_a_square_table_stay_text():
    from dataclasses import replace

    from generator.model import Tile, TileSet
    from tests.table_helpers import HOSTILE_IDS

    table = any_table_art("square-pathways")
    ids = [f"{HOSTILE_IDS[i % len(HOSTILE_IDS)]}{i}" for i in range(len(table.tileset))]
    tiles = TileSet(tuple(Tile.single(i, t.front) for i, t in zip(ids, table.tileset, strict=True)))
    board = table.board.with_printed({"North": "<img src=x onerror=alert(1)>"})
    html = play_files(replace(table, tileset=tiles, board=board), 1)["play/index.html"].decode()
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert html.count("<script") == 3 and html.count("</script>") == 3  # the data, play.js and names.js


@pytest.mark.parametrize(("name", "kind", "images"), [("square-jungle", 0, 30), ("hex-pairs", 1, 74)])
def test_tabletop_kits_of_the_other_examples_validate_with_their_tile_shape(name, kind, images):
    jsonschema = pytest.importorskip("jsonschema")
    from tests.test_table_tabletop import BASE, saved, schema

    files = tabletop_files(any_table_art(name), BASE, tile_dpi=20, board_dpi=15)
    data = saved(files)
    jsonschema.Draft202012Validator(schema()).validate(data)
    tiles = next(o for o in data["ObjectStates"] if o["Name"] == "Bag")["ContainedObjects"]
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in tiles} == {kind}
    assert len([n for n in files if n.startswith("tabletop/images/tile-")]) == images


def test_the_classic_page_has_the_classic_geometry_and_joins_one_an_edge():
    from tests.table_helpers import table_art

    html = play_files(table_art(), 1)["play/index.html"].decode()
    data = json.loads(re.search(r'id="trailwright-data">(.*?)</script>', html).group(1))
    assert data["geometry"] == {"shape": "hex", "turns": 6, "step": 60, "ends": 6, "endsPerEdge": 1, "faces": 2}
    board = table_art().board
    assert data["joins"][0] == [board.joins()[0].a.slot, board.joins()[0].a.direction, *data["joins"][0][2:]]
    assert len(data["joins"]) == len(board.joins())  # one an edge, as the classic scorer joins them


def test_a_square_mat_shows_an_empty_slot_under_every_snap_point_whatever_board_art_the_kit_drew():
    from dataclasses import replace

    from tests.test_publish_standin import standin_board
    from tests.test_table_tabletop import BASE, local_to_world, png, saved

    table = replace(any_table_art("square-pathways"), board_svg=standin_board())  # a kit's own board art
    files = tabletop_files(table, BASE, tile_dpi=20, board_dpi=30)
    mat = saved(files)["ObjectStates"][0]
    image = png(files, mat["CustomImage"]["ImageURL"]).convert("RGB")
    t = mat["Transform"]
    px_per_unit = image.height / (t["scaleZ"] * TILE_UNITS_AT_SCALE_1)
    slot = tuple(int(table.style.board_slot[k : k + 2], 16) for k in (1, 3, 5))
    half = table.style.tile_width_mm / 2 / 25.4 * px_per_unit  # half a tile, in pixels
    for snap in mat["AttachedSnapPoints"]:
        x, z = local_to_world(snap["Position"], t)
        u, v = image.width / 2 + x * px_per_unit, image.height / 2 - z * px_per_unit
        # below the slot's number (printed in its middle, as on the kit's board) and at its corners
        for du, dv in ((0, 0.5), (0.8, 0.8), (-0.8, 0.8), (0.8, -0.8), (-0.8, -0.8)):
            pixel = image.getpixel((round(u + du * half), round(v + dv * half)))
            assert max(abs(a - b) for a, b in zip(pixel, slot, strict=True)) <= 3, (x, z, pixel)
