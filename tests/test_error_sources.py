"""Every error names what the user typed: the file as given (and the item inside it), or the flag.

Two ways in. A property walks every file validator with files mutated at random (a value swapped for one
of another kind, a line dropped): each either loads or fails with one line naming the file's path as given.
Then every command-line value checked after argparse is tried with a bad value: the message names its flag.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.board import load_board
from generator.cli import main
from generator.errors import TrailwrightError
from tests.conftest import EXAMPLES

TILESET = str(EXAMPLES / "random-20.json")

# --- the validators, each from a path as the user gives it to the loaded object's first use -------------


def _board(path: Path):
    from generator.play import load_rules
    from generator.scoring.tables import board_arrays

    board = load_board(str(path))
    board_arrays(board)  # the scorer's limits on a loaded board
    load_rules(None, board)  # the default rules mapped onto it


def _tileset(path: Path):
    from generator.model import read_tileset
    from generator.scoring.tables import check_size

    check_size(read_tileset(path), load_board("classic"))


def _settings(path: Path):
    from generator.publish.settings import load_settings

    load_settings(path)


def _style(path: Path):
    from generator.render.style import load_style

    load_style(path)


def _rules(path: Path):
    from generator.play import load_rules

    load_rules(path, load_board("classic"))


def _objective(path: Path):
    from generator.scoring.objective import load_objective, resolve_targets

    resolve_targets(load_objective(path), load_board("classic").pair_names(), str(path))


def _checkpoint(path: Path):
    from generator.optimize.checkpoint import read_checkpoint

    read_checkpoint(path)


def _sample_checkpoint() -> str:
    from generator.model import read_tileset
    from generator.optimize import Config, make_problem
    from generator.optimize.checkpoint import checkpoint_text
    from generator.scoring.objective import ARTICLE

    problem = make_problem(load_board("classic"), ARTICLE, read_tileset(TILESET))
    config = Config(
        strategy="anneal",
        preset=None,
        time=None,
        generations=3,
        samples=None,
        max_samples=None,
        seed=1,
        chains=2,
        migrate=None,
        rescore=1000,
        checkpoint_every=5.0,
    )
    return checkpoint_text(problem, config, [None, None], None)


def _packaged(package: str, name: str) -> str:
    return (resources.files(package) / name).read_text("utf-8")


OBJECTIVE = """pair_weight = 1.0
bridges_weight = 0.05
max_trails = 4
forbid = [[["N", "S"], ["NE", "SW"], ["SE", "NW"]]]
[pair_targets]
"Hut-Well" = 0.99
"""

KINDS = {  # kind -> (file name, a valid file's text, validator)
    "board": ("my board.toml", lambda: _packaged("generator.board.boards", "classic.toml"), _board),
    "tileset": ("my tiles.json", lambda: Path(TILESET).read_text(), _tileset),
    "settings": ("my settings.toml", lambda: _packaged("generator.publish", "publish.toml"), _settings),
    "style": ("my style.toml", lambda: _packaged("generator.render", "style.toml"), _style),
    "rules": ("my rules.toml", lambda: _packaged("generator.play", "rules.toml"), _rules),
    "objective": ("my objective.toml", lambda: OBJECTIVE, _objective),
    "checkpoint": ("my run.checkpoint", _sample_checkpoint, _checkpoint),
}

TOML_VALUES = [
    '"x"',
    '""',
    "-1",
    "0",
    "7",
    "1e300",
    "-0.5",
    "true",
    "[]",
    "[1, 2]",
    '["N"]',
    '[["N", "S"]]',
    '"\\u0001"',
    "99999999999",
    '"Hut"',
    '"NE"',
    "[[0, 0]]",
    '[[0, 0, "N"]]',
    "{}",
    "{a = 1}",
]
JSON_VALUES = [
    "x",
    "",
    -1,
    0,
    7,
    1e300,
    -0.5,
    True,
    None,
    [],
    [1, 2],
    ["N"],
    [["N", "S"]],
    "\u0001",
    10**12,
    {},
    {"a": 1},
    "NE",
    [["N", "NE", "SE", "S", "SW", "NW"]],
]


def _mutate_toml(text: str, data) -> str:
    lines = text.splitlines()
    assignments = [i for i, line in enumerate(lines) if re.match(r"\s*[\w\"-]+\s*=", line)]
    if not assignments:
        return text
    i = assignments[data.draw(st.integers(0, len(assignments) - 1), label="line")]
    action = data.draw(st.sampled_from(["value", "drop", "key", "table"]), label="action")
    key = lines[i].split("=", 1)[0]
    if action == "value":
        lines[i] = f"{key}= {data.draw(st.sampled_from(TOML_VALUES), label='value')}"
    elif action == "drop":
        del lines[i]
    elif action == "key":
        lines[i] = f"no_such_key = {lines[i].split('=', 1)[1]}"
    else:
        lines.insert(i, f"[{data.draw(st.sampled_from(['stray', 'tile', 'players', 'landmark']), label='table')}]")
    return "\n".join(lines) + "\n"


def _mutate_json(text: str, data) -> str:
    root = json.loads(text)
    node, path = root, []
    while isinstance(node, (dict, list)) and node and data.draw(st.integers(0, 3), label="deeper") > 0:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = keys[data.draw(st.integers(0, len(keys) - 1), label="key")]
        path.append((node, key))
        node = node[key]
    if not path:
        return json.dumps(data.draw(st.sampled_from(JSON_VALUES), label="root"))
    parent, key = path[-1]
    if data.draw(st.booleans(), label="drop") and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = data.draw(st.sampled_from(JSON_VALUES), label="value")
    return json.dumps(root)


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_validator_names_the_file_as_given(kind, data, tmp_path):
    name, valid, validate = KINDS[kind]
    text = valid()
    mutated = _mutate_json(text, data) if name.endswith((".json", ".checkpoint")) else _mutate_toml(text, data)
    path = tmp_path / "sub folder" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(mutated)
    try:
        validate(path)
    except TrailwrightError as err:
        message = str(err)
        assert str(path) in message, f"{kind}: {message}"
        assert "\n" not in message, message


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_valid_samples_load(kind, tmp_path):
    name, valid, validate = KINDS[kind]
    path = tmp_path / name
    path.write_text(valid())
    validate(path)


# --- the command line: the two cases, and every flag checked after argparse --------------------


def one_line(capsys, *argv) -> str:
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def _twelve_landmarks(tmp_path: Path) -> Path:
    from generator.board.geometry import neighbour

    board = load_board("classic")
    taken = set(board.slots) | {h for lm in board.landmarks for h in lm.hexes} | {c.hex for c in board.connectors}
    free = list(dict.fromkeys(neighbour(s, d) for s in board.slots for d in range(6)))
    free = [h for h in free if h not in taken]
    text = _packaged("generator.board.boards", "classic.toml").replace('name = "classic"', 'name = "many"')
    text = text.split("[[connector]]")[0]
    text += "".join(f'\n[[landmark]]\nname = "Extra{i}"\nhexes = [[{q}, {r}]]\n' for i, (q, r) in enumerate(free[:6]))
    path = tmp_path / "boards" / "board_12_landmarks.toml"
    path.parent.mkdir()
    path.write_text(text)
    return path


@pytest.mark.parametrize("command", [["score", TILESET], ["publish", TILESET], ["optimize", "--generations", "1"]])
def test_a_board_the_scorer_refuses_is_named_by_its_path_not_its_name(capsys, tmp_path, command):
    board = _twelve_landmarks(tmp_path)
    out = tmp_path / "out" / "made"
    err = one_line(capsys, *command, "--board", str(board), *(["--out", str(out)] if command[0] != "score" else []))
    assert str(board) in err and "12 landmarks; at most 11" in err and "'many'" not in err
    assert not out.exists()


def test_a_title_names_the_flag_or_the_settings_file_it_came_from(capsys, tmp_path):
    out = tmp_path / "kit"
    err = one_line(capsys, "publish", TILESET, "--title", "Maze\x01wood", "--out", str(out))
    assert err.startswith("trailwright: error: --title: control character U+0001"), err
    settings = tmp_path / "my settings.toml"
    settings.write_text('title = "Maze\\u0001wood"\n')
    err = one_line(capsys, "publish", TILESET, "--settings", str(settings), "--out", str(out))
    assert f"{settings}: title: control character U+0001" in err
    assert not out.exists()


PUBLISH_FLAGS = [  # flag, bad value, words the message must hold
    ("--title", "x" * 300, "longer than"),
    ("--paper", "b9", "unknown paper 'b9'"),
    ("--profile", "nope", "unknown manufacturer profile"),
    ("--only", "shets", "unknown document 'shets'"),
    ("--skip", "shets", "unknown document 'shets'"),
    ("--asset-url", "ftp://host/x", "must start with"),
    ("--board", "nosuch", "no such board"),
]
FILE_FLAGS = [  # a file or folder flag: the message names the path as typed
    ("--rules", "nosuch.toml", "cannot read"),
    ("--settings", "nosuch.toml", "cannot read"),
    ("--style", "nosuch.toml", "cannot read"),
    ("--templates", "nosuch-folder", "missing template"),
]


@pytest.mark.parametrize("flag, value, words", PUBLISH_FLAGS, ids=[f[0] for f in PUBLISH_FLAGS])
def test_every_publish_flag_checked_after_argparse_is_named(capsys, tmp_path, flag, value, words):
    out = tmp_path / "kit"
    err = one_line(capsys, "publish", TILESET, flag, value, "--out", str(out))
    assert err.startswith(f"trailwright: error: {flag}") and words in err, err
    assert not out.exists()


@pytest.mark.parametrize("flag, value, words", FILE_FLAGS, ids=[f[0] for f in FILE_FLAGS])
def test_every_publish_file_flag_names_the_path_as_typed(capsys, tmp_path, flag, value, words):
    out = tmp_path / "kit"
    err = one_line(capsys, "publish", TILESET, flag, value, "--out", str(out))
    assert err.startswith(f"trailwright: error: {value}: ") and words in err, err
    assert not out.exists()


def test_skipping_everything_names_skip(capsys, tmp_path):
    err = one_line(capsys, "publish", TILESET, "--only", "sheets", "--skip", "sheets", "--out", str(tmp_path / "k"))
    assert err.startswith("trailwright: error: --skip: leaves no documents"), err


OPTIMIZE_FLAGS = [
    (["--board", "nosuch"], "--board: no such board file or built-in board 'nosuch'"),
    (["--objective", "nosuch.toml"], "nosuch.toml: cannot read"),
    (["--init", "nosuch.json"], "nosuch.json: cannot read"),
    (["--pin", "1"], "need --init"),
    (["--init", TILESET, "--pin", "nosuch"], "--pin"),
    (["--resume", "x.checkpoint", "--seed", "3"], "--seed cannot change a resumed run"),
    (["--resume", "nosuch.checkpoint"], "nosuch.checkpoint: cannot read"),
    (["--migrate", "5"], "--migrate needs a time budget"),
    (["--scheduler", "tcp://127.0.0.1:9"], "tcp://127.0.0.1:9"),
]


@pytest.mark.parametrize("argv, words", OPTIMIZE_FLAGS, ids=[f[0][0] + f[0][-1] for f in OPTIMIZE_FLAGS])
def test_every_optimize_flag_checked_after_argparse_is_named(capsys, tmp_path, monkeypatch, argv, words):
    from generator.optimize import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    out = tmp_path / "t.json"
    err = one_line(capsys, "optimize", "--generations", "1", *argv, "--out", str(out))
    assert words in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["playtest", TILESET, "--policy", "explorer,nope"], "--policy: unknown policy 'nope'"),
        (["playtest", TILESET, "--rival", "nope"], "--rival: unknown policy 'nope'"),
        (["playtest", TILESET, "--players", "9"], "--players 9"),
        (["calibrate", "--paper", "b9"], "--paper: unknown paper"),
        (["check", "output", "--profile", "nope"], "--profile: unknown manufacturer profile"),
        (["render", TILESET, "--board", "nosuch"], "--board: no such board"),
        (["score", TILESET, "--board", "nosuch"], "--board: no such board"),
        (["preview", TILESET, "--board", "nosuch"], "--board: no such board"),
    ],
)
def test_other_commands_name_their_flags(capsys, tmp_path, argv, words):
    err = one_line(capsys, *argv, *(["--out", str(tmp_path / "o")] if argv[0] in ("render", "calibrate") else []))
    assert words in err, err


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["score", TILESET, "--board", ""], "--board"),
        (["score", ""], None),
        (["publish", TILESET, "--rules", ""], "--rules"),
        (["publish", TILESET, "--settings", ""], "--settings"),
        (["publish", TILESET, "--style", ""], "--style"),
        (["render", TILESET, "--style", ""], "--style"),
        (["optimize", "--generations", "1", "--init", ""], "--init"),
        (["optimize", "--generations", "1", "--objective", ""], "--objective"),
        (["optimize", "--generations", "1", "--resume", ""], "--resume"),
    ],
)
def test_an_empty_path_is_an_error_not_a_default(capsys, tmp_path, argv, flag):
    """An empty value never silently means "not given" (an optimize with --init '' used to start from random)."""
    out = tmp_path / "out"
    err = one_line(capsys, *argv, *(["--out", str(out / "x")] if argv[0] != "score" else []))
    assert ("names no file" in err or "empty board name" in err) and (flag is None or f"error: {flag}: " in err), err
    assert not (out / "x").exists()
