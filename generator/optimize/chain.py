"""One chain of a search: its settings, its budget, its snapshot as plain data, and the loop that runs it.

Glossary
--------
chain       one independent run of a strategy from the start, with its own random stream and bank,
            both drawn from (seed, chain index) only, never from where or beside what it runs.
generation  one ``step`` of a strategy. A budget is seconds (``time``), generations, or both.
leg         the part of a chain between two migrations (island mode); without migration a chain
            is one leg. A leg ends when the chain's progress reaches its ``until`` (0..1].
snapshot    a ``Chain``: the state, the random generator and the evaluator's cache as JSON-ready
            data. A chain continued from a snapshot continues exactly where it stopped.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from generator.optimize.play import play_aware
from generator.optimize.search import Evaluator, Scored
from generator.optimize.space import Classes, Problem, SettingError, start_classes
from generator.optimize.strategies import Strategy, dump_state, load_state, strategy_named

RESCORE_SAMPLES = 1_000_000  # fresh layouts of the reported score: standard error about 0.002
# the largest value of each count, and why: past these a run would not fit in memory, or would not end today
LIMITS = {
    "samples": (10_000_000, "a chain keeps its layouts in memory"),
    "max_samples": (10_000_000, "a chain keeps its layouts in memory"),
    "rescore": (100_000_000, "the re-score keeps every layout's terms in memory"),
    "polish": (1_000_000, "the polish confirms on ten times as many layouts, kept in memory"),
    "chains": (1_024, "each chain is a task holding its own bank"),
    "exchanges": (1_000, "each exchange scores every chain's best on fresh layouts"),
}
MAX_WORKERS = 256  # local worker processes: each is a Python process of its own


def check_workers(workers: int | None) -> None:
    """A setting error for a local cluster of more worker processes than ``MAX_WORKERS`` (or none)."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise SettingError("workers", f"{workers:,} local worker processes; from 1 to {MAX_WORKERS}")


@dataclass(frozen=True)
class Config:
    """The settings of one optimisation (recorded in the output's ``meta`` and the checkpoint)."""

    strategy: str = "anneal"
    preset: str | None = None
    time: float | None = None  # seconds of search, wall clock
    generations: int | None = None  # generations of each chain
    samples: int | None = None  # layouts: the starting bank, or per evaluation for fresh scoring
    max_samples: int | None = None  # the largest bank (default 120,000)
    seed: int = 0
    chains: int = 1
    migrate: float | None = None  # seconds between migrations (island mode); None: independent chains
    exchanges: int = 0  # times the chains cooperate (population annealing, see optimize.cooperate); 0: none
    rescore: int = RESCORE_SAMPLES
    checkpoint_every: float = 5.0
    polish: int = 0  # layouts of the polish's screen (0: none, or run.timed_screen with a share; optimize.polish)
    polish_share: float = 0.0  # the share of the time budget the final polish gets (0: polish while it gains)

    def __post_init__(self):
        if self.time is None and self.generations is None:
            raise SettingError("budget", "give a time (seconds) or a number of generations")
        for name, zero in (("time", False), ("migrate", False), ("checkpoint_every", True)):  # zero: 0 allowed
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and (value >= 0 if zero else value > 0)):
                least = "at least" if zero else "above"
                raise SettingError(name, f"must be a finite number of seconds {least} 0, not {value}")
        for name, (most, why) in LIMITS.items():
            value = getattr(self, name)
            if value is not None and value > most:
                raise SettingError(name, f"{value:,} is more than {most:,}: {why}")
        if self.chains < 1:
            raise SettingError("chains", f"must be at least 1, not {self.chains}")
        if not (math.isfinite(self.polish_share) and 0 <= self.polish_share < 1):
            raise SettingError(
                "polish_share", f"must be a share from 0 up to (not including) 1, not {self.polish_share}"
            )
        if self.polish_share and self.time is None:
            raise SettingError("polish_share", "needs a time budget (it is a share of the seconds)")
        if self.migrate is not None and self.time is None:
            raise SettingError("migrate", "needs a time budget (migrations are every so many seconds)")
        if self.exchanges and self.migrate is not None:
            raise SettingError("exchanges", "cannot be combined with island migrations")
        if self.exchanges and self.chains < 2:
            raise SettingError("exchanges", "needs at least 2 chains to cooperate")


@dataclass(frozen=True)
class Budget:
    """One chain's budget: seconds of its own clock, generations, or both (whichever ends first). ``warp``: how
    many times the last generation of the schedule costs the first; a time budget then spends its seconds as a
    generation budget would (``at``; 1: progress in step with the clock)."""

    time: float | None
    generations: int | None
    warp: float = 1.0

    def progress(self, elapsed: float, generation: int) -> float:
        """How far the chain is, from 0 to 1 (or more)."""
        done = [0.0]
        if self.generations is not None:
            done.append(generation / self.generations)
        if self.time is not None:
            done.append(self.at(elapsed / self.time))
        return max(done)

    def at(self, share: float) -> float:
        """The progress once ``share`` of the time is spent: ``log(1 + share (warp - 1)) / log(warp)``. A
        generation budget spends its time so, when a generation at progress p costs ``warp ** p`` times the first
        (the bank grows): late, cold, precise generations get most of the clock."""
        if share <= 0 or self.warp <= 1:
            return max(share, 0.0)
        return math.log1p(share * (self.warp - 1)) / math.log(self.warp)


@dataclass(frozen=True)
class HistoryPoint:
    """A change of a chain's best fitness (on its bank)."""

    seconds: float
    generation: int
    evaluations: int
    bank: int
    best: float


@dataclass(frozen=True)
class Chain:
    """A chain's snapshot: everything needed to continue it, as JSON-ready data."""

    index: int
    leg: int
    generation: int
    elapsed: float
    rng_state: Mapping[str, Any]  # numpy's bit_generator.state
    state: dict  # ``dump_state`` of the strategy's state
    search_state: dict  # the evaluator's ``state()``
    start_fitness: float
    history: tuple[HistoryPoint, ...] = ()

    def to_data(self) -> dict:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict) -> Chain:
        return cls(**{**data, "history": tuple(HistoryPoint(**h) for h in data["history"])})


@dataclass(frozen=True)
class Progress:
    """What the display shows of one chain."""

    chain: int
    generation: int
    elapsed: float
    evaluations: int
    layouts: int
    bank: int
    best: float
    bridges: int
    dup_score: int
    fully_connected: int
    extra_edges: float | None
    pairs_joined: float | None


def config_strategy(config: Config) -> Strategy:
    """The strategy a run's settings name (resolved once per run)."""
    return strategy_named(config.strategy, config.preset, config.samples, config.max_samples)


def chain_seeds(seed: int, index: int) -> tuple[np.random.Generator, int]:
    """A chain's random generator and bank seed, independent of every other stream of the run."""
    ss = np.random.SeedSequence([seed, 1, index])
    return np.random.default_rng(ss), int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def chain_best(strategy: Strategy, chain: Chain) -> Scored:
    """The best candidate a chain holds, with its fitness on its bank."""
    return strategy.best(load_state(strategy.state_type, chain.state))


def _progress(search: Evaluator, index: int, generation: int, elapsed: float, best: Scored) -> Progress:
    bridges, dup, fully = search.problem.space.static_counts(best.classes)
    extra = joined = None
    if best.sums is not None:
        extra, joined = best.sums[0] / best.size, best.sums[1] / best.size
    c = search.counters
    return Progress(
        index,
        generation,
        elapsed,
        c.evaluations,
        c.layouts,
        search.size,
        best.fitness,
        bridges,
        dup,
        fully,
        extra,
        joined,
    )


def _opened(problem: Problem, strategy: Strategy, seed: int, index: int, chain: Chain | None):
    """Chain ``index``'s random generator, evaluator and strategy state: fresh, or where its snapshot left them."""
    rng, bank_seed = chain_seeds(seed, index)
    search = play_aware(strategy.evaluator(problem, bank_seed), problem)
    if chain is None:
        return rng, search, strategy.start(search, start_classes(problem, rng), rng)
    rng.bit_generator.state = chain.rng_state
    search.restore(chain.search_state)
    return rng, search, load_state(strategy.state_type, chain.state)


def _point(search: Evaluator, elapsed: float, generation: int, best: Scored) -> HistoryPoint:
    """The history point of a chain whose best is ``best`` after ``generation`` generations."""
    return HistoryPoint(round(elapsed, 3), generation, search.counters.evaluations, search.size, best.fitness)


@dataclass
class _Walk:
    """A chain as it runs: its random generator, evaluator and strategy state, and what its snapshot records."""

    index: int
    leg: int
    rng: np.random.Generator
    search: Evaluator
    state: Any
    generation: int
    start_fitness: float
    history: list[HistoryPoint]

    def snapshot(self, seconds: float) -> Chain:
        """The chain as it stands after ``seconds`` of search."""
        return Chain(
            self.index,
            self.leg,
            self.generation,
            seconds,
            self.rng.bit_generator.state,
            dump_state(self.state),
            self.search.state(),
            self.start_fitness,
            tuple(self.history),
        )


def _walk(problem, strategy, seed, index, chain, leg, migrant) -> tuple[_Walk, float]:
    """Chain ``index`` fresh, or where its snapshot ``chain`` left it (in its own leg, if ahead of ``leg``: never a
    leg back), restarted from ``migrant`` when it enters leg ``leg``; and its seconds of search so far."""
    rng, search, state = _opened(problem, strategy, seed, index, chain)
    start_fitness = strategy.best(state).fitness if chain is None else chain.start_fitness  # before any migrant
    if migrant is not None and (chain is None or chain.leg < leg):
        state = strategy.start(search, migrant, rng)
    if chain is None:
        return _Walk(index, leg, rng, search, state, 0, start_fitness, []), 0.0
    ahead = max(leg, chain.leg)
    walk = _Walk(index, ahead, rng, search, state, chain.generation, start_fitness, list(chain.history))
    return walk, chain.elapsed


def run_chain(
    problem: Problem,
    strategy: Strategy,
    budget: Budget,
    seed: int,
    index: int,
    chain: Chain | None,
    should_stop: Callable[[], bool],
    emit: Callable[[str, object], None],
    *,
    until: float = 1.0,
    leg: int = 0,
    migrant: Classes | None = None,
    report_every: float = 0.5,
    snapshot_every: float = 5.0,
) -> Chain:
    """Run (or continue) chain ``index`` until its progress reaches ``until`` or ``should_stop()``.

    ``emit("progress", Progress)`` every ``report_every`` seconds and ``emit("snapshot", Chain)``
    every ``snapshot_every`` seconds; the final snapshot is returned. A ``migrant`` (island mode)
    restarts the strategy from those designs when the chain enters leg ``leg``.
    """
    walk, elapsed = _walk(problem, strategy, seed, index, chain, leg, migrant)
    began = time.perf_counter() - elapsed
    best = strategy.best(walk.state)
    last_best = walk.history[-1].best if walk.history else best.fitness
    emit("progress", _progress(walk.search, index, walk.generation, elapsed, best))
    last_report = last_snapshot = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - began
        progress = budget.progress(elapsed, walk.generation)
        if progress >= until or should_stop():
            break
        walk.state = strategy.step(walk.search, walk.state, walk.rng, progress)
        walk.generation += 1
        best = strategy.best(walk.state)
        if best.fitness != last_best:
            last_best = best.fitness
            walk.history.append(_point(walk.search, elapsed, walk.generation, best))
        now = time.perf_counter()
        if now - last_report >= report_every:
            last_report = now
            emit("progress", _progress(walk.search, index, walk.generation, now - began, best))
        if now - last_snapshot >= snapshot_every:
            last_snapshot = now
            emit("snapshot", walk.snapshot(now - began))
    if not walk.history or walk.history[-1].generation != walk.generation:
        walk.history.append(_point(walk.search, elapsed, walk.generation, best))
    emit("progress", _progress(walk.search, index, walk.generation, elapsed, best))
    return walk.snapshot(elapsed)


__all__ = [
    "Budget",
    "Chain",
    "Config",
    "HistoryPoint",
    "Progress",
    "RESCORE_SAMPLES",
    "chain_best",
    "chain_seeds",
    "config_strategy",
    "run_chain",
]
