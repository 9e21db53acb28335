"""Cooperating chains (population annealing over a run's chains): the resampling rule and the run's guarantees."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import TrailwrightError
from generator.optimize import Config, make_problem, optimize, random_tileset
from generator.optimize.chain import Budget, config_strategy, run_chain
from generator.optimize.checkpoint import checkpoint_text, read_checkpoint
from generator.optimize.cooperate import (
    ESS_SHARE,
    beta_step,
    effective_share,
    gentle,
    inverse_temperature,
    leg_ends,
    resample,
)
from generator.optimize.run import plan
from generator.optimize.space import allowed_designs
from generator.scoring.objective import ARTICLE

SMALL = {"samples": 300, "max_samples": 1500, "rescore": 4000}


def test_equal_weights_keep_every_chain_and_a_huge_step_keeps_only_the_best():
    rng = np.random.default_rng(1)
    assert resample([10.1, 10.2, 10.3, 10.0], 0.0, rng) == {}
    assert resample([10.1, 10.4, 10.3, 10.0], 1e6, rng) == {0: 1, 2: 1, 3: 1}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-5, 5), min_size=2, max_size=12),
    st.floats(0, 2000),
    st.integers(0, 2**32 - 1),
)
def test_each_chain_gets_its_share_of_copies_rounded_one_way_or_the_other(values, step, seed):
    """Systematic resampling: a chain of weight share p gets floor(Kp) or ceil(Kp) copies, itself first."""
    moves = resample(values, step, np.random.default_rng(seed))
    k = len(values)
    assert not set(moves) & set(moves.values())  # a replaced chain is nobody's source
    copies = np.ones(k, dtype=int)
    for dead, source in moves.items():
        copies[dead] -= 1
        copies[source] += 1
    v = np.asarray(values)
    share = np.exp(step * (v - v.max()))
    share = k * share / share.sum()
    assert np.all(copies >= np.floor(share - 1e-9)) and np.all(copies <= np.ceil(share + 1e-9))


def test_the_chains_run_alone_for_half_the_budget_and_the_weights_follow_the_annealing_schedule():
    assert leg_ends(4) == [0.5, 0.625, 0.75, 0.875, 1.0]
    assert inverse_temperature(0) == pytest.approx(125.0) and inverse_temperature(1) == pytest.approx(2000.0)
    steps = [beta_step(leg, leg_ends(4)) for leg in (1, 2, 3, 4)]
    assert sum(steps) == pytest.approx(inverse_temperature(0.875) - 125.0)
    assert steps[1:] == sorted(steps[1:])  # later exchanges select harder


def test_an_exchange_keeps_at_least_half_the_chains_worth_of_weight():
    values = [4.1, 3.55, 4.0, 3.9]
    step = gentle(values, 1000.0)
    assert effective_share(values, step) == pytest.approx(ESS_SHARE, abs=1e-6) and step < 1000.0
    assert gentle(values, 1.0) == 1.0  # a gentle step already: as given


def test_settings_are_checked_with_the_setting_named():
    assert plan(Config(generations=60, chains=4, exchanges=3), workers=2) == (Budget(None, 60, 60**0.85), 4)
    with pytest.raises(TrailwrightError, match="exchanges: needs at least 2 chains to cooperate"):
        Config(generations=60, chains=1, exchanges=3)
    with pytest.raises(TrailwrightError, match="exchanges: cannot be combined with island"):
        Config(time=6, chains=2, exchanges=3, migrate=1)


def _problem(classic):
    start = random_tileset(classic.tile_count, allowed_designs(ARTICLE), np.random.default_rng(5))
    return make_problem(classic, ARTICLE, start)


CONFIG = Config(generations=30, seed=3, chains=3, exchanges=2, checkpoint_every=0.0, **SMALL)


def test_a_cooperative_run_is_the_same_for_a_seed_and_its_lineages_take_over(classic, dask_client):
    problem = _problem(classic)
    first = optimize(problem, CONFIG, client=dask_client)
    again = optimize(problem, CONFIG, client=dask_client)
    assert first.tileset == again.tileset and first.migrants == again.migrants
    assert {leg for leg, _, _ in first.migrants} <= {1, 2} and first.migrants  # something was shared
    assert all(c.leg == 2 and c.generation == 30 for c in first.chains)
    independent = optimize(problem, Config(**{**CONFIG.__dict__, "exchanges": 0}), client=dask_client)
    assert [c.state for c in independent.chains] != [c.state for c in first.chains]


def test_a_cooperative_run_resumed_from_its_checkpoint_ends_as_an_uninterrupted_one(classic, dask_client, tmp_path):
    """Leg 0 run by hand (one chain stopped half-way), written as a JSON checkpoint, read back and finished."""
    problem = _problem(classic)
    whole = optimize(problem, CONFIG, client=dask_client)
    strategy = config_strategy(CONFIG)
    budget, _ = plan(CONFIG, 2)
    quiet = lambda *a: None  # noqa: E731
    until = leg_ends(CONFIG.exchanges)[0]
    chains = [run_chain(problem, strategy, budget, 3, i, None, lambda: False, quiet, until=until) for i in (0, 1)]
    calls = iter(range(10**6))
    chains.append(run_chain(problem, strategy, budget, 3, 2, None, lambda: next(calls) >= 4, quiet, until=until))
    assert chains[2].generation < 15 and chains[0].generation == 15
    path = tmp_path / "run.checkpoint"
    path.write_text(checkpoint_text(problem, CONFIG, chains, None), encoding="utf-8")
    saved = read_checkpoint(path)
    assert saved.config.exchanges == 2 and json.loads(path.read_text())["config"]["exchanges"] == 2
    resumed = optimize(saved.problem, saved.config, list(saved.chains), migrants=saved.migrants, client=dask_client)
    assert resumed.tileset == whole.tileset and resumed.migrants == whole.migrants
    assert [c.state for c in resumed.chains] == [c.state for c in whole.chains]


def test_a_chain_already_in_a_later_leg_keeps_its_leg_so_its_migrant_is_not_taken_twice(classic):
    """A resumed run replays the legs from the slowest chain's; a chain already past them must not be set back a
    leg, or it would take its next leg's migrant again (found with kill -9 of a cooperating run)."""
    problem = _problem(classic)
    strategy = config_strategy(CONFIG)
    budget, _ = plan(CONFIG, 2)
    quiet = lambda *a: None  # noqa: E731
    ends = leg_ends(CONFIG.exchanges)
    ahead = run_chain(problem, strategy, budget, 3, 0, None, lambda: False, quiet, until=ends[1], leg=1)
    again = run_chain(problem, strategy, budget, 3, 0, ahead, lambda: False, quiet, until=ends[0], leg=0)
    assert again.leg == 1 and again.generation == ahead.generation and again.state == ahead.state
