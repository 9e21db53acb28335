"""Running a search: chains, budgets, worker processes, checkpoints and the final re-score.

Glossary
--------
chain       one independent run of a strategy from the start, with its own random stream and bank.
            ``workers`` chains run side by side, one per process; the best of them wins.
generation  one ``step`` of a strategy. A budget is seconds (``time``), generations, or both.
checkpoint  every chain's state, random generator and cache, written atomically every few seconds.
            A chain resumed from it continues exactly where it stopped, so a run interrupted and
            resumed gives the same result as one uninterrupted run with the same generation budget.
re-score    the winner's fitness on ``rescore`` fresh layouts (1,000,000 by default) from a seed the
            search never used; the figure reported and written out (never the noisy score it was
            selected on).
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import queue
import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from generator import __version__
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.optimize.search import Scored
from generator.optimize.space import Problem, SettingError, start_classes, static_counts, to_tileset
from generator.optimize.strategies import Strategy, strategy_named
from generator.scoring import Score, layout_scores, summarise, warm_up

CHECKPOINT_FORMAT = "trailwright-checkpoint/1"
SELECTION_SAMPLES = 500_000  # shared fresh layouts that pick the best chain
RESCORE_SAMPLES = 1_000_000  # fresh layouts of the reported score: standard error about 0.002


@dataclass(frozen=True)
class Config:
    """The settings of one optimisation (recorded in the output's ``meta`` and the checkpoint)."""

    strategy: str = "anneal"
    preset: str | None = None
    time: float | None = None  # seconds of search
    generations: int | None = None  # generations of each chain
    samples: int | None = None  # layouts: the starting bank, or per evaluation for fresh scoring
    max_samples: int | None = None  # the largest bank (default 120,000)
    seed: int = 0
    workers: int = 1
    rescore: int = RESCORE_SAMPLES
    checkpoint_every: float = 5.0

    def __post_init__(self):
        if self.time is None and self.generations is None:
            raise SettingError("budget", "give a time (seconds) or a number of generations")


@dataclass(frozen=True)
class HistoryPoint:
    """A change of a chain's best fitness (on its bank)."""

    seconds: float
    generation: int
    evaluations: int
    bank: int
    best: float


@dataclass
class Chain:
    """One chain's progress: everything needed to continue it."""

    index: int
    generation: int
    elapsed: float
    rng_state: dict
    state: object
    search_state: dict
    start_fitness: float
    history: list[HistoryPoint] = field(default_factory=list)


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


@dataclass(frozen=True)
class Result:
    """The outcome: the tile set, its re-score, and how the search went."""

    tileset: TileSet
    score: Score
    fitness: float  # the re-scored fitness, with any pair-target penalty
    search_fitness: float  # the winner's fitness on its own bank (optimistic)
    chains: tuple[Chain, ...]
    winner: int
    seconds: float


def chain_seeds(seed: int, index: int) -> tuple[np.random.Generator, int]:
    """A chain's random generator and bank seed, independent of every other stream of the run."""
    ss = np.random.SeedSequence([seed, 1, index])
    return np.random.default_rng(ss), int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


def _stream_seed(seed: int, purpose: int) -> int:
    return int(np.random.SeedSequence([seed, purpose]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def selection_seed(seed: int) -> int:
    """The layouts that pick the best chain (disjoint from every bank)."""
    return _stream_seed(seed, 2)


def final_seed(seed: int) -> int:
    """The fresh layouts of the final re-score (disjoint from every bank and the selection)."""
    return _stream_seed(seed, 3)


def _progress(search, chain: Chain, best: Scored) -> Progress:
    bridges, dup, fully = static_counts(best.classes)
    extra = joined = None
    if best.sums is not None:
        extra, joined = best.sums[0] / best.size, best.sums[1] / best.size
    return Progress(chain.index, chain.generation, chain.elapsed, search.counters.evaluations,
                    search.counters.layouts, search.size, best.fitness, bridges, dup, fully, extra, joined)


def config_strategy(config: Config) -> Strategy:
    """The strategy a run's settings name (resolved once per run)."""
    return strategy_named(config.strategy, config.preset, config.samples, config.max_samples)


def run_chain(problem: Problem, strategy: Strategy, config: Config, index: int, chain: Chain | None,
              should_stop: Callable[[], bool], emit: Callable[[str, Chain, Progress], None],
              report_every: float = 0.5) -> Chain:
    """Run (or continue) chain ``index`` until its budget is spent or ``should_stop()``."""
    rng, bank_seed = chain_seeds(config.seed, index)
    search = strategy.evaluator(problem, bank_seed)
    if chain is None:
        state = strategy.start(search, start_classes(problem, rng), rng)
        start = strategy.best(state).fitness
        chain = Chain(index, 0, 0.0, rng.bit_generator.state, state, search.state(), start)
    else:
        rng.bit_generator.state = chain.rng_state
        search.restore(chain.search_state)
        state = chain.state
    began = time.perf_counter() - chain.elapsed
    best = strategy.best(state)
    last_best = best.fitness if not chain.history else chain.history[-1].best
    last_report = last_checkpoint = time.perf_counter()

    def snapshot() -> Chain:
        chain.elapsed = time.perf_counter() - began
        chain.rng_state = rng.bit_generator.state
        chain.state = state
        chain.search_state = search.state()
        return chain

    emit("progress", snapshot(), _progress(search, chain, best))
    while True:
        elapsed = time.perf_counter() - began
        done = [0.0]
        if config.generations is not None:
            done.append(chain.generation / config.generations)
        if config.time is not None:
            done.append(elapsed / config.time)
        progress = max(done)
        if progress >= 1.0 or should_stop():
            break
        state = strategy.step(search, state, rng, progress)
        chain.generation += 1
        best = strategy.best(state)
        if best.fitness != last_best:
            last_best = best.fitness
            chain.history.append(HistoryPoint(round(elapsed, 3), chain.generation, search.counters.evaluations,
                                              search.size, best.fitness))
        now = time.perf_counter()
        if now - last_report >= report_every:
            last_report = now
            emit("progress", snapshot(), _progress(search, chain, best))
        if now - last_checkpoint >= config.checkpoint_every:
            last_checkpoint = now
            emit("checkpoint", snapshot(), _progress(search, chain, best))
    chain = snapshot()
    chain.history.append(HistoryPoint(round(chain.elapsed, 3), chain.generation, search.counters.evaluations,
                                      search.size, best.fitness))
    emit("done", chain, _progress(search, chain, best))
    return chain


def _worker(problem, strategy, config, index, chain, stop, messages):
    """A worker process: run one chain, sending progress and snapshots to the parent."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, lambda *_: stop.set())

    def emit(kind, chain, progress):
        messages.put((kind, index, pickle.dumps(chain) if kind != "progress" else None, progress))

    try:
        run_chain(problem, strategy, config, index, chain, stop.is_set, emit)
    except BaseException as err:  # report, so the parent does not wait forever
        messages.put(("error", index, None, f"{type(err).__name__}: {err}"))


def run_chains(problem: Problem, strategy: Strategy, config: Config, chains: list[Chain | None], stop,
               on_progress: Callable[[Progress], None], on_checkpoint: Callable[[list[Chain | None]], None]) -> list[Chain]:
    """Run every chain (in this process for one, else one process each); returns the final chains."""
    latest: list[Chain | None] = list(chains)
    if len(chains) == 1:
        def emit(kind, chain, progress):
            on_progress(progress)
            if kind == "checkpoint":
                latest[0] = chain
                on_checkpoint(latest)

        return [run_chain(problem, strategy, config, 0, chains[0], stop.is_set, emit)]

    ctx = mp.get_context("fork")
    messages = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(problem, strategy, config, i, c, stop, messages), daemon=True)
             for i, c in enumerate(chains)]
    for p in procs:
        p.start()
    finished: dict[int, Chain] = {}
    try:
        while len(finished) < len(procs):
            try:
                kind, index, blob, progress = messages.get(timeout=0.5)
            except queue.Empty:
                dead = [i for i, p in enumerate(procs) if not p.is_alive() and i not in finished]
                if dead and messages.empty():
                    raise TrailwrightError(f"worker {dead[0]} stopped without a result") from None
                continue
            if kind == "error":
                stop.set()
                raise TrailwrightError(f"worker {index} failed: {progress}")
            on_progress(progress)
            if kind in ("checkpoint", "done"):
                latest[index] = pickle.loads(blob)
                if kind == "done":
                    finished[index] = latest[index]
                else:
                    on_checkpoint(latest)
    finally:
        stop.set()
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
    return [finished[i] for i in range(len(procs))]


def rescore(problem: Problem, tileset: TileSet, samples: int, seed: int) -> Score:
    """The objective's score on ``samples`` layouts from ``seed`` (the same figure ``trailwright score`` gives)."""
    scores = layout_scores(tileset, problem.board, samples, seed)
    return summarise(tileset, problem.board, scores, seed, "fast", problem.objective)


def chain_best(strategy: Strategy, chain: Chain) -> Scored:
    """The best candidate a finished (or interrupted) chain holds, with its fitness on its bank."""
    return strategy.best(chain.state)


def best_of(problem: Problem, strategy: Strategy, config: Config, chains: list[Chain]) -> tuple[int, Scored]:
    """The winning chain and its best candidate (several chains: the best on shared fresh layouts).

    Each chain's best is scored on the same ``SELECTION_SAMPLES`` layouts, one thread a worker
    (the kernel releases the GIL), so the choice is not the chains' own optimistic figures.
    """
    from concurrent.futures import ThreadPoolExecutor

    bests = [chain_best(strategy, chain) for chain in chains]
    if len(bests) == 1:
        return 0, bests[0]

    def value(best: Scored) -> float:
        return rescore(problem, to_tileset(problem, best.classes), SELECTION_SAMPLES, selection_seed(config.seed)).fitness

    with ThreadPoolExecutor(max_workers=max(1, min(config.workers, len(bests)))) as pool:
        values = list(pool.map(value, bests))
    winner = int(np.argmax(values))
    return winner, bests[winner]


def optimize(problem: Problem, config: Config, chains: list[Chain | None] | None = None, stop=None,
             on_progress: Callable[[Progress], None] = lambda p: None,
             on_checkpoint: Callable[[list[Chain | None]], None] = lambda c: None) -> Result:
    """Search, pick the best chain, and re-score the winner on fresh layouts."""
    began = time.perf_counter()
    warm_up(problem.board)  # compile (or load) the kernel once, before forking: the workers share it
    if chains is None:
        chains = [None] * config.workers
    if stop is None:
        stop = mp.get_context("fork").Event()
    strategy = config_strategy(config)
    finished = run_chains(problem, strategy, config, chains, stop, on_progress, on_checkpoint)
    winner, best = best_of(problem, strategy, config, finished)
    tileset = to_tileset(problem, best.classes)
    report = rescore(problem, tileset, config.rescore, final_seed(config.seed))
    return Result(tileset, report, report.fitness, best.fitness, tuple(finished), winner, time.perf_counter() - began)


# --- checkpoints ----------------------------------------------------------------------------


def checkpoint_bytes(problem: Problem, config: Config, chains: list[Chain | None], init: str | None) -> bytes:
    """A checkpoint: the problem, the settings and every chain so far."""
    return pickle.dumps({"format": CHECKPOINT_FORMAT, "version": __version__, "problem": problem,
                         "config": config, "chains": chains, "init": init})


def read_checkpoint(path) -> dict:
    """Load a checkpoint file; one-line errors name the file."""
    from pathlib import Path

    try:
        data = pickle.loads(Path(path).read_bytes())
    except OSError as err:
        raise TrailwrightError(f"cannot read: {err.strerror}", str(path)) from None
    except Exception:
        raise TrailwrightError("not a trailwright checkpoint", str(path)) from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise TrailwrightError("not a trailwright checkpoint", str(path))
    return data


def meta(problem: Problem, config: Config, result: Result, init: str | None, board: str) -> dict:
    """The ``meta`` block of the output: how the tile set was made and what it scores."""
    chains = result.chains
    s = result.score
    return {
        "made_by": "trailwright optimize",
        "version": __version__,
        "seed": config.seed,
        "settings": {**{k: v for k, v in asdict(config).items() if k != "checkpoint_every"},
                     "board": board, "init": init,
                     "pinned": [problem.start.tiles[t].id for t in problem.pinned],
                     "objective": problem.objective.settings()},
        "search": {"generations": [c.generation for c in chains],
                   "evaluations": sum(c.search_state["evaluations"] for c in chains),
                   "winner_chain": result.winner,
                   "search_fitness": round(result.search_fitness, 6)},
        "score": {"fitness": round(result.fitness, 6), "fitness_se": round(s.fitness_se, 6), "samples": s.samples,
                  "seed": s.seed, "bridges": s.bridges, "dup_score": s.dup_score,
                  "fully_connected": s.fully_connected, "extra_edges": round(s.extra_edges_mean, 6),
                  "pairs_joined": round(s.path_prob_mean * len(s.pair_prob), 6),
                  "path_prob": round(s.path_prob_mean, 6)},
    }
