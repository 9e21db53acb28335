"""Bots that think in the fast engine choose, in every state, what the reference engine's players choose."""

from dataclasses import replace

import pytest

from generator.board import load_board
from generator.model import read_tileset
from generator.play import default_rules
from generator.play.fastbot import FastBots
from generator.play.game import geometry
from generator.play.match import Match
from generator.play.policies import POLICIES
from generator.play.rng import game_rng
from tests.conftest import EXAMPLES

ANYWHERE = {"turning": {"next_to_pawn": False, "under_pawn": True, "steps": 2}}


@pytest.mark.parametrize(
    ("board_name", "tileset", "seats", "changed"),
    [
        ("classic", "best-known.json", ("explorer", "greedy", "explorer"), {}),
        ("classic", "random-20.json", ("greedy", "explorer", "greedy", "explorer"), {}),
        ("classic", "random-20.json", ("explorer", "greedy"), ANYWHERE),
        ("hexagon37", "optimized-hexagon37.json", ("explorer", "greedy"), {}),
    ],
)
def test_fast_bots_choose_every_action_the_reference_players_choose(board_name, tileset, seats, changed):
    board, tiles = load_board(board_name), read_tileset(EXAMPLES / tileset)
    rules = default_rules(board)
    if changed:
        rules = replace(rules, turning=replace(rules.turning, **changed["turning"]))
    geo, bots = geometry(board, rules), FastBots(tiles, board, rules)
    kinds: set[str] = set()
    for g in range(6):
        match = Match(tiles, geo, rules, len(seats), seed=3, game=g)
        slow, fast = game_rng(77, g), game_rng(77, g)
        while not match.over:
            policy = POLICIES[seats[match.current]]
            action = match.next_action(policy, slow)
            assert bots.next_action(match, policy, fast) == action, (g, match.actions)
            assert (slow == fast).all()  # the same guesses drawn
            kinds.add(action[0])
            match.act(action)
    assert {"roll", "step", "turn"} <= kinds  # every kind of choice was compared
