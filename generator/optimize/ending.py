"""What a run does once its chains stop: the winner chosen among the chains' bests on shared fresh layouts,
polished (``config.polish``, or its share of the time) and re-scored on fresh layouts of its own.

Each stage draws its layouts from a seed of its own, derived from the run's (``derived_seed``), so that no stage
reuses another's layouts or a chain's bank.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator.optimize import cluster, timing
from generator.optimize.chain import Chain, Config, chain_best
from generator.optimize.legs import scores
from generator.optimize.polish import Step, on_cluster, polish
from generator.optimize.search import Scored
from generator.optimize.space import Problem, to_tileset
from generator.optimize.strategies import Strategy
from generator.optimize.timing import TIMED_SECONDS, Samples, timed_screen
from generator.scoring import Score
from generator.scoring.layouts import derived_seed


def selection_seed(seed: int) -> int:
    """The layouts that pick the best chain (disjoint from every bank)."""
    return derived_seed(seed, 2)


def final_seed(seed: int) -> int:
    """The fresh layouts of the final re-score (disjoint from every bank and the selection)."""
    return derived_seed(seed, 3)


def polish_seed(seed: int) -> int:
    """The seed of the final polish's banks (its rounds add to it; disjoint from the re-score's)."""
    return derived_seed(seed, 5)


@dataclass(frozen=True)
class Ending:
    """What a run does once its chains stop: the winner chosen, polished and re-scored, and when and how long."""

    picked: float  # the ``time.perf_counter()`` time the chains had stopped
    winner: int
    best: Scored
    classes: np.ndarray
    polished: tuple[Step, ...]
    report: Score
    selection: float  # seconds choosing the winner
    polishing: float
    rescoring: float


def finish(
    client,
    problem: Problem,
    strategy: Strategy,
    config: Config,
    finished: list[Chain],
    sizes: Samples,
    stop: threading.Event,
    on_stage: Callable[[str], None],
    end: float | None,
    workers: int,
) -> Ending:
    """The winner of ``finished`` on fresh layouts, polished until the re-score's paced time before ``end`` (a
    ``time.perf_counter()`` time, the deadline less the teardown; None: untimed), and re-scored."""
    picked = time.perf_counter()
    if len(finished) > 1:
        on_stage(f"choosing the winner: each chain's best on {sizes.selection:,} fresh layouts")
    winner, best = _best_of(client, problem, strategy, config, finished, sizes.selection)
    selection = time.perf_counter() - picked
    if end is not None:
        end -= timing.rescoring(problem, sizes.rescore, selection, len(finished), workers, sizes.selection)
    classes, polished = _polished(client, problem, config, best.classes, stop, on_stage, end)
    polishing = time.perf_counter() - picked - selection
    on_stage(f"re-scoring the winner on {sizes.rescore:,} fresh layouts")
    report = client.submit(
        cluster.score_task, problem, classes.tolist(), sizes.rescore, final_seed(config.seed), pure=False
    ).result()
    rescoring = time.perf_counter() - picked - selection - polishing
    return Ending(picked, winner, best, classes, polished, report, selection, polishing, rescoring)


def _polished(
    client, problem: Problem, config: Config, classes, stop, on_stage, end: float | None = None
) -> tuple[np.ndarray, tuple[Step, ...]]:
    """The winner after the final polish over every worker (``config.polish``, or its share of the time, until
    ``end``, a ``time.perf_counter()`` time; none: the winner as it is)."""
    timed = config.polish_share > 0 and config.time is not None
    if not (config.polish or timed):
        return classes, ()
    seconds = None
    if timed and config.time:
        seconds = config.time * config.polish_share if end is None else end - time.perf_counter()
    n = config.polish or timed_screen(TIMED_SECONDS if seconds is None else max(seconds, 0.0))
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = polish(
        problem,
        to_tileset(problem, classes),
        n,
        polish_seed(config.seed),
        on_cluster(client),
        cluster.worker_count(client),
        on_step=lambda s: on_stage(f"polish: took {s.change} ({s.gain:+.4f} ± {s.gain_se:.4f})"),
        stop=stop,
        on_round=lambda k: on_stage(f"polish round {k}: screening every neighbour on {n:,} layouts"),
        rounds=1_000 if deadline else 8,
        deadline=deadline,
    )
    return done.classes, done.steps


def _best_of(
    client, problem: Problem, strategy: Strategy, config: Config, chains: list[Chain], layouts: int
) -> tuple[int, Scored]:
    """The winning chain and its best candidate (several chains: the best on ``layouts`` shared fresh layouts)."""
    bests = [chain_best(strategy, chain) for chain in chains]
    if len(bests) == 1:
        return 0, bests[0]
    values = scores(client, problem, bests, layouts, selection_seed(config.seed))
    winner = int(np.argmax(values))
    return winner, bests[winner]
