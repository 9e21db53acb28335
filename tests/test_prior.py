"""The design prior (``generator.optimize.prior``): a board of many designs ranks them once, by what each joins
alone, and its one-face changes draw from the best of them more often; a board of few designs draws as before."""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator.board import load_board
from generator.model.geometry import TileGeometry
from generator.optimize import make_problem, random_tileset, strategies
from generator.optimize.prior import PRIOR_CHANCE, PRIOR_LAYOUTS, applies, drawn_from, favoured
from generator.optimize.search import Search
from generator.optimize.space import allowed_designs, space_of
from generator.scoring.objective import ARTICLE, Objective

PAIRS = TileGeometry(shape="hex", ends_per_edge=2, trails="pairs")


def problem_on(name: str, objective: Objective = ARTICLE, seed: int = 1):
    board = load_board(name)
    start = random_tileset(
        board.tile_count,
        allowed_designs(objective.on(board), board.geometry),
        np.random.default_rng(seed),
        board.geometry,
    )
    return make_problem(board, objective, start)


@pytest.fixture(scope="module")
def hex_pairs():
    return problem_on("hex-pairs")


@pytest.mark.parametrize("board", ["classic", "square-pathways", "square-jungle"])
def test_a_board_of_few_designs_ranks_none_and_draws_nothing_for_it(board):
    problem = problem_on(board)
    rng = np.random.default_rng(4)
    before = rng.bit_generator.state
    assert not applies(problem) and favoured(problem, rng) == () and drawn_from(problem) == len(problem.allowed)
    assert rng.bit_generator.state == before  # so its chains' random streams, and results, are as they were


def test_the_favoured_are_the_designs_that_join_best_alone(hex_pairs):
    ranked = favoured(hex_pairs, np.random.default_rng(7))
    assert len(ranked) == drawn_from(hex_pairs) == 90 and list(ranked) == sorted(set(ranked))
    assert set(ranked) <= set(hex_pairs.allowed)
    assert favoured(hex_pairs, np.random.default_rng(7)) == ranked  # the same for a seed
    seed = int(np.random.default_rng(7).integers(2**63))  # the layouts the ranking drew
    search = Search(hex_pairs, seed, PRIOR_LAYOUTS, PRIOR_LAYOUTS)
    alone = dict(zip(hex_pairs.allowed, search.alone(hex_pairs.allowed), strict=True))
    assert min(alone[d] for d in ranked) >= max(alone[d] for d in set(hex_pairs.allowed) - set(ranked))
    for design in (ranked[0], ranked[-1], hex_pairs.allowed[5]):  # alone: the fitness of a set of that design only
        every_face = np.full((hex_pairs.board.tile_count, 2), design, dtype=np.int16)
        fresh = Search(hex_pairs, seed, PRIOR_LAYOUTS, PRIOR_LAYOUTS)
        assert alone[design] == fresh.full(every_face).fitness


def test_the_ranking_favours_what_the_objective_rewards():
    """Its own fitness ranks the designs: where bridges cost dearly, the designs without a crossing come first."""
    article = favoured(problem_on("hex-pairs"), np.random.default_rng(3))
    costly = problem_on("hex-pairs", Objective(bridges_weight=-50.0))
    no_bridge = {d for d in costly.allowed if not space_of(PAIRS).designs[d].needs_bridge}
    assert 0 < len(no_bridge) < drawn_from(costly)
    assert no_bridge <= set(favoured(costly, np.random.default_rng(3)))
    assert not no_bridge <= set(article)


def test_a_one_face_change_draws_a_favoured_design_at_the_prior_s_rate(hex_pairs):
    allowed, chosen = hex_pairs.allowed, hex_pairs.allowed[100:110]
    rng, n, hits = np.random.default_rng(11), 4000, 0
    for k in range(n):
        current = chosen[k % 10] if k % 2 else allowed[k % len(allowed)]
        design = strategies._new_design(allowed, chosen, current, rng)
        assert design != current and design in allowed
        hits += design in chosen
    p = PRIOR_CHANCE + (1 - PRIOR_CHANCE) * len(chosen) / len(allowed)  # about: a current design is left out
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)
