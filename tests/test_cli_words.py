"""What the command line says speaks of every game: each command's help lists every built-in board (from the
package, so a new one is listed too) and names its input as any tile set, never one format of one game."""

from __future__ import annotations

import pytest

from generator.board import builtin_boards
from generator.cli import build_parser

TAKES_A_SET = ("score", "render", "preview", "publish", "playtest", "host")


@pytest.mark.parametrize("command", (*TAKES_A_SET, "optimize"))
def test_every_commands_help_lists_every_built_in_board(command, capsys):
    with pytest.raises(SystemExit):
        build_parser(command).parse_args([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    boards = text[text.index("--board NAME|FILE a built-in board (") :]
    listed = boards[boards.index("(") + 1 : boards.index(")")].split(", ")
    assert listed == builtin_boards() and "square-pathways" in listed and "hex-pairs" in listed
    assert "hexmaze-tileset/1 file" not in text


@pytest.mark.parametrize("command", TAKES_A_SET)
def test_a_commands_tile_set_is_any_tile_set_or_a_project_folder(command, capsys):
    with pytest.raises(SystemExit):
        build_parser(command).parse_args([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "TILESET.json|DIR a tile set file (the tiles of any board: hex or square" in text
    assert "or a project folder" in text


@pytest.mark.parametrize("board", builtin_boards())
def test_new_writes_files_that_speak_the_boards_tiles_and_the_kit_uses_them(board, tmp_path):
    from generator.board import load_board
    from generator.cli import main
    from generator.publish.settings import load_profile, load_settings
    from generator.render.style import load_style

    folder = tmp_path / board
    assert main(["new", str(folder), "--board", board]) == 0
    g = load_board(str(folder / "board.toml")).geometry
    settings, style = load_settings(str(folder / "settings.toml")), load_style(str(folder / "style.toml"))
    profile = load_profile(settings.profile)
    assert profile.shape == g.shape  # the profile publish cuts to: the one the file names, never replaced
    words = " ".join((folder / name).read_text() for name in ("settings.toml", "style.toml", "rules.toml"))
    readme = (folder / "README.md").read_text()
    assert "sixths" not in words and ("front and back" in readme) == (g.faces == 2)
    if g.shape == "square":
        assert style.tile_width_mm == profile.trim_width_mm  # render draws at the size publish prints
        assert "hex" not in words.replace("hexagon or square", "") and "a quarter of a turn here" in words
