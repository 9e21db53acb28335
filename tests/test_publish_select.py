"""Choosing the documents to publish: ``--only``, ``--skip``, the ``documents`` setting, and a document that
cannot fit its paper skipped with a warning naming it while the rest are made."""

from dataclasses import replace

import pytest

from generator.cli import main
from generator.errors import TrailwrightError
from generator.publish.kit import DOCUMENTS, publish_kit, select_documents
from generator.publish.settings import load_settings
from tests.test_publish_standin import ROOT, standin_sources

TILESET = str(ROOT / "examples" / "random-20.json")


@pytest.fixture
def standin(monkeypatch):
    import generator.cli.publish as cli

    monkeypatch.setattr(
        cli,
        "make_sources",
        lambda args, tileset, board, settings, language: standin_sources(language.templates, language),
    )


def test_only_the_chosen_documents_are_made():  # the play table: a quick document (a booklet takes seconds)
    files = publish_kit(standin_sources(), replace(load_settings(), documents=("play",)))
    assert sorted(files) == ["kit.json", "play/index.html"]


def test_a_large_tile_skips_the_sheet_it_cannot_fit_and_makes_the_rest():
    """The README's large-hex style (95.25 mm) does not fit half an A4 sheet: the fold-over sheet is skipped."""
    warnings = []
    src = replace(standin_sources(), tile_width_mm=95.25)
    settings = replace(load_settings(), papers=("a4",), documents=("sheets",))
    files = publish_kit(src, settings, warn=warnings.append)
    assert list(files) == ["kit.json", "print/tiles-a4-duplex.pdf"]
    assert len(warnings) == 1
    assert "print/tiles-a4-foldover.pdf" in warnings[0] and "does not fit" in warnings[0] and "A4" in warnings[0]


def test_unknown_document_names_list_the_known_ones():
    with pytest.raises(TrailwrightError, match="unknown document 'sheet'") as err:
        select_documents(["sheet"])
    assert all(name in str(err.value) for name in ("tiles", "sheets", "board", "booklet", "manufacturer", "factory"))
    assert select_documents(["manufacturer", "sheets"]) == ("sheets", "manufacturer")  # registry order
    assert set(load_settings().documents) <= set(DOCUMENTS)


def test_the_documents_setting_is_checked(tmp_path, capsys, standin):
    settings = tmp_path / "s.toml"
    settings.write_text('documents = ["sheets", "bord"]\n')
    status = main(["publish", TILESET, "--out", str(tmp_path / "out"), "--settings", str(settings)])
    err = capsys.readouterr().err
    assert status == 2 and "unknown document 'bord'" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--only", "rules"], "unknown document 'rules'"),
        (["--skip", "sheets,bord"], "unknown document 'bord'"),
        (["--only", "booklet", "--skip", "booklet"], "leaves no documents"),
    ],
)
def test_bad_selections_are_one_line_and_exit_2(tmp_path, capsys, standin, argv, message):
    status = main(["publish", TILESET, "--out", str(tmp_path / "out"), *argv])
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_skip_and_only_on_the_command_line(tmp_path, capsys, standin):
    out = tmp_path / "out"
    status = main(["publish", TILESET, "--out", str(out), "--paper", "a4", "--only", "sheets,play", "--skip", "sheets"])
    assert status == 0
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == ["kit.json", "play/index.html"]


def test_a_kit_where_nothing_fits_is_an_error_and_writes_nothing(tmp_path, capsys, standin):
    settings = tmp_path / "huge-margins.toml"
    settings.write_text('margin_mm = 80.0\npapers = ["a4"]\ndocuments = ["sheets"]\n')
    status = main(["publish", TILESET, "--out", str(tmp_path / "out"), "--settings", str(settings)])
    out, err = capsys.readouterr()
    assert status == 2 and "nothing was made" in err
    assert "skipped print/tiles-a4-duplex.pdf" in err and "does not fit" in err
    assert not (tmp_path / "out").exists()
