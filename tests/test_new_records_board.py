"""A new project's tile set names its board, so the set alone works anywhere; publish never swaps a profile in
silence: the settings file's is kept (one of another shape is refused, naming the file), else it says which."""

import json
import re

from generator.board.board import builtin_boards
from generator.cli import main


def test_a_new_projects_tile_set_records_its_board_for_use_outside_the_project(tmp_path, capsys):
    for name in builtin_boards():
        assert main(["new", str(tmp_path / name), "--board", name]) == 0
        assert json.loads((tmp_path / name / "tileset.json").read_text())["meta"]["board"] == name
    alone = tmp_path / "set.json"
    alone.write_text((tmp_path / "square-jungle" / "tileset.json").read_text())
    capsys.readouterr()
    assert main(["score", str(alone), "--samples", "500", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["board"] == "square-jungle" and "square-jungle" in err


def test_publish_refuses_a_settings_profile_of_another_shape_naming_the_file(tmp_path, capsys):
    folder = tmp_path / "game"
    assert main(["new", str(folder), "--board", "square-pathways"]) == 0
    settings = folder / "settings.toml"
    named_hex = re.sub(r'(?m)^profile = "[^"]*"', 'profile = "thegamecrafter-medium-hex"', settings.read_text())
    settings.write_text(named_hex)
    capsys.readouterr()
    assert main(["publish", str(folder), "--out", str(tmp_path / "kit")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{settings}: profile = 'thegamecrafter-medium-hex' cuts hex tiles" in err
    assert "name 'square-50mm'" in err and not (tmp_path / "kit").exists()


def test_publish_says_which_profile_it_takes_when_none_is_named(tmp_path, capsys):
    folder = tmp_path / "game"
    assert main(["new", str(folder), "--board", "square-pathways"]) == 0
    settings = folder / "settings.toml"
    settings.write_text(re.sub(r"(?m)^profile = .*\n", "", settings.read_text()))
    capsys.readouterr()
    argv = ["publish", str(folder), "--only", "manufacturer", "--out", str(tmp_path / "kit")]
    assert main(argv) == 0
    assert "publish: profile 'square-50mm', square tiles' own" in capsys.readouterr().err
    assert (tmp_path / "kit" / "manufacturer" / "square-50mm").is_dir()
