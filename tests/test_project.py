"""A designer's project folder: ``trailwright new`` makes one, and every command takes it in place of its files
(a flag naming another file wins)."""

import json
import tomllib

import pytest

from generator.cli import main
from generator.project import FILES


def test_new_makes_every_file_and_commands_take_the_folder(tmp_path, capsys):
    folder = tmp_path / "my-maze"
    assert main(["new", str(folder), "--seed", "3"]) == 0
    names = {p.name for p in folder.iterdir()}
    assert names == {*FILES.values(), "README.md"}
    readme = (folder / "README.md").read_text()
    assert all(f"`{name}" in readme for name in FILES.values()) and readme.startswith("# My Maze")
    assert (folder / "templates" / "play.xml.j2").is_file()
    tomllib.loads((folder / "objective.toml").read_text())  # a valid TOML with every key commented out
    capsys.readouterr()
    assert main(["score", str(folder), "--samples", "2000", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "classic"
    assert main(["playtest", str(folder), "--games", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 20


def test_a_projects_own_board_and_rules_are_used_and_a_flag_wins(tmp_path, capsys):
    folder = tmp_path / "big"
    assert main(["new", str(folder), "--board", "hexagon37"]) == 0
    rules = tomllib.loads((folder / "rules.toml").read_text())
    assert rules["start"] == "Gate" and rules["goal"] == "Cave"  # the booklet's game on this board's landmarks
    capsys.readouterr()
    assert main(["playtest", str(folder), "--games", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "hexagon37"
    assert main(["playtest", str(folder), "--games", "10", "--board", "classic"]) == 2  # the flag wins
    assert "is not a landmark of board 'classic'" in capsys.readouterr().err
    (folder / "rules.toml").write_text('start = "Nowhere"\ngoal = "Cave"\n')
    assert main(["playtest", str(folder), "--games", "10"]) == 2
    assert "rules.toml" in capsys.readouterr().err


@pytest.mark.parametrize("make", ["file", "full"])
def test_new_refuses_a_folder_in_use_and_commands_refuse_a_folder_without_a_tile_set(tmp_path, capsys, make):
    target = tmp_path / "taken"
    if make == "file":
        target.write_text("x")
    else:
        target.mkdir()
        (target / "notes.txt").write_text("mine")
    assert main(["new", str(target)]) == 2
    assert "exists and is not an empty folder" in capsys.readouterr().err
    assert not (tmp_path / ".taken.new").exists()  # nothing half-made is left behind
    if make == "full":
        assert main(["score", str(target)]) == 2
        assert "not a project" in capsys.readouterr().err


def test_a_projects_settings_may_name_a_theme_for_every_command(tmp_path, capsys):
    folder = tmp_path / "maze"
    assert main(["new", str(folder)]) == 0
    settings = folder / "settings.toml"
    own = folder / "dunes"
    own.mkdir()
    (own / "theme.toml").write_text('[theme]\nname = "Dunes"\n[trail]\nfill = "#123456"\n')
    settings.write_text(settings.read_text().replace('theme = ""', 'theme = "dunes"'))  # a folder of the project
    assert main(["render", str(folder), "--out", str(tmp_path / "tiles")]) == 0
    assert "#123456" in (tmp_path / "tiles" / "tile-01-front.svg").read_text()
    settings.write_text(settings.read_text().replace('theme = "dunes"', 'theme = "river"'))  # a shipped theme
    assert main(["publish", str(folder), "--only", "tiles", "--out", str(tmp_path / "kit")]) == 0
    assert json.loads((tmp_path / "kit" / "kit.json").read_text())["theme"]["name"] == "River"
    assert 'fill="#e6d3a3"' in (tmp_path / "kit" / "tiles" / "tile-01-front.svg").read_text()  # the river's ground
    assert main(["render", str(folder), "--theme", str(own), "--out", str(tmp_path / "flag")]) == 0  # the flag wins
    assert "#123456" in (tmp_path / "flag" / "tile-01-front.svg").read_text()
    settings.write_text(settings.read_text().replace('theme = "river"', 'theme = "nowhere"'))
    capsys.readouterr()
    assert main(["render", str(folder), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "settings.toml: theme = 'nowhere': no such folder" in err and not (tmp_path / "x").exists()


BOARD_OF_MY_OWN = """format = "hexmaze-board/1"
name = "ring"
title = "A ring of seven"
slots = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [1, 2]]

[[landmark]]
name = "Gate"
hexes = [[-1, 0]]

[[landmark]]
name = "Tower"
hexes = [[3, 0]]

[[landmark]]
name = "Keep"
hexes = [[1, 3]]
"""


def test_new_takes_a_board_file_of_the_designers_own(tmp_path, capsys):
    board = tmp_path / "ring.toml"
    board.write_text(BOARD_OF_MY_OWN)
    folder = tmp_path / "ring-game"
    assert main(["new", str(folder), "--board", str(board), "--seed", "2"]) == 0
    assert (folder / "board.toml").read_text() == BOARD_OF_MY_OWN  # copied as written, comments and all
    assert "(a copy of `ring.toml`)" in (folder / "README.md").read_text()
    rules = tomllib.loads((folder / "rules.toml").read_text())
    assert (rules["start"], rules["required"], rules["goal"]) == ("Gate", ["Tower"], "Keep")
    assert len(json.loads((folder / "tileset.json").read_text())["tiles"]) == 7
    capsys.readouterr()
    assert main(["playtest", str(folder), "--games", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "ring"
    board.write_text(BOARD_OF_MY_OWN.replace("[1, 3]", "[1, 1]"))  # a landmark on a slot
    assert main(["new", str(tmp_path / "bad"), "--board", str(board)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"trailwright: error: {board}: ") and err.count("\n") == 1
    assert main(["new", str(tmp_path / "bad"), "--board", "nowhere.toml"]) == 2
    assert "no such board file or built-in board 'nowhere.toml'" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("board", ["classic", "square-pathways"])
def test_the_objectives_forbid_example_is_a_whole_side_of_the_projects_tiles(tmp_path, board):
    """Uncommented, the example line forbids the design of the first tile's front, named in the tiles' own ends."""
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.scoring.objective import load_objective

    folder = tmp_path / "p"
    assert main(["new", str(folder), "--board", board, "--seed", "1"]) == 0
    text = (folder / "objective.toml").read_text()
    (folder / "objective.toml").write_text(text.replace("# forbid = ", "forbid = ", 1))
    objective = load_objective(folder / "objective.toml").on(load_board(board))
    first = next(iter(read_tileset(str(folder / "tileset.json")))).front
    assert not objective.allows(first) and not objective.allows(first.rotated(1))
