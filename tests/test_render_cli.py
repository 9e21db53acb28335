"""``trailwright render`` and ``trailwright preview`` on the command line."""

import json
import re
from pathlib import Path

from PIL import Image

from generator.cli import main
from generator.model.ids import id_width, side_file_name
from tests.conftest import EXAMPLES

EXAMPLE = str(EXAMPLES / "random-20.json")


def run(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_render_writes_every_side_and_the_board(capsys, tmp_path):
    status, out, _ = run(capsys, "render", EXAMPLE, "--out", str(tmp_path), "--bleed", "3.175")
    assert status == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 41 and "board.svg" in names
    assert "tile-07-front.svg" in names and "tile-20-back.svg" in names
    svg = (tmp_path / "tile-07-front.svg").read_text()
    assert re.search(r'width="69\.85mm"', svg)  # 63.5 + 2 * 3.175
    meta = json.loads(re.search(r"<metadata>(.*)</metadata>", svg).group(1).replace("&quot;", '"'))
    assert meta["tile"] == "7" and meta["face"] == "front"
    assert "wrote 40 tile sides" in out
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    run(capsys, "render", EXAMPLE, "--out", str(tmp_path), "--bleed", "3.175")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == first


def test_file_names_are_padded_and_safe():
    assert side_file_name("7", "front") == "tile-07-front.svg"
    assert side_file_name("7", "back", 3) == "tile-007-back.svg"
    assert side_file_name("a/b c", "back").startswith("tile-a_b_c~")


def test_numeric_ids_are_padded_only_to_the_longest_numeric_id():
    assert id_width(str(i) for i in range(1, 21)) == 2
    assert id_width(["7", "120"]) == 3
    assert id_width(["7", "Hut-7a", "Lighthouse"]) == 2
    assert id_width(["Hut-7a"]) == 2


def test_a_named_tile_does_not_widen_the_numbers(capsys, tmp_path):
    data = json.loads(Path(EXAMPLE).read_text(encoding="utf-8"))
    data["tiles"][19]["id"] = "Hut-7a"
    tileset = tmp_path / "named.json"
    tileset.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    assert run(capsys, "render", str(tileset), "--out", str(out), "--no-labels")[0] == 0
    names = {p.name for p in out.iterdir()}
    assert {"tile-07-front.svg", "tile-19-back.svg", "tile-Hut-7a-front.svg"} <= names
    assert not any(n.startswith("tile-0000") for n in names)


def test_render_without_labels(capsys, tmp_path):
    assert run(capsys, "render", EXAMPLE, "--out", str(tmp_path), "--no-labels")[0] == 0
    assert "<text" not in (tmp_path / "tile-01-back.svg").read_text()


def test_preview_writes_svg_and_png(capsys, tmp_path):
    out = tmp_path / "maze.svg"
    status, text, _ = run(capsys, "preview", EXAMPLE, "--seed", "5", "--count", "2", "--out", str(out))
    assert status == 0
    assert out.exists() and "seed 5" in text
    with Image.open(out.with_suffix(".png")) as png:
        assert png.width > 400 and png.height > 200
        assert "--seed 5 --count 2" in png.text["Software"]
    first = out.with_suffix(".png").read_bytes()
    run(capsys, "preview", EXAMPLE, "--seed", "5", "--count", "2", "--out", str(out))
    assert out.with_suffix(".png").read_bytes() == first


def test_a_preview_goes_into_any_folder_the_current_one_too_and_leaves_the_folder_be(capsys, tmp_path, monkeypatch):
    """It writes two files: it never swaps the folder around them (a desktop, a home folder) for a copy."""
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "sub").mkdir()
    inode = tmp_path.stat().st_ino
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "preview", EXAMPLE, "--out", "maze.svg")
    assert status == 0, err
    assert (tmp_path / "maze.svg").is_file() and (tmp_path / "maze.png").is_file()
    assert tmp_path.stat().st_ino == inode and (tmp_path / "notes.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.png", "maze.svg", "notes.txt", "sub"]


def test_bad_style_is_one_line_and_status_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[trail]\nwidth = 2\n")
    status, _, err = run(capsys, "render", EXAMPLE, "--style", str(bad), "--out", str(tmp_path / "x"))
    assert status == 2
    assert err.count("\n") == 1 and str(bad) in err and "trail.width = 2" in err
    assert not (tmp_path / "x").exists()


def test_wrong_board_size_is_an_error(capsys, tmp_path):
    status, _, err = run(capsys, "preview", EXAMPLE, "--board", "hexagon37", "--out", str(tmp_path / "p.svg"))
    assert status == 2 and "37 slots" in err


def test_preview_tiles_draws_every_side(capsys, tmp_path):
    out = tmp_path / "tiles.svg"
    status, text, _ = run(capsys, "preview", EXAMPLE, "--tiles", "--out", str(out))
    assert status == 0 and "every tile side" in text
    svg = out.read_text()
    assert svg.count("<title>Tile ") == 40
