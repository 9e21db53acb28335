"""The defects a new user met (issue 13), each measured in what publish makes."""

import io
import re
from dataclasses import replace
from functools import lru_cache

import pdfplumber
import pytest

from generator.cli import main
from generator.errors import TrailwrightError
from generator.publish.kit import publish_kit
from generator.publish.settings import load_settings
from tests.test_publish_standin import ROOT, standin_sources

TILESET = str(ROOT / "examples" / "random-20.json")


def settings(**kw):
    return replace(load_settings(), papers=("a4",), **kw)


def test_1_a_profile_that_cuts_another_size_than_the_style_draws_is_an_error():
    with pytest.raises(
        TrailwrightError,
        match=r"profile thegamecrafter-large-hex cuts 95.25 mm tiles but the style "
        r"draws 63.5 mm tiles: set width_mm = 95.25 .*--skip manufacturer$",
    ):
        publish_kit(standin_sources(), settings(profile="thegamecrafter-large-hex"))
    files = publish_kit(standin_sources(), settings(profile="thegamecrafter-large-hex", documents=("play",)))
    assert "play/index.html" in files  # no profiled document chosen: no error


def test_1_the_cli_says_so_in_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    import generator.cli.publish as cli

    monkeypatch.setattr(
        cli,
        "make_sources",
        lambda args, tileset, board, settings, language: standin_sources(language.templates, language),
    )
    status = main(["publish", TILESET, "--out", str(tmp_path / "out"), "--profile", "thegamecrafter-large-hex"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "cuts 95.25 mm tiles" in err
    assert not (tmp_path / "out").exists()


def _face_text(files, name="manufacturer/thegamecrafter-medium-hex/tile-01-front.pdf"):
    with pdfplumber.open(io.BytesIO(files[name])) as pdf:
        return pdf.pages[0].extract_text() or ""


def _two_tiles():
    from generator.model import TileSet

    src = standin_sources()
    return replace(src, tileset=TileSet(src.tileset.tiles[:2]))


def test_5_production_drops_the_proof_labels_from_manufacturer_files_only():
    made = publish_kit(_two_tiles(), settings(documents=("manufacturer", "tiles")))
    assert "front" not in _face_text(made)
    assert b"1 front" in made["tiles/tile-01-front.svg"]  # the proof art keeps its label
    proof = publish_kit(_two_tiles(), settings(documents=("manufacturer",), production=False))
    assert "1 front" in _face_text(proof)


@pytest.fixture(scope="module")
def kit():
    return publish_kit(standin_sources(), settings(documents=("tiles", "sheets", "booklet", "manufacturer")))


def test_10_pdfs_with_a_duplex_hint_say_pdf_1_7(kit):
    from pypdf import PdfReader

    duplex = 0
    for name, data in kit.items():
        if name.endswith(".pdf"):
            prefs = PdfReader(io.BytesIO(data)).trailer["/Root"].get("/ViewerPreferences", {})
            if "/Duplex" in prefs:
                duplex += 1
                assert data.startswith(b"%PDF-1.7"), name
    assert duplex == 2  # the duplex tile sheet and the imposed booklet


def test_10_manufacturer_pngs_carry_an_srgb_chunk(kit):
    from PIL import Image

    pngs = [d for n, d in kit.items() if n.endswith(".png")]
    assert len(pngs) == 40
    for data in pngs:
        assert Image.open(io.BytesIO(data)).info.get("srgb") == 0
        assert data.index(b"sRGB") < data.index(b"IDAT")


def test_10_no_comment_points_to_a_file_the_repository_lacks():
    for path in [
        *ROOT.glob("generator/**/*.py"),
        *ROOT.glob("generator/**/*.toml"),
        *ROOT.glob("tests/*.py"),
        ROOT / "Makefile",
        ROOT / "README.md",
        *ROOT.glob("docs/**/*.md"),
    ]:
        for name in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", path.read_text(encoding="utf-8")):
            assert (ROOT / name).is_file() or (ROOT / "docs" / name).is_file(), f"{path} names {name}"


def test_10_the_kit_records_its_tile_set_so_an_older_one_beside_it_is_not_mistaken(kit):
    import json

    from generator.scoring.figures import tileset_digest

    record = json.loads(kit["kit.json"])
    assert record["tileset"] == {
        "source": "examples/random-20.json",
        "sha256": tileset_digest(standin_sources().tileset),
    }
    assert set(record["files"]) == set(kit) - {"kit.json"}


def test_10_make_print_draws_each_tile_once_and_keeps_output_tiles(kit, tmp_path):
    """publish writes render's SVGs itself (the tiles document), so make print no longer calls render."""
    from generator.model.ids import side_file_name

    recipe = (ROOT / "Makefile").read_text().split("\nprint:")[1].split("\n\n")[0]
    assert "$(TW) render" not in recipe and "$(TW) publish" in recipe and "$(TW) check" in recipe
    src = standin_sources()
    art = src.art_for_width(src.tile_width_mm)
    tile = src.tileset.tiles[0]
    assert kit[f"tiles/{side_file_name(tile.id, 'front')}"] == art(tile, "front", 0.0).encode()
    assert kit["tiles/board.svg"] == src.board_svg.encode()
    assert len([n for n in kit if n.startswith("tiles/")]) == 41


def test_10_the_tiles_document_is_what_render_writes(tmp_path):
    """The same bytes as ``trailwright render`` for the real layout stage."""
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.publish.sources import Figures, layout_sources
    from generator.render import load_style

    assert main(["render", TILESET, "--out", str(tmp_path / "render")]) == 0
    figures = Figures(10.0, 0.0, 0.9, 9.0, 1, 1, ())
    src = layout_sources(
        read_tileset(TILESET), load_board("classic"), load_style(None), figures, TILESET, ROOT / "templates"
    )
    made = publish_kit(src, settings(documents=("tiles",)))
    rendered = {f"tiles/{p.name}": p.read_bytes() for p in (tmp_path / "render").iterdir()}
    assert {n: d for n, d in made.items() if n.startswith("tiles/")} == rendered


@pytest.mark.parametrize(
    "paper, page_mm, sheet_mm", [("letter", (139.7, 215.9), (279.4, 215.9)), ("a4", (148.0, 210.0), (297.0, 210.0))]
)
def test_4_the_booklet_follows_the_paper_at_100_percent(paper, page_mm, sheet_mm):
    from pypdf import PdfReader
    from pypdf.generic import ContentStream

    from generator.publish.pdf import PT_PER_MM

    made = _booklet(paper=paper)
    reading = PdfReader(io.BytesIO(made["print/rules.pdf"]))
    imposed = PdfReader(io.BytesIO(made["print/rules-booklet.pdf"]))
    box = reading.pages[0].mediabox
    assert (float(box.width) / PT_PER_MM, float(box.height) / PT_PER_MM) == pytest.approx(page_mm, abs=0.01)
    assert len(imposed.pages) * 2 == len(reading.pages) + (-len(reading.pages)) % 4
    for side in imposed.pages:
        box = side.mediabox
        assert (float(box.width) / PT_PER_MM, float(box.height) / PT_PER_MM) == pytest.approx(sheet_mm, abs=0.01)
        scales = [ops[:4] for ops, op in ContentStream(side.get_contents(), imposed).operations if op == b"cm"]
        assert scales and all([float(v) for v in s] == [1, 0, 0, 1] for s in scales[:2])  # placed at 100%


def test_9_the_designer_page_has_no_number_of_its_own():
    text = (ROOT / "templates/designer.xml.j2").read_text()
    words = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|<[^>]*>", " ", text, flags=re.S)
    assert not re.findall(r"\d", words)


def test_9_the_comparison_comes_from_data_that_matches_its_source():
    import json

    from generator.publish.bookletkit import booklet_context, references

    recorded = json.loads((ROOT / "examples/best-known.json").read_text())["meta"]["score"]["fitness"]
    assert references("classic")["best_known"] == round(recorded, 3)
    assert references("hexagon37") is None
    assert booklet_context(standin_sources(), load_settings())["reference"]["best_known"] == round(recorded, 3)


def test_8_characters_the_fonts_lack_are_named_in_a_warning():
    """A character no font of the chain has (the theme's, DejaVu, a CJK font) is named; one the chain has is not."""
    warnings = []
    title = "Trails of \U00013000 迷宫"  # an Egyptian hieroglyph: in no font here
    files = publish_kit(standin_sources(), settings(title=title, documents=("booklet",)), warn=warnings.append)
    assert "print/rules.pdf" in files
    assert len(warnings) == 1, warnings
    assert f"title {title!r}" in warnings[0] and "(U+13000)" in warnings[0] and "U+8FF7" not in warnings[0]
    warnings.clear()
    publish_kit(_two_tiles(), settings(title="Sentiers de la forêt", documents=("tiles",)), warn=warnings.append)
    assert warnings == []


@lru_cache(maxsize=4)
def _booklet(title="Trailwright", paper="a4"):
    """The booklet's files, built once per title and paper for this module."""
    return publish_kit(
        standin_sources(), replace(load_settings(), papers=(paper,), title=title, documents=("booklet",))
    )


def _reading_pages(title):
    from pypdf import PdfReader

    made = _booklet(title)
    return PdfReader(io.BytesIO(made["print/rules.pdf"])), PdfReader(io.BytesIO(made["print/rules-booklet.pdf"]))


@pytest.mark.parametrize(
    "title", ["Trails of the Mazewood", "The Very Long and Winding Trails of the Old Mazewood Beyond the Hills"]
)
def test_3_a_long_title_shrinks_and_the_cover_stays_one_page(title):
    plain, plain_imposed = _reading_pages("Trailwright")
    reading, imposed = _reading_pages(title)
    assert len(reading.pages) == len(plain.pages) and len(imposed.pages) == len(plain_imposed.pages)
    assert title in " ".join(reading.pages[0].extract_text().split())  # the whole title, on the cover


def test_3_a_keep_block_taller_than_a_page_is_an_error(tmp_path):
    import shutil

    templates = tmp_path / "templates"
    shutil.copytree(standin_sources().templates, templates)
    path = templates / "bridges.xml.j2"
    path.write_text(path.read_text() + '\n<keep><h2>Huge</h2><spacer mm="400"/></keep>\n')
    with pytest.raises(TrailwrightError, match=r"bridges.xml.j2.*does not fit"):
        publish_kit(replace(standin_sources(), templates=templates), settings(documents=("booklet",)))


def _label_and_decorations(svg: str):
    """The label's box and the moons' discs and grass tufts' points of a side's SVG, in mm."""
    from shapely.geometry import LineString, Point

    from generator.render.labels import label_box

    m = re.search(
        r'<text x="0" y="0" transform="translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)" '
        r'[^>]*font-size="([\d.]+)"[^>]*>([^<]+)</text>',
        svg,
    )
    x, y, angle, size, text = float(m[1]), float(m[2]), float(m[3]), float(m[4]), m[5]
    box = label_box(x, y, angle, size, text)
    moons = [
        Point(float(a), float(b)).buffer(float(r))
        for a, b, r in re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"/>', svg)
    ]
    tufts = [
        LineString([(float(a), float(b)), (float(a) + float(c), float(b) + float(d))])
        for a, b, c, d in re.findall(r"M([-\d.]+) ([-\d.]+)l([-\d.]+) ([-\d.]+)", svg)
    ]
    return box, moons, tufts


@pytest.mark.parametrize("example", ["random-20.json", "best-known.json"])
@pytest.mark.parametrize("width", [63.5, 44.45])
def test_5_labels_keep_half_a_millimetre_clear_of_every_decoration(example, width):
    from shapely.geometry import Polygon

    from generator.model import FACES, read_tileset
    from generator.render import load_style, render_side

    style = replace(load_style(None), tile_width_mm=width)
    for tile in read_tileset(ROOT / "examples" / example):
        for face in FACES:
            box, moons, tufts = _label_and_decorations(render_side(tile, face, style))
            label = Polygon(box)
            assert len(moons) == (6 if face == "back" else 0)
            for shape in moons + tufts:
                assert label.distance(shape) >= 0.5 - 1e-6, (tile.id, face)
