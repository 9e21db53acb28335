"""The rules as data: the default file, validation against a board, one-line errors."""

import tomllib
from dataclasses import replace
from importlib import resources

import pytest

from generator.board import board_from_dict, load_board
from generator.errors import TrailwrightError
from generator.play import Hazard, Rules, default_rules, load_rules, rules_from_dict
from generator.play.rules import check_rules

CLASSIC = load_board("classic")


def default_data() -> dict:
    return tomllib.loads((resources.files("generator.play") / "rules.toml").read_text(encoding="utf-8"))


def test_default_rules_are_the_booklets_game():
    r = default_rules(CLASSIC)
    assert (r.start, r.required, r.goal, r.die) == ("Hut", ("Well", "Spring", "Orchard"), "Exit", 6)
    assert [(h.landmark, h.rolls, h.to) for h in r.hazards] == [("Lair", (1, 2, 3), "Hut")]
    assert r.turning.allowed and r.turning.next_to_pawn and r.turning.steps == 1 and not r.turning.under_pawn
    assert (r.players_min, r.players_max, r.players_default, r.round_cap) == (2, 4, 3, 200)
    assert all(r.ends_move(lm.name) for lm in CLASSIC.landmarks)


def test_default_rules_follow_renamed_landmarks_by_board_order():
    board = load_board("hexagon37")
    r = default_rules(board)
    assert (r.start, r.goal, r.hazards[0].landmark) == ("Gate", "Cave", "Grove")
    assert r.required == ("Tower", "Mill", "Shrine")


def write(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def toml_of(data: dict) -> str:
    """A small TOML writer for the rules' shapes (tables of scalars and lists)."""

    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return repr(v)

    lines, tables = [], []
    for k, v in data.items():
        if isinstance(v, dict):
            tables.append(f"[{k}]\n" + "".join(f"{kk} = {val(vv)}\n" for kk, vv in v.items()))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            tables += [f"[[{k}]]\n" + "".join(f"{kk} = {val(vv)}\n" for kk, vv in t.items()) for t in v]
        else:
            lines.append(f"{k} = {val(v)}")
    return "\n".join(lines) + "\n" + "\n".join(tables)


def test_round_trip_of_the_default_file(tmp_path):
    assert load_rules(write(tmp_path, toml_of(default_data())), CLASSIC) == default_rules(CLASSIC)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(colour="red"), "unknown key 'colour'"),
        (lambda d: d.update(die=1), "die: 1 is not a whole number from 2 to 100"),
        (lambda d: d.update(die=True), "die: True is not a whole number"),
        (lambda d: d.update(goal="Hut"), "goal 'Hut' is also the start"),
        (lambda d: d.update(goal="Castle"), "goal: 'Castle' is not a landmark of board 'classic'"),
        (lambda d: d.update(required=["Well", "Moon"]), "required: 'Moon' is not a landmark"),
        (lambda d: d.update(required=["Well", "Well"]), "names a landmark twice"),
        (lambda d: d.update(required=["Well", "Exit"]), "goal 'Exit' is also in required"),
        (lambda d: d.update(move_ending=["Wel"]), "move_ending: 'Wel' is not a landmark"),
        (lambda d: d.update(move_ending="some"), "move_ending: 'some' is neither \"all\" nor a list of landmark names"),
        (lambda d: d.update(round_cap=0), "round_cap: 0 is not a whole number from 1"),
        (lambda d: d["players"].update(min=1), "players.min: 1 is not a whole number from 2 to 4"),
        (lambda d: d["players"].update(max=5), "players.max: 5 is not a whole number from 2 to 4"),
        (lambda d: d["players"].update(default=4, max=3), "players.default = 4 is not from min 2 to max 3"),
        (lambda d: d["players"].update(min=4, max=3), "players: min 4 is more than max 3"),
        (lambda d: d["players"].update(seats=3), "unknown key 'seats'"),
        (lambda d: d["hazard"][0].update(rolls=[0, 7]), "hazard[1].rolls: 0 is not a whole number from 1 to 6"),
        (lambda d: d["hazard"][0].update(to="Den"), "hazard.to: 'Den' is not a landmark"),
        (lambda d: d["hazard"][0].update(to="Lair"), "sends a pawn to itself"),
        (lambda d: d["hazard"][0].update(when=3), "unknown key 'when'"),
        (lambda d: d["turning"].update(sixths=4), "turning.sixths: 4 is not a whole number from 1 to 3"),
        (lambda d: d["turning"].update(steps=7), "turning.steps: 7 is not a whole number from 1 to 6"),
        (lambda d: d["turning"].update(steps=1, sixths=1), "turning: steps and sixths (its older name) both given"),
        (lambda d: d["turning"].update(allowed="yes"), "turning.allowed: 'yes' is not true or false"),
        (lambda d: d.update(format="rules/2"), "format: 'rules/2' is not one of 'trailwright-rules/1'"),
    ],
)
def test_bad_rules_are_one_line_naming_file_and_key(tmp_path, change, words):
    data = default_data()
    change(data)
    path = write(tmp_path, toml_of(data))
    with pytest.raises(TrailwrightError) as err:
        load_rules(path, CLASSIC)
    message = str(err.value)
    assert "\n" not in message and message.startswith(str(path)) and words in message, message


def test_unreadable_and_malformed_files(tmp_path):
    with pytest.raises(TrailwrightError, match="cannot read"):
        load_rules(tmp_path / "missing.toml", CLASSIC)
    with pytest.raises(TrailwrightError, match="malformed TOML"):
        load_rules(write(tmp_path, "start = "), CLASSIC)


def test_default_rules_on_a_board_with_other_landmark_count():
    lm = [{"name": n, "hexes": [h]} for n, h in (("A", [0, -1]), ("B", [1, 0]), ("C", [-1, 0]), ("D", [0, 2]))]
    two = board_from_dict({"slots": [[0, 0], [0, 1]], "landmark": [lm[0], lm[3]]})
    assert default_rules(two) == replace(default_rules(), start="A", required=(), goal="D", hazards=())
    rules = default_rules(board_from_dict({"slots": [[0, 0], [0, 1]], "landmark": lm}))
    assert (rules.start, rules.required, rules.goal, rules.hazards) == ("A", ("B", "C"), "D", ())
    with pytest.raises(TrailwrightError, match="needs a start and a goal: pass a rules file"):
        default_rules(board_from_dict({"slots": [[0, 0], [0, 1]], "landmark": lm[:1]}))
    small = Rules(start="A", required=(), goal="D")
    assert check_rules(small, two) is small


def test_rules_from_dict_needs_the_landmark_keys():
    with pytest.raises(TrailwrightError, match="start: needs a landmark name"):
        rules_from_dict({"goal": "Exit"})


def test_hex_distance_counts_steps_through_neighbours():
    from generator.board.geometry import hex_distance, neighbour

    for h in [(q, r) for q in range(-2, 3) for r in range(-2, 3)]:
        ring = {neighbour(h, d) for d in range(6)}
        assert {hex_distance(h, x) for x in ring} == {1}
        second = {neighbour(x, d) for x in ring for d in range(6)} - ring - {h}
        assert len(second) == 12 and {hex_distance(h, x) for x in second} == {2}


@pytest.mark.parametrize("board", ["classic", "hexagon37", "hexagon91", "tests/data/camp-board.toml"])
def test_a_rules_file_for_a_board_reads_back_as_its_game_with_the_booklets_comments(board):
    from generator.play.rules import rules_file_text

    b = load_board(board)
    game = default_rules(b)
    variants = [
        game,
        replace(game, die=8, move_ending=(game.goal,), players_min=3, round_cap=40, hazards=()),
        replace(game, hazards=tuple(Hazard(n, (1,), game.start) for n in game.required[:2])),
    ]
    for rules in variants:
        text = rules_file_text(rules)
        assert rules_from_dict(tomllib.loads(text)) == rules
        assert "# every pawn starts here" in text and "# by this many edges, either way" in text
        template = (resources.files("generator.play") / "rules.toml").read_text(encoding="utf-8")
        for comment in ("# every pawn starts here", "# visit all of these", "# sides of the die"):
            column = [line.index(comment) for line in template.splitlines() if comment in line]
            assert [line.index(comment) for line in text.splitlines() if comment in line] == column


def test_a_turn_is_steps_of_one_edge_and_an_older_files_sixths_reads_as_steps_on_every_board():
    """An older project's rules (``new`` wrote ``sixths`` on every board), a rules file and a recorded game load as
    they always played: the engines turned by edges."""
    from generator.play.rules import rules_file_text, rules_to_dict

    square = load_board("square-jungle")
    data = rules_to_dict(default_rules(square))
    data["turning"] = {k: v for k, v in data["turning"].items() if k != "steps"} | {"sixths": 3}
    older = check_rules(rules_from_dict(data), square)
    assert older.turning.steps == 3 and "sixths" not in rules_file_text(older)  # three quarters; written as steps
    assert rules_from_dict(tomllib.loads(rules_file_text(older))) == older
    data["turning"] = {"steps": 4}
    with pytest.raises(TrailwrightError, match=r"turning\.steps = 4: from 1 to 3 on these tiles \(4 edges\)"):
        check_rules(rules_from_dict(data), square)
    classic = default_rules(CLASSIC)
    assert check_rules(replace(classic, turning=replace(classic.turning, steps=5)), CLASSIC).turning.steps == 5
    assert load_rules(None, square).turning.steps == 1
