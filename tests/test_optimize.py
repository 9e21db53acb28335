"""The optimize stage: one contract for every strategy, common random numbers, resume, objective files."""

from __future__ import annotations

import json
import math
import os
import threading
import time

import numpy as np
import pytest

from generator.errors import TrailwrightError
from generator.model import Side, TileSet
from generator.optimize import Config, make_problem, optimize, random_tileset
from generator.optimize.chain import Budget, Chain, chain_best, config_strategy, run_chain
from generator.optimize.run import rescore
from generator.optimize.search import FreshScorer, Search
from generator.optimize.space import (
    DESIGNS,
    SettingError,
    allowed_designs,
    key,
    start_classes,
    static_counts,
    to_tileset,
)
from generator.optimize.strategies import ARTICLE_GA, STRATEGIES, mutate, strategy_named
from generator.scoring import kernel, score
from generator.scoring.objective import ARTICLE, Objective, load_objective, objective_from_dict, resolve_targets

# every strategy, and the article's preset; small banks and budgets keep the contract quick
CASES = [(name, None) for name in STRATEGIES] + [("ga", "article")]
SMALL = {"samples": 300, "max_samples": 1500, "rescore": 4000, "chains": 1}


def small_problem(classic, seed=5, objective=ARTICLE, pinned=()):
    start = random_tileset(classic.tile_count, allowed_designs(objective), np.random.default_rng(seed))
    return make_problem(classic, objective, start, pinned)


@pytest.fixture(autouse=True)
def _client(request):
    """Every optimize call in this module runs on the shared in-process Dask cluster."""
    global CLIENT
    CLIENT = request.getfixturevalue("dask_client")


CLIENT = None


def run(problem, strategy, preset, generations=40, seed=1, **extra):
    return optimize(
        problem,
        Config(strategy=strategy, preset=preset, generations=generations, seed=seed, **{**SMALL, **extra}),
        client=CLIENT,
    )


# --- the search space ----------------------------------------------------------------------


def test_designs_are_the_43_rotation_classes_39_with_at_most_4_trails():
    assert len(DESIGNS) == 43
    assert len(allowed_designs(ARTICLE)) == 39
    assert all(d == d.canonical for d in DESIGNS)


def test_key_matches_tileset_key(random20, classic):
    problem = make_problem(classic, Objective(max_trails=6), random20)
    classes = start_classes(problem, np.random.default_rng(0))
    turned = TileSet(tuple(reversed([t.flipped().rotated(2) if i % 3 == 0 else t for i, t in enumerate(random20)])))
    problem2 = make_problem(classic, Objective(max_trails=6), turned)
    classes2 = start_classes(problem2, np.random.default_rng(0))
    assert random20.key() == turned.key()
    assert key(classes) == key(classes2)
    other = classes.copy()
    other[0, 0] = (other[0, 0] + 1) % len(DESIGNS)
    assert key(other) != key(classes)


def test_static_counts_match_the_tileset(random20, classic):
    problem = make_problem(classic, Objective(max_trails=6), random20)
    classes = start_classes(problem, np.random.default_rng(0))
    tiles = to_tileset(problem, classes)
    assert tiles == random20  # unchanged designs keep the sides as drawn
    assert static_counts(classes) == (random20.bridges, random20.dup_score, random20.fully_connected)


def test_mutate_changes_one_free_side_to_another_allowed_design(classic):
    problem = small_problem(classic)
    rng = np.random.default_rng(3)
    classes = start_classes(problem, rng)
    for _ in range(200):
        child, changes = mutate(problem, classes, rng)
        ((t, f),) = changes
        assert (child != classes).sum() == 1 and child[t, f] != classes[t, f]
        assert int(child[t, f]) in problem.allowed


def test_a_swap_exchanges_two_free_faces_and_keeps_the_designs_used(classic):
    problem = small_problem(classic, pinned=("2", "7"))
    rng = np.random.default_rng(4)
    classes = start_classes(problem, rng)
    for _ in range(200):
        child, changes = mutate(problem, classes, rng, swap=1.0)
        (t, f), (u, g) = changes
        assert t != u and {t, u} <= set(problem.free)
        assert (child[t, f], child[u, g]) == (classes[u, g], classes[t, f])
        assert (child != classes).sum() == 2
        assert sorted(child.ravel()) == sorted(classes.ravel())
        assert static_counts(child)[:2] == static_counts(classes)[:2]  # bridges and dupScore
        assert key(child) != key(classes)  # never a swap of whole tiles
        classes = child


def test_a_swap_of_two_faces_with_the_same_partner_is_never_proposed(classic):
    """Tiles (a, x) and (b, x): swapping a and b only swaps the tiles, so a design changes instead."""
    problem = small_problem(classic)
    classes = np.array([[1, 2], [3, 2]] + [[5, 5]] * (classic.tile_count - 2), dtype=np.int16)
    rng = np.random.default_rng(0)
    for _ in range(100):
        child, changes = mutate(problem, classes, rng, swap=1.0)
        assert key(child) != key(classes)
        assert sorted(changes) != [(0, 0), (1, 0)]


def _plain_mutate(problem, classes, rng, sides, swap):
    """``mutate`` as it reads: the lists of every other allowed design and every swap partner, built each move."""
    from generator.optimize.strategies import swap_changes_set

    child, free, changes = classes.copy(), problem.free, []
    for _ in range(sides):
        t, f = free[int(rng.integers(len(free)))], int(rng.integers(problem.faces))
        if swap and rng.random() < swap:
            faces = range(child.shape[1])
            options = [(u, g) for u in free if u != t for g in faces if swap_changes_set(child, t, f, u, g)]
            if options:
                u, g = options[int(rng.integers(len(options)))]
                child[t, f], child[u, g] = child[u, g], child[t, f]
                changes += [(t, f), (u, g)]
                continue
        options = [d for d in problem.allowed if d != child[t, f]]
        child[t, f] = options[int(rng.integers(len(options)))]
        changes.append((t, f))
    return child, changes


def test_mutate_draws_as_the_plain_lists_of_designs_and_partners_would(classic):
    """``mutate`` never builds those lists, and makes the same moves from the same random stream."""
    problem = small_problem(classic, pinned=("2", "7"))
    classes = start_classes(problem, np.random.default_rng(5))
    fast, plain = np.random.default_rng(9), np.random.default_rng(9)
    for i in range(600):
        child, changes = mutate(problem, classes, fast, 1 + i % 2, swap=0.5)
        expected, expected_changes = _plain_mutate(problem, classes, plain, 1 + i % 2, 0.5)
        assert child.tolist() == expected.tolist() and changes == expected_changes
        classes = child if i % 3 else classes


# --- common random numbers -----------------------------------------------------------------


@pytest.mark.parametrize("swap", [0.0, 1.0])
def test_bank_fitness_is_the_scorer_on_the_same_layouts(classic, swap):
    """A move re-scores only the layouts showing a changed face; the result equals a full score."""
    problem = small_problem(classic)
    search = Search(problem, bank_seed=11, capacity=3000, size=3000)
    rng = np.random.default_rng(0)
    parent = search.full(start_classes(problem, rng))
    for _ in range(5):
        child, changes = mutate(problem, parent.classes, rng, swap=swap)
        ev = search.evaluate(child, parent, changes)
        full = Search(problem, bank_seed=11, capacity=3000, size=3000).full(child)
        assert ev.fitness == pytest.approx(full.fitness, abs=1e-12) and ev.layouts < 3000
        scored = ev.scored
        for a, b in zip(scored.arrays, full.arrays, strict=True):
            np.testing.assert_array_equal(a, b)
        parent = scored
    # and the bank's layouts are the scorer's: same seed, same first layouts
    tiles = to_tileset(problem, parent.classes)
    assert parent.fitness == pytest.approx(score(tiles, classic, 3000, seed=11).fitness, abs=1e-9)


def test_moves_rescore_only_layouts_showing_the_changed_face(classic):
    problem = small_problem(classic)
    search = Search(problem, bank_seed=2, capacity=4000, size=4000)
    perm, flip, _ = kernel.sample_layouts(classic.tile_count, 4000, 2)  # the bank's layouts
    rows = search.rows([(3, 1)])
    slot = np.argsort(perm, axis=1)[:, 3]
    np.testing.assert_array_equal(rows, np.flatnonzero(flip[np.arange(4000), slot] == 1))
    assert 1800 < len(rows) < 2200  # about half
    both = search.rows([(3, 1), (8, 0)])  # a swap: the layouts showing either face
    slot8 = np.argsort(perm, axis=1)[:, 8]
    shows8 = flip[np.arange(4000), slot8] == 0
    np.testing.assert_array_equal(both, np.union1d(rows, np.flatnonzero(shows8)))
    assert 2800 < len(both) < 3200  # about three quarters


def test_cache_scores_no_candidate_twice(classic):
    problem = small_problem(classic)
    search = Search(problem, bank_seed=2, capacity=1000, size=1000)
    rng = np.random.default_rng(1)
    parent = search.full(start_classes(problem, rng))
    child, changes = mutate(problem, parent.classes, rng)
    first = search.evaluate(child, parent, changes)
    scored_layouts = search.counters.layouts
    # the same set with its tiles in another order and faces swapped is the same candidate
    again = search.evaluate(child[::-1, ::-1].copy())
    assert again.fitness == first.fitness and again.cached and again.scored is None and again.layouts == 0
    assert search.counters.layouts == scored_layouts and search.counters.hits == 1


@pytest.mark.parametrize(("swap", "margin"), [(0.0, -0.01), (1.0, 0.0)])  # swaps change less: a higher bar
def test_early_rejection_only_rejects_clearly_worse_moves(classic, swap, margin):
    problem = small_problem(classic, seed=9)
    search = Search(problem, bank_seed=4, capacity=20000, size=20000)
    exact = Search(problem, bank_seed=4, capacity=20000, size=20000)
    rng = np.random.default_rng(2)
    parent = search.full(start_classes(problem, rng))
    exact_parent = exact.full(parent.classes)
    for _ in range(30):
        child, changes = mutate(problem, parent.classes, rng, swap=swap)
        threshold = parent.fitness + margin
        ev = search.evaluate(child, parent, changes, threshold)
        truth = exact.evaluate(child, exact_parent, changes).fitness
        if ev.fitness < threshold:
            assert truth < threshold + 0.02  # never a good move thrown away by much
            assert (ev.early or ev.cached) == (ev.scored is None)
        else:
            assert ev.fitness == pytest.approx(truth, abs=1e-12) and (ev.scored is None) == ev.cached
    assert search.counters.early > 0


# --- one formula: every caller gets the scorer's fitness -------------------------------------

TASTE = Objective(
    bridges_weight=-0.07,
    dup_weight=-0.01,
    extra_edges_weight=-0.2,
    pair_weight=1.5,
    target_weight=-3.0,
    max_trails=6,
    pair_targets=(("Hut-Well", 0.9), ("Spring-Lair", 0.3)),
)


@pytest.mark.parametrize("objective", [ARTICLE, TASTE], ids=["article", "weights-and-targets"])
def test_every_caller_gets_the_fitness_trailwright_score_gives(classic, random20, objective, tmp_path):
    """The scorer, the bank search (whole and incremental), the fresh scorer, the local check and the re-score."""
    from generator.optimize.check import check_local

    tiles = random20.canonical()  # canonical sides: the bank then sees the scorer's layouts exactly
    problem = make_problem(classic, objective, tiles)
    truth = score(tiles, classic, 2000, seed=5, objective=objective).fitness
    classes = start_classes(problem, np.random.default_rng(0))
    search = Search(problem, bank_seed=5, capacity=2000, size=2000)
    parent = search.full(classes)
    assert parent.fitness == pytest.approx(truth, abs=1e-12)
    assert rescore(problem, tiles, 2000, 5).fitness == truth
    assert check_local(problem, tiles, samples=2000, seed=5, swaps=False).fitness == pytest.approx(truth, abs=1e-12)
    child, changes = mutate(problem, classes, np.random.default_rng(1), sides=2)
    moved = search.evaluate(child, parent, changes)
    child_truth = score(to_tileset(problem, child).canonical(), classic, 2000, seed=5, objective=objective).fitness
    assert moved.fitness == pytest.approx(child_truth, abs=1e-12)
    fresh = FreshScorer(problem, seed=8, samples=700)
    layouts_seed = int(np.random.SeedSequence([8, 0]).generate_state(1, np.uint64)[0] >> 1)
    assert fresh.evaluate(classes).fitness == pytest.approx(
        score(tiles, classic, 700, seed=layouts_seed, objective=objective).fitness, abs=1e-12
    )
    if objective == ARTICLE:  # the command line itself
        import contextlib
        import io

        from generator.cli import main
        from generator.model import dumps_tileset

        path = tmp_path / "canonical.json"
        path.write_text(dumps_tileset(tiles))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["score", str(path), "--samples", "2000", "--seed", "5", "--json"]) == 0
        assert json.loads(out.getvalue())["fitness"] == round(truth, 6)


def test_the_objective_is_the_formula(random20):
    o = TASTE
    static = o.static(random20.bridges, random20.dup_score, random20.fully_connected)
    assert static == pytest.approx(-0.07 * random20.bridges - 0.01 * random20.dup_score - random20.fully_connected)
    assert o.per_layout(9, 12) == pytest.approx(-0.2 * 9 + 1.5 * 12)
    assert o.fitness(1.0, 2.0, {"Hut-Well": 0.8, "Spring-Lair": 0.5}) == pytest.approx(3.0 - 3.0 * (0.1 + 0.2))
    assert o.fitness(1.0, 2.0, {"Hut-Well": 0.8, "Spring-Lair": 0.5}, extra=0.25) == pytest.approx(2.35)


# --- the contract every strategy keeps ------------------------------------------------------


@pytest.mark.parametrize("strategy,preset", CASES)
class TestContract:
    def test_valid_result_within_budget(self, classic, strategy, preset):
        problem = small_problem(classic)
        result = run(problem, strategy, preset)
        assert [c.generation for c in result.chains] == [40]
        tiles = result.tileset
        assert len(tiles) == classic.tile_count
        assert [t.id for t in tiles] == [t.id for t in problem.start]
        assert all(ARTICLE.allows(side) for side in tiles.sides())
        # the reported figure is the re-score on fresh layouts, never the search's own estimate
        assert result.score.samples == 4000
        assert result.fitness == pytest.approx(rescore(problem, tiles, 4000, result.score.seed).fitness)

    def test_time_budget(self, classic, strategy, preset):
        problem = small_problem(classic)
        result = optimize(
            problem,
            Config(strategy=strategy, preset=preset, time=1.0, seed=2, **{**SMALL, "max_samples": 20000}),
            client=CLIENT,
        )
        # the second counts from the call: the chains get it less the start-up and the re-score's reserve
        assert all(0.5 <= c.elapsed < 1.6 for c in result.chains), [c.elapsed for c in result.chains]
        assert result.seconds < 3.0

    def test_same_seed_same_result(self, classic, strategy, preset):
        problem = small_problem(classic)
        a, b = (run(problem, strategy, preset, generations=25, seed=7) for _ in range(2))
        assert a.tileset == b.tileset and a.fitness == b.fitness
        c = run(problem, strategy, preset, generations=25, seed=8)
        assert c.tileset != a.tileset

    def test_improves_over_the_start(self, classic, strategy, preset):
        problem = small_problem(classic, seed=12)
        result = run(problem, strategy, preset, generations=60)
        before = rescore(problem, problem.start, 4000, result.score.seed).fitness
        assert result.fitness > before + 0.3


def test_article_preset_is_the_articles_setup():
    ga = strategy_named("ga", "article")
    assert ga == ARTICLE_GA
    assert (ga.population, ga.elites, ga.tournament, ga.crossover, ga.mutation, ga.fresh, ga.samples) == (
        20,
        5,
        2,
        0.5,
        0.5,
        True,
        500,
    )
    with pytest.raises(TrailwrightError, match="preset 'article' is for strategy 'ga'"):
        strategy_named("anneal", "article")
    with pytest.raises(TrailwrightError, match="unknown strategy 'sa'"):
        strategy_named("sa")


# --- pinned tiles, rules, resume, workers -----------------------------------------------------


@pytest.mark.parametrize("strategy,preset", CASES)
def test_pinned_tiles_never_change(classic, random20, strategy, preset):
    objective = Objective(max_trails=6)
    problem = make_problem(classic, objective, random20, pinned=("2", "7"))
    result = run(problem, strategy, preset, generations=30)
    tiles = {t.id: t for t in result.tileset}
    assert tiles["2"] == random20.tiles[1] and tiles["7"] == random20.tiles[6]
    assert result.tileset != random20


def test_forbidden_designs_and_max_trails_are_never_used(classic):
    two_diameters = Side.from_names([["N", "S"], ["NE", "SW"], ["SE", "NW"]]).canonical.trails
    objective = Objective(max_trails=3, forbid=(two_diameters,))
    problem = small_problem(classic, objective=objective)
    for strategy, preset in CASES:
        result = run(problem, strategy, preset, generations=60)
        for side in result.tileset.sides():
            assert len(side.trails) <= 3 and side.canonical.trails != two_diameters


def test_pair_target_pulls_the_pair_towards_it(classic):
    objective = resolve_targets(Objective(pair_targets=(("Lair-Hut", 0.5),), target_weight=-20.0), classic.pair_names())
    assert objective.pair_targets == (("Hut-Lair", 0.5),)
    problem = small_problem(classic, objective=objective)
    plain = run(make_problem(classic, ARTICLE, problem.start), "anneal", None, generations=150)
    aimed = run(problem, "anneal", None, generations=150)
    assert abs(aimed.score.pair_prob["Hut-Lair"] - 0.5) < abs(plain.score.pair_prob["Hut-Lair"] - 0.5) - 0.1
    untargeted = score(aimed.tileset, classic, aimed.score.samples, seed=aimed.score.seed).fitness
    assert aimed.fitness == aimed.score.fitness
    assert aimed.fitness == pytest.approx(untargeted - 20.0 * abs(aimed.score.pair_prob["Hut-Lair"] - 0.5))


@pytest.mark.parametrize("strategy,preset", CASES)
def test_resume_after_interrupt_equals_an_uninterrupted_run(classic, strategy, preset):
    """A chain stopped part-way, written as JSON and read back, continues to the very same chain."""
    problem = small_problem(classic)
    config = Config(strategy=strategy, preset=preset, generations=40, seed=3, checkpoint_every=0.0, **SMALL)
    strategy = config_strategy(config)
    budget = Budget(None, 40)
    whole = run_chain(problem, strategy, budget, 3, 0, None, lambda: False, lambda *a: None)

    saved = []
    calls = iter(range(10**6))
    stopped = run_chain(
        problem,
        strategy,
        budget,
        3,
        0,
        None,
        lambda: next(calls) >= 17,  # "Ctrl-C" after 17
        lambda kind, value: saved.append(json.dumps(value.to_data())) if kind == "snapshot" else None,
        snapshot_every=0.0,
    )
    assert 0 < stopped.generation < 40 and saved
    interrupted = Chain.from_data(json.loads(json.dumps(stopped.to_data())))  # through JSON, as a checkpoint does
    resumed = run_chain(problem, strategy, budget, 3, 0, interrupted, lambda: False, lambda *a: None)
    best = lambda chain: chain_best(strategy, chain)  # noqa: E731
    assert resumed.generation == whole.generation == 40
    np.testing.assert_array_equal(best(resumed).classes, best(whole).classes)
    assert best(resumed).fitness == best(whole).fitness
    assert resumed.search_state["evaluations"] == whole.search_state["evaluations"]
    assert resumed.state == whole.state and resumed.rng_state == whole.rng_state


def test_two_chains_run_and_keep_the_best(classic):
    problem = small_problem(classic)
    result = run(problem, "anneal", None, generations=30, seed=4, chains=2)
    assert [c.index for c in result.chains] == [0, 1] and [c.generation for c in result.chains] == [30, 30]
    assert not result.stopped
    again = run(problem, "anneal", None, generations=30, seed=4, chains=2)
    assert again.tileset == result.tileset


def test_more_chains_than_workers_give_what_each_chain_gives_alone(classic):
    """A chain's result depends only on the seed, its index and its generations, not on what runs beside it."""
    problem = small_problem(classic)
    many = run(problem, "anneal", None, generations=20, seed=4, chains=5)
    strategy = config_strategy(Config(generations=20, **SMALL))
    for index in (0, 4):
        alone = run_chain(problem, strategy, Budget(None, 20), 4, index, None, lambda: False, lambda *a: None)
        assert many.chains[index].state == alone.state


def test_the_winner_is_the_chain_best_on_the_shared_selection_layouts(classic, monkeypatch):
    from generator.optimize import timing
    from generator.optimize.ending import selection_seed

    monkeypatch.setattr(timing, "SELECTION_SAMPLES", 20_000)
    problem = small_problem(classic)
    result = run(problem, "anneal", None, generations=30, seed=6, chains=3)
    strategy = config_strategy(Config(generations=30, **SMALL))
    values = [
        rescore(problem, to_tileset(problem, chain_best(strategy, c).classes), 20_000, selection_seed(6)).fitness
        for c in result.chains
    ]
    assert len(set(values)) == 3  # three different chain results
    assert result.winner == int(np.argmax(values))
    assert result.tileset == to_tileset(problem, chain_best(strategy, result.chains[result.winner]).classes)


def test_stop_event_ends_the_run_with_the_best_so_far(classic):
    problem = small_problem(classic)
    stop = threading.Event()
    stop.set()
    result = optimize(problem, Config(generations=1000, seed=1, **SMALL), stop=stop, client=CLIENT)
    assert result.chains[0].generation == 0 and len(result.tileset) == 20 and result.stopped


def test_island_mode_moves_the_best_set_into_the_worst_chain(classic):
    problem = small_problem(classic)
    # the chains get what the time budget leaves after the reserve for choosing the winner (about 1 s here)
    result = optimize(problem, Config(time=3.0, migrate=0.5, seed=2, **{**SMALL, "chains": 2}), client=CLIENT)
    legs = [leg for leg, _, _ in result.migrants]
    assert len(legs) >= 2 and legs == list(range(1, len(legs) + 1))  # a migration before every leg but the first
    for _leg, index, designs in result.migrants:
        assert len(designs) == 20 and 0 <= index < 2
    assert all(c.leg == len(legs) for c in result.chains) and not result.stopped


# --- objective files ------------------------------------------------------------------------


def test_objective_file_round_trip(tmp_path):
    path = tmp_path / "taste.toml"
    path.write_text(
        'pair_weight = 2\nmax_trails = 3\nforbid = [[["N", "NE", "SE", "S", "SW", "NW"]]]\n'
        '[pair_targets]\n"Hut-Lair" = 0.5\n'
    )
    objective = load_objective(path)
    assert objective.pair_weight == 2.0 and objective.max_trails == 3
    assert objective.forbid == (((0, 1, 2, 3, 4, 5),),)
    assert objective.pair_targets == (("Hut-Lair", 0.5),)
    assert objective.bridges_weight == ARTICLE.bridges_weight
    assert objective_from_dict({}) == ARTICLE


@pytest.mark.parametrize(
    "text,message",
    [
        ("pair_wieght = 1\n", "unknown key 'pair_wieght'"),
        ('pair_weight = "high"\n', "pair_weight: 'high' is not a number"),
        ("max_trails = 13\n", "max_trails: 13 is not a whole number from 1 to 12"),
        ('forbid = [[["N", "UP"]]]\n', "forbid\\[0\\].*unknown direction 'UP'"),
        ('[pair_targets]\n"Hut-Lair" = 1.5\n', "pair_targets.Hut-Lair: 1.5 is not a number from 0 to 1"),
        ("pair_weight = \n", "malformed TOML"),
    ],
)
def test_bad_objective_files_give_one_line_errors(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(TrailwrightError, match=message) as err:
        load_objective(path)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)


def test_an_objective_file_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes("# goût\npair_weight = 2\n".encode("latin-1"))
    with pytest.raises(TrailwrightError) as err:
        load_objective(path)
    assert str(err.value) == f"{path}: not UTF-8 text"


def test_unknown_target_pair_names_the_pair(classic):
    with pytest.raises(TrailwrightError, match="'Hut-Moon' is not a landmark pair"):
        resolve_targets(Objective(pair_targets=(("Hut-Moon", 0.5),)), classic.pair_names())


def test_local_check_tries_every_single_side_change_and_every_swap(classic, random20):
    from generator.optimize.check import check_local, describe

    tiles = random20.canonical()  # the bank scores canonical sides: then it sees the scorer's layouts exactly
    keep = tuple(t.id for t in tiles.tiles[2:])
    problem = make_problem(classic, Objective(max_trails=6), tiles, pinned=keep)
    classes = start_classes(problem, np.random.default_rng(0))
    swaps = sum(
        classes[0, f] != classes[1, g] and classes[0, 1 - f] != classes[1, 1 - g] for f in range(2) for g in range(2)
    )
    assert swaps > 0
    report = check_local(problem, tiles, samples=2000, seed=5, margin=10.0)  # every neighbour scored in full
    assert report.neighbours == len(report.close) == 2 * 2 * (len(DESIGNS) - 1) + swaps
    assert check_local(problem, tiles, samples=2000, seed=5, swaps=False).neighbours == 2 * 2 * (len(DESIGNS) - 1)
    assert report.fitness == pytest.approx(score(tiles, classic, 2000, seed=5).fitness)
    assert report.improving  # a random set is far from a local optimum
    for best in (report.close[0], next(n for n in report.close if len(n.changes) == 2)):
        changed = classes.copy()
        for t, f, d in best.changes:
            changed[t, f] = d
        better = to_tileset(problem, changed)
        assert score(better, classic, 2000, seed=5).fitness == pytest.approx(report.fitness + best.gain)
        assert describe(problem, best).count("tile '") == len(best.changes)


@pytest.mark.parametrize("name", ["best-known.json", "previous-best.json"])
def test_the_best_sets_score_what_their_files_and_the_docs_say(classic, name):
    from generator.model import read_tileset
    from tests.conftest import EXAMPLES

    path = EXAMPLES / name
    recorded = json.loads(path.read_text())["meta"]["score"]
    report = score(read_tileset(path), classic, recorded["samples"], seed=recorded["seed"])
    assert report.fitness == pytest.approx(recorded["fitness"], abs=5e-5)
    assert report.fitness_se == pytest.approx(recorded["fitness_se"], abs=5e-5)
    assert report.fitness > 10.62 + 5 * report.fitness_se  # above the best known before, by far more than the noise


def test_warm_up_compiles_exactly_what_the_search_and_the_scorer_call(classic, random20):
    from generator.scoring import warm_up

    kernels = (kernel._sample, kernel._score_given_classic, kernel._sample_and_score_classic)
    kernels += (kernel._accumulate_classic,)
    warm_up(classic)
    compiled = [list(k.signatures) for k in kernels]
    assert all(compiled)
    problem = small_problem(classic)
    search = Search(problem, bank_seed=3, capacity=600, size=600)
    parent = search.full(start_classes(problem, np.random.default_rng(0)))
    child, changes = mutate(problem, parent.classes, np.random.default_rng(1))
    search.evaluate(child, parent, changes, threshold=parent.fitness)
    score(random20, classic, 50, seed=1)
    assert [list(k.signatures) for k in kernels] == compiled  # nothing new to compile after the warm-up


def test_a_time_budget_is_spent_as_a_generation_budget_would_spend_it():
    """A generation at progress p costs ``warp ** p`` times the first; a generation budget's progress is its share
    of generations; so the clock's share after progress p is ``(warp ** p - 1) / (warp - 1)``, and ``at`` inverts
    it."""
    warped, plain = Budget(60.0, None, 32.6), Budget(60.0, None)
    for p in (0.0, 0.2, 0.5, 0.84, 1.0):
        share = (32.6**p - 1) / 31.6
        assert warped.at(share) == pytest.approx(p) and warped.progress(60.0 * share, 0) == pytest.approx(p)
        assert plain.progress(60.0 * p, 0) == pytest.approx(p)
    assert warped.at(0.5) == pytest.approx(0.8097, abs=1e-4)  # half the clock: four fifths of the schedule
    assert warped.at(-1.0) == 0.0 and warped.at(2.0) > 1.0  # before the start, past the end
    both = Budget(60.0, 100, 32.6)  # whichever ends first
    assert both.progress(6.0, 90) == pytest.approx(0.9) and both.progress(30.0, 10) == pytest.approx(0.8097, abs=1e-4)


def test_plan_gives_each_wave_of_chains_its_share_of_the_time():
    from generator.optimize.run import plan
    from generator.optimize.timing import MIN_LEFT

    warp = 60**0.85  # the default bank grows 60-fold (2,000 to 120,000 layouts)
    assert plan(Config(time=60, chains=2), workers=2) == (Budget(60.0, None, warp), 1)
    assert plan(Config(time=60, chains=8), workers=2) == (Budget(15.0, None, warp), 1)  # four waves of two
    assert plan(Config(time=60, chains=2, polish_share=0.25), workers=2) == (Budget(45.0, None, warp), 1)
    assert plan(Config(time=60, chains=3, migrate=10), workers=2) == (Budget(30.0, None, warp), 3)
    assert plan(Config(generations=50, chains=8), workers=2) == (Budget(None, 50, warp), 1)  # generations: any cluster
    assert plan(Config(time=60, max_samples=480000), workers=2)[0].warp == 240**0.85
    assert plan(Config(time=60, strategy="pool"), workers=2)[0].warp == warp  # every strategy on a bank
    assert plan(Config(time=60, strategy="beam", max_samples=240000), workers=2)[0].warp == 120**0.85
    assert plan(Config(time=60, strategy="ga"), workers=2)[0].warp == 1.0  # measured no better: by the clock
    # the budget is wall time from the command's start: the chains get what is left of it when they start (a
    # resumed run's chains, what they spent already as well), never more than their share of the whole
    assert plan(Config(time=60, chains=2), workers=2, left=40.0) == (Budget(40.0, None, warp), 1)
    assert plan(Config(time=60, chains=4, polish_share=0.25), workers=2, left=40.0)[0].time == 15.0
    assert plan(Config(time=60, chains=2), workers=2, left=40.0, spent=15.0)[0].time == 55.0
    assert plan(Config(time=60, chains=2), workers=2, left=100.0, spent=15.0)[0].time == 60.0
    assert plan(Config(time=60, chains=2), workers=2, left=-3.0)[0].time == MIN_LEFT  # start-up took it all
    with pytest.raises(TrailwrightError, match="migrate: needs a time budget"):
        Config(generations=50, migrate=10)


def test_the_re_scores_reserve_is_paced_by_the_choice_of_the_winner(classic):
    from generator.optimize.timing import RESERVE_RATE, rescoring

    problem = small_problem(classic)
    assert rescoring(problem, 1_000_000) == pytest.approx(1_000_000 * 20 / RESERVE_RATE)  # before any scoring
    # two chains' bests on two workers, 500,000 layouts each, in 0.5 s: a million layouts on one worker take 1 s
    assert rescoring(problem, 1_000_000, 0.5, 2, 2) == pytest.approx(1.5)
    assert rescoring(problem, 1_000_000, 0.5, 4, 2) == pytest.approx(0.75)  # two waves in the 0.5 s
    assert rescoring(problem, 1_000_000, 0.5, 2, 2, 250_000) == pytest.approx(3.0)  # a short run's smaller choice


def test_a_run_on_the_commands_threads_sets_aside_its_own_pace(classic):
    """Timed before the chains, a layout's pace here sizes the reserve (half as long again), where a slow machine's
    ``RESERVE_RATE`` would; the choice of the winner's layouts count too."""
    from generator.optimize.run import _pace
    from generator.optimize.timing import RESERVE_RATE, Samples, reserve

    problem = small_problem(classic)
    sizes = Samples(500_000, 1_000_000)
    assert reserve(problem, sizes, 1, 2) == pytest.approx(1_000_000 * 20 / RESERVE_RATE)  # one chain: no choice
    assert reserve(problem, sizes, 1, 2, pace=1e-6) == pytest.approx(1.5)
    assert reserve(problem, sizes, 4, 2, pace=1e-6) == pytest.approx(1.5 * 2e-6 * 1_000_000)  # two waves of choice
    pace = _pace(problem, 1)  # the scoring kernel on this machine: well under a slow machine's
    assert 0 < pace < 20 / RESERVE_RATE


def test_a_short_budget_buys_fewer_samples_and_says_so_and_too_short_a_budget_is_refused(classic):
    from generator.optimize.timing import (
        AFTER_SHARE,
        MIN_RESCORE,
        RESERVE_RATE,
        SELECTION_SAMPLES,
        check_budget,
        in_process,
        samples,
        shortest_budget,
        teardown,
    )

    problem = small_problem(classic)  # 20 slots
    untimed = samples(problem, None, 1_000_000, 2, 2)
    assert (untimed.selection, untimed.rescore, untimed.reduced) == (SELECTION_SAMPLES, 1_000_000, False)
    assert not samples(problem, 60.0, 1_000_000, 2, 2).reduced  # 0.5 M + 1 M layouts of 20 slots: 3 s of 9 s
    short = samples(problem, 10.0, 1_000_000, 2, 2)  # 1.5 s buy half of each
    assert (short.selection, short.rescore, short.reduced) == (250_000, 500_000, True)
    spent = (short.selection + short.rescore) * problem.board.tile_count / RESERVE_RATE
    assert spent <= AFTER_SHARE * 10.0
    assert samples(problem, 1.0, 1_000_000, 2, 2).rescore == MIN_RESCORE  # never fewer
    assert samples(problem, 1.0, 4_000, 2, 2).rescore == 4_000  # nor more than asked
    assert in_process(None, 10.0) and not in_process(None, 60.0) and not in_process("tcp://x:8786", 10.0)
    assert teardown("tcp://x:8786", 10.0) == 0.0 < teardown(None, 10.0) < teardown(None, 60.0)
    # half a second of search, the fewest samples (0.24 s) and the teardown (0.25 s), rounded up; and the command's
    # start-up so far (0.6 s)
    assert shortest_budget(problem, 1_000_000, 2, 2, teardown(None, 2.0)) == 1.0
    shortest = shortest_budget(problem, 1_000_000, 2, 2, teardown(None, 2.0), 0.6)
    assert shortest == 2.0
    check_budget(problem, shortest, 1_000_000, 2, 2, teardown(None, 2.0), 0.6)
    with pytest.raises(TrailwrightError, match=r"^--time 1.5 is too short to search .*: give --time 2 or more$"):
        check_budget(problem, 1.5, 1_000_000, 2, 2, teardown(None, 1.5), 0.6)


def test_the_polish_takes_only_confirmed_gains_and_is_the_same_whatever_the_workers():
    from generator.board import load_board
    from generator.optimize.polish import here, polish
    from generator.optimize.space import make_problem, random_tileset
    from generator.scoring import ARTICLE, score

    board = load_board("classic")
    start = random_tileset(20, tuple(range(43)), np.random.default_rng(4))
    problem = make_problem(board, ARTICLE, start)
    one = polish(problem, start, 2000, seed=5, run=here, workers=1, rounds=1)
    three = polish(problem, start, 2000, seed=5, run=here, workers=3, rounds=1)
    assert one.steps and one.steps == three.steps and (one.classes == three.classes).all()
    assert all(s.gain > 2 * s.gain_se for s in one.steps) and "tile" in one.steps[0].change
    assert one.neighbours == three.neighbours > 2000  # every side's every design, and the swaps
    assert score(one.tileset, board, 40_000, 9).fitness > score(start, board, 40_000, 9).fitness


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"time": math.inf}, "time: must be a finite number of seconds above 0, not inf"),
        ({"time": 5.0, "migrate": math.nan}, "migrate: must be a finite number of seconds above 0, not nan"),
        ({"generations": 5, "checkpoint_every": -1.0}, "checkpoint_every: must be a finite number of seconds at least"),
        ({"generations": 5, "max_samples": 10**8}, "max_samples: 100,000,000 is more than 10,000,000"),
        ({"generations": 5, "polish": 2_000_000}, "polish: 2,000,000 is more than 1,000,000"),
        ({"generations": 5, "chains": 2_000}, "chains: 2,000 is more than 1,024"),
        ({"time": 60.0, "polish_share": 1.0}, "polish_share: must be a share from 0 up to"),
        ({"time": 60.0, "polish_share": math.nan}, "polish_share: must be a share from 0 up to"),
        ({"generations": 5, "polish_share": 0.3}, "polish_share: needs a time budget"),
    ],
)
def test_a_run_refuses_settings_past_what_it_can_hold(settings, message):
    with pytest.raises(SettingError, match=message):
        Config(**settings)
    assert Config(generations=5, checkpoint_every=0.0).checkpoint_every == 0.0  # every generation: allowed


def test_a_short_budget_is_all_search_and_a_long_one_polishes(classic):
    from generator.optimize.timing import POLISH_FROM, POLISH_SHARE, default_polish_share

    problem = small_problem(classic)
    assert default_polish_share(problem, None, None, None, POLISH_FROM) == POLISH_SHARE
    assert default_polish_share(problem, None, None, None, 60.0) == POLISH_SHARE
    assert default_polish_share(problem, None, None, None, 10.0) == 0.0  # its share would screen too few layouts
    assert default_polish_share(problem, None, None, None) == POLISH_SHARE  # untold: as before


def test_an_in_process_cluster_loads_its_kernels_as_its_chains_call_them():
    from distributed import Client, LocalCluster

    from generator.board import load_board
    from generator.optimize.cluster import warm_workers
    from generator.optimize.worker_plugin import KernelWarmUp

    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        warm_workers(client, load_board("classic"))
        plugins = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.worker_plugins))
    assert KernelWarmUp.name not in plugins


def test_a_run_on_the_commands_threads_equals_the_same_run_on_dask(classic):
    """``cluster.Threads`` (a short run's pool, without Dask) runs the chains, picks the winner and re-scores it as
    a Dask cluster does: the same tile set and the same figures, bit for bit."""
    from generator.optimize import cluster

    problem = small_problem(classic)
    config = Config(strategy="anneal", generations=15, seed=3, **{**SMALL, "chains": 2})
    on_dask = optimize(problem, config, client=CLIENT)
    with cluster.connect(None, 2, in_process=True) as pool:
        assert isinstance(pool, cluster.Threads) and cluster.worker_count(pool) == 2
        reports = []
        on_threads = optimize(problem, config, client=pool, on_progress=reports.append)
    assert on_threads.tileset == on_dask.tileset and on_threads.fitness == on_dask.fitness
    assert [c.generation for c in on_threads.chains] == [c.generation for c in on_dask.chains] == [15, 15]
    assert on_threads.winner == on_dask.winner and {r.chain for r in reports} == {0, 1}


def test_closing_the_threads_stops_a_leg_still_running(classic):
    """Leaving the pool (an error in the command) stops its legs after their current generation, as a Dask
    cluster's close does, instead of waiting for their budget."""
    from generator.optimize import cluster

    problem = small_problem(classic)
    strategy = config_strategy(Config(strategy="anneal", generations=1))
    job = cluster.Leg("r", problem, strategy, Budget(600.0, None), 1, 0, 0, 1.0, snapshot_every=0.1)
    began = time.perf_counter()
    with cluster.Threads(1) as pool:
        store = pool.variable(cluster.store_name("r", 0))
        running = pool.submit(pool.run_leg, job)
        while not store.get():  # wait for the first snapshot: the leg is under way
            time.sleep(0.05)
    assert Chain.from_data(json.loads(running.result())).generation >= 1 and time.perf_counter() - began < 60


@pytest.mark.slow
def test_a_short_run_starts_without_dask(tmp_path):
    """A short run searches on the command's own threads: it never imports Dask (a third of a second of start-up)."""
    import subprocess
    import sys

    probe = "import sys; from generator.cli import main; status = main(); assert 'distributed' not in sys.modules"
    out = tmp_path / "short.json"
    env = {k: v for k, v in os.environ.items() if k != "TRAILWRIGHT_SCHEDULER"}
    done = subprocess.run(
        [sys.executable, "-c", probe, "optimize", "--time", "5", "--quiet", "--out", str(out)],
        env=env,
        timeout=120,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and out.exists(), done.stderr  # 5 s: enough for its start-up on a busy machine
    assert json.loads(out.read_text())["meta"]["search"]["generations"][0] > 0


def test_a_run_on_threads_of_the_command_has_one_chain_unless_told():
    from generator.optimize.timing import IN_PROCESS_SECONDS, default_chains

    assert default_chains(None, 10.0, None, 4) == 1  # its chains' Python steps would share one core
    assert default_chains(None, IN_PROCESS_SECONDS + 1, None, 4) == 4  # its own worker processes: one a core
    assert default_chains("tcp://x:8786", 10.0, None, 4) == 4  # a cluster that is up
    assert default_chains(None, 10.0, 3, 4) == 3  # --workers
    assert default_chains(None, 10.0, None, 4, together=True) == 4  # islands or exchanges need several


def test_a_short_budget_grows_a_smaller_bank(classic):
    from generator.optimize.search import BankSchedule
    from generator.optimize.timing import BANK_PACE, default_bank_end

    problem = small_problem(classic)  # 20 slots
    assert default_bank_end(problem, 5.0) == 45_000 == BANK_PACE * 5 // 20
    assert default_bank_end(problem, 60.0) is None  # the default bank
    assert default_bank_end(problem, None) is None
    assert default_bank_end(problem, 0.1) == BankSchedule().start  # never under the first bank


def test_a_board_of_many_designs_grows_a_smaller_bank_still():
    """hex-pairs' one-face changes draw mostly from its 90 favoured designs of 1,799 (``prior``): its bank is
    sqrt(43 / 90) as large, for more generations."""
    from generator.cli import build_parser
    from generator.cli.optimize import _setup
    from generator.optimize.timing import BANK_PACE, PACED_DESIGNS

    def bank_end(*argv: str) -> int | None:
        return _setup(build_parser("optimize").parse_args(["optimize", "--board", "hex-pairs", *argv]))[1].max_samples

    pace = BANK_PACE * math.sqrt(PACED_DESIGNS / 90) / 37  # layouts a second on its 37 slots
    assert bank_end("--time", "10") == 33_000 == int(pace * 10) // 1000 * 1000
    assert bank_end("--time", "30") == 100_000  # under the default bank at half a minute
    assert bank_end("--time", "60") is None  # the default bank from a minute
    assert bank_end("--time", "10", "--max-samples", "9000") == 9_000  # as told


def test_the_history_plot_draws_each_chain_and_the_rescore_where_their_values_lie():
    """The plot read back: a line a chain, each point placed by its seconds and best (on one linear scale), and
    the re-score's rule at its value among them."""
    from xml.etree import ElementTree

    from generator.optimize.chain import HistoryPoint
    from generator.optimize.report import history_svg

    chains = [
        Chain(i, 0, 3, 2.0, {}, {}, {}, 9.9, tuple(HistoryPoint(s, g, g, 100, b) for s, g, b in points))
        for i, points in enumerate([[(0.0, 0, 10.0), (1.0, 1, 10.2)], [(0.5, 0, 10.1), (2.0, 3, 10.3)]])
    ]
    svg = ElementTree.fromstring(history_svg(chains, 10.25, "anneal <a & b>", 2))
    ns = "{http://www.w3.org/2000/svg}"
    lines = [[tuple(map(float, p.split(","))) for p in e.get("points").split()] for e in svg.iter(f"{ns}polyline")]
    assert len(lines) == 2 and [len(points) for points in lines] == [2, 2]
    (x0, y0), (x1, y1) = lines[0]
    dx, dy = (x1 - x0) / 1.0, (y1 - y0) / 0.2  # pixels a second, pixels a unit of fitness (up is negative)
    assert dx > 0 and dy < 0
    assert lines[1][1] == pytest.approx((x0 + 2.0 * dx, y0 + 0.3 * dy), abs=0.02)
    rule = next(e for e in svg.iter(f"{ns}path") if e.get("stroke-dasharray"))
    assert float(rule.get("d").split(",")[1].split("h")[0]) == pytest.approx(y0 + 0.25 * dy, abs=0.02)
    texts = [e.text for e in svg.iter(f"{ns}text")]
    assert "anneal <a & b>" in texts and "re-scored on fresh layouts after 2 polish steps 10.2500" in texts
