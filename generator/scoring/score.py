"""Scoring a tile set: the article's ``scoreTiles``, with Monte-Carlo standard errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.scoring import holes, kernel, stream
from generator.scoring.objective import ARTICLE, Objective
from generator.scoring.stream import Counts
from generator.scoring.tables import board_arrays, check_size, tile_tables

ENGINES = ("fast", "reference")
DEFAULT_SAMPLES = 500
MAX_SAMPLES = 1_000_000_000  # about four minutes on two cores


@dataclass(frozen=True)
class LayoutScores:
    """Per-layout graph terms: independent cycles, joined-pair bit mask, joined-pair count."""

    extra: np.ndarray
    mask: np.ndarray
    joined: np.ndarray


def _terms(scores: LayoutScores) -> tuple:
    return scores.extra, scores.mask, scores.joined


@dataclass(frozen=True)
class Score:
    """Everything the scorer reports for one tile set."""

    fitness: float
    fitness_se: float
    bridges: int
    dup_score: int
    fully_connected: int
    crossings: int
    extra_edges_mean: float
    extra_edges_se: float
    path_prob_mean: float
    path_prob_se: float
    pair_prob: dict[str, float]
    pair_prob_se: dict[str, float]
    samples: int
    seed: int
    engine: str
    board: str
    objective: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """A JSON-ready dict (floats rounded to 6 places so output is stable to read)."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, float):
                data[key] = round(value, 6)
            elif isinstance(value, dict):
                data[key] = {k: round(v, 6) if isinstance(v, float) else v for k, v in value.items()}
        return data


def static_terms(tileset: TileSet, objective: Objective = ARTICLE) -> float:
    """The part of the fitness that does not depend on layouts (``Objective.static`` of the set's counts)."""
    return objective.static(tileset.bridges, tileset.dup_score, tileset.fully_connected)


def check_samples(samples: int) -> None:
    """A one-line error for a number of layouts to score that is not from 1 to ``MAX_SAMPLES``."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise TrailwrightError(f"{samples:,} layouts: score from 1 to {MAX_SAMPLES:,}")


def _check(tileset: TileSet, board: Board, samples: int, engine: str) -> None:
    if engine not in ENGINES:
        raise TrailwrightError(f"unknown engine {engine!r} (expected {' or '.join(ENGINES)})")
    check_samples(samples)
    check_size(tileset, board)


def layout_scores(tileset: TileSet, board: Board, samples: int, seed: int, engine: str = "fast") -> LayoutScores:
    """Per-layout terms for ``samples`` layouts drawn from ``seed`` (both engines draw the same)."""
    _check(tileset, board, samples, engine)
    arrays = board_arrays(board)
    if engine == "fast":
        extra, mask, joined = kernel.sample_and_score(tile_tables(tileset), arrays, samples, seed)
    else:
        from generator.scoring import reference

        perm, flip, rot = kernel.board_layouts(arrays, samples, seed)
        extra, mask, joined = reference.score_layouts(tileset, board, perm, flip, rot)
    return LayoutScores(extra, mask, joined)


def layout_counts(
    tileset: TileSet,
    board: Board,
    samples: int,
    seed: int,
    engine: str = "fast",
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Counts:
    """The statistics of ``samples`` layouts drawn from ``seed``, in memory that does not grow with them.

    The fast engine scores chunks of the seed's stream on ``threads`` threads; the numbers do
    not depend on ``threads``. ``progress(done)`` hears the layouts done as chunks finish.
    """
    _check(tileset, board, samples, engine)
    arrays = board_arrays(board)
    if engine == "fast":
        return stream.accumulate(tile_tables(tileset), arrays, samples, seed, threads, progress)
    return Counts.of(arrays, *_terms(layout_scores(tileset, board, samples, seed, engine)))


def warm_up(board: Board, designs: np.ndarray | None = None) -> None:
    """Compile every fast-engine kernel now (or load it from numba's disk cache); with ``designs``, the holes of
    the polish's screen too where they apply (and their tables for those designs).

    The first use on a fresh checkout compiles for several seconds; a search calls this before
    it starts its clock and its workers, which then load the compiled code from the disk cache.
    """
    from generator.model import Tile
    from generator.model.designs import designs as every_design

    side = every_design(board.geometry)[-1]
    tiles = TileSet(tuple(Tile(str(i + 1), side, side) for i in range(board.tile_count)))
    table, arrays = tile_tables(tiles), board_arrays(board)
    kernel.sample_and_score(table, arrays, 2, 0)
    perm, flip, rot = kernel.board_layouts(arrays, 2, 0)
    kernel.score_layouts(table, arrays, perm, flip, rot)
    stream.accumulate(table, arrays, 2, 0)
    if designs is not None and holes.exact_for(arrays) and holes.unavailable(board.geometry) is None:
        bank = kernel.Bank(arrays, perm, flip, rot)
        first = designs[np.zeros((board.tile_count, arrays.faces), dtype=np.int64)]
        values = np.zeros((2, board.tile_count, len(designs)))
        holes.Holes(arrays, designs).values(
            first, bank.perm, bank.turn, kernel.slots_of(perm), [0, 1], (0.0, 1.0), values
        )


def _mean_se(values, counts: np.ndarray, n: int) -> tuple[float, float]:
    """Mean and standard error of the mean of ``n`` numbers, ``counts[k]`` of them equal to ``values[k]``."""
    values = np.broadcast_to(np.asarray(values, dtype=np.float64), counts.shape)
    mean = float((counts * values).sum() / n)
    se = float(np.sqrt((counts * (values - mean) ** 2).sum() / (n - 1) / n)) if n > 1 else float("nan")
    return mean, se


def summarise(
    tileset: TileSet,
    board: Board,
    scores: LayoutScores | Counts,
    seed: int,
    engine: str,
    objective: Objective = ARTICLE,
) -> Score:
    """Aggregate per-layout terms (arrays or their ``Counts``) into the report.

    The fitness includes any pair-target penalty.
    """
    objective = objective.on(board)
    if isinstance(scores, LayoutScores):
        scores = Counts.of(board_arrays(board), *_terms(scores))
    n, hist = scores.samples, scores.hist
    extra = np.arange(hist.shape[0])[:, None]
    joined = np.arange(hist.shape[1])[None, :]
    layout_mean, layout_se = _mean_se(objective.per_layout(extra.astype(np.float64), joined), hist, n)
    extra_mean, extra_se = _mean_se(extra, hist, n)
    names = board.pair_names()
    pairs = len(names)
    pair_prob, pair_se = {}, {}
    for bit, name in enumerate(names):
        hits = int(scores.hits[bit])
        pair_prob[name], pair_se[name] = _mean_se([0.0, 1.0], np.array([n - hits, hits]), n)
    path_mean, path_se = _mean_se(joined / pairs, hist, n) if pairs else (float("nan"), float("nan"))
    return Score(
        fitness=objective.fitness(static_terms(tileset, objective), layout_mean, pair_prob),
        fitness_se=layout_se,
        bridges=tileset.bridges,
        dup_score=tileset.dup_score,
        fully_connected=tileset.fully_connected,
        crossings=tileset.crossings,
        extra_edges_mean=extra_mean,
        extra_edges_se=extra_se,
        path_prob_mean=path_mean,
        path_prob_se=path_se,
        pair_prob=pair_prob,
        pair_prob_se=pair_se,
        samples=n,
        seed=seed,
        engine=engine,
        board=board.name,
        objective=objective.settings(),
    )


def score(
    tileset: TileSet,
    board: Board,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    engine: str = "fast",
    objective: Objective = ARTICLE,
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Score:
    """Score a tile set on ``samples`` random layouts drawn from ``seed`` (see ``layout_counts``)."""
    counts = layout_counts(tileset, board, samples, seed, engine, threads, progress)
    return summarise(tileset, board, counts, seed, engine, objective)
