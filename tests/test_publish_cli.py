"""``trailwright publish`` end to end (with stand-in art): the files it lists exist, and bad settings
give one line, exit status 2 and no files at all."""

import shutil

import pytest

from generator.cli import main
from generator.publish.booklet import TEMPLATES
from tests.test_publish_standin import ROOT, standin_sources

TILESET = str(ROOT / "examples" / "random-20.json")


@pytest.fixture
def standin(monkeypatch):
    """Draw with the stand-in art instead of the layout stage."""
    import generator.cli.publish as cli

    monkeypatch.setattr(
        cli,
        "make_sources",
        lambda args, tileset, board, settings, language: standin_sources(language.templates, language),
    )


def run(capsys, *argv):
    status = main(["publish", TILESET, *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.slow
def test_publish_writes_the_kit_and_lists_every_file(tmp_path, capsys, standin):
    out = tmp_path / "out"
    status, text, err = run(capsys, "--out", str(out), "--paper", "a4", "--cut-lines", "--title", "Mazewood")
    assert status == 0, err
    for name in (
        "print/tiles-a4-duplex.pdf",
        "print/tiles-a4-foldover.pdf",
        "print/board-a4-tiled.pdf",
        "print/rules.pdf",
        "print/rules-booklet.pdf",
        "manufacturer/thegamecrafter-medium-hex.zip",
        "manufacturer/thegamecrafter-medium-hex/manifest.csv",
    ):
        assert (out / name).is_file()
        if name.startswith("print/"):
            assert str(out / name) in text
    assert len(list((out / "print").glob("board-a*.pdf"))) == 2  # one large sheet, one tiled
    assert not list(out.rglob(".*.tmp"))


def test_an_unknown_paper_is_one_line_and_exit_2(tmp_path, capsys, standin):
    status, _, err = run(capsys, "--out", str(tmp_path / "out"), "--paper", "b9")
    assert status == 2
    assert err.strip().count("\n") == 0 and "unknown paper 'b9'" in err
    assert not (tmp_path / "out").exists()


def test_a_tile_too_large_for_the_paper_is_skipped_with_a_warning_and_the_rest_made(tmp_path, capsys, standin):
    settings = tmp_path / "huge-margins.toml"
    settings.write_text('margin_mm = 80.0\npapers = ["a4"]\ndocuments = ["sheets", "manufacturer"]\n')
    status, text, err = run(capsys, "--out", str(tmp_path / "out"), "--settings", str(settings))
    assert status == 0, err
    for kind in ("duplex", "foldover"):
        assert f"skipped print/tiles-a4-{kind}.pdf" in err and f"not made: skipped print/tiles-a4-{kind}.pdf" in text
        assert not (tmp_path / "out" / "print" / f"tiles-a4-{kind}.pdf").exists()
    assert "does not fit" in err and "A4" in err
    assert (tmp_path / "out" / "manufacturer" / "thegamecrafter-medium-hex.zip").is_file()


def test_a_missing_template_folder_is_named(tmp_path, capsys, standin):
    status, _, err = run(capsys, "--out", str(tmp_path / "out"), "--templates", str(tmp_path / "nowhere"))
    assert status == 2 and "missing template 'booklet.xml.j2'" in err
    assert not (tmp_path / "out").exists()


def test_a_template_error_names_template_and_line_and_writes_nothing(tmp_path, capsys, standin):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    path = templates / "designer.xml.j2"
    path.write_text(path.read_text().replace("{{ tiles.dup_score }}", "{{ tiles.dup_score | nosuchfilter }}"))
    status, _, err = run(capsys, "--out", str(tmp_path / "out"), "--templates", str(templates), "--paper", "a4")
    assert status == 2
    assert err.strip().count("\n") == 0
    assert "designer.xml.j2" in err and "line" in err and "nosuchfilter" in err
    assert not (tmp_path / "out").exists()


def test_a_template_overflowing_a_page_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, standin):
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    path = templates / "bridges.xml.j2"
    path.write_text(path.read_text().replace("<h2>Variants</h2>", '<spacer mm="400"/>\n<h2>Variants</h2>'))
    line = path.read_text().splitlines().index('<spacer mm="400"/>') + 1
    status, _, err = run(capsys, "--out", str(tmp_path / "out"), "--templates", str(templates), "--paper", "a4")
    assert status == 2, err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert f"bridges.xml.j2: template error at line {line}" in err and "'Bridges'" in err and "does not fit" in err
    assert not (tmp_path / "out").exists()


def test_the_kit_names_its_tile_set_by_file_name_so_its_folder_changes_no_byte(tmp_path, capsys):
    """The same tile set published from two folders gives the same PDFs; the booklet does not print the folder
    (a home folder would end up in a printed rules booklet). kit.json keeps the path as given."""
    import json

    import pdfplumber

    made = []
    quick = tmp_path / "quick.toml"  # fewer layouts and games for the designer's page: the same page, sooner
    quick.write_text("score_samples = 5000\nplay_games = 50\n")
    for folder in ("alice/projects", "bob"):
        source = tmp_path / folder / "mine.json"
        source.parent.mkdir(parents=True)
        shutil.copy(TILESET, source)
        out = tmp_path / f"out-{len(made)}"
        argv = ["publish", str(source), "--only", "booklet", "--settings", str(quick), "--out", str(out)]
        assert main(argv) == 0, capsys.readouterr().err
        made.append(out)
        assert json.loads((out / "kit.json").read_text())["tileset"]["source"] == str(source)
    first, second = ((out / "print" / "rules.pdf").read_bytes() for out in made)
    assert first == second
    with pdfplumber.open(made[0] / "print" / "rules.pdf") as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
        assert "from mine.json." in text and "alice" not in text and "alice" not in str(pdf.metadata)


@pytest.mark.parametrize(("only", "games"), [("tiles", 0), ("play", 0), ("tiles,booklet", 400)])
def test_the_games_the_booklet_reports_are_played_only_for_the_booklet(tmp_path, capsys, monkeypatch, only, games):
    """400 games and their measures took 22 of the 26 s of `publish --only play` on a 217-slot board."""
    import generator.publish.playpage as playpage

    played = []
    real = playpage.simulate_play
    monkeypatch.setattr(playpage, "simulate_play", lambda *a, **k: played.append(a[3]) or real(*a, **k))
    assert main(["publish", TILESET, "--only", only, "--out", str(tmp_path / "out")]) == 0, capsys.readouterr().err
    assert played == [games]
