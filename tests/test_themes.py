"""Themes: a designer's art on the tiles, with the maze's guarantees kept whatever the art draws."""

from __future__ import annotations

import io
import shutil
from dataclasses import replace
from pathlib import Path

import cairosvg
import numpy as np
import pytest
from PIL import Image
from shapely.geometry import Point
from shapely.ops import unary_union

from generator.cli import main
from generator.errors import TrailwrightError
from generator.model import Tile
from generator.render import load_style, render_side
from tests.conftest import EXAMPLES
from tests.test_render_geometry import ALL_SIDES, check_side, drawn

RIVER = Path(__file__).resolve().parents[1] / "generator" / "themes" / "river"
RED = '<rect x="-500" y="-500" width="1000" height="1000" fill="#ff0000"/>'  # far bigger than any box it is put in


def theme(tmp_path: Path, toml: str = "", **art: str) -> Path:
    """A theme folder: ``theme.toml`` (``toml``, then an [art] table naming each file of ``art``) and the files."""
    folder = tmp_path / "theme"
    folder.mkdir(exist_ok=True)
    lines = [toml, "[art]"] + [f'{key} = "{key}.svg"' for key in art]
    (folder / "theme.toml").write_text("\n".join(lines) + "\n")
    for key, svg in art.items():
        (folder / f"{key}.svg").write_text(svg)
    return folder


def svg(inner: str, view: str = "0 0 10 10") -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}">{inner}</svg>'


def test_the_river_theme_loads_with_its_name_credits_and_art():
    style = load_style(RIVER)
    assert style.art is not None and style.art.name == "River" and "CC0" in style.art.credits[0]
    assert style.trail_fill == "#4f8fc0" and style.tile_width_mm == load_style().tile_width_mm  # style keys overlay
    assert style.art.bridge is not None and len(style.art.decorations) == 4
    assert style.to_dict()["theme"]["name"] == "River"


@pytest.mark.parametrize("side", ALL_SIDES, ids=str)
def test_every_partition_keeps_its_promises_in_the_river_theme(side):
    check_side(side, RIVER_STYLE)


RIVER_STYLE = load_style(RIVER)


def _red_mask(text: str, px_per_mm: float) -> tuple[np.ndarray, float]:
    png = cairosvg.svg2png(bytestring=text.encode(), scale=px_per_mm * 25.4 / 96)  # cairosvg: 96 px an inch
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    red = (image[..., 0] > 200) & (image[..., 1] < 60) & (image[..., 2] < 60)
    return red, image.shape[1]


def _pixels_mm(mask: np.ndarray, width_px: int, style) -> list[tuple[float, float]]:
    w, h = style.tile_width_mm, style.tile_height_mm
    ys, xs = np.nonzero(mask)
    per = width_px / w
    return [(x / per - w / 2, y / per - h / 2) for x, y in zip(xs + 0.5, ys + 0.5, strict=True)]


BRIDGED = [s for s in ALL_SIDES if s.min_crossings][:12]


@pytest.mark.parametrize("side", BRIDGED, ids=str)
def test_oversized_bridge_art_is_cut_to_its_deck_and_never_covers_an_exit(tmp_path, side):
    style = load_style(theme(tmp_path, bridge=svg(RED)))
    check_side(side, style)  # the geometry read back is unchanged
    text = render_side(Tile("7", side, side), "front", style, label=False)
    _, decks, _, _ = drawn(text)
    red, width_px = _red_mask(text, 8)
    assert red.any()
    near = unary_union(decks).buffer(0.3)  # a pixel's width of antialiasing
    outside = [p for p in _pixels_mm(red, width_px, style) if not near.contains(Point(p))]
    assert not outside, f"{side}: bridge art drawn outside its deck at {outside[:3]}"


def test_oversized_decorations_never_touch_a_trail(tmp_path):
    folder = theme(tmp_path, front=svg(""))
    (folder / "red.svg").write_text(svg(RED))
    (folder / "theme.toml").write_text('[art]\ndecorations = ["red.svg"]\n')
    style = load_style(folder)
    for side in ALL_SIDES[::17]:
        text = render_side(Tile("7", side, side), "front", style, label=False)
        trails, _, _, _ = drawn(text)
        red, width_px = _red_mask(text, 8)
        assert red.any()
        area = unary_union([shape for shape, _ in trails.values()])
        hits = [p for p in _pixels_mm(red, width_px, style) if area.contains(Point(p))]
        assert not hits, f"{side}: a decoration drawn on a trail at {hits[:3]}"


def test_theme_art_is_placed_the_same_every_time_and_its_ids_cannot_clash(tmp_path):
    gradient = svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#123456"/></linearGradient></defs>'
        '<rect width="10" height="10" fill="url(#g)"/>'
    )
    style = load_style(theme(tmp_path, bridge=gradient, trail=gradient))
    side = BRIDGED[0]
    first = render_side(Tile("7", side, side), "front", style)
    assert first == render_side(Tile("7", side, side), "front", load_style(tmp_path / "theme"))
    assert 'id="tw-bridge-svg-g"' in first and 'id="tw-trail-svg-g"' in first and "url(#tw-bridge-svg-g)" in first


@pytest.mark.parametrize(
    "setup, says",
    [
        ({"bridge": svg("<script>alert(1)</script>")}, "bridge.svg: <script>"),
        ({"trail": svg('<rect width="1" height="1" onclick="x()"/>')}, "event attribute 'onclick'"),
        ({"front": svg('<image href="http://example.com/a.png" width="1" height="1"/>')}, "leaves the file"),
        ({"back": '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'}, "DTDs"),
        ({"bridge": svg("<rect/>", view="0 0 0 10")}, "has no area"),
    ],
)
def test_hostile_art_is_one_line_naming_the_file(tmp_path, setup, says):
    folder = theme(tmp_path, **setup)
    with pytest.raises(TrailwrightError, match=says) as err:
        load_style(folder)
    assert "\n" not in str(err.value) and str(folder) in str(err.value)


@pytest.mark.parametrize(
    "toml, says",
    [
        ('[art]\nbridge = "../outside.svg"\n', "art.bridge: '../outside.svg' must be a .svg file inside the theme's"),
        ('[art]\nbridge = "/etc/passwd.svg"\n', "art.bridge: '/etc/passwd.svg' must be a .svg file inside the"),
        ('[art]\nbridge = "missing.svg"\n', "cannot read the art"),
        ('[art]\nsky = "a.svg"\n', "unknown key art.sky"),
        ("[landmarks]\nHut = 5\n", "landmarks.Hut: '5' must be a .svg or .png"),
        ('[theme]\ncredits = "me"\n', "theme.credits"),
        ("[trail]\nwidth = 2\n", "trail.width = 2"),
    ],
)
def test_a_bad_theme_file_is_one_line(tmp_path, toml, says):
    folder = tmp_path / "theme"
    folder.mkdir()
    (folder / "theme.toml").write_text(toml)
    (tmp_path / "outside.svg").write_text(svg(""))
    with pytest.raises(TrailwrightError, match=says):
        load_style(folder)


def test_a_folder_without_theme_toml_and_the_command_line(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(TrailwrightError, match="needs a theme.toml"):
        load_style(empty)
    out = tmp_path / "tiles"
    assert main(["render", str(EXAMPLES / "random-20.json"), "--theme", str(RIVER), "--out", str(out)]) == 0
    assert 'id="tw-trail"' in (out / "tile-01-front.svg").read_text()
    folder = theme(tmp_path, bridge=svg("<script/>"))
    assert main(["render", str(EXAMPLES / "random-20.json"), "--theme", str(folder), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bridge.svg" in err and not (tmp_path / "x").exists()
    assert err.startswith(f"trailwright: error: {folder}")  # the file it is about, not the flag before it
    assert main(["render", str(EXAMPLES / "random-20.json"), "--theme", "rivre", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and err.startswith("trailwright: error: rivre: cannot read") and "(river, station)" in err
    )


def test_the_shipped_theme_is_package_data():
    from importlib import resources

    folder = resources.files("generator") / "themes" / "river"
    by_name = load_style("river")
    assert folder.joinpath("theme.toml").is_file() and by_name.art.folder == "river"  # recorded as given
    assert RIVER_STYLE.art.folder == str(RIVER) and len(RIVER_STYLE.art.digest) == 64  # a path: absolute, hashed
    assert by_name == replace(RIVER_STYLE, art=replace(RIVER_STYLE.art, folder="river", digest=""))  # the same art
    assert "themes/**/*" in (RIVER.parents[2] / "pyproject.toml").read_text()


@pytest.mark.parametrize("name", ["river", "station"])
def test_golden_tile_and_board_in_each_shipped_theme(name, classic):
    from generator.model import Side
    from generator.render import render_board
    from tests.test_render_output import _golden

    style = load_style(name)
    side = Side.of([[0, 2, 4], [1, 3, 5]])  # two crossing triples: two bridges
    _golden(f"theme-{name}-side-interleaved-triples-front", render_side(Tile("7", side, side), "front", style))
    _golden(f"theme-{name}-board-classic", render_board(classic, style))


def test_landmark_art_is_drawn_inside_its_landmark_cells(classic):
    import xml.etree.ElementTree as ET

    from shapely.geometry import Polygon, box
    from shapely.ops import unary_union

    from generator.board.geometry import hexagon_corners
    from generator.render import render_board
    from generator.render.board import board_frame

    style = load_style("river")
    root = ET.fromstring(render_board(classic, style))
    frame = board_frame(classic, style)
    patterns = {e for p in root.iter("{http://www.w3.org/2000/svg}pattern") for e in p.iter()}  # wall, trails
    nested = [e for e in root.iter("{http://www.w3.org/2000/svg}svg") if e is not root and e not in patterns]
    assert len(nested) == len(classic.landmarks) == 6  # one illustration each
    cells = [  # a landmark of many cells draws its art on the disc where its cells meet
        unary_union([Polygon(hexagon_corners(frame.radius_mm, frame.at(h))) for h in lm.hexes]).buffer(1e-6)
        for lm in classic.landmarks
    ]
    for e in nested:
        x, y, w, h = (float(e.get(k)) for k in ("x", "y", "width", "height"))
        assert any(cell.contains(box(x, y, x + w, y + h)) for cell in cells), (x, y)
    assert [name for name, _ in style.art.landmarks][:2] == ["Exit", "Hut"]  # sorted by landmark name


def test_a_landmarks_table_must_name_art_files(tmp_path):
    folder = tmp_path / "theme"
    folder.mkdir()
    (folder / "theme.toml").write_text('[landmarks]\nWell = "http://x/well.svg"\n')
    with pytest.raises(
        TrailwrightError, match="must be a .svg or .png or .jpg or .jpeg file inside the theme's folder"
    ):
        load_style(folder)


def test_a_landmark_may_be_a_png_checked_at_its_printed_size_and_drawn_inside_its_hex(tmp_path, classic):
    import xml.etree.ElementTree as ET

    from generator.render import render_board

    folder = tmp_path / "theme"
    folder.mkdir()
    Image.new("RGB", (300, 300), (200, 30, 30)).save(folder / "well.png")  # about 496 dpi at 15.4 mm
    Image.new("RGB", (120, 120), (30, 30, 200)).save(folder / "hut.png")  # about 200 dpi: a warning
    (folder / "theme.toml").write_text('[landmarks]\nWell = "well.png"\nHut = "hut.png"\n')
    style = load_style(folder)
    [warning] = style.art.warnings
    assert "hut.png: 198 dpi at 15.367 x 15.367 mm, 300 wanted" in warning
    assert [(Path(p).name, round(dpi)) for p, dpi, _ in style.art.rasters] == [("hut.png", 198), ("well.png", 496)]
    root = ET.fromstring(render_board(classic, style))
    images = list(root.iter("{http://www.w3.org/2000/svg}image"))
    assert len(images) == 2 and all(i.get("href").startswith("data:image/png;base64,") for i in images)
    Image.new("RGB", (60, 60)).save(folder / "hut.png")  # 99 dpi
    with pytest.raises(TrailwrightError, match=r"hut.png: 99 dpi at 15.367 x 15.367 mm, at least 150 needed"):
        load_style(folder)


def test_an_oversized_back_mark_stays_in_the_corners_off_every_trail(tmp_path):
    folder = theme(tmp_path, back_mark=svg(RED))
    style = load_style(folder)
    for side in ALL_SIDES[::7]:
        text = render_side(Tile("7", side, side), "back", style, label=False)
        trails, _, _, _ = drawn(text)
        red, width_px = _red_mask(text, 8)
        assert red.any()
        area = unary_union([shape for shape, _ in trails.values()])
        hits = [p for p in _pixels_mm(red, width_px, style) if area.contains(Point(p))]
        assert not hits, f"{side}: the back's mark drawn on a trail at {hits[:3]}"


def test_a_raster_ground_is_checked_for_its_resolution_at_the_tiles_size(tmp_path):
    folder = tmp_path / "theme"
    folder.mkdir()
    w_mm = load_style().tile_width_mm
    for name, px in (("fine.png", 800), ("soft.png", 500), ("blurry.png", 200)):  # 320, 200 and 80 dpi
        Image.new("RGB", (px, px), (200, 180, 120)).save(folder / name)
    (folder / "theme.toml").write_text('[art]\nfront = "fine.png"\nback = "soft.png"\n')
    style = load_style(folder)
    assert style.art.front.body.startswith('<image width="800" height="800" href="data:image/png;base64,')
    assert (
        len(style.art.warnings) == 1 and "soft.png" in style.art.warnings[0] and "300 wanted" in style.art.warnings[0]
    )
    side = ALL_SIDES[40]
    check_side(side, style)
    (folder / "theme.toml").write_text('[art]\nfront = "blurry.png"\n')
    with pytest.raises(TrailwrightError, match=r"blurry.png: \d+ dpi .* at least 150 needed"):
        load_style(folder)
    assert 800 / (w_mm / 25.4) > 300 > 500 / (w_mm / 25.4) > 150 > 200 / (w_mm / 25.4)
    (folder / "theme.toml").write_text('[art]\nfront = "fine.gif"\n')
    with pytest.raises(TrailwrightError, match="must be a .svg or .png or .jpg or .jpeg file"):
        load_style(folder)


def test_a_theme_sets_the_booklets_colours_and_an_unknown_one_is_named(tmp_path):
    from generator.publish.booklet import themed_look
    from generator.publish.booklet.styles import load_look

    look = themed_look(load_style("river"))
    assert look.hex("accent") == "#2d6f96" and look.hex("ink") == load_look().hex("ink")  # the rest as packaged
    assert themed_look(load_style()) == load_look()
    folder = tmp_path / "theme"
    folder.mkdir()
    (folder / "theme.toml").write_text('[booklet]\nsky = "#112233"\n')
    with pytest.raises(TrailwrightError, match="booklet.sky: not a booklet colour") as err:
        themed_look(load_style(folder))
    assert str(folder / "theme.toml") in str(err.value)
    (folder / "theme.toml").write_text('[booklet]\naccent = "blue"\n')
    with pytest.raises(TrailwrightError, match="booklet must be a table of colours"):
        load_style(folder)


DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


@pytest.mark.skipif(not DROID.exists(), reason="no CJK font: make sysdeps installs fonts-droid-fallback")
def test_a_theme_font_that_covers_cjk_prints_a_cjk_title(tmp_path, capsys):
    from pypdf import PdfReader

    folder = tmp_path / "cjk"
    folder.mkdir()
    shutil.copy(DROID, folder / "title.ttf")
    (folder / "theme.toml").write_text('[theme]\nname = "Forest"\n[fonts]\ntitle = "title.ttf"\n')
    out = tmp_path / "kit"
    title = "迷路の森"
    args = ["publish", str(EXAMPLES / "best-known.json"), "--theme", str(folder), "--only", "booklet,sheets"]
    assert main([*args, "--paper", "a4", "--title", title, "--out", str(out)]) == 0
    assert "no glyph" not in capsys.readouterr().err  # the theme's font has them: no warning
    booklet = PdfReader(out / "print" / "rules.pdf").pages
    sheets = PdfReader(out / "print" / "tiles-a4-duplex.pdf").pages
    for page in (booklet[0], booklet[1], sheets[0]):  # the cover, a booklet footer, a tile sheet's footer
        assert title in page.extract_text()
        fonts = {str(f["/BaseFont"]) for f in page["/Resources"]["/Font"].values()}
        assert any("DroidSansFallback" in f for f in fonts), fonts  # the theme's font, embedded
    (folder / "title.ttf").write_bytes(b"not a font")
    with pytest.raises(TrailwrightError, match=r"title.ttf: not a font with glyph outlines \(TTLibError\)"):
        load_style(folder)  # refused as the theme loads, before anything is drawn


def test_a_fonts_table_names_only_title_and_text_fonts_in_the_folder(tmp_path):
    folder = tmp_path / "theme"
    folder.mkdir()
    for toml, says in (
        ('[fonts]\nheading = "a.ttf"\n', "fonts must be a table of title, text, text_bold, .*, label"),
        ('[fonts]\ntitle = "../a.ttf"\n', "fonts.title: '../a.ttf' must be a .ttf or .otf file inside"),
        ('[fonts]\ntitle = "a.woff"\n', "must be a .ttf or .otf file inside"),
    ):
        (folder / "theme.toml").write_text(toml)
        with pytest.raises(TrailwrightError, match=says):
            load_style(folder)


def test_art_for_landmarks_the_board_lacks_is_a_warning_naming_them(tmp_path, capsys):
    out = tmp_path / "tiles"
    args = ["render", str(EXAMPLES / "optimized-hexagon91.json"), "--board", "hexagon91", "--theme", "river"]
    assert main([*args, "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "theme 'River' has art for Exit, Hut" in err and "'hexagon91'" in err and "Gate" in err
    assert main(["render", str(EXAMPLES / "random-20.json"), "--theme", "river", "--out", str(tmp_path / "c")]) == 0
    assert "warning" not in capsys.readouterr().err  # the classic board has every landmark the river theme draws


def test_an_image_an_svg_art_names_is_carried_inside_the_art(tmp_path):
    folder = theme(tmp_path, bridge=svg('<image href="stones.png" width="10" height="10"/>'))
    Image.new("RGB", (40, 16), (120, 120, 110)).save(folder / "stones.png")
    style = load_style(folder)
    assert 'href="data:image/png;base64,' in style.art.bridge.body and "stones.png" not in style.art.bridge.body
    (folder / "stones.png").write_bytes(b"not a png")
    with pytest.raises(TrailwrightError, match="bridge.svg: <image> href: not a PNG or JPEG image Pillow reads"):
        load_style(folder)


def test_preflight_checks_the_theme_art_a_kit_records(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "theme"
    folder.mkdir()
    for name, px in (("fine.png", 800), ("soft.png", 500)):  # 320 and 200 dpi at the tile's width
        Image.new("RGB", (px, px), (200, 180, 120)).save(folder / name)
    (folder / "theme.toml").write_text('[theme]\nname = "Dunes"\n[art]\nfront = "fine.png"\nback = "soft.png"\n')
    out = tmp_path / "kit"
    monkeypatch.chdir(tmp_path)
    args = ["publish", str(EXAMPLES / "best-known.json"), "--theme", "theme", "--only", "booklet"]  # a relative path
    assert main([*args, "--out", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # kit.json records the folder's absolute path: found from anywhere
    assert main(["check", str(out), "--all"]) == 1  # the back's ground is under 300 dpi
    lines = capsys.readouterr().out.splitlines()
    theme_lines = [line for line in lines if str(folder) in line]
    assert any(line.startswith("ok") and "fine.png: resolution printed at 63.5 x" in line for line in theme_lines)
    [soft] = [line for line in theme_lines if "soft.png" in line]
    assert soft.startswith("FAIL") and "measured 200 dpi, expected at least 300 dpi" in soft
    (folder / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    (folder / "theme.toml").write_text('[art]\nfront = "fine.png"\nbridge = "bad.svg"\n')  # changed since the kit
    assert main(["check", str(out)]) == 1
    changed, bad = (line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL"))
    assert "theme art" in bad and "bad.svg" in bad and "script" in bad
    assert "theme files: measured changed since publish, expected as published" in changed
    shutil.rmtree(folder)  # a kit made elsewhere: its theme is named, not checked
    assert main(["check", str(out)]) == 0
    note = capsys.readouterr().out.splitlines()[0]
    assert (
        note == f"check: the theme {str(folder)!r} that kit.json records is not here; pass --theme DIR to check its art"
    )
    assert main(["check", str(out), "--theme", "river", "--all"]) == 0
    assert "river/theme.toml: theme art: measured" in capsys.readouterr().out
    assert main(["check", str(out), "--theme", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"trailwright: error: {folder}: cannot read: no such theme folder or shipped theme (river, station)\n"


STUBBED = [s for s in ALL_SIDES if s.stubs][::9][:12]


def _stop_bars(text: str):
    """Each stop bar drawn in a side's SVG as a shapely line, and the bar's stroke width (mm)."""
    import re

    from shapely.geometry import LineString

    found = re.findall(
        r'class="terminator" d="M([-\d.]+) ([-\d.]+)L([-\d.]+) ([-\d.]+)"[^>]*stroke-width="([\d.]+)"', text
    )
    return [(LineString([(float(a), float(b)), (float(c), float(d))]), float(w)) for a, b, c, d, w in found]


@pytest.mark.parametrize("side", STUBBED, ids=str)
def test_oversized_dead_end_art_is_cut_to_its_stop_bar(tmp_path, side):
    style = load_style(theme(tmp_path, dead_end=svg(RED)))
    check_side(side, style)  # the geometry read back is unchanged
    text = render_side(Tile("7", side, side), "front", style, label=False)
    bars = _stop_bars(text)
    assert len(bars) == len(side.stubs) and text.count('class="dead-end-art"') == len(side.stubs)
    red, width_px = _red_mask(text, 8)
    assert red.any()
    near = unary_union([line.buffer(width / 2 + 0.3) for line, width in bars])  # the bar's own round-capped stroke
    outside = [p for p in _pixels_mm(red, width_px, style) if not near.contains(Point(p))]
    assert not outside, f"{side}: dead-end art drawn off its stop bar at {outside[:3]}"


def test_the_board_wears_the_themes_wall_and_printed_trails(tmp_path, classic):
    import xml.etree.ElementTree as ET

    from generator.render import render_board

    folder = theme(tmp_path, wall=svg('<rect width="10" height="10" fill="#ff0000"/>'), trail=svg(""))
    board = render_board(classic, load_style(folder))
    root = ET.fromstring(board)
    ids = {p.get("id") for p in root.iter("{http://www.w3.org/2000/svg}pattern")}
    assert ids == {"tw-wall", "tw-connector"}  # the connectors take the trail texture when the theme has no own
    assert 'fill="url(#tw-wall)"' in board and "<ellipse" not in board  # the wall's art replaces the stones
    assert board.count('stroke="url(#tw-connector)"') == len(classic.connectors)
    plain = render_board(classic, load_style())
    assert "url(#tw-" not in plain and "<ellipse" in plain  # without a theme, as before


def test_a_theme_cover_replaces_the_booklets_mosaic(tmp_path):
    import pdfplumber

    from tests.test_publish_standin import standin_kit

    out = tmp_path / "kit"
    args = ["publish", str(EXAMPLES / "best-known.json"), "--only", "booklet", "--theme", "river", "--out", str(out)]
    assert main(args) == 0
    with (
        pdfplumber.open(out / "print" / "rules.pdf") as themed,
        pdfplumber.open(io.BytesIO(standin_kit()["print/rules.pdf"])) as plain,  # the session's plain kit
    ):
        [picture] = themed.pages[0].images  # one picture where the mosaic's many sides were
        assert len(plain.pages[0].images) > 20
        river = load_style("river").art.cover
        aspect = river.view[3] / river.view[2]
        assert picture["height"] / picture["width"] == pytest.approx(aspect, rel=0.01)
    folder = tmp_path / "theme"
    folder.mkdir()
    Image.new("RGB", (500, 480), (20, 60, 90)).save(folder / "cover.png")  # 104 dpi at 122 mm: too coarse
    (folder / "theme.toml").write_text('[art]\ncover = "cover.png"\n')
    with pytest.raises(TrailwrightError, match=r"cover.png: \d+ dpi at 122 x 118 mm, at least 150 needed"):
        load_style(folder)


def _cff_font(path: Path) -> None:
    """A small OpenType font with PostScript (CFF) outlines: a round "O" and a square "D" of cubic curves."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    order = [".notdef", "space", "O", "D"]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({0x20: "space", 0x4F: "O", 0x44: "D"})
    strings = {}
    for name in order:
        pen = T2CharStringPen(600, None)
        if name == "O":  # a circle of four cubic arcs
            k = 0.5523 * 250
            pen.moveTo((300, 50))
            pen.curveTo((300 + k, 50), (550, 300 - k), (550, 300))
            pen.curveTo((550, 300 + k), (300 + k, 550), (300, 550))
            pen.curveTo((300 - k, 550), (50, 300 + k), (50, 300))
            pen.curveTo((50, 300 - k), (300 - k, 50), (300, 50))
            pen.closePath()
        elif name in ("D", ".notdef"):
            pen.moveTo((60, 0)), pen.lineTo((60, 700)), pen.lineTo((400, 700))
            pen.curveTo((560, 700), (560, 0), (400, 0)), pen.closePath()
        strings[name] = pen.getCharString()
    fb.setupCFF("TwTestCFF", {"FullName": "Tw Test CFF"}, strings, {})
    fb.setupHorizontalMetrics({name: (600, 50) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "TwTestCFF", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    fb.save(str(path))


def test_an_opentype_font_with_cff_outlines_is_converted_and_embedded(tmp_path):
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    from generator.publish.fonts import truetype

    folder = tmp_path / "theme"
    folder.mkdir()
    _cff_font(folder / "display.otf")
    data = (folder / "display.otf").read_bytes()
    assert data.startswith(b"OTTO")
    converted = TTFont(io.BytesIO(truetype(data)))
    original = TTFont(folder / "display.otf")
    assert "glyf" in converted and "CFF " not in converted
    for name in ("O", "D"):  # the outlines keep their place within a unit of the em
        bounds = []
        for font in (original, converted):
            pen = BoundsPen(font.getGlyphSet())
            font.getGlyphSet()[name].draw(pen)
            bounds.append(pen.bounds)
        assert bounds[1] == pytest.approx(bounds[0], abs=1.0)
    (folder / "theme.toml").write_text('[fonts]\ntitle = "display.otf"\n')
    out = tmp_path / "kit"
    args = ["publish", str(EXAMPLES / "best-known.json"), "--theme", str(folder), "--only", "booklet"]
    assert main([*args, "--title", "DODO", "--out", str(out)]) == 0
    cover = PdfReader(out / "print" / "rules.pdf").pages[0]
    assert "DODO" in cover.extract_text()
    fonts = {str(f["/BaseFont"]) for f in cover["/Resources"]["/Font"].values()}
    assert any("TwTestCFF" in f for f in fonts), fonts
    from generator.render import outlines

    (folder / "display.otf").write_bytes(bytes(outlines.MAX_FONT_BYTES + 1))  # too large to read
    with pytest.raises(TrailwrightError, match="display.otf: a font file over 64,000,000 bytes"):
        load_style(folder)
    (folder / "display.otf").write_bytes(b"OTTO" + bytes(200))  # claims to be OpenType, is not
    with pytest.raises(TrailwrightError, match="display.otf: not a font with glyph outlines"):
        load_style(folder)


SERIF_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")  # the PDFs' own font family


@pytest.mark.parametrize("tile_id", ["7", "120"])
def test_a_label_font_draws_the_tiles_labels_as_outlines_inside_the_safe_zone_and_off_the_art(tmp_path, tile_id):
    from generator.render.labels import SAFE_ZONE_MM
    from tests.test_render_geometry import DESIGNS, hexagon

    folder = tmp_path / "theme"
    folder.mkdir()
    shutil.copy(SERIF_BOLD, folder / "label.ttf")
    (folder / "theme.toml").write_text('[fonts]\nlabel = "label.ttf"\n[label]\ncolour = "#ff0000"\n')
    style = load_style(folder)
    safe = hexagon(style.tile_width_mm / 2).buffer(-SAFE_ZONE_MM + 0.3, join_style="mitre")
    for side in DESIGNS[::9]:
        text = render_side(Tile(tile_id, side, side), "front", style)
        assert "<text" not in text and f'class="label" data-text="{tile_id} ' in text.replace(
            f"{tile_id}F", f"{tile_id} F"
        )
        assert text == render_side(Tile(tile_id, side, side), "front", style)  # the same bytes every time
        trails, decks, _, _ = drawn(text)
        red, width_px = _red_mask(text, 8)
        assert red.sum() > 30, side  # the label is drawn
        art = unary_union([t for t, _ in trails.values()] + decks)
        pixels = [Point(p) for p in _pixels_mm(red, width_px, style)]
        assert all(safe.contains(p) for p in pixels), side
        assert min(art.distance(p) for p in pixels) > 0.05, side  # clear of the trails and bridges


def test_a_ground_may_repeat_as_a_pattern_checked_at_its_repeated_size(tmp_path):
    folder = tmp_path / "theme"
    folder.mkdir()
    tile = Image.new("RGB", (200, 100), (255, 0, 0))
    tile.paste((0, 0, 255), (100, 0, 200, 100))  # half red, half blue: 508 dpi printed 10 x 5 mm
    tile.save(folder / "cobbles.png")
    (folder / "theme.toml").write_text('[art]\nfront = "cobbles.png"\nground_repeat_mm = 10\n')
    style = load_style(folder)
    assert style.art.rasters == ((str(folder / "cobbles.png"), pytest.approx(508), "10 x 5 mm"),)
    text = render_side(Tile("7", ALL_SIDES[3], ALL_SIDES[3]), "front", style, label=False)
    assert '<pattern id="tw-ground" patternUnits="userSpaceOnUse" width="10" height="5">' in text
    red, width_px = _red_mask(text, 8)
    xs = sorted({round(x) for x, _ in _pixels_mm(red, width_px, style)})
    assert len(xs) > 20 and max(xs) - min(xs) > 40  # red stripes across the whole side, not one stretched half
    Image.new("RGB", (50, 50)).save(folder / "cobbles.png")  # 127 dpi at 10 mm
    with pytest.raises(TrailwrightError, match=r"cobbles.png: 127 dpi at 10 x 10 mm, at least 150 needed"):
        load_style(folder)
    for bad in ("-1", "0.01", "true", '"10"'):  # a hair-thin repeat would be millions of copies to draw
        (folder / "theme.toml").write_text(f"[art]\nground_repeat_mm = {bad}\n")
        with pytest.raises(TrailwrightError, match=r"art.ground_repeat_mm = .*: expected 0 \(stretched\) or a width"):
            load_style(folder)


def test_a_hostile_tile_id_in_an_outlined_label_leaves_the_svg_well_formed(tmp_path):
    import xml.etree.ElementTree as ET

    folder = tmp_path / "theme"
    folder.mkdir()
    shutil.copy(SERIF_BOLD, folder / "label.ttf")
    (folder / "theme.toml").write_text('[fonts]\nlabel = "label.ttf"\n')
    side = ALL_SIDES[5]
    text = render_side(Tile('<b>&"x', side, side), "front", load_style(folder))
    labels = [e for e in ET.fromstring(text).iter("{http://www.w3.org/2000/svg}path") if e.get("class") == "label"]
    assert [e.get("data-text") for e in labels] in (['<b>&"x front'], ['<b>&"xF'])
