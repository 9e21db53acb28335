"""``trailwright score`` on the command line, including every kind of bad input."""

import json
import subprocess
import sys

import pytest

from generator.cli import main
from tests.conftest import EXAMPLES

EXAMPLE = str(EXAMPLES / "random-20.json")
FULL = [["N", "S"], ["NE", "SE", "SW"], ["NW"]]


def run(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_json_output_has_the_documented_keys(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--samples", "2000", "--seed", "3", "--json")
    assert status == 0
    data = json.loads(out)
    for key in ("bridges", "dup_score", "fully_connected", "extra_edges_mean", "path_prob_mean", "pair_prob",
                "fitness", "fitness_se", "extra_edges_se", "samples", "seed"):
        assert key in data
    assert data["samples"] == 2000 and data["seed"] == 3
    assert "Hut-Well" in data["pair_prob"]
    assert data["objective"]["bridges_weight"] == -0.05


def test_table_lists_weakest_pairs_first(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--samples", "5000")
    assert status == 0
    assert "fitness" in out and "bridge sides" in out
    lines = [line for line in out.splitlines() if "%" in line and "-" in line and "mean" not in line]
    probs = [float(line.split("│")[2].strip().rstrip("%")) for line in lines]
    assert len(probs) == 15 and probs == sorted(probs)


def test_defaults_are_the_articles_500_layouts(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--json")
    assert json.loads(out)["samples"] == 500


def test_other_board_by_name(capsys, tmp_path):
    status, _, err = run(capsys, "score", EXAMPLE, "--board", "hexagon37")
    assert status == 2 and "has 20 tiles but board 'hexagon37' has 37 slots" in err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text if isinstance(text, str) else json.dumps(text))
    return str(path)


def tiles(*entries):
    return {"format": "hexmaze-tileset/1", "tiles": list(entries)}


def tile(tile_id="1", front=FULL, back=FULL):
    data = {"id": tile_id}
    if front is not None:
        data["front"] = front
    if back is not None:
        data["back"] = back
    return data


BAD_TILESETS = {
    "malformed JSON": ('{"tiles": [', "malformed JSON at line 1"),
    "unknown direction": (tiles(tile(front=[["N", "S"], ["NE", "SE", "SW"], ["WEST"]])),
                          "tile '1' front: unknown direction 'WEST'"),
    "missing direction": (tiles(tile(back=[["N", "S"], ["NE", "SE", "SW"]])), "tile '1' back: direction NW missing"),
    "repeated direction": (tiles(tile(front=[["N", "S"], ["N", "NE", "SE", "SW", "NW"]])),
                           "tile '1' front: direction N repeated"),
    "empty side": (tiles(tile(front=[])), "tile '1' front: a side must be a non-empty list"),
    "no back": (tiles(tile(back=None)), "tile '1' has no 'back'"),
    "no front": (tiles(tile(front=None)), "tile '1' has no 'front'"),
    "duplicate ids": (tiles(tile("4"), tile("4")), "duplicate tile id '4'"),
    "wrong number of tiles": (tiles(tile("1"), tile("2")), "has 2 tiles but board 'classic' has 20 slots"),
}


@pytest.mark.parametrize("case", BAD_TILESETS, ids=str)
def test_bad_tilesets_give_one_line_and_status_2(capsys, tmp_path, case):
    content, message = BAD_TILESETS[case]
    path = write(tmp_path, "bad.json", content)
    status, out, err = run(capsys, "score", path)
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"trailwright: error: {path}: {message}")


SLOTS = "slots = [[0, 0], [0, 1], [1, 0]]\n"
BAD_BOARDS = {
    "malformed TOML": ("slots = [[0, 0]\n", "malformed TOML"),
    "overlapping slots": ("slots = [[0, 0], [0, 0]]\n", "slot 2 at [0, 0] overlaps slot 1"),
    "landmark side facing no slot": (
        SLOTS + '[[landmark]]\nname = "Hut"\nhexes = [[1, -1]]\nsides = [[1, -1, "N"]]\n',
        "landmark 'Hut': side N of [1, -1] faces no slot"),
    "connector naming a non-slot": (
        SLOTS + "[[connector]]\nhex = [-1, 0]\njoins = [[0, 0], [7, 7]]\n",
        "connector at [-1, 0]: hex [7, 7] is not a slot"),
}


@pytest.mark.parametrize("case", BAD_BOARDS, ids=str)
def test_bad_boards_give_one_line_and_status_2(capsys, tmp_path, case):
    content, message = BAD_BOARDS[case]
    board = write(tmp_path, "board.toml", content)
    status, _, err = run(capsys, "score", EXAMPLE, "--board", board)
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith(f"trailwright: error: {board}: {message}")


@pytest.mark.parametrize("samples", ["0", "-5", "many"])
def test_bad_sample_counts(capsys, samples):
    status, _, err = run(capsys, "score", EXAMPLE, "--samples", samples)
    assert status == 2
    assert "--samples" in err and "Traceback" not in err


def test_missing_file(capsys, tmp_path):
    status, _, err = run(capsys, "score", str(tmp_path / "nope.json"))
    assert status == 2 and "nope.json: cannot read" in err


def test_console_script_end_to_end(tmp_path):
    bad = write(tmp_path, "bad.json", tiles(tile("1"), tile("1")))
    result = subprocess.run([sys.executable, "-m", "generator.cli", "score", bad], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().endswith("duplicate tile id '1'")
    assert "Traceback" not in result.stderr
    ok = subprocess.run([sys.executable, "-m", "generator.cli", "score", EXAMPLE, "--json", "--samples", "1000"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["samples"] == 1000
