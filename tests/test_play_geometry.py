"""Play on any tile geometry: steps worked out by hand on a square board and a Tsuro-like one, the laying
draws, and the fast engine against the reference on the three example boards (same games, same logs,
same measures)."""

from dataclasses import replace

import numpy as np
import pytest

from generator.board import load_board
from generator.model import Side, Tile, TileSet, read_tileset
from generator.play import Turning, default_rules
from generator.play.arrays import KIND, A, B, game_arrays
from generator.play.game import Table, geometry, new_table
from generator.play.rng import draw, game_rng
from generator.play.simulate import play
from tests.conftest import EXAMPLES

BOARDS = ("square-jungle", "square-pathways", "hex-pairs")


def example(name: str):
    board = load_board(name)
    return board, read_tileset(EXAMPLES / f"optimized-{name}.json"), default_rules(board)


def table_with(board, laid: dict, tiles: TileSet) -> Table:
    """A table on ``board`` with ``laid`` (slot -> [tile, face, rot]) and one pawn, drawing nothing."""
    rules = default_rules(board)
    table = new_table(geometry(board, rules), rules, tiles, 2, game_rng(0, 0))
    table.laid = {s: list(v) for s, v in laid.items()}
    return table


def test_a_square_walk_worked_out_by_hand():
    """Jungle (square, one end an edge; slots row by row): Camp at [-1, 1] opens on slot 5 ([0, 1]) by its
    W edge; a W-E trail there leads to slot 6 ([1, 1]) at its W; a W-N trail to slot 0 ([1, 0]) at its S; an
    S-W trail there to the printed connector in the notched corner [0, 0], which brings the pawn back to slot 5
    through its N edge."""
    board = load_board("square-jungle")
    g = board.geometry
    n_, e_, s_, w_ = range(4)
    straight = Side.of([[w_, e_], [n_], [s_]], g)  # W-E, and two stubs
    bend = Side.of([[n_, e_], [s_], [w_]], g)  # N-E; turned 3 steps clockwise it runs W-N
    corner = Side.of([[s_, w_], [n_], [e_]], g)
    tiles = TileSet(tuple(Tile(str(i + 1), side, side) for i, side in enumerate([straight, bend, corner] * 10)))
    table = table_with(board, {5: [0, 0, 0], 6: [1, 0, 3], 0: [2, 0, 0]}, tiles)
    camp = [lm.name for lm in board.landmarks].index("Camp")
    assert table.doors(("landmark", camp)) == [("slot", 5, w_, False)]
    assert table.trail_at(6, w_) == table.trail_at(6, n_) != table.trail_at(6, e_)  # the bend turned to W-N
    # each step: the door taken, then the doors of the trail it arrives on (its ends in order N E S W)
    walk = [
        (("slot", 5, w_, False), [("slot", 6, w_, False), ("landmark", camp)]),  # [0, 1]: W-E
        (("slot", 6, w_, False), [("slot", 0, s_, False), ("slot", 5, e_, False)]),  # [1, 1]: N-W, turned
        (("slot", 0, s_, False), [("slot", 6, n_, False), ("slot", 5, n_, True)]),  # [1, 0]: S-W; W: connector
    ]
    for door, doors in walk:
        assert table.step(0, door) is False
        assert table.doors(table.pawns[0]) == doors
    table.step(0, ("slot", 5, n_, True))  # through the connector, onto the stub at N of [0, 1]
    assert table.pawns[0] == ("trail", 5, table.trail_at(5, n_)) and table.doors(table.pawns[0]) == [
        ("slot", 0, w_, True)
    ]
    ruin = [lm.name for lm in board.landmarks].index("Ruin")
    assert len(table.doors(("landmark", ruin))) == 8  # a wide landmark is one place with every facing edge
    geo = table.geo
    assert geo.slot_landmark_distance[0][camp] == 3  # Manhattan: [1, 0] to [-1, 1]
    assert geo.slot_landmark_distance[0][ruin] == 3  # to the nearest ruin cell [2, 2]


def test_a_tsuro_step_arrives_at_the_mirror_end():
    """Pathways (square, two ends an edge: N1 N2 E1 E2 S1 S2 W1 W2 clockwise from the top left): end N1 of
    slot 14 ([2, 2]) meets S2 of slot 8 above it, N2 meets S1; a trail S2-W1 there leaves by W1 (the lower end
    of the W edge) into slot 7 at its E2 (the lower end of its E edge)."""
    board = load_board("square-pathways")
    g = board.geometry
    name = {e: k for k, e in enumerate(g.end_names)}
    assert g.facing_end(name["N1"]) == name["S2"]
    side = Side.of(
        [[name["S2"], name["W1"]], [name["N1"], name["N2"]], [name["E1"], name["S1"]], [name["E2"], name["W2"]]], g
    )
    tiles = TileSet(tuple(Tile(str(i + 1), side, side) for i in range(36)))
    table = table_with(board, {8: [0, 0, 0]}, tiles)
    geo = table.geo
    assert geo.across[(14, name["N1"])] == ("slot", 8, name["S2"], False)
    assert geo.across[(14, name["N2"])] == ("slot", 8, name["S1"], False)
    assert table.step(0, ("slot", 8, name["S2"], False)) is False
    assert table.trail_edges(8, table.pawns[0][2]) == [name["S2"], name["W1"]]
    assert ("slot", 7, name["E2"], False) in table.doors(table.pawns[0])
    table.rotate(8, 1)  # a quarter turn clockwise: S2 -> W2, W1 -> N1
    assert table.trail_edges(8, table.pawns[0][2]) == [name["N1"], name["W2"]]
    G = game_arrays(tiles, board, default_rules(board))  # the fast engine's door across N1 of slot 14
    c = g.ends * 14 + name["N1"]
    assert (G[G[KIND] + c], G[G[A] + c], G[G[B] + c]) == (1, 8, name["S2"])


@pytest.mark.parametrize(("name", "draws"), [("square-pathways", (4,)), ("hex-pairs", (2, 6))])
def test_laying_draws_a_coin_only_for_two_faces_and_one_turn_per_rotation(name, draws):
    board, tiles, rules = example(name)
    table = new_table(geometry(board, rules), rules, tiles, 2, game_rng(3, 1))
    mirror = table.rng.copy()
    table.lay(0)
    expected = [draw(mirror, k) for k in draws]
    assert table.laid[0][1:] == ([0] + expected if len(draws) == 1 else expected)
    assert np.array_equal(table.rng, mirror)  # exactly these draws, no other
    table.rotate(0, -1)
    assert table.laid[0][2] == (expected[-1] - 1) % board.geometry.rotations


def same_games(board, tiles, rules, seats, games, seed, log=False):
    fast = play(tiles, board, rules, seats, games, seed, "fast", log=log)
    ref = play(tiles, board, rules, seats, games, seed, "reference", log=log)
    for name in ("rounds", "winners", "laid", "traces", "tallies", "heat") + (("rows", "offsets") if log else ()):
        assert np.array_equal(getattr(fast, name), getattr(ref, name)), name
    return fast


@pytest.mark.parametrize("name", BOARDS)
def test_the_fast_engine_plays_the_reference_games_on_every_geometry(name):
    board, tiles, rules = example(name)
    short = replace(rules, round_cap=8)
    fast = same_games(board, tiles, short, ("explorer", "greedy", "random"), 40, seed=7)
    assert len(set(fast.traces.tolist())) == 40 and fast.laid.min() > 0
    variant = replace(rules, stub_blocks=True, die=4, round_cap=12, turning=Turning(True, False, 2, True))
    same_games(board, tiles, variant, ("greedy", "explorer"), 12, seed=8)
    whole = same_games(board, tiles, rules, ("explorer",) * 3, 2, seed=9)  # whole games, to the win
    assert (whole.winners >= 0).all()


@pytest.mark.parametrize("name", BOARDS)
def test_both_engines_write_the_same_logs_and_measures_on_every_geometry(name):
    from generator.play.measures import measures, measures_of_rows

    board, tiles, rules = example(name)
    rules = replace(rules, round_cap=10)
    seats = ("explorer", "greedy", "explorer")
    fast = same_games(board, tiles, rules, seats, 8, seed=4, log=True)
    logs = [fast.log(g, seats, len(board.slots)) for g in range(8)]
    reference = measures(logs, board, rules, tiles, count_choices=True)
    compiled = measures_of_rows(fast.rows, fast.offsets, fast.winners, seats, board, rules, tiles, True)
    assert compiled == reference and reference.choices is not None


@pytest.mark.slow
@pytest.mark.parametrize("name", BOARDS)
def test_the_engines_agree_on_hundreds_of_games_on_every_geometry(name):
    board, tiles, rules = example(name)
    same_games(board, tiles, replace(rules, round_cap=25), ("explorer", "greedy", "random"), 300, seed=21)


def run_cli(capsys, *argv):
    from generator.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_playtest_plays_a_square_board_and_writes_its_heat_map(capsys, tmp_path):
    import json

    tiles = str(EXAMPLES / "optimized-square-pathways.json")
    argv = ("playtest", tiles, "--board", "square-pathways", "--games", "20", "--measure-games", "5")
    status, out, _ = run_cli(capsys, *argv, "--json", "--out", str(tmp_path))
    assert status == 0
    data = json.loads(out)
    assert data["games"] == 20 and data["board"] == "square-pathways" and data["measures"]["completion"]
    heat = (tmp_path / "heat.svg").read_text()
    assert heat.count("<polygon") >= 36 + 8  # every slot and gate cell, drawn from the square outline
    assert "North" in heat and "<title>Turns lost per game" in heat


def test_optimize_refuses_a_play_target_on_other_tiles_in_one_line(capsys, tmp_path):
    objective = tmp_path / "taste.toml"
    objective.write_text('[play]\nmedian_rounds = 15\nplayers = 3\npolicy = "explorer"\ngames = 50\n')
    out = tmp_path / "x.json"
    argv = ("optimize", "--board", "hex-pairs", "--objective", str(objective), "--generations", "1", "--out", str(out))
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and err.strip().count("\n") == 0 and "[play]" in err and not out.exists()


def test_playtest_refuses_tiles_of_another_geometry_than_the_boards_in_one_line(capsys, tmp_path):
    out = tmp_path / "out"
    argv = ("playtest", str(EXAMPLES / "best-known.json"), "--board", "square-pathways", "--out", str(out))
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and err.strip().count("\n") == 0 and not out.exists()
    assert "best-known.json: has hex tiles, one end per edge" in err and "takes square tiles, two ends" in err
