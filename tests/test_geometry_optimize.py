"""``trailwright optimize`` and ``score`` on boards of other geometries: the pool search, its repeatability,
its tile set file, and one-line refusals of the classic search's own flags."""

import json

import pytest

from generator.board import load_board
from generator.cli import main
from generator.model import read_tileset
from generator.optimize.anygeometry import optimize_any
from generator.scoring.objective import ARTICLE
from generator.scoring.score import score


def run(capsys, *argv):
    status: int | str | None
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_the_pool_search_improves_on_its_start_and_repeats_with_its_seed():
    board = load_board("square-pathways")
    first = optimize_any(board, ARTICLE, 3, seconds=None, steps=400, samples=200, rescore=2000)
    again = optimize_any(board, ARTICLE, 3, seconds=None, steps=400, samples=200, rescore=2000)
    start = optimize_any(board, ARTICLE, 3, seconds=None, steps=0, samples=200, rescore=2000)
    assert first.tileset == again.tileset and first.steps == 400
    assert first.tileset.geometry == board.geometry
    assert first.score.fitness > start.score.fitness + 3 * first.score.fitness_se


def test_optimize_then_score_on_the_jungle(capsys, tmp_path):
    out = tmp_path / "jungle.json"
    status, _, err = run(
        capsys, "optimize", "--board", "square-jungle", "--generations", "20", "--samples", "100", "--rescore", "3000",
        "--seed", "2", "--out", str(out),
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out.read_text())
    assert data["format"] == "trailwright-tileset/2" and data["geometry"]["shape"] == "square"
    assert data["meta"]["seed"] == 2 and data["meta"]["steps"] == 20
    assert all("back" not in tile for tile in data["tiles"])  # single-sided
    tiles = read_tileset(out)
    again = score(tiles, load_board("square-jungle"), 3000, 0)
    assert abs(again.fitness - data["meta"]["fitness"]) < 5 * (again.fitness_se + data["meta"]["fitness_se"])
    status, text, _ = run(capsys, "score", str(out), "--board", "square-jungle", "--samples", "500")
    assert status == 0 and "Ruin-Camp" in text


@pytest.mark.parametrize("flag", [["--strategy", "ga"], ["--workers", "2"], ["--polish", "2"], ["--pin", "1"]])
def test_classic_only_flags_are_refused_in_one_line(capsys, flag, tmp_path):
    status, _, err = run(
        capsys, "optimize", "--board", "hex-pairs", "--generations", "1", "--out", str(tmp_path / "x.json"), *flag
    )
    assert status == 2
    assert err.strip().count("\n") == 0 and "has no such setting yet" in err and flag[0] in err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("command", ["publish", "playtest"])
def test_stages_that_do_not_take_other_geometries_yet_say_so_in_one_line(capsys, command, tmp_path):
    out = tmp_path / "out"
    status, _, err = run(capsys, command, "examples/best-known.json", "--board", "square-pathways", "--out", str(out))
    assert status == 2 and err.strip().count("\n") == 0
    assert f"{command}: square tiles, two ends per edge, paired trails, single-sided are not supported yet" in err
    assert not out.exists()


def test_new_refuses_a_board_of_another_geometry(capsys, tmp_path):
    status, _, err = run(capsys, "new", str(tmp_path / "game"), "--board", "square-jungle")
    assert status == 2 and "new: square tiles" in err and not (tmp_path / "game").exists()


def test_render_draws_other_tiles_with_exactly_their_bridges_and_the_board(capsys, tmp_path):
    out = tmp_path / "art"
    status, text, err = run(
        capsys, "render", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(out)
    )
    assert status == 0, err
    tiles = read_tileset("examples/optimized-square-jungle.json")
    sides = sorted(out.glob("tile-*.svg"))
    assert len(sides) == len(tiles) and all(p.name.endswith("-front.svg") for p in sides)  # single-sided
    assert sum(p.read_text().count('class="bridge"') for p in sides) == tiles.crossings
    board = (out / "board.svg").read_text()
    assert board.count('class="slot"') == 30 and board.count('class="landmark"') == 9
    assert board.count('class="connector"') == 2 and ">Ruin</text>" in board
    status, _, err = run(
        capsys, "render", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(out),
        "--theme", "river", "--bleed", "3",
    )  # fmt: skip
    assert status == 0, err  # themes and bleed take every geometry (tests/test_render_any_art.py)
    assert 'id="tw-cut"' in (out / "tile-01-front.svg").read_text()
