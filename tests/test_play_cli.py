"""``trailwright playtest`` on the command line: tables, JSON, pictures and bad input."""

import json
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import EXAMPLES
from tests.test_cli_score import run

BEST = str(EXAMPLES / "best-known.json")


def no_nan(text: str):
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def test_json_has_the_figures_and_settings(capsys):
    status, out, _ = run(capsys, "playtest", BEST, "--games", "60", "--seed", "4", "--json")
    assert status == 0
    data = no_nan(out)
    for key in (
        "rounds_median",
        "rounds_p10",
        "rounds_p90",
        "rounds_mean",
        "unfinished",
        "win_rate",
        "win_se",
        "turning_turns",
        "steps_lost",
        "lair_entries",
        "chases",
        "connector_crossings",
        "trapped_share",
        "stuck_turns",
        "heat",
        "skill_gap",
        "seed",
        "games",
        "policies",
        "board",
    ):
        assert key in data, key
    assert data["games"] == 60 and data["seed"] == 4 and data["policies"] == ["explorer"] * 3
    assert data["rounds_p10"] <= data["rounds_median"] <= data["rounds_p90"]
    assert abs(sum(data["win_rate"]) + data["unfinished"] - 1) < 1e-9
    assert set(data["heat"]["lost"]) >= {"Hut", "Exit", "1", "20"}


def test_same_seed_same_json_and_table(capsys):
    first = run(capsys, "playtest", BEST, "--games", "30", "--policy", "explorer,greedy", "--json")[1]
    assert first == run(capsys, "playtest", BEST, "--games", "30", "--policy", "explorer,greedy", "--json")[1]
    status, out, _ = run(capsys, "playtest", BEST, "--games", "30", "--players", "2")
    assert status == 0 and "rounds until the game ends" in out and "seat 2 (explorer) wins" in out
    assert "seats win unequally" in out and "not shown, p = " in out  # two explorers: no seat advantage claimed


def test_seat_advantage_is_a_test_of_equal_wins(capsys):
    data = no_nan(run(capsys, "playtest", BEST, "--games", "80", "--policy", "explorer,random", "--json")[1])
    assert data["seat_p"] < 1e-6 and data["win_rate"][0] > 0.8  # an explorer against random moves: seats differ
    even = no_nan(run(capsys, "playtest", BEST, "--games", "80", "--players", "2", "--json")[1])
    assert even["seat_p"] > 0.05


def test_out_writes_json_histogram_and_heat_map(capsys, tmp_path):
    status, _, _ = run(capsys, "playtest", BEST, "--games", "50", "--out", str(tmp_path / "pt"))
    assert status == 0
    assert sorted(p.name for p in (tmp_path / "pt").iterdir()) == ["heat.svg", "playtest.json", "rounds.svg"]
    data = no_nan((tmp_path / "pt" / "playtest.json").read_text())
    assert len(data["rounds"]) == 50
    hist = ET.parse(tmp_path / "pt" / "rounds.svg").getroot()
    bars = [e for e in hist.iter("{http://www.w3.org/2000/svg}rect") if e.get("fill") == "#3b6ea5"]
    assert len(bars) == len(range(min(data["rounds"]), max(data["rounds"]) + 1))
    heat = ET.parse(tmp_path / "pt" / "heat.svg").getroot()
    assert heat.get("width").endswith("mm") and '"seed": 0' in heat.find("{http://www.w3.org/2000/svg}metadata").text


def test_out_into_the_current_folder_keeps_what_it_holds(capsys, tmp_path, monkeypatch):
    (tmp_path / "notes.txt").write_text("mine")
    inode = tmp_path.stat().st_ino
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "playtest", BEST, "--games", "20", "--out", ".")
    assert status == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heat.svg", "notes.txt", "playtest.json", "rounds.svg"]
    assert tmp_path.stat().st_ino == inode  # the folder itself was never swapped for a copy


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--players", "1"], "--players 1: the rules allow 2 to 4 players"),
        (["--players", "0"], "--players 0: the rules allow 2 to 4 players"),
        (
            ["--policy", "explorer,random,greedy,random,random"],
            "--policy explorer,random,greedy,random,random seats 5 players: the rules allow 2 to 4 players",
        ),
        (["--players", "5"], "--players 5"),
        (["--games", "0"], "argument --games: 0 must be at least 1"),
        (["--games", "100000000000"], "--games: 100,000,000,000 games: play from 1 to 1,000,000"),
        (["--rules", "/dev/zero"], "/dev/zero: too large (more than 268,435,456 bytes)"),
        (["--policy", "wizard"], "unknown policy 'wizard' (known: random, explorer, greedy)"),
        (["--policy", "explorer,random", "--players", "3"], "--policy names 2 policies for 3 players"),
        (["--rival", "nobody"], "unknown policy 'nobody'"),
        (["--board", "hexagon37"], "has 20 tiles but board 'hexagon37' has 37 slots"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, words):
    status, out, err = run(capsys, "playtest", BEST, "--games", "5", *argv)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err, err


def test_bad_rules_file_names_file_and_key(capsys, tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text('start = "Hut"\nrequired = ["Well"]\ngoal = "Hut"\n', encoding="utf-8")
    status, _, err = run(capsys, "playtest", BEST, "--rules", str(rules))
    assert status == 2 and err.strip().endswith(f"{rules}: goal 'Hut' is also the start")


def test_the_table_names_the_rules_hazards(capsys, tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text(
        'start = "Hut"\nrequired = ["Spring", "Orchard", "Lair"]\ngoal = "Exit"\n'
        '[[hazard]]\nlandmark = "Well"\nrolls = [1, 2]\nto = "Hut"\n',
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "playtest", BEST, "--games", "20", "--rules", str(rules))
    assert status == 0 and "hazard entries per game (Well)" in out and "Lair entries" not in out
    status, out, _ = run(capsys, "playtest", BEST, "--games", "20")
    assert status == 0 and "hazard entries per game (Lair)" in out
