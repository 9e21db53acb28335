"""A search for tile sets of any geometry: a pool of candidates, one design changed per step.

The classic game's search (``optimize``: strategies, chains, cooperation, Dask, the polish) works on
the classic game's 43 designs and its tuned kernel. For other geometries (``generator.model.geometry``)
this module is the search for now: a pool of ``POOL`` candidates (seed article 002), each step takes
one at random, lays a random allowed design on one face of one free tile, scores it on a fixed bank
of layouts (the same layouts for every candidate, so differences are not noise of the draw), and
replaces the pool's worst when it beats it. The best is then re-scored on fresh layouts.

Its settings, seed and counts go in the tile set's ``meta`` block, so a run can be repeated: with a
step budget (``steps``) the same seed gives the same tile set.
"""

from __future__ import annotations

import threading
import time as clock
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import Tile, TileSet
from generator.model.designs import designs
from generator.scoring import kernel_any
from generator.scoring.layouts import derived_seed
from generator.scoring.objective import Objective
from generator.scoring.score import Score, score, summarise
from generator.scoring.stream import Counts
from generator.scoring.tables import board_arrays, side_table

POOL = 8
MAX_DESIGNS = 20_000  # design tables held in memory: hex/2/pairs has 1,799, square/2/any 1,084


@dataclass(frozen=True)
class AnyResult:
    """The best tile set, its re-score, and what the search did."""

    tileset: TileSet
    score: Score
    steps: int
    seconds: float
    stopped: bool


class _Space:
    """The allowed designs of a board's geometry and their turn tables."""

    def __init__(self, board: Board, objective: Objective):
        g = board.geometry
        every = designs(g)
        self.designs = tuple(d for d in every if objective.allows(d))
        if len(self.designs) < 2:
            raise TrailwrightError("the objective's forbid and max_trails leave fewer than two designs to choose from")
        if len(self.designs) > MAX_DESIGNS:
            raise TrailwrightError(f"{len(self.designs):,} designs: the search holds at most {MAX_DESIGNS:,}")
        self.tables = np.stack([side_table(d) for d in self.designs]).astype(np.int8)  # [design, rot, end]
        self.faces = g.faces

    def tileset(self, classes: np.ndarray, ids: list[str]) -> TileSet:
        """The tile set of a design number per face of each tile."""
        d = self.designs
        if self.faces == 1:
            return TileSet(tuple(Tile.single(i, d[c[0]]) for i, c in zip(ids, classes, strict=True)))
        return TileSet(tuple(Tile(i, d[c[0]], d[c[1]]) for i, c in zip(ids, classes, strict=True)))

    def classes_of(self, tiles: TileSet) -> np.ndarray:
        """Design numbers of a tile set's faces (a face that breaks the objective's rules: -1)."""
        index = {d: k for k, d in enumerate(self.designs)}
        faces = (lambda t: (t.front,)) if self.faces == 1 else (lambda t: (t.front, t.back))
        return np.array([[index.get(s.canonical, -1) for s in faces(t)] for t in tiles], dtype=np.int64)


def any_objective(objective: Objective, board: Board) -> Objective:
    """The objective on ``board``; the classic genome's default limit of 4 trails a side does not apply to
    other geometries (a paired hex side has six), a lower ``max_trails`` from an objective file does."""
    default = Objective().max_trails
    if objective.max_trails == default:
        objective = replace(objective, max_trails=board.geometry.ends)
    return objective.on(board)


def optimize_any(
    board: Board,
    objective: Objective,
    seed: int,
    seconds: float | None = 10.0,
    steps: int | None = None,
    samples: int = 500,
    rescore: int = 20_000,
    start: TileSet | None = None,
    stop: threading.Event | None = None,
    on_step: Callable[[int, float], None] | None = None,
) -> AnyResult:
    """Search ``seconds`` (or ``steps`` steps, whichever ends first) for a good tile set of the board's geometry."""
    if seconds is None and steps is None:
        raise TrailwrightError("a search needs a budget: seconds or steps")
    objective = any_objective(objective, board)
    space = _Space(board, objective)
    arrays = board_arrays(board)
    rng = np.random.default_rng([seed, 44])
    bank = kernel_any.sample_layouts(arrays, samples, derived_seed(seed, 44, 1))
    ids = [t.id for t in start] if start is not None else [str(t + 1) for t in range(board.tile_count)]
    shape = (board.tile_count, space.faces)
    n = len(space.designs)

    def fitness(classes: np.ndarray) -> float:
        tiles = space.tileset(classes, ids)
        terms = kernel_any.score_layouts(space.tables[classes], arrays, *bank)
        return summarise(tiles, board, Counts.of(arrays, *terms), seed, "fast", objective).fitness

    first = rng.integers(n, size=shape)
    if start is not None:
        given = space.classes_of(start)
        first = np.where(given >= 0, given, first)
    pool = [first] + [rng.integers(n, size=shape) for _ in range(POOL - 1)]
    values = [fitness(c) for c in pool]
    began = clock.monotonic()
    done = 0
    while (steps is None or done < steps) and (seconds is None or clock.monotonic() - began < seconds):
        if stop is not None and stop.is_set():
            break
        child = pool[int(rng.integers(POOL))].copy()
        child[int(rng.integers(shape[0])), int(rng.integers(shape[1]))] = int(rng.integers(n))
        value = fitness(child)
        worst = int(np.argmin(values))
        if value > values[worst]:
            pool[worst], values[worst] = child, value
        done += 1
        if on_step is not None:
            on_step(done, max(values))
    best = space.tileset(pool[int(np.argmax(values))], ids)
    final = score(best, board, rescore, derived_seed(seed, 44, 2), objective=objective)
    return AnyResult(best, final, done, clock.monotonic() - began, bool(stop is not None and stop.is_set()))


def any_meta(board: Board, result: AnyResult, seed: int, samples: int, budget: dict) -> dict:
    """The tile set's ``meta`` block: what made it and how it scores."""
    s = result.score
    return {
        "generator": "trailwright optimize (pool search for any geometry)",
        "board": board.name,
        "seed": seed,
        "samples": samples,
        **budget,
        "steps": result.steps,
        "fitness": round(s.fitness, 6),
        "fitness_se": round(s.fitness_se, 6),
        "rescore_samples": s.samples,
    }
