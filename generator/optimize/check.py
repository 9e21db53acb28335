"""Local optimality: does any single change of one side's design improve a tile set?

Every free face of every tile is given every other allowed design, and each neighbour is
compared with the set on one shared bank of layouts (common random numbers). Neighbours that
are clearly worse stop early; the rest are scored on the whole bank, and their difference
from the set comes with its standard error (paired over the layouts).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.model import TileSet
from generator.optimize.search import Search
from generator.optimize.space import DESIGNS, Problem, design_of


@dataclass(frozen=True)
class Neighbour:
    """One side changed: tile index, face (0 front, 1 back), new design, gain on the bank and its error."""

    tile: int
    face: int
    design: int
    gain: float
    gain_se: float


@dataclass(frozen=True)
class LocalCheck:
    """The set's fitness on the bank, how many neighbours were tried, and those not clearly worse."""

    fitness: float
    samples: int
    neighbours: int
    close: tuple[Neighbour, ...]  # scored on the whole bank, best first

    @property
    def improving(self) -> tuple[Neighbour, ...]:
        """Neighbours better by more than two standard errors."""
        return tuple(n for n in self.close if n.gain > 2 * n.gain_se)


def check_local(problem: Problem, tileset: TileSet, samples: int, seed: int) -> LocalCheck:
    """Try every single-side change of ``tileset`` on ``samples`` layouts drawn from ``seed``."""
    search = Search(problem, seed, samples, samples)
    classes = np.array([[design_of(t.front), design_of(t.back)] for t in tileset], dtype=np.int16)
    base = search.full(classes)
    o = problem.objective
    per_layout = o.extra_edges_weight * base.arrays[0].astype(np.float64) + o.pair_weight * base.arrays[2]
    close = []
    tried = 0
    for t in problem.free:
        for f in range(2):
            for d in problem.allowed:
                if d == classes[t, f]:
                    continue
                child = classes.copy()
                child[t, f] = d
                tried += 1
                value = search.fitness(base, child, [(t, f)], threshold=base.fitness - 0.01)
                if value < base.fitness - 0.01:
                    continue
                scored = search.scored(base, child, [(t, f)])
                diff = o.extra_edges_weight * scored.arrays[0].astype(np.float64) + o.pair_weight * scored.arrays[2]
                diff -= per_layout
                se = float(diff.std(ddof=1) / np.sqrt(samples))
                close.append(Neighbour(t, f, d, scored.fitness - base.fitness, se))
    close.sort(key=lambda n: -n.gain)
    return LocalCheck(base.fitness, samples, tried, tuple(close))


def describe(problem: Problem, n: Neighbour) -> str:
    """A readable name for a neighbour, e.g. ``tile '4' back -> N-S | NE-SW | SE-NW``."""
    face = ("front", "back")[n.face]
    return f"tile {problem.start.tiles[n.tile].id!r} {face} -> {DESIGNS[n.design]}"
