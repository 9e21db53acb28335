"""The two play engines: same games move for move, invariants, and the random player against exact counts."""

import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.board import load_board
from generator.model import Tile, TileSet, read_tileset
from generator.play import Turning, default_rules
from generator.play.arrays import _hops, game_arrays
from generator.play.game import Table, geometry, new_table
from generator.play.policies import POLICIES, get_policy
from generator.play.reference import play_turn
from generator.play.rng import draw, game_rng
from generator.play.simulate import play
from tests.conftest import EXAMPLES

BEST = read_tileset(EXAMPLES / "best-known.json")
RANDOM20 = read_tileset(EXAMPLES / "random-20.json")
CLASSIC = load_board("classic")
HEX37 = load_board("hexagon37")
RULES = default_rules(CLASSIC)


def tiles37() -> TileSet:
    """37 tiles for the hexagon board: the random-20 designs, cycled, turned a little each time."""
    base = list(RANDOM20) + list(BEST)
    return TileSet(tuple(Tile(str(i + 1), base[i].front.rotated(i), base[i].back.rotated(2 * i)) for i in range(37)))


def same_games(tiles, board, rules, seats, games, seed):
    fast = play(tiles, board, rules, seats, games, seed, "fast")
    ref = play(tiles, board, rules, seats, games, seed, "reference")
    for name in ("rounds", "winners", "laid", "traces", "tallies", "heat"):
        assert (getattr(fast, name) == getattr(ref, name)).all(), name
    return fast


@pytest.mark.parametrize(
    "tiles, seats, games",
    [
        (BEST, ("explorer",) * 3, 12),
        (RANDOM20, ("explorer", "greedy", "explorer", "greedy"), 8),
        (RANDOM20, ("greedy", "greedy"), 8),
    ],
)
def test_fast_engine_plays_the_reference_games(tiles, seats, games):
    fast = same_games(tiles, CLASSIC, RULES, seats, games, seed=11)
    assert len(set(fast.traces.tolist())) == games  # the traces do tell games apart


def test_random_walkers_match_move_for_move_under_a_short_cap():
    rules = replace(RULES, round_cap=40)
    same_games(BEST, CLASSIC, rules, ("random", "random", "explorer"), 4, seed=3)


def test_engines_agree_on_variants_and_another_board():
    variant = replace(
        default_rules(HEX37),
        stub_blocks=True,
        die=4,
        round_cap=60,
        turning=Turning(allowed=True, next_to_pawn=False, steps=2, under_pawn=True),
    )
    fast = same_games(tiles37(), HEX37, variant, ("explorer", "greedy", "random"), 4, seed=5)
    assert fast.laid.max() <= 37


# random rules: a seed, the seats' policies, stubs that block or not, a die, and a turning rule
RULE_DRAWS = {
    "seed": st.integers(0, 2**31),
    "seats": st.lists(st.sampled_from(sorted(POLICIES)), min_size=2, max_size=4),
    "stub": st.booleans(),
    "die": st.integers(2, 8),
    "sixths": st.integers(1, 3),
    "next_to": st.booleans(),
    "under": st.booleans(),
}


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**RULE_DRAWS, tiles=st.sampled_from([BEST, RANDOM20]))
def test_engines_agree_on_random_rules(seed, seats, stub, die, sixths, next_to, under, tiles):
    """The fast engine's shortcuts (trial turns searched only as far as the bar, tiles too far from a
    needed landmark skipped, the second-tier plan as the trapped check) hold for any die and turning rule."""
    rules = replace(
        RULES,
        stub_blocks=stub,
        die=die,
        round_cap=30,
        turning=Turning(allowed=True, next_to_pawn=next_to, steps=sixths, under_pawn=under),
    )
    same_games(tiles, CLASSIC, rules, tuple(seats), 2, seed)


def test_the_fast_engine_builds_a_games_arrays_once():
    arrays = game_arrays(BEST, CLASSIC, RULES)
    assert game_arrays(BEST, CLASSIC, RULES) is arrays and not arrays.flags.writeable
    assert game_arrays(RANDOM20, CLASSIC, RULES) is not arrays
    assert game_arrays(BEST, CLASSIC, replace(RULES, die=4)) is not arrays
    listed = replace(RULES, required=list(RULES.required))  # rules made in code need not be hashable
    assert (game_arrays(BEST, CLASSIC, listed) == arrays).all()


def test_hops_count_doors_from_a_slot_to_each_landmark():
    geo = geometry(CLASSIC, RULES)
    hops = _hops(geo)
    beside = {(s, door[1]) for (s, _), door in geo.across.items() if door[0] == "landmark"}
    for s in range(geo.slots):
        for k in range(len(geo.landmarks)):
            assert (hops[s, k] == 1) == ((s, k) in beside)
            assert 1 <= hops[s, k] <= geo.slot_landmark_distance[s][k]  # a door crosses one hex, or a connector


def test_a_game_is_the_same_in_any_run_and_chunk():
    many = play(BEST, CLASSIC, RULES, ("explorer",) * 3, 620, seed=9)  # two chunks
    few = play(BEST, CLASSIC, RULES, ("explorer",) * 3, 5, seed=9)
    assert (many.traces[:5] == few.traces).all() and (many.rounds[:5] == few.rounds).all()
    other = play(BEST, CLASSIC, RULES, ("explorer",) * 3, 5, seed=10)
    assert not (other.traces == few.traces).any()


def legal(table: Table, place) -> bool:
    """A pawn stands on a trail of a laid tile, or on a landmark."""
    if place[0] == "landmark":
        return 0 <= place[1] < len(table.geo.landmarks)
    _, slot, t = place
    return slot in table.laid and 0 <= t < len(table.faces[table.laid[slot][0]][table.laid[slot][1]].trails)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    seats=st.lists(st.sampled_from(sorted(POLICIES)), min_size=2, max_size=4),
    stub=st.booleans(),
    die=st.integers(2, 8),
    sixths=st.integers(1, 3),
    next_to=st.booleans(),
    under=st.booleans(),
    cap=st.integers(1, 25),
    tiles=st.sampled_from([BEST, RANDOM20]),
)
def test_invariants(seed, seats, stub, die, sixths, next_to, under, cap, tiles):
    rules = replace(
        RULES,
        stub_blocks=stub,
        die=die,
        round_cap=cap,
        turning=Turning(allowed=True, next_to_pawn=next_to, steps=sixths, under_pawn=under),
    )
    geo = geometry(CLASSIC, rules)
    table = new_table(geo, rules, tiles, len(seats), game_rng(seed, 0))
    table.heat = np.zeros((3, 26), np.int64)
    policies = [get_policy(s) for s in seats]
    finished = False
    for _ in range(cap):
        for p, policy in enumerate(policies):
            finished = play_turn(table, p, policy)
            assert len(table.laid) + len(table.pile) == len(tiles) <= len(CLASSIC.slots)
            assert all(legal(table, place) for place in table.pawns)
            if finished:
                assert table.won(p) and table.geo.required <= table.visited[p]
                break
        if finished:
            break
    assert finished or table.clock == cap * len(seats)  # every game ends or reaches the cap


def chi_square_p(observed: Counter, expected: dict, n: int) -> float:
    """Upper tail of Pearson's chi-square (Wilson-Hilferty), categories with expectation >= 5."""
    keys = [k for k in expected if expected[k] * n >= 5]
    x = sum((observed[k] - expected[k] * n) ** 2 / (expected[k] * n) for k in keys)
    rest = sum(expected[k] for k in expected if k not in keys)
    if rest * n >= 5:
        other = n - sum(observed[k] for k in keys)
        x += (other - rest * n) ** 2 / (rest * n)
        keys.append("rest")
    df = len(keys) - 1
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def exact_two_steps(tiles: TileSet) -> dict:
    """Where a random walker stands after two steps from the start, by exact enumeration.

    Step one: a door of the start (uniform), the top tile (uniform over the set), its face (coin) and
    turn (d6). Step two: uniform over the non-wall exits of the trail it stepped onto. The outcome is
    the landmark reached, or the slot entered (whatever tile is laid there).
    """
    geo = geometry(CLASSIC, RULES)
    doors = geo.landmark_doors[geo.start]
    out = Counter()
    for _, slot, edge, _ in doors:
        for tile in tiles:
            for side in (tile.front, tile.back):
                for rot in range(6):
                    trail = side.trails[side.trail_of((edge - rot) % 6)]
                    exits = [
                        geo.across[(slot, (e + rot) % 6)] for e in sorted(trail) if (slot, (e + rot) % 6) in geo.across
                    ]
                    for door in exits:
                        key = ("landmark", door[1]) if door[0] == "landmark" else ("slot", door[1])
                        out[key] += 1 / (len(doors) * len(tiles) * 12 * len(exits))
    return dict(out)


def test_random_walker_matches_exact_enumeration_of_two_steps():
    expected = exact_two_steps(RANDOM20)
    assert math.isclose(sum(expected.values()), 1.0)
    geo = geometry(CLASSIC, RULES)
    walker = get_policy("random")
    seen = Counter()
    n = 3000
    for g in range(n):
        table = new_table(geo, RULES, RANDOM20, 2, game_rng(37, g))
        for _ in range(2):
            table.step(0, table.doors(table.pawns[0])[walker.step(table, 0, 2, table.rng)])
        place = table.pawns[0]
        seen[place if place[0] == "landmark" else ("slot", place[1])] += 1
    assert chi_square_p(seen, expected, n) > 0.001


def test_the_shared_generator_is_uniform():
    rng = game_rng(37, 0)
    counts = Counter(draw(rng, 6) for _ in range(60_000))
    assert chi_square_p(counts, {k: 1 / 6 for k in range(6)}, 60_000) > 0.001


@pytest.mark.parametrize("die", [6, 8])
def test_the_report_counts_the_pips_rolled(die):
    from generator.play.simulate import simulate

    report = simulate(BEST, CLASSIC, replace(RULES, die=die), games=200, seed=3)
    rolled = report.turns - round(report.turning_turns * report.games)  # a turn turning a tile rolls no step die
    assert report.pips > 0
    assert abs(report.pips / rolled - (die + 1) / 2) < 0.15
    assert report.pips_lost_share == pytest.approx(report.steps_lost * report.games / report.pips)
