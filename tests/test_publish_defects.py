"""The defects a new user met (issue 13), each measured in what publish makes."""

import io
import re
from dataclasses import replace
from pathlib import Path

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
    with pytest.raises(TrailwrightError, match=r"profile thegamecrafter-large-hex cuts 95.25 mm tiles but the style "
                                               r"draws 63.5 mm tiles: set width_mm = 95.25 .*--skip manufacturer$"):
        publish_kit(standin_sources(), settings(profile="thegamecrafter-large-hex"))
    files = publish_kit(standin_sources(), settings(profile="thegamecrafter-large-hex", documents=("booklet",)))
    assert "print/rules.pdf" in files  # no profiled document chosen: no error


def test_1_the_cli_says_so_in_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    import generator.cli.publish as cli

    monkeypatch.setattr(cli, "make_sources", lambda args, tileset, board, settings: standin_sources(args.templates))
    status = main(["publish", TILESET, "--out", str(tmp_path / "out"), "--profile", "thegamecrafter-large-hex"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "cuts 95.25 mm tiles" in err
    assert not (tmp_path / "out").exists()


def _face_text(files, name="manufacturer/thegamecrafter-medium-hex/tile-01-front.pdf"):
    with pdfplumber.open(io.BytesIO(files[name])) as pdf:
        return pdf.pages[0].extract_text() or ""


def test_5_production_drops_the_proof_labels_from_manufacturer_files_only():
    made = publish_kit(standin_sources(), settings(documents=("manufacturer", "sheets")))
    assert "front" not in _face_text(made)
    with pdfplumber.open(io.BytesIO(made["print/tiles-a4-foldover.pdf"])) as pdf:
        assert len(pdf.pages[0].images) > 0  # the sheets keep their (raster) labelled art
    proof = publish_kit(standin_sources(), settings(documents=("manufacturer",), production=False))
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
    for path in [*ROOT.glob("generator/**/*.py"), *ROOT.glob("generator/**/*.toml"), *ROOT.glob("tests/*.py"),
                 ROOT / "Makefile", ROOT / "README.md", *ROOT.glob("docs/*.md")]:
        for name in re.findall(r"\b([A-Z][A-Z_]+\.md)\b", path.read_text(encoding="utf-8")):
            assert (ROOT / name).is_file() or (ROOT / "docs" / name).is_file(), f"{path} names {name}"


def test_10_the_kit_records_its_tile_set_so_an_older_one_beside_it_is_not_mistaken(kit):
    import json

    from generator.scoring.figures import tileset_digest

    record = json.loads(kit["kit.json"])
    assert record["tileset"] == {"source": "examples/random-20.json",
                                 "sha256": tileset_digest(standin_sources().tileset)}
    assert set(record["files"]) == set(kit) - {"kit.json"}


def test_10_make_print_draws_each_tile_once_and_keeps_output_tiles(kit, tmp_path):
    """publish writes render's SVGs itself (the tiles document), so make print no longer calls render."""
    from generator.cli.render import side_file_name

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
    from generator.publish.kit import Figures, layout_sources
    from generator.render import load_style

    assert main(["render", TILESET, "--out", str(tmp_path / "render")]) == 0
    figures = Figures(10.0, 0.0, 0.9, 9.0, 1, 1, ())
    src = layout_sources(read_tileset(TILESET), load_board("classic"), load_style(None), figures, TILESET,
                         ROOT / "templates")
    made = publish_kit(src, settings(documents=("tiles",)))
    rendered = {f"tiles/{p.name}": p.read_bytes() for p in (tmp_path / "render").iterdir()}
    assert {n: d for n, d in made.items() if n.startswith("tiles/")} == rendered
