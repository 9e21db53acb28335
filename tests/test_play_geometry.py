"""Play on any tile geometry: steps worked out by hand on a square board and a Tsuro-like one, the laying
draws, and the fast engine against the reference on the three example boards (same games, same logs,
same measures)."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.board import load_board
from generator.model import Side, Tile, TileSet, read_tileset
from generator.play import Turning, default_rules
from generator.play.arrays import KIND, A, B, game_arrays
from generator.play.game import Table, geometry, new_table
from generator.play.rng import draw, game_rng
from generator.play.simulate import play
from tests.conftest import EXAMPLES
from tests.test_play_engines import RULE_DRAWS

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
    rng = game_rng(3, 1)
    table = new_table(geometry(board, rules), rules, tiles, 2, rng)
    mirror = rng.copy()  # the generator after the pile's shuffle
    table.lay(0)
    expected = [draw(mirror, k) for k in draws]
    assert table.laid[0][1:] == ([0] + expected if len(draws) == 1 else expected)
    assert np.array_equal(rng, mirror)  # exactly these draws, no other
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
    fast = same_games(board, tiles, short, ("explorer", "greedy", "random"), 30, seed=7)
    assert len(set(fast.traces.tolist())) == 30 and fast.laid.min() > 0
    variant = replace(rules, stub_blocks=True, die=4, round_cap=12, turning=Turning(True, False, 2, True))
    same_games(board, tiles, variant, ("greedy", "explorer"), 12, seed=8)
    whole = same_games(board, tiles, rules, ("explorer",) * 3, 1, seed=9)  # a whole game, to the win
    assert (whole.winners >= 0).all()


@settings(max_examples=9, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(BOARDS), **RULE_DRAWS)
def test_engines_agree_on_random_rules_on_every_geometry(name, seed, seats, stub, die, sixths, next_to, under):
    """Any die and turning rule on any geometry (three steps on square tiles: a quarter turn back)."""
    board, tiles, rules = example(name)
    turning = Turning(allowed=True, next_to_pawn=next_to, steps=sixths, under_pawn=under)
    rules = replace(rules, stub_blocks=stub, die=die, round_cap=15, turning=turning)
    same_games(board, tiles, rules, tuple(seats), 2, seed)


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
@pytest.mark.heavy
@pytest.mark.parametrize("name", BOARDS)
def test_the_engines_agree_on_hundreds_of_games_on_every_geometry(name):
    """300 games a board under a short cap, every policy seated (40 to 70 s a board on the reference engine)."""
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


def test_playtest_refuses_tiles_of_another_geometry_than_the_boards_in_one_line(capsys, tmp_path):
    out = tmp_path / "out"
    argv = ("playtest", str(EXAMPLES / "best-known.json"), "--board", "square-pathways", "--out", str(out))
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and err.strip().count("\n") == 0 and not out.exists()
    assert "best-known.json: has hex tiles, one end per edge" in err and "takes square tiles, two ends" in err


@pytest.mark.parametrize(
    ("row", "fits"),
    [((3, 0), True), ((4, 0), False), ((0, 1), False)],  # (rot, face) of a laid tile: a d4, one face
)
def test_a_compact_log_is_checked_against_the_tiles_rotations_and_faces(row, fits):
    from generator.play.logrows import LAY, check_rows

    board = load_board("square-pathways")
    rot, face = row
    rows = np.array([[LAY, 0, 5, 2, face, rot]], np.int32)
    with pytest.raises(ValueError) as refused:
        check_rows(rows, np.array([0, 1]), 2, 36, 36, 4, 200, board.geometry)
    assert ("is not a move on this board" in str(refused.value)) is not fits


def test_distance_is_the_hex_distance_on_hex_grids_and_manhattan_on_square_ones():
    from generator.board.geometry import hex_distance
    from generator.model.geometry import CLASSIC, TileGeometry

    cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4)]
    assert all(CLASSIC.distance(a, b) == hex_distance(a, b) for a in cells for b in cells)
    square = TileGeometry("square")
    assert square.distance((1, 0), (-1, 1)) == 3 and square.distance((2, 2), (2, 2)) == 0
    for a in cells:  # one step to every neighbour, on both grids
        assert {CLASSIC.distance(a, CLASSIC.neighbour(a, d)) for d in range(6)} == {1}
        assert {square.distance(a, square.neighbour(a, d)) for d in range(4)} == {1}


def _random_side(g, rng) -> Side:
    """A random partition of the ends (branches and dead ends), drawn without listing every side."""
    labels = rng.integers(0, rng.integers(1, g.ends + 1), size=g.ends)
    return Side.of([[e for e in range(g.ends) if labels[e] == b] for b in sorted(set(labels.tolist()))], g)


@pytest.mark.parametrize("shape", ["square"])
def test_the_engines_agree_with_two_ends_an_edge_branching_trails_and_two_faces(shape):
    """The largest branching sides: 8 ends in up to as many trails, flipped by coin (hex tiles with two ends an
    edge take paired trails only: ``TileGeometry.side_count``)."""
    from generator.board.board import board_from_dict

    cells = [[q, r] for q in range(4) for r in range(4)]
    board = board_from_dict(
        {
            "name": f"{shape}-two-any",
            "tiles": {"shape": shape, "ends_per_edge": 2, "trails": "any", "faces": 2},
            "slots": cells,
            "landmark": [
                {"name": "Start", "hexes": [[-1, 1]]},
                {"name": "Well", "hexes": [[4, 1], [4, 2]]},
                {"name": "Goal", "hexes": [[1, 4]]},
            ],
        }
    )
    rng = np.random.default_rng(5)
    g = board.geometry
    tiles = TileSet(tuple(Tile(str(i + 1), _random_side(g, rng), _random_side(g, rng)) for i in range(len(cells))))
    rules = replace(default_rules(board), round_cap=12)
    fast = same_games(board, tiles, rules, ("explorer", "greedy", "random"), 12, seed=3, log=True)
    assert fast.laid.max() <= len(cells) and len(set(fast.traces.tolist())) == 12


def test_playtest_says_its_sets_for_scale_are_classic_ones_on_other_tiles(capsys):
    argv = ("playtest", str(EXAMPLES / "optimized-hex-pairs.json"), "--board", "hex-pairs", "--games", "10")
    status, out, _ = run_cli(capsys, *argv)
    assert status == 0 and "for scale, classic tile sets on the classic board" in " ".join(out.split())
