"""Bad input and bad places to write: one line, exit status 2, no traceback, and never a silent wrong answer."""

import json
import time
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import EXAMPLES

TILESET = str(EXAMPLES / "random-20.json")


def one_line(capsys, *argv) -> str:
    """Run the command; it must fail with exit status 2 and one line on stderr (returned)."""
    try:
        status = main(list(argv))
    except SystemExit as stop:  # a usage error: argparse exits
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def strict_json(text: str):
    def refuse(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "command",
    [
        ["render", TILESET],
        ["publish", TILESET],
        ["preview", TILESET],
        ["optimize", "--generations", "1"],
    ],
)
def test_a_bad_out_is_one_line_in_every_command(capsys, tmp_path, command):
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    folder_out = command[0] in ("render", "publish")
    wrong_type = a_file if folder_out else tmp_path
    err = one_line(capsys, *command, "--out", str(wrong_type))
    assert "--out" in err and ("is a file" in err or "is a folder" in err)
    one_line(capsys, *command, "--out", str(a_file / "below" / "out.json"))  # under a file
    one_line(capsys, *command, "--out", "/proc/trailwright/out.json")  # nowhere to write, even for root
    one_line(capsys, *command, "--out", str(tmp_path / ("x" * 300)))  # a name too long
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_optimize_checks_out_before_spending_its_budget(capsys, tmp_path):
    began = time.perf_counter()
    one_line(capsys, "optimize", "--time", "30", "--workers", "1", "--out", str(tmp_path))
    assert time.perf_counter() - began < 15


def test_nan_and_inf_in_an_objective_stop_before_the_search(capsys, tmp_path):
    path = tmp_path / "o.toml"
    for text in ("pair_weight = nan", "dup_weight = -inf", '[pair_targets]\n"Hut-Well" = nan'):
        path.write_text(text)
        began = time.perf_counter()
        err = one_line(
            capsys,
            "optimize",
            "--time",
            "30",
            "--workers",
            "1",
            "--objective",
            str(path),
            "--out",
            str(tmp_path / "t.json"),
        )
        assert "o.toml: " in err and "finite" in err
        assert time.perf_counter() - began < 15


def test_bad_settings_and_huge_sizes_are_one_line(capsys, tmp_path):
    settings = tmp_path / "s.toml"
    for text, problem in [
        ("dpi = nan", "dpi: nan is not a finite number"),
        ("dpi = 100000000", "dpi: 100000000 is not a whole number from 1 to 1,200"),
        ("board_dpi = 99999", "board_dpi: 99999"),
        ("bleed_mm = inf", "bleed_mm: inf"),
    ]:
        settings.write_text(text)
        assert problem in one_line(
            capsys, "publish", TILESET, "--settings", str(settings), "--out", str(tmp_path / "kit")
        )
    assert "--dpi" in one_line(capsys, "preview", TILESET, "--dpi", "1000000", "--out", str(tmp_path / "p.svg"))
    board = tmp_path / "b.toml"
    board.write_text("slots = [[0, 0], [1000000000, 0]]")
    assert "outside the largest board" in one_line(capsys, "render", TILESET, "--board", str(board))
    assert not (tmp_path / "kit").exists()


def test_deeply_nested_json_and_very_long_ids_are_one_line(capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"tiles": ' + "[" * 100000 + "]" * 100000 + "}")
    assert "nested more than" in one_line(capsys, "score", str(deep))
    data = json.loads(Path(TILESET).read_text(encoding="utf-8"))
    data["tiles"][0]["id"] = "x" * 5000
    long_ids = tmp_path / "long.json"
    long_ids.write_text(json.dumps(data))
    assert "longer than 1000 characters" in one_line(capsys, "render", str(long_ids), "--out", str(tmp_path / "r"))
    data["tiles"][0]["id"] = "x" * 300  # fits a file name; the label cannot fit the tile
    long_ids.write_text(json.dumps(data))
    assert "no room for the label" in one_line(capsys, "render", str(long_ids), "--out", str(tmp_path / "r"))


def test_pair_targets_on_a_board_without_landmarks(capsys, tmp_path):
    board = tmp_path / "bare.toml"
    board.write_text("slots = [[0, 0], [1, 0], [2, 0], [3, 0]]")
    objective = tmp_path / "o.toml"
    objective.write_text('[pair_targets]\n"Hut-Well" = 0.5')
    err = one_line(
        capsys,
        "optimize",
        "--board",
        str(board),
        "--objective",
        str(objective),
        "--generations",
        "1",
        "--out",
        str(tmp_path / "t.json"),
    )
    assert "no landmark pairs" in err


def test_score_json_is_always_valid_json(capsys):
    assert main(["score", TILESET, "--samples", "1", "--json"]) == 0
    report = strict_json(capsys.readouterr().out)  # one layout: no standard error, written as null
    assert report["fitness_se"] is None and isinstance(report["fitness"], float)


def test_seeds_beyond_64_bits_are_refused_not_wrapped(capsys):
    for command in (["score", TILESET], ["preview", TILESET], ["optimize"]):
        assert "--seed" in one_line(capsys, *command, "--seed", str(2**63))
    assert main(["score", TILESET, "--samples", "50", "--seed", str(2**63 - 1), "--json"]) == 0
    top = strict_json(capsys.readouterr().out)
    assert main(["score", TILESET, "--samples", "50", "--seed", "0", "--json"]) == 0
    assert strict_json(capsys.readouterr().out)["fitness"] != top["fitness"]


def test_control_characters_in_a_title_from_the_command_line(capsys, tmp_path):
    err = one_line(capsys, "publish", TILESET, "--title", "Maze\x1b[31m", "--out", str(tmp_path / "kit"))
    assert "title: control character U+001B" in err and not (tmp_path / "kit").exists()


def test_a_picture_too_large_to_draw_is_one_line():
    from generator.errors import TrailwrightError
    from generator.render.raster import render_pixels

    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    with pytest.raises(TrailwrightError, match="a picture of 100,000 × 100,000 px is too large to draw"):
        render_pixels(svg, 100_000, 100_000)
    assert render_pixels(svg, 10, 10).size == (10, 10)


def test_names_with_rich_markup_print_as_written(capsys, tmp_path):
    board = tmp_path / "b.toml"
    board.write_text(
        'slots = [[0, 0], [1, 0], [2, 0], [3, 0]]\n[[landmark]]\nname = "[/x]"\nhexes = [[-1, 0]]\n'
        '[[landmark]]\nname = "[bold]Well"\nhexes = [[4, 0]]\n'
    )
    tiles = json.loads(Path(TILESET).read_text(encoding="utf-8"))
    tiles["tiles"] = tiles["tiles"][:4]
    path = tmp_path / "t[red].json"
    path.write_text(json.dumps(tiles))
    assert main(["score", str(path), "--board", str(board), "--samples", "20"]) == 0
    out = capsys.readouterr().out.replace("\n", "")  # the table's title wraps at its width (a long temporary path)
    assert "[/x]-[bold]Well" in out and "t[red].json" in out


def test_a_reader_that_goes_away_stops_a_command_quietly(tmp_path):
    """`trailwright check kit --all | head` printed a BrokenPipeError traceback once head had its lines."""
    import subprocess
    import sys

    exe = str(Path(sys.executable).with_name("trailwright"))
    assert main(["calibrate", "--out", str(tmp_path)]) == 0
    proc = subprocess.Popen([exe, "check", str(tmp_path), "--all"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # gone before the first line is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_a_file_the_system_refuses_is_one_line_naming_it(capsys, monkeypatch):
    import generator.cli.score as score_command

    def refused(args):
        raise PermissionError(13, "Permission denied", "/srv/kit/tiles.pdf")

    monkeypatch.setattr(score_command, "run", refused)
    assert main(["score", str(EXAMPLES / "best-known.json")]) == 2
    assert capsys.readouterr().err == "trailwright: error: /srv/kit/tiles.pdf: Permission denied\n"


def test_a_project_where_nothing_can_be_made_is_one_line(capsys):
    assert main(["new", "/proc/trailwright-project"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trailwright: error: /proc/trailwright-project: cannot make the project here: ")
    assert err.count("\n") == 1


def test_optimize_refuses_a_budget_too_short_to_search_naming_one_that_would(capsys, tmp_path):
    err = one_line(capsys, "optimize", "--time", "0.5", "--workers", "1", "--out", str(tmp_path / "out.json"))
    assert "--time 0.5 is too short to search on this board (20 slots): give --time " in err
    assert not (tmp_path / "out.json").exists()
