"""The step interface: a match driven by the simulator's players is the simulator's game, move for move;
people's actions are checked against the rules; a match is restored by replaying its actions."""

import numpy as np
import pytest

from generator.board import load_board
from generator.model import read_tileset
from generator.play import default_rules
from generator.play.game import geometry
from generator.play.logrows import to_rows
from generator.play.match import IllegalMove, Match, replay
from generator.play.policies import POLICIES
from generator.play.reference import play_game
from generator.play.rng import game_rng
from tests.conftest import EXAMPLES


@pytest.mark.parametrize(
    ("board_name", "tileset", "seats"),
    [
        ("classic", "best-known.json", ("explorer", "explorer", "explorer")),
        ("classic", "random-20.json", ("greedy", "explorer", "greedy", "explorer")),
        ("hexagon37", "optimized-hexagon37.json", ("explorer", "greedy")),
    ],
)
def test_a_match_driven_by_the_simulators_players_is_the_simulators_game(board_name, tileset, seats):
    board, tiles = load_board(board_name), read_tileset(EXAMPLES / tileset)
    rules, policies = default_rules(board), tuple(POLICIES[s] for s in seats)
    geo = geometry(board, rules)
    for g in range(8):
        match = Match(tiles, geo, rules, len(seats), seed=5, game=g)
        while not match.over:
            match.play(policies[match.current])
        game = play_game(tiles, geo, rules, policies, 5, g, log=True)
        assert match.table.trace == game.trace and match.winner == game.winner
        assert np.array_equal(to_rows(match.log(seats)), to_rows(game.log))
        bots = Match(tiles, geo, rules, len(seats), seed=5, game=g)  # guessing from their own stream
        guesses = game_rng(99, g)
        while not bots.over:
            bots.play(policies[bots.current], guesses)
        again = replay(tiles, geo, rules, len(seats), 5, g, bots.actions)
        assert again.table.trace == bots.table.trace and again.table.laid == bots.table.laid
        assert again.log(seats) == bots.log(seats) and again.winner == bots.winner


@pytest.mark.parametrize(
    "change",
    [
        {"die": 8, "stub_blocks": True, "move_ending": ("Exit",)},
        {"die": 4, "hazards": (), "round_cap": 6, "turning": {"next_to_pawn": False, "steps": 2, "under_pawn": True}},
        {"die": 12, "move_ending": (), "round_cap": 60, "turning": {"allowed": False}},
    ],
)
def test_a_match_is_the_simulators_game_under_other_rules_too(change):
    from dataclasses import replace

    board, tiles = load_board("classic"), read_tileset(EXAMPLES / "random-20.json")
    rules = default_rules(board)
    rules = replace(rules, **{k: v for k, v in change.items() if k != "turning"})
    rules = replace(rules, turning=replace(rules.turning, **change.get("turning", {})))
    seats = ("random", "explorer", "greedy")
    policies, geo = tuple(POLICIES[s] for s in seats), geometry(board, rules)
    for g in range(2):
        match = Match(tiles, geo, rules, len(seats), seed=9, game=g)
        while not match.over:
            match.play(policies[match.current])
        game = play_game(tiles, geo, rules, policies, 9, g, log=True)
        assert match.table.trace == game.trace and match.winner == game.winner
        assert np.array_equal(to_rows(match.log(seats)), to_rows(game.log))
        bots = Match(tiles, geo, rules, len(seats), seed=9, game=g)  # guessing from their own stream
        guesses = game_rng(77, g)
        while not bots.over:
            bots.play(policies[bots.current], guesses)
        again = replay(tiles, geo, rules, len(seats), 9, g, bots.actions)
        assert again.table.trace == bots.table.trace and again.log(seats) == bots.log(seats)


@pytest.fixture
def match():
    board = load_board("classic")
    rules = default_rules(board)
    return Match(read_tileset(EXAMPLES / "best-known.json"), geometry(board, rules), rules, 3, seed=1)


def test_people_get_only_legal_actions_and_one_line_reasons(match):
    assert ("roll",) in match.legal() and all(a[0] in ("roll", "turn") for a in match.legal())
    for action, reason in [
        (("step", 0), "roll the die or turn a tile first"),
        (("pass",), "a trail leads out of your place"),
        (("fly",), "unknown action 'fly'"),
        (("turn", 3, 1), "that tile may not be turned"),
        ((), "unknown action None"),
    ]:
        with pytest.raises(IllegalMove, match=reason) as err:
            match.act(action)
        assert "\n" not in str(err.value)
    assert match.actions == []  # a refused action changes nothing
    match.act(("roll",))
    pips = match.pips
    assert pips >= 1 and match.legal() == [("step", i) for i in range(len(match.doors()))]
    with pytest.raises(IllegalMove, match=f"walk your {pips} pips left"):
        match.act(("roll",))
    with pytest.raises(IllegalMove, match="no such door"):
        match.act(("step", 99))
    while match.current == 0 and not match.over:
        match.act(("step", 0))
    assert match.current == 1 and match.pips == 0


def test_a_turn_may_not_undo_the_last_players_turn(match):
    table = match.table
    while not match.turns():  # walk until tiles lie next to the current player
        match.play(POLICIES["explorer"])
    slot, sixths = match.turns()[0]
    mover = match.current
    match.act(("turn", slot, sixths))
    if (slot, -sixths) in table.turns_allowed(match.current):
        assert ("turn", slot, -sixths) not in match.legal()
        with pytest.raises(IllegalMove, match="undoing a turn"):
            match.act(("turn", slot, -sixths))
    assert table.turned_at[slot][1] == mover


def test_a_replay_names_the_first_action_the_rules_refuse(match):
    with pytest.raises(IllegalMove, match=r"action 1 \['roll'\]: you rolled"):
        replay(match.tiles, match.geo, match.rules, 3, 1, 0, [["roll"], ["roll"]])
