"""Running a search: chains on a Dask cluster, island migrations, the winner and its re-score.

Glossary
--------
run         ``chains`` chains of one strategy from the same start, each with its own random
            stream and bank, as Dask tasks (``cluster.run_leg``). With more chains than workers
            they queue; with a time budget each chain then gets ``time / waves`` seconds, where
            a wave is as many chains as there are workers.
island      with ``migrate`` seconds, the chains stop together every ``migrate`` seconds (a leg);
            their bests are scored on shared fresh layouts and the best of them restarts the
            worst chain. Without it the chains are independent: one leg.
cooperate   with ``exchanges`` E, the chains run alone for the first half of the budget, then E more legs;
            between two legs they are resampled by their bests' fitness on shared fresh layouts
            (population annealing: ``optimize.cooperate``).
winner      each chain's best scored on the same fresh layouts (``timing.samples``); the best wins.
re-score    the winner's fitness on ``rescore`` fresh layouts (1,000,000 by default; fewer when a short
            budget cannot buy them, ``timing.samples``) from a seed the search never used; the figure
            reported and written out (never the noisy score it was selected on).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator import __version__
from generator.model import TileSet
from generator.optimize import cluster, timing
from generator.optimize.chain import Budget, Chain, Config, Progress, check_workers, config_strategy
from generator.optimize.ending import final_seed, finish
from generator.optimize.legs import Legs, Migrant, reported
from generator.optimize.play import final_play, fresh_games
from generator.optimize.polish import Step
from generator.optimize.space import Problem, SettingError, to_tileset
from generator.optimize.timing import (
    MIN_LEFT,
    Samples,
    check_budget,
    in_process,
    reserve,
    samples,
    teardown,
)
from generator.scoring import Score
from generator.scoring.holes import unavailable
from generator.scoring.layouts import derived_seed
from generator.scoring.play_target import PlayScore, PlayTarget
from generator.scoring.stream import available_cores


@dataclass(frozen=True)
class Result:
    """The outcome: the tile set, its re-score, and how the search went."""

    tileset: TileSet
    score: Score
    fitness: float  # the re-scored fitness (Objective.fitness, with any pair-target penalty)
    search_fitness: float  # the winner's fitness on its own bank (optimistic)
    chains: tuple[Chain, ...]
    winner: int
    seconds: float
    stopped: bool  # interrupted before the budget was spent
    startup: float  # seconds from the call to the first progress report of a chain
    selection: float  # seconds to pick the winner (chains' bests scored on shared fresh layouts)
    rescoring: float  # seconds to re-score the winner
    migrants: tuple[Migrant, ...] = ()
    play: PlayScore | None = None  # the winner's score on fresh games, when the objective has a [play] target
    play_target: PlayTarget | None = None  # that target
    polished: tuple[Step, ...] = ()  # what the final polish changed, in order
    polishing: float = 0.0  # seconds of the final polish
    samples: Samples | None = None  # the layouts of the choice of the winner and the re-score, sized to the budget


rescore = cluster.rescore


def probe_seed(seed: int) -> int:
    """The layouts that time the re-score's pace before a run on the command's threads (``_pace``)."""
    return derived_seed(seed, 6)


def _polish_designs(problem: Problem, config: Config) -> np.ndarray | None:
    """The designs whose holes the polish will fill, to warm them with the kernel (none without a polish, or on
    tiles whose holes do not apply: that polish scores each neighbour with the search's kernels)."""
    if not (config.polish or config.polish_share) or unavailable(problem.board.geometry) is not None:
        return None
    return problem.space.tables


def kernel_groups(problem: Problem, config: Config) -> list[str]:
    """The compiled kernels the run uses (``generator.warm.GROUPS``): scoring and the search's, the polish's, and
    with a [play] target the play engine and its measures."""
    return (
        ["scoring", "search"]
        + (["polish"] if _polish_designs(problem, config) is not None else [])
        + (["play", "measures"] if problem.objective.play is not None else [])
    )


def plan(config: Config, workers: int, left: float | None = None, spent: float = 0.0) -> tuple[Budget, int]:
    """Each chain's budget and the number of legs, for a cluster of ``workers``. ``left``: the seconds of the
    time budget still to spend on the chains and the polish (default: all of it); ``spent``: the seconds the
    chains have run already (a resumed run's), which their budget includes."""
    waves = math.ceil(config.chains / workers)
    seconds = None
    if config.time is not None:
        share = 1 - config.polish_share
        whole = config.time * share / waves
        seconds = whole if left is None else min(whole, spent + max(left, MIN_LEFT) * share / waves)
    budget = Budget(seconds, config.generations, config_strategy(config).time_warp)
    if config.exchanges:
        return budget, config.exchanges + 1
    legs = 1 if config.migrate is None or seconds is None else max(1, round(seconds / config.migrate))
    return budget, legs


def optimize(
    problem: Problem,
    config: Config,
    chains: list[Chain | None] | None = None,
    *,
    migrants: tuple[Migrant, ...] = (),
    stop: threading.Event | None = None,
    client=None,
    scheduler: str | None = None,
    workers: int | None = None,
    on_progress: Callable[[Progress], None] = lambda p: None,
    on_checkpoint: Callable[[list, list], None] = lambda c, m: None,
    on_stage: Callable[[str], None] = lambda s: None,
    began: float | None = None,
) -> Result:
    """Search on a Dask cluster (``client``, or one at ``scheduler``, or a local one of ``workers``), pick the
    best chain, and re-score the winner on fresh layouts. ``on_stage(text)`` says what the run does once the
    chains have stopped (the choice of the winner, each round and step of a polish, the re-score).

    A time budget is wall time from ``began`` (a ``time.perf_counter()`` time, default now: a command passes its
    own start), the cluster's start-up, the choice of the winner, the polish and the re-score included; only a
    first compile of the kernels (a cold cache, see ``generator.warm``) is not counted."""
    check_settings(problem, config)
    check_workers(workers)
    began = time.perf_counter() if began is None else began
    strategy = config_strategy(config)
    chains = list(chains) if chains is not None else [None] * config.chains
    stop = stop or threading.Event()
    hooks = Hooks(on_progress, on_checkpoint, on_stage)
    if client is not None:
        return _optimize(client, problem, strategy, config, chains, migrants, stop, hooks, began)
    if not scheduler:  # a local cluster: a cold kernel is compiled here once; its workers load it from the cache
        began += _compiled_first(problem, config)
    with cluster.connect(scheduler, workers, in_process(scheduler, config.time)) as own:
        return _optimize(
            own,
            problem,
            strategy,
            config,
            chains,
            migrants,
            stop,
            hooks,
            began,
            teardown(scheduler, config.time),
            local=not scheduler,
        )


def _compiled_first(problem: Problem, config: Config) -> float:
    """Compile the kernels the run uses that are cold (``generator.warm``) here, before its clock, and return the
    seconds that took (not search time). Nothing is loaded when all are cached: the chains load the search's kernels
    as they first call them, on the command's threads or in each worker (``cluster.warm_workers``), so that the
    first generation starts at once (loading every kernel first took 0.27 s of a hex-pairs --time 10's start-up,
    its first generation at 1.06 s)."""
    from generator.scoring import warm_up
    from generator.warm import is_cold

    classic = problem.board.geometry.is_classic
    if not any(is_cold(group, classic) for group in kernel_groups(problem, config)):
        return 0.0
    compiling = time.perf_counter()
    warm_up(problem.board, _polish_designs(problem, config))
    return time.perf_counter() - compiling


def check_settings(problem: Problem, config: Config) -> None:
    """A setting error, in one line, for settings this problem cannot take: a polish for a [play] target. (A
    polish on tiles whose holes do not apply, ``holes.unavailable``, screens by scoring each neighbour instead.)"""
    if (config.polish or config.polish_share) and problem.objective.play is not None:
        raise SettingError(
            "polish" if config.polish else "polish_share",
            "judges static fitness only and cannot polish for a [play] target: a play penalty's noise, about 0.25 "
            "on 20,000 games of the classic board, is fifty times the gains a polish looks for",
        )


@dataclass(frozen=True)
class Hooks:
    """What ``optimize`` tells its caller: each chain's progress, each checkpoint, and each stage after the chains."""

    progress: Callable[[Progress], None]
    checkpoint: Callable[[list, list], None]
    stage: Callable[[str], None]


def _optimize(
    client,
    problem,
    strategy,
    config,
    chains,
    migrants,
    stop,
    hooks: Hooks,
    began: float,
    teardown: float = 0.0,
    local: bool = False,
) -> Result:
    """``optimize`` on ``client``; ``teardown``: the seconds to set aside for stopping the cluster afterwards;
    ``local``: its workers run on this machine (the command's own cluster), so a timed run sets its reserve aside at
    the pace of this process's scoring (``_pace``)."""
    cluster.warm_workers(client, problem.board, _polish_designs(problem, config))
    workers = cluster.worker_count(client)
    check_budget(problem, config.time, config.rescore, config.chains, workers, teardown, time.perf_counter() - began)
    sizes = samples(problem, config.time, config.rescore, config.chains, workers)
    deadline = None if config.time is None else began + config.time
    pace = _pace(problem, config.seed) if local and deadline is not None else None
    after = reserve(problem, sizes, config.chains, workers, pace) + teardown
    left = None if deadline is None else deadline - time.perf_counter() - after
    spent = max((c.elapsed for c in chains if c is not None), default=0.0)
    budget, legs = plan(config, workers, left, spent)
    run = Legs(client, problem, strategy, config, chains, migrants)
    try:
        stopped = _run_legs(run, budget, legs, stop, hooks)
        finished = reported(run.chains)
        end = None if deadline is None else deadline - teardown
        ending = finish(client, problem, strategy, config, finished, sizes, stop, hooks.stage, end, workers)
        startup = (run.first_report or ending.picked) - began
    finally:
        run.close()
    tileset = to_tileset(problem, ending.classes)
    spent = all(budget.progress(c.elapsed, c.generation) >= 1.0 for c in finished)
    play = final_play(problem, tileset, final_seed(config.seed), threads=available_cores())  # the workers are idle
    fitness = ending.report.fitness + (play.penalty if play else 0.0)
    return Result(
        tileset,
        ending.report,
        fitness,
        ending.best.fitness,
        tuple(finished),
        ending.winner,
        time.perf_counter() - began,
        stopped and not spent,
        startup,
        ending.selection,
        ending.rescoring,
        tuple(run.migrants),
        play,
        problem.objective.play,
        ending.polished,
        ending.polishing,
        sizes,
    )


def _run_legs(run: Legs, budget: Budget, legs: int, stop: threading.Event, hooks: Hooks) -> bool:
    """Every chain's legs from the one it stands at, the chains migrating before each later leg (unless a resumed
    run decided that leg's migrants already); returns whether the run was stopped."""
    first = min((c.leg for c in run.chains if c is not None), default=0)
    for leg in range(first, legs):
        if leg > 0 and not any(k == leg for k, _, _ in run.migrants):  # not decided before a resume
            run.migrate(leg)
        if run.leg(budget, leg, legs, stop, hooks.progress, hooks.checkpoint):
            return True
    return False


def _pace(problem: Problem, seed: int) -> float:
    """Seconds a layout of the re-score takes in this process: ``timing.PROBE_LAYOUTS`` of the start timed once its
    kernel is loaded (the command's own cluster scores on this machine: on its threads, or in worker processes
    that start meanwhile)."""
    rescore(problem, problem.start, 2, probe_seed(seed))
    began = time.perf_counter()
    rescore(problem, problem.start, timing.PROBE_LAYOUTS, probe_seed(seed))
    return (time.perf_counter() - began) / timing.PROBE_LAYOUTS


def meta(problem: Problem, config: Config, result: Result, init: str | None, board: str) -> dict:
    """The ``meta`` block of the output: how the tile set was made and what it scores (``publish`` reads
    the score back instead of scoring again; see ``generator.scoring.figures``)."""
    from dataclasses import asdict

    from generator.scoring.figures import score_record

    chains = result.chains
    s = result.score
    return {
        "made_by": "trailwright optimize",
        "version": __version__,
        "seed": config.seed,
        "settings": {
            **{k: v for k, v in asdict(config).items() if k != "checkpoint_every"},
            "board": board,
            "init": init,
            "pinned": [problem.start.tiles[t].id for t in problem.pinned],
            "objective": problem.objective.settings(),
        },
        "search": {
            "generations": [c.generation for c in chains],
            "evaluations": sum(c.search_state["evaluations"] for c in chains),
            "winner_chain": result.winner,
            "migrations": len(result.migrants),
            "search_fitness": round(result.search_fitness, 6),
            "polish": [
                {"change": p.change, "gain": round(p.gain, 6), "gain_se": round(p.gain_se, 6)} for p in result.polished
            ],
        },
        "score": score_record(s, result.fitness, result.tileset, problem.board),
        **(
            {"play": {**asdict(result.play), "games": fresh_games(result.play_target), "seed": final_seed(config.seed)}}
            if result.play is not None and result.play_target is not None
            else {}
        ),
    }
