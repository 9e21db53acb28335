"""The game-quality measures: hand-made logs worked out on paper, properties, and the engine's own logs."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.board import load_board
from generator.model import Side, Tile, TileSet
from generator.play import default_rules
from generator.play.game import geometry
from generator.play.gamelog import GameLog, Round
from generator.play.logrows import from_rows, to_rows
from generator.play.measures import (
    lead_changes,
    leaders,
    luck_share,
    measures,
    measures_of_rows,
    progress,
    settled_round,
)
from generator.play.policies import POLICIES
from generator.play.reference import play_game
from tests.conftest import EXAMPLES

BOARD = load_board("classic")
RULES = default_rules(BOARD)  # start Hut (0); required Well (1), Spring (2), Orchard (4); goal Exit (5)
START, EXIT = 6 * 20 + 0, 6 * 20 + 5
STRAIGHTS = Side.from_names([["N", "S"], ["NE", "SW"], ["SE", "NW"]])
TILES = TileSet(tuple(Tile(str(i + 1), STRAIGHTS, STRAIGHTS) for i in range(20)))
WELL, SPRING, ORCHARD = 1 << 1, 1 << 2, 1 << 4
ALL = WELL | SPRING | ORCHARD


def rnd(ticked, places=None, played=None, events=()):
    n = len(ticked)
    return Round(tuple(range(n)) if played is None else played, tuple(events), places or (START,) * n, ticked)


def game(rounds, winner, players=3):
    return GameLog(("explorer",) * players, 20, (rnd((0,) * players, played=()), *rounds), winner)


# A game worked out on paper (no tile is laid, so every route is unknown and only ticks and the Exit count):
#   round  ticked (p0, p1, p2)          leaders   single leader   lead change
#   0      0, 0, 0                      {0,1,2}   -
#   1      W, 0, 0                      {0}       0               no (the first)
#   2      W, W, 0                      {0,1}     (shared)
#   3      W, W+S, 0                    {1}       1               yes
#   4      W+S, W+S, 0                  {0,1}     (shared)
#   5      W+S+O, W+S, 0                {0}       0               yes
#   6      all, all (p1 on the Exit), 0 {1}       1               yes: 3 changes; p1 wins in round 6
# drama: leaders(ceil(2*6/3)) = leaders(4) = {0,1} holds the winner: no. settled: p1 leads in round 6 but
# not 5, so t* = 6 and the share is 0. p0 steps every turn, the others never: 17 turns, 11 idle.
PAPER = game(
    [
        rnd((WELL, 0, 0), events=[("step", 0, 1)]),
        rnd((WELL, WELL, 0), events=[("step", 0, 1)]),
        rnd((WELL, WELL | SPRING, 0), events=[("step", 0, 1)]),
        rnd((WELL | SPRING, WELL | SPRING, 0), events=[("step", 0, 1)]),
        rnd((ALL, WELL | SPRING, 0), events=[("step", 0, 1)]),
        rnd((ALL, ALL, 0), places=(START, EXIT, START), played=(0, 1), events=[("step", 0, 1), ("win", 1)]),
    ],
    winner=1,
)
# and one the winner p0 leads alone from round 1: no change, no drama, settled from round 0
CALM = game([rnd((WELL, 0, 0)), rnd((WELL | SPRING, WELL, 0)), rnd((ALL, WELL, 0), (EXIT, START, START), (0,))], 0)


def test_the_game_worked_out_on_paper():
    rows = progress(PAPER, geometry(BOARD, RULES), RULES, TILES)
    lead = [leaders(row) for row in rows]
    assert lead == [{0, 1, 2}, {0}, {0, 1}, {1}, {0, 1}, {0}, {1}]
    assert rows[6][1] == (3, 0) and rows[6][0] == (3, -math.inf)
    assert lead_changes(lead) == 3 and settled_round(lead, 1) == 6


def test_two_games_measured_together():
    m = measures([PAPER, CALM], BOARD, RULES, TILES)
    assert m.games == 2 and m.completion.value == 1.0
    assert m.lead_changes.value == pytest.approx(1.5) and m.lead_changes.games == 2
    assert m.lead_changes.se == pytest.approx(1.5)  # sd 2.1213 / sqrt 2
    assert m.drama.value == 0.0 and m.settled_share.value == pytest.approx(0.5)
    assert m.duration.value == pytest.approx(4.5)
    assert m.downtime.value == pytest.approx((11 + 7) / (17 + 7))  # CALM: 7 turns, none with a step
    assert m.seat_advantage == pytest.approx(1 / 3)  # seats 0 and 1 win once each, seat 2 never: 0 vs 1/3


def test_a_route_over_a_laid_tile_counts_its_steps():
    """Slot 4 (0, 3) faces the Spring with its S side: a pawn on the tile's N-S trail is one step away."""
    lay = ("lay", 0, 3, 0, 0, 0)  # slot 4 (index 3) gets tile 0, front, unturned: trail 0 runs N-S
    log = game([rnd((0, 0, 0), places=(6 * 3 + 0, START, START), events=[lay])], winner=-1)
    rows = progress(log, geometry(BOARD, RULES), RULES, TILES)
    assert rows[1] == [(0, -1), (0, -math.inf), (0, -math.inf)]


def test_drama_when_the_winner_trailed_at_two_thirds():
    log = game([rnd((0, WELL, 0)), rnd((0, WELL, 0)), rnd((ALL, WELL, 0), (EXIT, START, START), (0,))], 0)
    m = measures([log], BOARD, RULES, TILES)
    assert m.drama.value == 1.0  # leaders(2) = {1}
    assert m.settled_share.value == 0.0 and m.lead_changes.value == 1


def test_an_unfinished_game_counts_only_for_completion_and_downtime():
    log = game([rnd((WELL, 0, 0)), rnd((WELL, WELL | SPRING, 0))], winner=-1)
    m = measures([log, CALM], BOARD, RULES, TILES)
    assert m.completion.value == 0.5 and m.lead_changes.games == 1 and m.downtime.games == 2


def test_luck_share_reads_the_skill_gap():
    assert luck_share(1.0, 0.0, 3).value == 0.0
    assert luck_share(1 / 3, 0.01, 3).value == pytest.approx(1.0)
    assert luck_share(0.2, 0.01, 3).value > 1  # worse than chance
    assert luck_share(0.5, 0.02, 2).se == pytest.approx(0.04)


# --- properties ----------------------------------------------------------------------------------

BITS = (WELL, SPRING, ORCHARD)


@st.composite
def games(draw, winner_leads=False):
    players = draw(st.integers(2, 4))
    length = draw(st.integers(1, 12))
    winner = draw(st.integers(-1 if not winner_leads else 0, players - 1))
    ticked = [0] * players
    rounds = []
    for t in range(1, length + 1):
        last = t == length and winner >= 0
        for p in range(players):
            if draw(st.booleans()):
                ticked[p] |= draw(st.sampled_from(BITS))
        if winner_leads:  # the winner one tick ahead of everyone from round 1
            top = max(bin(ticked[p]).count("1") for p in range(players) if p != winner)
            while bin(ticked[winner]).count("1") <= top and ticked[winner] != ALL:
                ticked[winner] |= next(b for b in BITS if not ticked[winner] & b)
            if bin(ticked[winner]).count("1") <= top:
                for p in range(players):
                    if p != winner:
                        ticked[p] = WELL
        if last:
            ticked[winner] = ALL
        places = tuple(EXIT if last and p == winner else START for p in range(players))
        played = tuple(range(winner + 1 if last else players))
        events = [("step", p, 1) for p in played if draw(st.booleans())]
        rounds.append(rnd(tuple(ticked), places, played, events))
    return game(rounds, winner, players)


def relabel(log: GameLog, perm: list[int]) -> GameLog:
    """The same game with player p in seat perm[p]."""
    n = log.players

    def moved(values):
        out = [None] * n
        for p, v in enumerate(values):
            out[perm[p]] = v
        return tuple(out)

    rounds = tuple(
        Round(
            tuple(perm[p] for p in r.played),
            tuple((e[0], perm[e[1]], *e[2:]) for e in r.events),
            moved(r.places),
            moved(r.ticked),
        )
        for r in log.rounds
    )
    return GameLog(moved(log.seats), log.slots, rounds, perm[log.winner] if log.winner >= 0 else -1)


@settings(max_examples=60, deadline=None)
@given(games(winner_leads=True))
def test_a_winner_who_led_alone_from_round_one_makes_a_calm_game(log):
    m = measures([log], BOARD, RULES, TILES)
    assert m.lead_changes.value == 0 and m.drama.value == 0 and m.settled_share.value == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_swapping_seat_labels_changes_no_measure(logs, rng):
    perm = list(range(logs[0].players))
    rng.shuffle(perm)
    logs = [log for log in logs if log.players == len(perm)]
    assert measures(logs, BOARD, RULES, TILES) == measures([relabel(g, perm) for g in logs], BOARD, RULES, TILES)


# --- the engine's own logs -----------------------------------------------------------------------


def test_a_logged_game_is_the_same_game_and_its_log_round_trips(random20):
    from generator.model import read_tileset

    tiles = read_tileset(EXAMPLES / "best-known.json")
    geo = geometry(BOARD, RULES)
    seats = (POLICIES["explorer"],) * 3
    for g in range(5):
        plain, logged = play_game(tiles, geo, RULES, seats, 1, g), play_game(tiles, geo, RULES, seats, 1, g, log=True)
        assert (plain.trace, plain.rounds, plain.winner) == (logged.trace, logged.rounds, logged.winner)
        log = logged.log
        assert log.length == logged.rounds and log.winner == logged.winner
        assert GameLog.from_dict(log.to_dict()) == log
        assert all(len(r.places) == 3 for r in log.rounds) and log.rounds[0].places == (START,) * 3
        assert sum(e[0] == "lay" for r in log.rounds for e in r.events) == logged.laid
        assert log.rounds[-1].places[log.winner] == EXIT and log.rounds[-1].ticked[log.winner] == ALL
        assert progress(log, geo, RULES, tiles)[-1][log.winner] == (3, 0)


def test_playtest_reports_the_measures_of_its_first_games(capsys):
    import json

    from generator.cli import main
    from generator.model import read_tileset

    best = str(EXAMPLES / "best-known.json")
    assert main(["playtest", best, "--games", "40", "--measure-games", "25", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["measures"]
    tiles, geo, seats = read_tileset(best), geometry(BOARD, RULES), (POLICIES["explorer"],) * 3
    logs = [play_game(tiles, geo, RULES, seats, 3, g, log=True).log for g in range(25)]
    expected = measures(logs, BOARD, RULES, tiles, count_choices=True)
    assert data["games"] == 25 and data["lead_changes"]["value"] == pytest.approx(expected.lead_changes.value)
    assert data["choices_per_turn"]["value"] == pytest.approx(expected.choices.value)
    assert data["drama_reading"].startswith("in ") and 0 <= data["luck_share"]["value"] <= 1.5
    assert set(data["reference_sets"]) == {"previous-best", "random-20", "straight diameters on every side"}
    assert main(["playtest", best, "--games", "10", "--measure-games", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["measures"] is None
    assert main(["playtest", best, "--games", "10"]) == 0
    assert "Is it a good game?" in capsys.readouterr().out


# --- the compact log and the compiled measures ---------------------------------------------------


def _rows_of(logs):
    pieces = [to_rows(log) for log in logs]
    offsets = np.cumsum([0] + [len(p) for p in pieces])
    return np.concatenate(pieces), offsets


def _compiled(logs, board=BOARD, rules=RULES, tiles=TILES, count_choices=False):
    rows, offsets = _rows_of(logs)
    winners = [log.winner for log in logs]
    return measures_of_rows(rows, offsets, winners, logs[0].seats, board, rules, tiles, count_choices)


def test_the_compiled_measures_read_hand_made_logs_as_the_reference_does():
    assert _compiled([PAPER, CALM]) == measures([PAPER, CALM], BOARD, RULES, TILES)
    assert from_rows(to_rows(PAPER), PAPER.seats, 20, PAPER.winner) == PAPER


@settings(max_examples=40, deadline=None)
@given(st.lists(games(), min_size=1, max_size=4))
def test_the_compiled_measures_equal_the_reference_on_any_log(logs):
    logs = [log for log in logs if log.players == logs[0].players]
    assert _compiled(logs) == measures(logs, BOARD, RULES, TILES)
    for log in logs:
        assert from_rows(to_rows(log), log.seats, log.slots, log.winner) == log


@pytest.mark.parametrize(
    ("board_name", "tileset", "policies"),
    [
        ("classic", "best-known.json", ("explorer",) * 3),
        ("classic", "random-20.json", ("greedy", "explorer", "random", "explorer")),
        ("hexagon37", "optimized-hexagon37.json", ("explorer", "greedy")),
    ],
)
def test_both_engines_write_the_same_logs_and_the_same_measures(board_name, tileset, policies):
    from generator.model import read_tileset
    from generator.play.simulate import play

    board, tiles = load_board(board_name), read_tileset(EXAMPLES / tileset)
    rules = default_rules(board)
    fast = play(tiles, board, rules, policies, 20, seed=11, log=True)
    slow = play(tiles, board, rules, policies, 20, seed=11, engine="reference", log=True)
    assert np.array_equal(fast.offsets, slow.offsets) and np.array_equal(fast.rows, slow.rows)
    logs = [slow.log(g, policies, len(board.slots)) for g in range(20)]
    assert [log.length for log in logs] == slow.rounds.tolist()
    reference = measures(logs, board, rules, tiles, count_choices=True)
    assert _compiled(logs, board, rules, tiles, count_choices=True) == reference
    assert reference.choices is not None and 1 <= reference.choices.value <= reference.actions.value


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(*[st.integers(-3, 130)] * 6), min_size=0, max_size=30),
    st.lists(st.integers(-2, 3), min_size=1, max_size=3),
)
def test_the_compiled_replay_refuses_rows_from_elsewhere_in_one_line_and_never_reads_past_the_board(junk, winners):
    """Rows a person or a bad file might hand it: a clear ValueError or numbers, never a crash."""
    good = to_rows(PAPER)
    rows = np.concatenate([good, np.array(junk, np.int32).reshape(-1, 6)])
    offsets = np.array([0, len(rows)])
    try:
        m = measures_of_rows(rows, offsets, winners[:1], PAPER.seats, BOARD, RULES, TILES, count_choices=True)
    except ValueError as err:
        assert "\n" not in str(err)
    else:
        assert m.games == 1


def test_a_turn_of_an_empty_slot_is_refused():
    rows = to_rows(PAPER)
    rows = np.insert(rows, len(rows) - 3, [[4, 0, 7, 1, 0, 0]], axis=0)  # p0 turns slot 8, never laid
    with pytest.raises(ValueError, match="turns a tile in an empty slot"):
        measures_of_rows(rows, np.array([0, len(rows)]), [1], PAPER.seats, BOARD, RULES, TILES)


def test_a_log_longer_than_the_round_cap_is_refused():
    from dataclasses import replace

    short_cap = replace(RULES, round_cap=3)
    with pytest.raises(ValueError, match="more rounds than the rules' cap of 3"):
        _compiled([PAPER], rules=short_cap)


def test_games_played_and_measured_on_threads_are_the_games_of_one_thread(monkeypatch):
    """Chunks of games on threads play the very games one thread plays (each game has its own seed) and the
    measures' replay in parts gives the same numbers; a forbidden row in a later part is still the one named."""
    import importlib

    from generator.play import measures as module

    sim = importlib.import_module("generator.play.simulate")  # the module (the package exports its function)
    rules = default_rules(BOARD)
    monkeypatch.setattr(sim, "CHUNK", 10**6)  # every game in one call
    one = sim.play(TILES, BOARD, rules, ("explorer",) * 3, 30, 5, log=True)
    monkeypatch.setattr(sim, "CHUNK", 7)  # five chunks on the threads, their heat and logs joined
    two = sim.play(TILES, BOARD, rules, ("explorer",) * 3, 30, 5, log=True, threads=2)
    for name in ("rounds", "winners", "laid", "traces", "tallies", "heat", "rows", "offsets"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    monkeypatch.setattr(module, "PART", 4)  # eight parts of the replay
    args = (one.rows, one.offsets, one.winners, ("explorer",) * 3, BOARD, rules, TILES, True)
    assert measures_of_rows(*args, threads=2) == measures_of_rows(*args, threads=1)
    late = int(one.offsets[21]) + 2  # early in game 21, a part of its own
    bad = np.insert(one.rows, late, [[4, 0, 19, 1, 0, 0]], axis=0)  # a turn of a slot no tile is in yet
    offsets = one.offsets.copy()
    offsets[22:] += 1
    with pytest.raises(ValueError, match=f"row {late}: "):
        measures_of_rows(bad, offsets, one.winners, ("explorer",) * 3, BOARD, rules, TILES, threads=2)
