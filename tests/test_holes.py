"""Holes (``scoring.holes``) and the polish's screen by holes (``optimize.screen``)."""

from __future__ import annotations

import dataclasses
import functools
import time

import numpy as np
import pytest

from generator.board import load_board
from generator.optimize.check import Neighbour, Paired
from generator.optimize.polish import here, polish, taken
from generator.optimize.screen import applies, screen_part, screened
from generator.optimize.space import DESIGN_TABLES, make_problem, random_tileset
from generator.scoring import ARTICLE, kernel
from generator.scoring.holes import Holes, exact_for
from generator.scoring.objective import Objective
from generator.scoring.tables import board_arrays

DESIGNS = len(DESIGN_TABLES)


def turned_means(board, classes, perm, flip, rot, tile, design, weights):
    """The plain kernel's per-layout objective with ``design`` on the shown face of ``tile``, averaged over the
    six turns of that tile: the reference for ``Holes.values``."""
    n = len(perm)
    arrays = board_arrays(board)
    slot = np.argsort(perm, axis=1)[:, tile]
    shown = flip[np.arange(n), slot]
    total = np.zeros(n)
    for turn in range(6):
        turned = rot.copy()
        turned[np.arange(n), slot] = turn
        for face in range(2):
            changed = classes.copy()
            changed[tile, face] = design
            extra, _, joined = kernel.score_layouts(DESIGN_TABLES[changed], arrays, perm, flip, turned)
            on = shown == face
            total[on] += weights[0] * extra[on] + weights[1] * joined[on]
    return total / 6


@pytest.mark.parametrize("name", ["classic", "hexagon37", "hexagon91"])
def test_a_holes_values_are_the_plain_kernels_terms_averaged_over_the_turns(name):
    board = load_board(name)
    arrays = board_arrays(board)
    rng = np.random.default_rng(len(name))
    n = board.tile_count
    classes = rng.integers(0, DESIGNS, size=(n, 2)).astype(np.int16)
    perm, flip, rot = kernel.sample_layouts(n, 200, 7)
    bank = kernel.Bank(arrays, perm, flip, rot)
    slot_of = np.argsort(perm, axis=1).astype(np.int64)
    values = np.zeros((200, n, DESIGNS))
    weights = (-0.1, 1.0)
    Holes(arrays, DESIGN_TABLES).values(
        DESIGN_TABLES[classes], bank.perm, bank.turn, slot_of, range(200), weights, values
    )
    for tile, design in zip(rng.integers(0, n, 12), rng.integers(0, DESIGNS, 12), strict=True):
        expected = turned_means(board, classes, perm, flip, rot, tile, design, weights)
        assert np.allclose(values[:, tile, design], expected), (tile, design)
    assert exact_for(arrays)


def test_a_board_whose_joins_repeat_three_times_is_not_screened_by_holes():
    camp = load_board("tests/data/camp-board.toml")  # a landmark joined to one slot by three sides
    assert not exact_for(board_arrays(camp))
    with pytest.raises(ValueError, match="repeated three times"):
        Holes(board_arrays(camp), DESIGN_TABLES)
    start = random_tileset(camp.tile_count, tuple(range(DESIGNS)), np.random.default_rng(2))
    problem = make_problem(camp, ARTICLE, start)
    assert not applies(problem)  # the polish screens it by scoring each neighbour
    found = polish(problem, start, 500, seed=3, run=here, rounds=1)
    assert found.neighbours > 0 and all(s.gain > 2 * s.gain_se for s in found.steps)


def problem_for(objective: Objective = ARTICLE, seed: int = 4):
    board = load_board("classic")
    start = random_tileset(20, tuple(range(DESIGNS)), np.random.default_rng(seed))
    return make_problem(board, objective, start), start


def test_the_screen_is_the_same_over_any_number_of_workers():
    problem, start = problem_for()
    one = screened(problem, start, 20_000, [screen_part(problem, start, 20_000, 3, 0, 1)])
    three = screened(problem, start, 20_000, [screen_part(problem, start, 20_000, 3, p, 3) for p in range(3)])
    assert one == three and len(one) > 2000  # every side's every design, and the swaps


def test_the_screen_agrees_with_the_exact_gains_of_one_side_changes_and_swaps():
    problem, start = problem_for()
    found = screened(problem, start, 40_000, [screen_part(problem, start, 40_000, 3, 0, 1)])
    rng = np.random.default_rng(1)
    picked = [found[k] for k in rng.choice(len(found), 10, replace=False)]
    picked += sorted(found, key=lambda n: -n.gain)[:2]  # the best, where a swap's two tiles interact most
    exact = Paired(problem, start, 100_000, 11)
    for n in picked:
        truth = exact.neighbour(n.changes)
        z = (n.gain - truth.gain) / np.hypot(n.gain_se, truth.gain_se)
        assert abs(z) < 4.5, (n, truth)
    assert all(n.gain_se > 0 for n in picked)


def test_the_screen_judges_only_a_fitness_that_is_a_mean_of_layouts():
    problem, _ = problem_for()
    targeted, _ = problem_for(dataclasses.replace(ARTICLE, pair_targets=(("Hut-Well", 0.9),)))
    assert applies(problem) and not applies(targeted)


def change(t, f, d, gain=0.001):
    return Neighbour(((t, f, d),), gain, 0.0)


def test_a_round_takes_clear_changes_that_add_up():
    classes = np.array([[1, 2], [3, 4], [5, 6], [1, 7]], dtype=np.int16)
    swap = Neighbour(((0, 0, 3), (1, 0, 1)), 0.004, 0.001)
    same_tile = change(0, 1, 9, 0.003)
    elsewhere = change(2, 0, 8, 0.002)
    chosen = taken([elsewhere, same_tile, swap], classes)
    assert chosen == [swap, elsewhere]  # the swap has tile 0
    # two changes that each remove a copy of design 1, or each add a copy of design 8: the better one only
    assert taken([change(0, 0, 9, 0.002), change(3, 0, 10, 0.003)], classes) == [change(3, 0, 10, 0.003)]
    assert taken([change(2, 0, 8, 0.002), change(3, 1, 8, 0.001)], classes) == [change(2, 0, 8, 0.002)]
    assert taken([change(2, 0, 8), change(3, 1, 9)], classes) == [change(2, 0, 8), change(3, 1, 9)]


def test_a_round_that_would_end_after_the_deadline_screens_fewer_layouts():
    from generator.optimize.polish import _fitted

    assert _fitted(150_000, 0.0, None) == _fitted(150_000, 6.0, None) == 150_000  # no deadline
    assert _fitted(150_000, 6.0, 7.0) == 150_000 and _fitted(150_000, 0.0, 1.0) == 150_000  # fits; the first round
    assert _fitted(150_000, 6.0, 3.0) == 75_000  # half the time left: half the layouts
    assert _fitted(150_000, 6.0, 1.0) == 0 and _fitted(150_000, 0.0, -0.5) == 0  # too little time, or none


def test_a_timed_polish_stops_at_its_deadline():
    problem, start = problem_for()
    late = polish(problem, start, 2000, seed=5, run=here, rounds=50, deadline=time.perf_counter() - 1)
    assert late.rounds == 0 and late.steps == () and late.tileset == start
    began = time.perf_counter()
    timed = polish(problem, start, 2000, seed=5, run=here, rounds=1000, deadline=began + 3)
    assert timed.rounds >= 2 and time.perf_counter() - began < 3 + 3  # goes on past a round; never far past


def test_a_round_the_deadline_overtakes_stops_there_and_takes_nothing():
    """A round sized to fit cannot see a machine that slows down after it began: the workers look at the clock
    between pieces of layouts, neighbours and candidates (issue 45: --time 60 ran 76 s, a round taking 34 s)."""
    problem, start = problem_for()
    began = time.perf_counter()
    cut = polish(problem, start, 150_000, seed=5, run=here, rounds=5, deadline=began + 0.3)  # a round: ~8 s of CPU
    assert time.perf_counter() - began < 0.3 + 2.0
    assert cut.rounds == 0 and cut.steps == () and cut.tileset == start
    camp = load_board("tests/data/camp-board.toml")  # screened by scoring each neighbour (check_local)
    tiles = random_tileset(camp.tile_count, tuple(range(DESIGNS)), np.random.default_rng(2))
    began = time.perf_counter()
    cut = polish(make_problem(camp, ARTICLE, tiles), tiles, 200_000, seed=3, run=here, deadline=began + 0.3)
    assert time.perf_counter() - began < 0.3 + 2.0 and cut.rounds == 0 and cut.tileset == tiles


def test_a_round_dropped_at_the_deadline_leaves_the_set_as_the_rounds_before_it_left_it():
    """The machine slows down during round 2 (its parts see the deadline passed): the result is round 1's, the
    same as a one-round polish's, never a half-taken round."""
    problem, start = problem_for()
    calls = []

    def slowing(f, *args, parts):
        calls.append(f)
        if len(calls) == 4:  # round 2's confirmation (each round: a screen, then a confirmation)
            f = functools.partial(f.func, *f.args, **{**f.keywords, "until": time.time() - 1})
        return here(f, *args, parts=parts)

    one = polish(problem, start, 2000, seed=5, run=here, rounds=1)
    cut = polish(problem, start, 2000, seed=5, run=slowing, rounds=5, deadline=time.perf_counter() + 600)
    assert len(calls) == 4 and one.steps  # the second round screened, and its confirmation was dropped
    assert (cut.rounds, cut.steps, cut.tileset) == (1, one.steps, one.tileset)


def test_a_timed_run_polishes_by_default_where_the_screen_applies():
    from generator.optimize.timing import POLISH_SHARE, default_polish_share, timed_screen

    assert timed_screen(20.0) == timed_screen(200.0) == 150_000 and timed_screen(5.0) == 37_500  # rounds fit

    problem, _ = problem_for()
    targeted, _ = problem_for(dataclasses.replace(ARTICLE, pair_targets=(("Hut-Well", 0.9),)))
    assert default_polish_share(problem, None, None, None) == POLISH_SHARE == 1 / 3
    assert default_polish_share(problem, 500, None, None) == 0.0  # generations: reproducible to the bit
    assert default_polish_share(problem, None, "article", None) == 0.0  # a preset reproduces a method
    assert default_polish_share(problem, None, None, 100_000) == 0.0  # its own polish, after the time
    assert default_polish_share(targeted, None, None, None) == 0.0
    big = make_problem(
        load_board("hexagon91"), ARTICLE, random_tileset(91, tuple(range(DESIGNS)), np.random.default_rng(1))
    )
    assert default_polish_share(big, None, None, None) == 0.0  # a round there takes longer than a share buys


# --- holes on other tiles ------------------------------------------------------------------------------------


def _any_reference(arrays, tables, classes, perm, flip, rot, tile, design, weights):
    """The kernel's per-layout objective with ``design`` on the face ``tile`` shows, averaged over its rotations:
    the brute force ``Holes.values`` must equal."""
    n = len(perm)
    slot = np.argsort(perm, axis=1)[:, tile]
    total = np.zeros(n)
    for turn in range(arrays.rotations):
        turned = rot.copy()
        turned[np.arange(n), slot] = turn
        changed = classes.copy()
        changed[tile, :] = design  # whichever face shows
        extra, _, joined = kernel.score_layouts(tables[changed], arrays, perm, flip, turned)
        total += weights[0] * extra + weights[1] * joined
    return total / arrays.rotations


def _square_boards():
    from generator.board.board import board_from_dict
    from tests.test_geometry_scoring import SMALL_SQUARE

    return [load_board("square-jungle"), board_from_dict(SMALL_SQUARE)]


@pytest.mark.parametrize("index", [0, 1], ids=["jungle (single-sided)", "small square (double-sided)"])
def test_holes_on_square_tiles_with_one_end_an_edge_equal_a_brute_force(index):
    from generator.optimize.space import space_of

    board = _square_boards()[index]
    arrays, space = board_arrays(board), space_of(board.geometry)
    assert exact_for(arrays)
    n, rows = board.tile_count, 60
    rng = np.random.default_rng(index)
    classes = rng.integers(0, len(space.designs), size=(n, space.faces)).astype(np.int16)
    perm, flip, rot = kernel.board_layouts(arrays, rows, 5)
    bank = kernel.Bank(arrays, perm, flip, rot)
    values = np.zeros((rows, n, len(space.designs)))
    weights = (-0.1, 1.0)
    Holes(arrays, space.tables).values(
        space.tables[classes], bank.perm, bank.turn, kernel.slots_of(perm), range(rows), weights, values
    )
    for tile in range(0, n, 3):
        for design in range(len(space.designs)):
            expected = _any_reference(arrays, space.tables, classes, perm, flip, rot, tile, design, weights)
            assert np.allclose(values[:, tile, design], expected), (tile, design)


def test_the_polish_screens_square_tiles_by_holes_and_takes_clear_gains():
    from generator.optimize.space import allowed_designs

    board = load_board("square-jungle")
    allowed = allowed_designs(ARTICLE.on(board), board.geometry)
    start = random_tileset(board.tile_count, allowed, np.random.default_rng(6), board.geometry)
    problem = make_problem(board, ARTICLE, start)
    assert applies(problem)
    found = screened(problem, start, 2000, [screen_part(problem, start, 2000, 3, 0, 1)])
    assert len(found) == 30 * 6  # each tile's one face to each other design (single-sided: no swaps)
    done = polish(problem, start, 2000, seed=3, run=here, rounds=1)
    assert done.steps and all(s.gain > 2 * s.gain_se for s in done.steps)
