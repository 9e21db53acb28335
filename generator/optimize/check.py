"""Local optimality: does any single move of the search improve a tile set?

The moves are the search's own (``strategies.mutate``): every free face of every tile given
every other allowed design, and every swap of two faces' designs between two free tiles that
changes the set. Each neighbour is compared with the set on one shared bank of layouts (common
random numbers). Neighbours that are clearly worse stop early; the rest are scored on the whole
bank, and their difference from the set comes with its standard error (paired over layouts).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from generator.model import TileSet
from generator.optimize.search import Search
from generator.optimize.space import Problem, classes_of
from generator.optimize.strategies import swap_changes_set

Change = tuple[int, int, int]  # tile index, face (0 front, 1 back), new design


@dataclass(frozen=True)
class Neighbour:
    """One move (one side changed, or two sides' designs swapped), its gain on the bank and that gain's error."""

    changes: tuple[Change, ...]
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


def neighbours(problem: Problem, classes: np.ndarray, swaps: bool = True):
    """Every single-side change of ``classes``, then (with ``swaps``) every swap that changes the set."""
    free = problem.free
    for t in free:
        for f in range(problem.faces):
            for d in problem.allowed:
                if d != classes[t, f]:
                    yield ((t, f, d),)
    if not swaps:
        return
    for i, t in enumerate(free):
        for u in free[i + 1 :]:
            for f in range(problem.faces):
                for g in range(problem.faces):
                    if swap_changes_set(classes, t, f, u, g):
                        yield ((t, f, int(classes[u, g])), (u, g, int(classes[t, f])))


class Paired:
    """A set scored on one bank, against which each neighbour's gain comes with the standard error of the
    paired per-layout difference (common random numbers)."""

    def __init__(self, problem: Problem, tileset: TileSet, samples: int, seed: int):
        self.problem, self.samples = problem, samples
        self.search = Search(problem, seed, samples, samples)
        self.classes = classes_of(tileset)
        self.base = self.search.full(self.classes)
        self.per_layout = self._per_layout(self.base)

    def _per_layout(self, scored):
        return self.problem.objective.per_layout(scored.arrays[0].astype(np.float64), scored.arrays[2])

    def moved(self, changes: tuple[Change, ...]) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """The set's designs with ``changes`` made, and the sides they move."""
        child = self.classes.copy()
        for t, f, d in changes:
            child[t, f] = d
        return child, [(t, f) for t, f, _ in changes]

    def neighbour(self, changes: tuple[Change, ...], scored=None) -> Neighbour:
        """The neighbour's gain over the set on the whole bank (``scored``: already scored there)."""
        if scored is None:
            child, moved = self.moved(changes)
            scored = self.search.score(child, self.base, moved)
        diff = self._per_layout(scored) - self.per_layout
        se = float(diff.std(ddof=1) / np.sqrt(self.samples))
        return Neighbour(tuple(changes), scored.fitness - self.base.fitness, se)


def check_local(
    problem: Problem,
    tileset: TileSet,
    samples: int,
    seed: int,
    swaps: bool = True,
    margin: float = 0.01,
    part: int = 0,
    parts: int = 1,
    until: float | None = None,
) -> LocalCheck | None:
    """Try every move from ``tileset`` on ``samples`` layouts drawn from ``seed`` (with ``parts``, only every
    ``parts``-th move from the ``part``-th: one worker's share of the neighbourhood, on the same bank).

    Neighbours worse by more than ``margin`` (with 3 standard errors to spare) stop early and
    are only counted. None when the ``time.time()`` ``until`` passes before the last move is tried.
    """
    bank = Paired(problem, tileset, samples, seed)
    base, close, tried = bank.base, [], 0
    for index, changes in enumerate(neighbours(problem, bank.classes, swaps)):
        if index % parts != part:
            continue
        if until is not None and time.time() > until:
            return None
        child, moved = bank.moved(changes)
        tried += 1
        ev = bank.search.evaluate(child, base, moved, threshold=base.fitness - margin)
        if ev.fitness < base.fitness - margin:
            continue
        close.append(bank.neighbour(changes, ev.scored or bank.search.score(child, base, moved)))
    close.sort(key=lambda n: -n.gain)
    return LocalCheck(base.fitness, samples, tried, tuple(close))


def describe(problem: Problem, n: Neighbour) -> str:
    """A readable name for a neighbour, e.g. ``tile '4' back -> N-S | NE-SW | SE-NW``."""
    face = ("front", "back")
    return ", ".join(
        f"tile {problem.start.tiles[t].id!r} {face[f]} -> {problem.space.designs[d]}" for t, f, d in n.changes
    )
