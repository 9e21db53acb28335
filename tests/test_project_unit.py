"""The project folder is the unit: ``optimize DIR`` searches from the project's set on its board with its objective
and writes back into it, keeping the previous set; a tile set file's recorded board is the board when ``--board``
is not typed, and the run says which."""

from __future__ import annotations

import json
import re

import pytest

from generator.cli import main
from generator.model import read_meta, read_tileset
from tests.conftest import EXAMPLES
from tests.test_optimize_cli import QUICK


@pytest.mark.usefixtures("dask_scheduler")
def test_optimize_a_project_writes_back_into_it_and_keeps_the_previous_set(tmp_path):
    project = tmp_path / "tsuro"
    assert main(["new", str(project), "--board", "square-pathways"]) == 0
    before = (project / "tileset.json").read_bytes()
    assert main(["optimize", str(project), *QUICK, "--seed", "3"]) == 0
    assert (project / "tileset.json.bak").read_bytes() == before  # the designer's set, kept
    after = read_tileset(project / "tileset.json")
    assert after != read_tileset(project / "tileset.json.bak") and after.geometry.shape == "square"
    settings = read_meta(project / "tileset.json")["settings"]
    assert settings["board"] == "square-pathways" and settings["init"] == str(project / "tileset.json")
    assert sorted(p.name for p in (project / "output").iterdir()) == [
        "optimize-history.csv",
        "optimize-history.svg",
        "optimize.checkpoint",
    ]  # the run's other files go in the project's output/, not beside its own files


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--resume", "x.checkpoint"], "a project folder and --resume"),
        ([], "not a project folder"),
    ],
)
def test_optimize_refuses_a_folder_that_is_not_a_project_or_a_resume_beside_one_in_one_line(
    tmp_path, capsys, args, says
):
    folder = tmp_path / "empty"
    folder.mkdir()
    if args:
        assert main(["new", str(tmp_path / "p")]) == 0
        folder = tmp_path / "p"
    assert main(["optimize", str(folder), *args, "--time", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


def test_a_tile_sets_recorded_board_is_its_board_when_none_is_typed_and_the_run_says_so(capsys):
    square = str(EXAMPLES / "optimized-square-pathways.json")
    assert main(["score", square, "--samples", "50"]) == 0
    captured = capsys.readouterr()
    assert "score: board square-pathways" in captured.err and "'square-pathways'" in captured.out
    assert main(["score", square, "--samples", "50", "--board", "classic"]) == 2  # a typed board wins
    assert "takes hex tiles" in capsys.readouterr().err
    assert main(["score", str(EXAMPLES / "best-known.json"), "--samples", "50"]) == 0
    assert "board" not in capsys.readouterr().err  # the default board: nothing to say


def test_a_recorded_board_that_is_not_here_is_one_line(tmp_path, capsys):
    data = json.loads((EXAMPLES / "best-known.json").read_text())
    data["meta"] = {"settings": {"board": "boards/mine.toml"}}
    lost = tmp_path / "set.json"
    lost.write_text(json.dumps(data))
    assert main(["score", str(lost), "--samples", "50"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "records the board 'boards/mine.toml', which is not here" in err[0]
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mine.toml").write_text(
        (EXAMPLES.parent / "generator/board/boards/classic.toml").read_text()
    )
    assert main(["score", str(lost), "--samples", "50"]) == 0  # found beside the tile set


@pytest.mark.usefixtures("dask_scheduler")
def test_optimize_takes_the_board_its_start_records_or_its_projects_and_says_which(tmp_path, capsys):
    loud = [a for a in QUICK if a != "--quiet"]
    square = str(EXAMPLES / "optimized-square-pathways.json")
    assert main(["optimize", "--init", square, *loud, "--out", str(tmp_path / "s.json")]) == 0
    captured = capsys.readouterr()
    assert f"optimize: board square-pathways (the one {square} records)" in captured.err.splitlines()
    assert re.search(r"optimize: \w+, seed \d+, board square-pathways", captured.err)  # the summary's title too
    assert read_meta(tmp_path / "s.json")["settings"]["board"] == "square-pathways"
    project = tmp_path / "jungle"
    assert main(["new", str(project), "--board", "square-jungle"]) == 0
    capsys.readouterr()
    assert main(["optimize", str(project), *loud]) == 0
    assert "optimize: board square-jungle (the project's board.toml)" in capsys.readouterr().err.splitlines()
    typed = ["optimize", "--init", square, "--board", "classic", *QUICK, "--out", str(tmp_path / "c.json")]
    assert main(typed) == 2  # a typed board wins: a square set on the hex board is one line
