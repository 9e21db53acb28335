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
