"""Play-aware optimisation: the [play] table, its penalty, and the evaluator that adds it only for
candidates passing the static bar. A stand-in game bank (a pure function of the tiles) keeps these
tests independent of the simulator; the benchmark plays real games."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from generator.errors import TrailwrightError
from generator.optimize import Config, make_problem, optimize, random_tileset
from generator.optimize import play as play_module
from generator.optimize.play import PlayAware, PlayScorer
from generator.optimize.search import Search
from generator.optimize.space import allowed_designs, start_classes, to_tileset
from generator.scoring.objective import ARTICLE, load_objective, objective_from_dict
from generator.scoring.play_target import PlayTarget, summarise_games


def stub_bank(tileset, board, rules, target, seed=None, engine="fast", games=None, threads=1):
    """Games that last 6 rounds plus one per four dead ends in the set (a pure function of the tiles)."""
    stubs = sum(len(side.stubs) for side in tileset.sides())
    rng = np.random.default_rng(target.seed if seed is None else seed)  # the same noise for every candidate
    noise, winners = rng.integers(-2, 3, 5000), rng.integers(0, target.players, 5000)
    n = games or target.games  # the first n games of the bank
    return (6 + stubs / 4 + noise[:n]).astype(float), winners[:n]


@pytest.fixture
def stubbed(monkeypatch):
    monkeypatch.setattr(play_module, "game_bank", stub_bank)


def test_the_play_table_is_read_and_checked():
    o = objective_from_dict({"play": {"median_rounds": 15, "players": 3, "weight": -2.0, "games": 100}})
    assert o.play == PlayTarget(median_rounds=15, players=3, weight=-2.0, games=100)
    assert o.settings()["play"]["median_rounds"] == 15
    assert ARTICLE.play is None


@pytest.mark.parametrize(
    "body, message",
    [
        ("median_rounds = 15\nplayer = 3", "play: unknown key 'player'"),
        ("players = 3", "play: needs median_rounds .* or a bound such as min_drama"),
        ("min_drama = 0.3\nmax_drama = 0.2", "play: min_drama = 0.3 is above max_drama = 0.2"),
        ("max_luck_share = -1", "play.max_luck_share: -1 is not a number from 0 to 1000"),
        ("min_fun = 1", "play: unknown key 'min_fun'"),
        ("min_drama = 0.2\nrival = 'wizard'", "play.rival: 'wizard' is not one of"),
        ("median_rounds = 15\nplayers = 5", "play.players: 5 is not a whole number from 2 to 4"),
        ("median_rounds = 15\nplayers = 2.0", "play.players: 2.0 is not a whole number"),
        ("median_rounds = 15\nweight = 1.0", "play.weight: 1.0 is not a number from -1e\\+06 to 0"),
        ("median_rounds = 15\nmax_unfinished = 1.5", "play.max_unfinished: 1.5 is not a number from 0 to 1"),
        ("median_rounds = 15\ntolerance = -1", "play.tolerance: -1 is not a number from 0 to 100"),
        ("median_rounds = 'long'", "play.median_rounds: 'long' is not a number"),
        ("median_rounds = 0", "play.median_rounds: 0 is not a number from 1 to 10000"),
        ("median_rounds = nan", "play.median_rounds: nan is not a finite number"),
        ("median_rounds = inf", "play.median_rounds: inf is not a finite number"),
        ("median_rounds = true", "play.median_rounds: True is not a number"),
        ("median_rounds = 15\ngames = 5", "play.games: 5 is not a whole number from 10 to 100,000"),
        ("median_rounds = 15\nseed = -1", "play.seed: -1 is not a whole number"),
        ("median_rounds = 15\npolicy = 'wizard'", "play.policy: 'wizard' is not one of 'random', 'explorer'"),
        ("median_rounds = 15\npolicy = 3", "play.policy: 3 is not one of"),
    ],
)
def test_bad_play_tables_are_one_line_errors(tmp_path, body, message):
    path = tmp_path / "objective.toml"
    path.write_text(f"[play]\n{body}\n", encoding="utf-8")
    with pytest.raises(TrailwrightError, match=message) as err:
        load_objective(path)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)


def test_play_must_be_a_table():
    with pytest.raises(TrailwrightError, match="play: expected a table, got 15"):
        objective_from_dict({"play": 15})


def test_the_penalty_measures_distance_from_the_target_and_limits():
    target = PlayTarget(median_rounds=10, players=2, weight=-1.0, tolerance=0.0, max_unfinished=0.1, limit_weight=-20.0)
    rounds = np.arange(1, 21, dtype=float)  # centre: mean of the 9th..12th = 10.5
    winners = np.array([0, 1] * 10)
    s = summarise_games(target, rounds, winners)
    assert (s.median, s.centre, s.unfinished, s.seat_advantage) == (10.5, 10.5, 0.0, 0.0)
    assert s.penalty == pytest.approx(-0.5)
    unfinished = winners.copy()
    unfinished[:4] = -1  # 20 % unfinished: 10 points over the cap
    assert summarise_games(target, rounds, unfinished).penalty == pytest.approx(-0.5 - 20 * 0.1)
    seats = np.array([0] * 14 + [1] * 6)  # seat 0 wins 70 %: 20 points above 1/2
    bounded = PlayTarget(median_rounds=10, players=2, weight=-1.0, tolerance=0.0, max_seat_advantage=0.1)
    assert summarise_games(bounded, rounds, seats).penalty == pytest.approx(-0.5 - 20 * 0.1)


@pytest.mark.parametrize("centre, penalty", [(15.0, 0.0), (14.5, 0.0), (15.5, 0.0), (13.0, -7.5), (18.5, -15.0)])
def test_a_centre_within_the_tolerance_costs_nothing_and_beyond_it_weight_per_round(centre, penalty):
    target = PlayTarget(median_rounds=15, players=2, tolerance=0.5)  # half a round either side free, 5 a round beyond
    rounds, winners = np.full(20, centre), np.array([0, 1] * 10)
    assert summarise_games(target, rounds, winners).penalty == pytest.approx(penalty)
    default = PlayTarget(median_rounds=15, players=2)  # no band: 5 a round from the target itself
    assert summarise_games(default, rounds, winners).penalty == pytest.approx(-5 * abs(centre - 15))


def test_bounds_on_the_measures_are_read_recorded_and_cost_limit_weight_per_unit():
    o = objective_from_dict({"play": {"min_drama": 0.25, "max_luck_share": 0.8, "min_choices": 2, "max_choices": 4}})
    target = o.play
    assert target.median_rounds is None and target.measured == {"drama", "luck_share", "choices"}
    assert objective_from_dict({"play": o.settings()["play"]}).play == target  # a checkpoint's record reads back
    rounds, winners = np.full(20, 30.0), np.array([0, 1, 2, 0] * 5)
    readings = {"drama": (0.15, 0.02), "luck_share": (0.9, 0.05), "choices": (3.0, 0.1)}
    s = summarise_games(target, rounds, winners, readings)  # no length target: 30 rounds cost nothing
    # drama 0.10 under and luck 0.10 over, each two standard errors further; choices inside its bounds
    assert s.penalty == pytest.approx(-100 * (0.14 + 0.20))
    assert s.measured == {"drama": 0.15, "luck_share": 0.9, "choices": 3.0}
    assert summarise_games(target, rounds, winners, {**readings, "drama": None}).penalty == pytest.approx(-20.0)
    one = replace(target, bound_margin=1.0)  # a designer's own margin: one standard error
    assert summarise_games(one, rounds, winners, readings).penalty == pytest.approx(-100 * (0.12 + 0.15))


def test_the_game_bank_reads_the_bounded_measures_from_real_games(classic):
    from generator.model import read_tileset
    from generator.optimize.play import game_bank
    from generator.play import default_rules
    from generator.play.simulate import simulate, skill_gap
    from tests.conftest import EXAMPLES

    tiles, rules = read_tileset(EXAMPLES / "best-known.json"), default_rules(classic)
    target = PlayTarget(median_rounds=10, games=60, bounds=(("drama", 0.3, None), ("luck_share", None, 0.5)))
    rounds, winners, readings = game_bank(tiles, classic, rules, target)
    report = simulate(tiles, classic, rules, 3, 60, seed=target.seed, measured=60)
    assert rounds.tolist() == list(report.rounds) and readings["drama"][0] == report.quality.drama.value
    gap = skill_gap(tiles, classic, rules, 3, 60, "explorer", "greedy", target.seed)
    assert readings["luck_share"][0] == pytest.approx(1 - (gap.win_rate - 1 / 3) / (2 / 3))
    assert summarise_games(target, rounds, winners, readings).penalty < summarise_games(target, rounds, winners).penalty
    threaded = game_bank(tiles, classic, rules, target, threads=2)  # the final report's games, on the idle cores
    assert threaded[0].tolist() == rounds.tolist() and threaded[2] == readings


def _problem(classic, target):
    objective = objective_from_dict({"play": target})
    start = random_tileset(classic.tile_count, allowed_designs(objective), np.random.default_rng(3))
    return make_problem(classic, objective, start)


def test_play_is_measured_only_for_candidates_passing_the_static_bar(classic, stubbed):
    problem = _problem(classic, {"median_rounds": 30, "games": 50})
    inner = Search(problem, 7, 2000, 500)
    scorer = PlayScorer(problem, problem.objective.play, None)
    search = PlayAware(inner, scorer)
    classes = start_classes(problem, np.random.default_rng(1))
    s = search.full(classes)
    static = inner.full(classes).fitness
    assert s.fitness == pytest.approx(static + scorer(classes).penalty) and s.fitness < static
    child = classes.copy()
    child[0, 0] = (child[0, 0] + 1) % 39
    games = scorer.games
    ev = search.evaluate(child, s, [(0, 0)], threshold=static + 50)  # no candidate passes this bar
    assert ev.fitness < static + 50 and scorer.games == games  # rejected without playing a game
    screen, margin = scorer.screen(child)  # the first 10 of the bank's 50 games
    assert scorer.games == games + 10 and margin > 0
    bar = inner.evaluate(child).fitness + screen + margin + 0.01  # static passes, play clearly does not
    ev = search.evaluate(child, s, [(0, 0)], threshold=bar)
    assert ev.early and ev.fitness < bar and scorer.games == games + 10  # no more games were played
    ev = search.evaluate(child, s, [(0, 0)], threshold=-1e9)
    assert scorer.games == games + 10 + 50 and ev.fitness == pytest.approx(
        inner.evaluate(child).fitness + scorer(child).penalty
    )
    scored = search.score(child, s, [(0, 0)])
    assert scored.fitness == pytest.approx(ev.fitness)
    assert search.refresh(scored) is scored  # an unchanged candidate keeps its penalty, added once
    search.resize(1000)
    assert search.refresh(scored).fitness == pytest.approx(inner.refresh(scored).fitness + scorer(child).penalty)


def test_the_game_bank_is_redrawn_and_grows_as_the_layout_bank_grows(classic, stubbed):
    problem = _problem(classic, {"median_rounds": 30, "games": 50})
    target = problem.objective.play
    inner = Search(problem, 7, 8000, 500)
    scorer = PlayScorer(problem, target, None)
    search = PlayAware(inner, scorer)
    classes = start_classes(problem, np.random.default_rng(1))
    s = search.full(classes)
    search.resize(700)  # grown less than sqrt(2)-fold: the same games
    first = scorer(classes).penalty
    assert (scorer.epoch, scorer.size) == (0, 50) and search.refresh(s).fitness == pytest.approx(
        inner.refresh(s).fitness + first
    )
    search.resize(1000)  # twice the first size: two redraws, each bank 2**(1/6) times larger
    assert (scorer.epoch, scorer.size) == (2, round(50 * 2 ** (2 / 6))) and not scorer.cache
    bank = stub_bank(to_tileset(problem, classes), classic, None, target, seed=target.seed + 2, games=scorer.size)
    assert len(bank[0]) == 63
    fresh = search.refresh(s)
    assert fresh.fitness == pytest.approx(inner.refresh(s).fitness + summarise_games(target, *bank).penalty)
    assert summarise_games(target, *bank).penalty != pytest.approx(first)  # other games, other luck
    resumed = PlayAware(Search(problem, 7, 8000, 500), PlayScorer(problem, target, None))
    resumed.restore(search.state())  # a checkpoint resumes on the same bank
    assert (resumed.scorer.epoch, resumed.scorer.size) == (2, 63)


def test_optimize_moves_play_towards_the_target_and_records_it(classic, stubbed, dask_client):
    start_rounds = _stub_centre(classic, _problem(classic, {"median_rounds": 30}))
    problem = _problem(classic, {"median_rounds": 30, "weight": -1.0, "games": 40})
    # on the in-process cluster, whose workers see the stand-in (a local cluster's spawned workers would not)
    result = optimize(
        problem, Config(generations=300, seed=1, samples=300, max_samples=1500, rescore=4000), client=dask_client
    )
    assert result.play is not None
    assert abs(result.play.centre - 30) < abs(start_rounds - 30)  # the stand-in rewards dead ends
    assert result.fitness == pytest.approx(result.score.fitness + result.play.penalty)


def stub_bank_with_drama(tileset, board, rules, target, seed=None, engine="fast", games=None, threads=1):
    """The stand-in bank, with a 'drama' that grows with the set's dead ends (a pure function of the tiles)."""
    rounds, winners = stub_bank(tileset, board, rules, target, seed, engine, games)
    stubs = sum(len(side.stubs) for side in tileset.sides())
    return rounds, winners, {"drama": (stubs / 200, 0.01)}


def test_optimize_meets_a_bound_on_a_measure_and_reports_it_on_fresh_games(classic, monkeypatch, dask_client):
    monkeypatch.setattr(play_module, "game_bank", stub_bank_with_drama)
    problem = _problem(classic, {"min_drama": 0.4, "games": 40})
    start = stub_bank_with_drama(problem.start, classic, None, problem.objective.play)[2]["drama"][0]
    assert start < 0.4
    result = optimize(
        problem, Config(generations=300, seed=1, samples=300, max_samples=1500, rescore=4000), client=dask_client
    )
    assert result.play.measured["drama"] >= 0.4 + 0.02 - 1e-9  # two standard errors clear
    assert result.play.penalty == pytest.approx(0.0)
    from generator.scoring.play_target import bound_verdicts

    assert result.play.measured_se["drama"] == 0.01
    assert bound_verdicts(problem.objective.play, result.play) == {"drama": "met"}  # shown by a test, not just read


def _stub_centre(classic, problem):
    tiles = to_tileset(problem, start_classes(problem, np.random.default_rng(1)))
    return summarise_games(problem.objective.play, *stub_bank(tiles, classic, None, problem.objective.play)).centre


def test_a_checkpoint_keeps_the_objective_with_and_without_play(classic):
    from generator.optimize.checkpoint import _objective_data

    for table in (None, {"median_rounds": 12, "games": 50}):
        problem = (
            _problem(classic, table)
            if table
            else make_problem(classic, ARTICLE, _problem(classic, {"median_rounds": 1}).start)
        )
        assert objective_from_dict(_objective_data(problem)) == problem.objective


def test_chains_are_ranked_on_more_games_than_the_report_reads_and_fewer_on_larger_boards(classic, monkeypatch):
    from generator.board import load_board

    target = PlayTarget(median_rounds=12, players=3)
    counts = [play_module.ranking_games(target, slots) for slots in (7, 20, 37, 91, 217, 10_000)]
    assert counts[:2] == [20_000, 20_000] and counts[-2:] == [2000, 2000]  # never below the report's 2,000
    assert counts == sorted(counts, reverse=True)
    assert play_module.ranking_games(replace(target, games=50_000), 217) == 50_000  # nor below the target's own
    played = []
    monkeypatch.setattr(play_module, "game_bank", lambda *a, games=None, **k: played.append(games) or stub_bank(*a))
    for board in (classic, load_board("hexagon91")):
        problem = _problem(board, {"median_rounds": 12})
        play_module.final_play(problem, problem.start, 1, ranking=True)
        play_module.final_play(problem, problem.start, 1)
    assert played == [20_000, 2000, 4395, 2000]


def test_the_games_after_the_chains_are_reserved_at_the_start_sets_pace(classic, monkeypatch):
    import time

    from generator.optimize.play import after_chains_seconds, fresh_games, ranking_games

    def slow_bank(tileset, board, rules, target, seed=None, engine="fast", games=None, threads=1):
        time.sleep(games * 0.0001)  # 0.1 ms a game
        return stub_bank(tileset, board, rules, target, seed, engine, games, threads)

    monkeypatch.setattr(play_module, "game_bank", slow_bank)
    problem = _problem(classic, {"median_rounds": 12})
    target = problem.objective.play
    static = make_problem(classic, ARTICLE, problem.start)
    assert after_chains_seconds(static, 4, 2, 2) == 0.0  # no [play] target: no games
    one = after_chains_seconds(problem, 1, 2, 2)  # one chain: no choice, the winner's games on 2 threads
    assert one == pytest.approx(0.0001 * fresh_games(target) / 2, rel=0.5)
    four = after_chains_seconds(problem, 4, 2, 2)  # two waves of two chains' ranking games before that
    assert four - one == pytest.approx(0.0001 * 2 * ranking_games(target, classic.tile_count), rel=0.5)
