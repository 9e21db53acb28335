"""Kits of other tile geometries (issue 44): the sheets cut square and hexagonal tiles at their exact size,
single-sided kits print no backs, ``new --board`` makes a project of every example board, and ``check`` passes
on such a kit and fails a tile of the wrong size."""

import io
import json
import math
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pdfplumber
import pytest
from shapely.geometry import LineString, Polygon

from generator.board import load_board
from generator.cli import main
from generator.model import read_tileset
from generator.model.tiles import TileSet
from generator.preflight import preflight, recorded_profile
from generator.publish.bookletkit import rendered_templates
from generator.publish.claims import markup_text
from generator.publish.kit import publish_kit
from generator.publish.layout import TileMarks, plan_single
from generator.publish.outline import Outline, hex_bleed, hex_corners, hex_marks
from generator.publish.pdf import CUT
from generator.publish.settings import load_paper, load_profile, load_settings
from generator.publish.sources import layout_sources
from generator.render.style import load_style
from generator.scoring.figures import Figures
from generator.units import PT_PER_MM

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "generator" / "publish" / "booklet" / "templates"
FIGURES = Figures(-1.0, 0.5, 0.9, 9.0, 1000, 1, ())
EXAMPLES = {"square-jungle": 50.0, "square-pathways": 50.8, "hex-pairs": 63.5}


@lru_cache(maxsize=4)
def sources(board_name: str, width: float, tiles: int):
    """Kit sources for the first ``tiles`` tiles of an example board's example set, ``width`` mm wide."""
    full = read_tileset(ROOT / "examples" / f"optimized-{board_name}.json")
    tileset = TileSet(full.tiles[:tiles])
    style = replace(load_style(), tile_width_mm=width)
    return layout_sources(tileset, load_board(board_name), style, FIGURES, f"optimized-{board_name}.json", TEMPLATES)


def settings(shape="square", **changes):
    profile = {"square": "square-50mm", "hex": "thegamecrafter-medium-hex"}[shape]
    return replace(load_settings(), papers=("a4",), dpi=60, profile=profile, **changes)


def plain_art(width_mm: float, labels: bool = True):
    """Side art of one colour over the cut box and its bleed (drawn at once, unlike a paired hex side)."""

    def art(tile, face, bleed_mm):
        w = h = width_mm + 2 * bleed_mm
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="{-w / 2} {-h / 2} {w} {h}">'
            f'<rect x="{-w / 2}" y="{-h / 2}" width="{w}" height="{h}" fill="#e9dfc7"/></svg>'
        )

    return art


def cut_outlines(pdf: bytes) -> list[set[tuple[float, float]]]:
    """The corners of every cut line (stroked in the cut colour) on a sheet drawn with cut lines, in mm."""
    colour = pytest.approx((CUT.red, CUT.green, CUT.blue), abs=0.01)
    found = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            for shape in page.curves + page.rects:  # pdfplumber reads an upright square as a rect
                if shape.get("stroke") and tuple(shape.get("stroking_color") or ()) == colour:
                    points = shape["pts"] if "pts" in shape and shape["pts"] else None
                    if points is None:
                        x0, x1, y0, y1 = shape["x0"], shape["x1"], shape["y0"], shape["y1"]
                        points = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
                    found.append({(round(x / PT_PER_MM, 3), round(y / PT_PER_MM, 3)) for x, y in points})
    return found


@pytest.mark.parametrize(("board", "width", "corners"), [("square-pathways", 50.0, 4), ("hex-pairs", 63.5, 6)])
def test_the_sheets_cut_line_is_the_tiles_outline_at_its_exact_size(board, width, corners):
    src = replace(sources(board, width, 1), art_for_width=plain_art)  # the cut, not the art, is under test
    files = publish_kit(src, settings(documents=("sheets",), cut_lines=True))
    name = "print/tiles-a4-single.pdf" if src.tileset.geometry.faces == 1 else "print/tiles-a4-duplex.pdf"
    outlines = cut_outlines(files[name])
    assert len(outlines) == src.tileset.geometry.faces  # a front, and a back behind it when double-sided
    expected = Outline.of(src.tileset.geometry)
    for distinct in outlines:
        assert len(distinct) == corners
        xs, ys = zip(*distinct, strict=True)
        assert max(xs) - min(xs) == pytest.approx(width, abs=0.01)
        assert max(ys) - min(ys) == pytest.approx(expected.height(width), abs=0.01)
        cx, cy = sum(xs) / corners, sum(ys) / corners
        ring = Polygon(sorted(distinct, key=lambda p: math.atan2(p[1] - cy, p[0] - cx)))
        assert ring.area == pytest.approx(Polygon(expected.corners(0, 0, width)).area, rel=1e-4)


def test_a_single_sided_kit_prints_no_backs_and_says_why():
    warnings = []
    src = sources("square-pathways", 50.0, 3)
    files = publish_kit(src, settings(documents=("tiles", "sheets", "manufacturer")), warn=warnings.append)
    assert not [n for n in files if "duplex" in n or "foldover" in n or "back" in n]
    assert {n for n in files if n.startswith("print/")} == {"print/tiles-a4-single.pdf"}
    assert len([n for n in files if n.startswith("tiles/tile-")]) == 3
    assert any("duplex and fold-over" in w and "single-sided" in w for w in warnings)
    assert len([n for n in files if n.startswith("manufacturer/square-50mm/tile-") and n.endswith(".png")]) == 3


def test_single_sided_sheets_hold_only_fronts():
    marks = TileMarks.of(50.0, load_settings(), load_board("square-pathways").geometry)
    plan = plan_single(30, load_paper("a4"), marks, load_settings())
    assert {face for page in plan.pages for _, face, _ in page} == {"front"}
    assert sorted(i for page in plan.pages for i, _, _ in page) == list(range(30))


def test_a_kit_of_other_tiles_has_its_virtual_tables():
    import json

    warnings = []
    src = replace(sources("square-jungle", 50.0, 2), asset_url="file:///tmp/tabletop/")
    files = publish_kit(src, settings(documents=("tiles", "tabletop", "play")), warn=warnings.append)
    assert "play/index.html" in files and not [w for w in warnings if w.startswith("skipped")]
    saved = json.loads(files["tabletop/Trailwright.json"])
    tiles = [o for o in saved["ObjectStates"] if o.get("Name") == "Custom_Tile"]
    assert tiles and all(t["CustomImage"]["CustomTile"]["Type"] == 0 for t in tiles)  # square boxes
    assert all(not t["CustomImage"].get("ImageSecondaryURL") for t in tiles)  # single-sided: no back image


def rounded(points) -> list[tuple[float, float]]:
    return sorted((round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in points)


def test_the_tuned_hexagon_equals_the_outline_read_from_corners():
    generic, tuned = Outline("hex", tuned=False), Outline("hex")
    assert tuned.exact_hex and not generic.exact_hex
    assert generic.height(63.5) == pytest.approx(tuned.height(63.5), abs=1e-9)
    assert rounded(generic.corners(3, 4, 63.5)) == rounded(hex_corners(3, 4, 63.5))
    assert Polygon(generic.bleed(3, 4, 63.5, 3.0)).symmetric_difference(Polygon(hex_bleed(3, 4, 63.5, 3.0))).area < 1e-6
    ours = sorted(tuple(round(v, 6) for p in m for v in p) for m in generic.marks(3, 4, 63.5, 3, 0.75, 3))
    theirs = sorted(tuple(round(v, 6) for p in m for v in p) for m in hex_marks(3, 4, 63.5, 3, 0.75, 3))
    assert ours == theirs


def test_square_crop_marks_sit_on_the_edge_lines_outside_the_bleed():
    outline = Outline("square")
    bleed = Polygon(outline.bleed(0, 0, 50.0, 3.0))
    assert bleed.bounds == pytest.approx((-28, -28, 28, 28))
    marks = outline.marks(0, 0, 50.0, 3.0, 0.75, 3.0)
    assert len(marks) == 8
    for (x0, y0), (x1, y1) in marks:
        assert min(abs(abs(v) - 25) for v in (x0, y0)) < 1e-9  # on the line x = ±25 or y = ±25
        assert math.dist((x0, y0), (x1, y1)) == pytest.approx(3.0)
        assert bleed.distance(LineString([(x0, y0), (x1, y1)])) == pytest.approx(0.75)


def test_square_profiles_cut_50_mm_and_2_in():
    assert load_profile("square-50mm").trim_width_mm == pytest.approx(50.0)
    assert load_profile("square-2in").trim_width_mm == pytest.approx(50.8)
    for name in ("square-50mm", "square-2in"):
        profile = load_profile(name)
        assert profile.shape == "square" and profile.outline.height(10.0) == pytest.approx(10.0)


def test_a_profile_of_another_shape_is_refused_in_one_line():
    src = sources("square-jungle", 63.5, 2)
    with pytest.raises(Exception, match="cuts hexagon tiles but these tiles are squares"):
        publish_kit(src, settings("hex", documents=("manufacturer",)))


def test_the_booklet_words_the_tiles_geometry():
    square = markup_text(rendered_templates(sources("square-pathways", 50.0, 2), load_settings()))
    assert "single-sided square trail tiles" in square and "one quarter clockwise" in square
    assert "toss the coin" not in square and "two trail ends on each edge" in square
    assert "sixth" not in square and "by a quarter turn" in square  # the rules' turn in the tiles' own unit
    hexes = markup_text(rendered_templates(sources("hex-pairs", 63.5, 2), load_settings()))
    assert "double-sided hexagonal trail tiles" in hexes and "toss the coin" in hexes
    assert "one sixth clockwise" in hexes and "Every trail joins exactly two ends" in hexes


@pytest.mark.parametrize("board", list(EXAMPLES))
def test_new_makes_a_project_of_every_example_board(board, tmp_path, capsys):
    folder = tmp_path / board
    assert main(["new", str(folder), "--board", board, "--seed", "4"]) == 0
    out = capsys.readouterr().out
    tiles = read_tileset(folder / "tileset.json")
    game = load_board(str(folder / "board.toml"))
    assert tiles.geometry == game.geometry == load_board(board).geometry
    assert len(tiles) == game.tile_count
    assert "trailwright publish" in out and "trailwright playtest" in out


def test_check_passes_on_a_square_kit_and_fails_a_tile_of_the_wrong_size(tmp_path):
    src = sources("square-jungle", 50.0, 4)
    files = publish_kit(src, settings(documents=("sheets", "manufacturer")))
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    findings = preflight([tmp_path])
    assert [f.line() for f in findings if not f.ok] == []
    whats = {f.what for f in findings}
    assert {"die line's shape and size", "tiles' cut size and crop marks"} <= whats
    # the same sheet claiming 49 mm tiles: its tiles are not what it says
    sheet = tmp_path / "print" / "tiles-a4-single.pdf"
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(sheet))
    subject = str(writer.metadata["/Subject"]).replace("; tile 50 mm;", "; tile 49 mm;")
    writer.add_metadata({"/Subject": subject})
    bad = tmp_path / "bad" / "tiles-a4-single.pdf"
    bad.parent.mkdir()
    writer.write(bad)
    failed = {f.what for f in preflight([bad]) if not f.ok}
    assert "tiles' cut size and crop marks" in failed
    # a factory's die line is checked against the profile the kit records (kit.json), not the default hexagon
    assert recorded_profile([tmp_path]) == "square-50mm" == recorded_profile([sheet])
    factory = tmp_path / "factory" / "tiles.pdf"
    factory.parent.mkdir()
    factory.write_bytes((tmp_path / "manufacturer" / "square-50mm" / "dieline.pdf").read_bytes())
    failed = {f.what for f in preflight([tmp_path / "factory"]) if not f.ok}
    assert not failed & {"die line's shape and size", "page size", "tile size"}


@pytest.mark.slow
def test_publish_makes_a_whole_square_kit_that_check_passes(tmp_path, capsys):
    out = tmp_path / "kit"
    path = "examples/optimized-square-pathways.json"
    assert main(["publish", path, "--board", "square-pathways", "--paper", "a4", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "not made: skipped the duplex and fold-over sheets" in text
    record = json.loads((out / "kit.json").read_text())
    assert record["tile_width_mm"] == 50.0 and record["settings"]["profile"] == "square-50mm"
    assert (out / "print" / "rules.pdf").is_file() and (out / "print" / "tiles-a4-single.pdf").is_file()
    assert main(["check", str(out)]) == 0


def test_a_new_square_project_publishes_in_a_theme(tmp_path, capsys):
    project = tmp_path / "jungle"
    assert main(["new", str(project), "--board", "square-jungle"]) == 0
    settings_file = project / "settings.toml"
    text = settings_file.read_text()
    text = text.replace("score_samples = 100000", "score_samples = 2000").replace("\ndpi = 300", "\ndpi = 150")
    settings_file.write_text(text)
    out = tmp_path / "kit"
    argv = ["publish", str(project), "--only", "tiles,sheets", "--paper", "a4", "--theme", "river", "--out", str(out)]
    assert main(argv) == 0
    assert (out / "print" / "tiles-a4-single.pdf").is_file()
    side = (out / "tiles" / "tile-01-front.svg").read_text()
    assert 'fill="#e6d3a3"' in side and 'id="tw-cut"' in side  # the river theme's ground and art, cut square


@pytest.mark.parametrize(("board", "width"), [("square-pathways", 50.0), ("square-jungle", 50.8)])
def test_the_side_art_is_the_cut_box_plus_bleed_and_runs_each_trail_into_the_bleed(board, width):
    import io

    import cairosvg
    from PIL import Image

    src = sources(board, width, 1)
    svg = src.art_for_width(width)(src.tileset.tiles[0], "front", 3.0)
    root = svg[: svg.index(">")]
    assert f'width="{width + 6:g}mm"' in root and f'viewBox="{-(width + 6) / 2:g} ' in root
    px = 20  # pixels a mm
    image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode(), output_width=round((width + 6) * px))))
    image = image.convert("RGB")
    g = src.tileset.geometry
    xs = [x for x, _ in g.corners()]
    radius = width / (max(xs) - min(xs))  # mm per unit of the geometry's circumradius
    ground = image.getpixel((2, 2))
    for end in range(g.ends):
        x, y = g.end_point(end)
        norm = math.hypot(x, y)
        for mm in (0.0, 1.5, 2.8):  # at the cut, and through the bleed past it
            at = ((x / norm) * mm + x * radius + width / 2 + 3, (y / norm) * mm + y * radius + width / 2 + 3)
            colour = image.getpixel((round(at[0] * px), round(at[1] * px)))
            assert max(abs(a - b) for a, b in zip(colour, ground, strict=True)) > 40, (end, mm, colour, ground)


def _strokes(pdf: bytes) -> list[list[tuple[tuple[float, float], tuple[float, float]]]]:
    """Every straight two-point stroke (the crop marks) of each page, in mm from the top left (as ``cut_outlines``)."""
    pages = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            lines = [((ln["x0"], ln["top"]), (ln["x1"], ln["bottom"])) for ln in page.lines]
            pages.append([tuple((round(x / PT_PER_MM, 3), round(y / PT_PER_MM, 3)) for x, y in ln) for ln in lines])
    return pages


def test_square_tiles_lie_edge_to_edge_with_shared_straight_cuts_as_many_as_fit():
    """Squares are sheeted in rows and columns that share their cut lines: the most that fit with the block's
    bleed and marks (3 x 5 of 50 mm on A4), each exactly 50 mm, every neighbour sharing an edge, and a crop mark on
    every cut line at both ends outside the block."""
    s = settings(documents=("sheets",), cut_lines=True)
    src = replace(sources("square-pathways", 50.0, 15), art_for_width=plain_art)
    marks = TileMarks.of(50.0, s, src.tileset.geometry)
    room = (210 - 2 * s.margin_mm, 297 - 2 * s.margin_mm - s.footer_mm)
    edge = 2 * (s.bleed_mm + s.mark_offset_mm + s.mark_length_mm)
    assert (int((room[0] - edge) // 50), int((room[1] - edge) // 50)) == (3, 5)
    plan = plan_single(15, load_paper("a4"), marks, s)
    assert len(plan.pages) == 1 and len(plan.pages[0]) == 15
    pdf = publish_kit(src, s)["print/tiles-a4-single.pdf"]
    outlines = cut_outlines(pdf)
    assert len(outlines) == 15
    for corners in outlines:
        px, py = zip(*corners, strict=True)
        assert max(px) - min(px) == pytest.approx(50.0, abs=0.01)
        assert max(py) - min(py) == pytest.approx(50.0, abs=0.01)
    shared = sum(len(a & b) == 2 for i, a in enumerate(outlines) for b in outlines[i + 1 :])
    assert shared == 3 * 4 + 2 * 5  # every neighbour, across and down, shares a whole edge
    xs, ys = {x for c in outlines for x, _ in c}, {y for c in outlines for _, y in c}
    assert len(xs) == 4 and len(ys) == 6  # the cuts run straight across the block
    (marks_on_page,) = _strokes(pdf)
    for x in xs:  # a vertical cut: a mark on its line above the block and one below
        on = [m for m in marks_on_page if all(abs(p[0] - x) < 0.01 for p in m)]
        assert any(min(p[1] for p in m) > max(ys) for m in on) and any(max(p[1] for p in m) < min(ys) for m in on)
    for y in ys:
        on = [m for m in marks_on_page if all(abs(p[1] - y) < 0.01 for p in m)]
        assert any(min(p[0] for p in m) > max(xs) for m in on) and any(max(p[0] for p in m) < min(xs) for m in on)


def test_square_backs_lie_behind_their_fronts_in_a_mirrored_block():
    from generator.publish.layout import clip, plan_duplex, plan_foldover

    s = load_settings()
    marks = TileMarks.of(50.0, s, load_board("square-pathways").geometry)
    for plan in (plan_duplex(7, load_paper("a4"), marks, s), plan_foldover(7, load_paper("a4"), marks, s)):
        fronts = {i: c for page in plan.pages for i, f, c in page if f == "front"}
        backs = {i: c for page in plan.pages for i, f, c in page if f == "back"}
        axis = 210.0 if plan.kind == "duplex" else 2 * plan.fold_x
        assert all(backs[i] == pytest.approx((axis - x, y)) for i, (x, y) in fronts.items())
        for page in plan.pages:  # a clip grows the bleed only where no neighbour of its own face lies
            for face in ("front", "back"):
                block = frozenset(c for _, f, c in page if f == face)
                for cx, cy in block:

                    def open_side(dx, dy, cx=cx, cy=cy, block=block):
                        return s.bleed_mm * ((round(cx + dx, 4), round(cy + dy, 4)) not in block)

                    expected = (
                        cx - 25 - open_side(-50, 0),
                        cy - 25 - open_side(0, -50),
                        cx + 25 + open_side(50, 0),
                        cy + 25 + open_side(0, 50),
                    )
                    assert Polygon(clip(marks, (cx, cy), block)).bounds == pytest.approx(expected)


def test_check_passes_a_square_block_and_fails_one_whose_marks_are_gone(tmp_path):
    from pypdf import PdfReader, PdfWriter

    src = sources("square-jungle", 50.0, 7)
    files = publish_kit(src, settings(documents=("sheets",)))
    sheet = tmp_path / "print" / "tiles-a4-single.pdf"
    sheet.parent.mkdir(parents=True)
    sheet.write_bytes(files["print/tiles-a4-single.pdf"])
    found = [f for f in preflight([sheet]) if f.what == "tiles' cut size and crop marks"]
    assert found and all(f.ok for f in found) and "7 square" in found[0].line()
    writer = PdfWriter(clone_from=PdfReader(sheet))  # the same sheet claiming 52 mm tiles
    writer.add_metadata({"/Subject": str(writer.metadata["/Subject"]).replace("; tile 50 mm;", "; tile 52 mm;")})
    bad = tmp_path / "bad" / "tiles-a4-single.pdf"
    bad.parent.mkdir()
    writer.write(bad)
    assert not all(f.ok for f in preflight([bad]) if f.what == "tiles' cut size and crop marks")
