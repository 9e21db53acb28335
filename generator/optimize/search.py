"""Evaluating candidates with common random numbers: a shared bank of layouts, scores cached per layout.

Glossary
--------
bank        layouts drawn once from one seed and shared by every candidate of a chain. The bank
            grows as the search goes on (a prefix of one stream), so late decisions see more layouts.
scored      a candidate's designs with its per-layout terms on the bank and its fitness there.
evaluation  what one ``evaluate`` call returns: the fitness, and the scored candidate unless it
            came from the cache or was rejected early, with what it cost.
move        a change of design on some faces of some tiles. Only the layouts where a changed tile
            shows a changed face are scored again; the rest keep their cached terms.
cache       fitness by canonical key for the current bank size, so no candidate is scored twice.
fresh       the article's way: every evaluation draws new layouts (``FreshScorer``).

Both evaluators keep the ``Evaluator`` protocol, so a strategy never asks which one it has.
The fitness always comes from ``Objective.fitness``; this module only measures its parts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from generator.optimize.space import Classes, Problem
from generator.scoring import kernel
from generator.scoring.layouts import derived_seed
from generator.scoring.tables import board_arrays

EARLY_FIRST = 256  # affected layouts scored before the first early look; the count doubles for each next look
EARLY_Z = 1.0  # standard errors below its threshold that turn a move away (3 scored most moves in full: see docs)


class Scored:
    """A candidate and its per-layout terms on the first ``size`` layouts of the bank.

    A checkpoint keeps only the designs, the fitness and the size (``to_data``): the arrays are a
    pure function of the designs and the bank, scored again when needed, so a resumed run is the same run.
    """

    __slots__ = ("classes", "fitness", "size", "arrays", "sums")

    def __init__(self, classes: Classes, fitness: float, size: int, arrays=None, sums=None):
        self.classes = classes
        self.fitness = fitness
        self.size = size
        self.arrays = arrays  # (extra int16, mask uint64, joined int8) or None
        self.sums = sums  # (sum of extra, sum of joined) or None

    def to_data(self) -> dict:
        """The candidate as plain JSON-ready data."""
        return {"classes": self.classes.tolist(), "fitness": self.fitness, "size": self.size}

    @classmethod
    def from_data(cls, data: dict) -> Scored:
        """The inverse of ``to_data`` (the arrays are scored again on first use)."""
        return cls(np.array(data["classes"], dtype=np.int16), float(data["fitness"]), int(data["size"]))


@dataclass(frozen=True)
class Counters:
    """What a chain's evaluator has done: candidates scored, layouts scored, cache hits, early rejections."""

    evaluations: int = 0
    layouts: int = 0
    hits: int = 0
    early: int = 0


@dataclass(frozen=True)
class Evaluation:
    """One candidate's fitness; ``scored`` is None when it came from the cache or was rejected early."""

    fitness: float
    scored: Scored | None
    layouts: int  # what it cost
    cached: bool = False
    early: bool = False


class Evaluator(Protocol):
    """What every strategy needs of its evaluator (``Search`` on a bank, or ``FreshScorer``)."""

    problem: Problem
    size: int
    counters: Counters

    def resize(self, size: int) -> None: ...
    def refresh(self, s: Scored) -> Scored: ...
    def full(self, classes: Classes) -> Scored: ...
    def evaluate(
        self, classes: Classes, parent: Scored | None = None, changes=(), threshold: float | None = None
    ) -> Evaluation: ...
    def score(self, classes: Classes, parent: Scored | None = None, changes=()) -> Scored: ...
    def state(self) -> dict: ...
    def restore(self, state: dict) -> None: ...


def _count(counters: Counters, ev: Evaluation) -> Counters:
    return replace(
        counters,
        evaluations=counters.evaluations + (not ev.cached),
        layouts=counters.layouts + ev.layouts,
        hits=counters.hits + ev.cached,
        early=counters.early + ev.early,
    )


def _cache_data(cache: dict[bytes, float]) -> dict[str, float]:
    return {k.hex(): v for k, v in cache.items()}


def _cache_from(data: dict[str, float]) -> dict[bytes, float]:
    return {bytes.fromhex(k): float(v) for k, v in data.items()}


def _counters_data(c: Counters) -> dict:
    return {"evaluations": c.evaluations, "layouts": c.layouts, "hits": c.hits, "early": c.early}


class Search:
    """One chain's evaluator: the problem, its bank of layouts, the cache and the counters."""

    def __init__(self, problem: Problem, bank_seed: int, capacity: int, size: int):
        self.problem = problem
        self.objective = problem.objective
        self.capacity = capacity
        self.space = problem.space
        arrays = board_arrays(problem.board)
        perm, flip, rot = kernel.board_layouts(arrays, capacity, bank_seed)
        self.bank = kernel.Bank(arrays, perm, flip, rot)
        # face_shown[i, t]: the face tile t shows in layout i
        self.face_shown = np.take_along_axis(flip, kernel.slots_of(perm), axis=1).astype(np.uint8)
        names = problem.board.pair_names()
        self.targets = [(name, names.index(name)) for name, _ in self.objective.pair_targets]
        self.size = 0
        self.cache: dict[bytes, float] = {}
        self.counters = Counters()
        self.resize(size)

    # --- the bank ---------------------------------------------------------------------------

    def resize(self, size: int) -> None:
        """Use the first ``size`` layouts of the bank (it only grows); the cache starts afresh."""
        size = int(min(max(size, self.size), self.capacity))
        if size == self.size:
            return
        self.size = size
        self.cache = {}
        view = self.face_shown[:size]
        faces = range(self.problem.faces)
        self._rows = [[np.flatnonzero(view[:, t] == f) for f in faces] for t in range(view.shape[1])]

    def state(self) -> dict:
        """What a checkpoint keeps of this evaluator, as JSON-ready data."""
        return {"size": self.size, "cache": _cache_data(self.cache), **_counters_data(self.counters)}

    def restore(self, state: dict) -> None:
        """Continue from a checkpoint's ``state()``."""
        self.resize(state["size"])
        self.cache = _cache_from(state["cache"])
        self.counters = Counters(state["evaluations"], state["layouts"], state["hits"], state["early"])

    # --- fitness ----------------------------------------------------------------------------

    def _fitness(self, classes: Classes, sums: tuple[int, int], mask: np.ndarray) -> float:
        """``Objective.fitness`` from the counts of ``classes`` and its terms on the bank."""
        o = self.objective
        pair_prob = {name: int(np.count_nonzero(mask & np.uint64(1 << bit))) / self.size for name, bit in self.targets}
        return o.fitness(
            o.static(*self.space.static_counts(classes)), o.per_layout(sums[0], sums[1]) / self.size, pair_prob
        )

    def _score(self, classes: Classes, base: Scored | None, rows: np.ndarray | None) -> tuple[Scored, int]:
        """Score ``classes``: all layouts, or only ``rows`` on top of ``base``'s terms; and the layouts scored."""
        n = self.size
        if base is None or rows is None:
            out, sums = self._terms(classes)
            return Scored(classes, self._fitness(classes, sums, out[1]), n, out, sums), n
        out = tuple(a.copy() for a in base.arrays)
        if len(rows):
            self.bank.score(self.space.tables[classes], rows, out)
        return self._rescored(classes, base, rows, out), len(rows)

    def _terms(self, classes: Classes):
        """The per-layout terms of ``classes`` on the whole bank, and their sums (extra edges, joined pairs)."""
        n = self.size
        out = (np.empty(n, np.int16), np.empty(n, np.uint64), np.empty(n, np.int8))
        self.bank.score(self.space.tables[classes], np.arange(n), out)
        return out, (int(out[0].sum(dtype=np.int64)), int(out[2].sum(dtype=np.int64)))

    def alone(self, designs) -> list[float]:
        """The fitness on the bank of each of ``designs`` laid on every face of every tile: what it joins with its
        like (``prior``'s screen of designs; nothing is cached or counted)."""
        shape = (self.problem.board.tile_count, self.problem.faces)
        values = []
        for design in designs:
            classes = np.full(shape, design, dtype=np.int16)
            out, sums = self._terms(classes)
            values.append(self._fitness(classes, sums, out[1]))
        return values

    def _rescored(self, classes: Classes, base: Scored, rows: np.ndarray, out) -> Scored:
        """The candidate whose terms are ``out``: ``base``'s but on ``rows``."""
        old = (base.arrays[0][rows].sum(dtype=np.int64), base.arrays[2][rows].sum(dtype=np.int64))
        new = (out[0][rows].sum(dtype=np.int64), out[2][rows].sum(dtype=np.int64))
        sums = (int(base.sums[0] - old[0] + new[0]), int(base.sums[1] - old[1] + new[1]))
        return Scored(classes, self._fitness(classes, sums, out[1]), self.size, out, sums)

    def rows(self, changes) -> np.ndarray | None:
        """The layouts that show any changed (tile, face); ``None`` when that is most of them."""
        changed = set(changes)
        if len(changed) == 1:
            ((t, f),) = changed
            return self._rows[t][f]
        if len(changed) > 4:
            return None
        view = self.face_shown[: self.size]
        shows = np.zeros(self.size, dtype=bool)
        for t, f in changed:
            shows |= view[:, t] == f
        return np.flatnonzero(shows)

    def refresh(self, s: Scored) -> Scored:
        """``s`` with its terms on the whole current bank (scoring only what it lacks)."""
        if s.arrays is not None and s.size == self.size:
            return s
        if s.arrays is None:  # after a resume: the terms were not saved, so score them again
            scored, layouts = self._score(s.classes, None, None)
            self.counters = replace(self.counters, layouts=self.counters.layouts + layouts)
            return scored
        old, n = s.size, self.size
        out = tuple(np.concatenate([a, np.zeros(n - old, a.dtype)]) for a in s.arrays)
        rows = np.arange(old, n)
        self.bank.score(self.space.tables[s.classes], rows, out)
        self.counters = replace(self.counters, layouts=self.counters.layouts + len(rows))
        sums = (s.sums[0] + int(out[0][old:].sum(dtype=np.int64)), s.sums[1] + int(out[2][old:].sum(dtype=np.int64)))
        return Scored(s.classes, self._fitness(s.classes, sums, out[1]), n, out, sums)

    def full(self, classes: Classes) -> Scored:
        """Score a candidate on the whole bank (no parent to start from), counted as an evaluation."""
        scored, layouts = self._score(classes, None, None)
        self.cache.setdefault(self.space.key(classes), scored.fitness)
        self.counters = _count(self.counters, Evaluation(scored.fitness, scored, layouts))
        return scored

    def evaluate(
        self, classes: Classes, parent: Scored | None = None, changes=(), threshold: float | None = None
    ) -> Evaluation:
        """The bank fitness of ``classes`` (cached by key); ``changes`` lists the (tile, face) moved from ``parent``.

        With a ``threshold``, scoring stops early once the layouts scored so far show, by a
        margin of ``EARLY_Z`` standard errors, that the fitness is below it; the estimate is
        returned (and cached) instead. Differences on shared layouts are precise, so most bad
        moves are rejected after a few thousand layouts even on a bank of 100,000.
        """
        k = self.space.key(classes)
        if k in self.cache:
            ev = Evaluation(self.cache[k], None, 0, cached=True)
        else:
            rows = None if parent is None else self.rows(changes)
            early = rows is not None and threshold is not None and not self.targets and len(rows) > EARLY_FIRST
            if early and parent is not None and rows is not None and threshold is not None:
                ev = self._early(parent, classes, rows, threshold)
            else:
                scored, layouts = self._score(classes, parent if rows is not None else None, rows)
                ev = Evaluation(scored.fitness, scored, layouts)
            self.cache[k] = ev.fitness
        self.counters = _count(self.counters, ev)
        return ev

    def _early(self, parent: Scored, classes: Classes, rows: np.ndarray, threshold: float) -> Evaluation:
        """An estimate below ``threshold`` from a prefix of ``rows``, or, when not clearly below, the full score.

        The prefix doubles from ``EARLY_FIRST`` layouts; after each, the change in the per-layout
        terms over the layouts scored so far estimates the whole change, with its standard error.
        """
        o = self.objective
        table = self.space.tables[classes]
        n = self.size
        static = o.static(*self.space.static_counts(classes))
        base = o.per_layout(parent.sums[0], parent.sums[1]) / n
        out = tuple(a.copy() for a in parent.arrays)
        extra, _, joined = out
        scale = len(rows) / n
        total = squares = 0.0
        done, stage = 0, EARLY_FIRST
        while stage < len(rows):
            index = rows[done:stage]
            self.bank.score(table, index, out)
            diff = o.per_layout(
                extra[index].astype(np.float64) - parent.arrays[0][index],
                joined[index].astype(np.float64) - parent.arrays[2][index],
            )
            total += diff.sum()
            squares += diff @ diff
            done, stage = stage, 2 * stage
            mean = total / done
            sd = np.sqrt(max(squares / done - mean * mean, 0.0) * done / (done - 1))
            estimate = o.fitness(static, base + scale * mean)
            if estimate + EARLY_Z * scale * sd / np.sqrt(done) < threshold:
                return Evaluation(estimate, None, done, early=True)
        self.bank.score(table, rows[done:], out)
        scored = self._rescored(classes, parent, rows, out)
        return Evaluation(scored.fitness, scored, len(rows))

    def score(self, classes: Classes, parent: Scored | None = None, changes=()) -> Scored:
        """``classes`` with its per-layout terms (for a candidate the cache knows only by its fitness)."""
        rows = None if parent is None else self.rows(changes)
        scored, layouts = self._score(classes, parent if rows is not None else None, rows)
        self.counters = replace(self.counters, layouts=self.counters.layouts + layouts)
        self.cache.setdefault(self.space.key(classes), scored.fitness)
        return scored


class FreshScorer:
    """The article's evaluation: new random layouts for every candidate, cached by key.

    The layouts of the n-th candidate scored come from ``(seed, n)``, so a chain's stream of
    evaluations is reproducible and resumable.
    """

    def __init__(self, problem: Problem, seed: int, samples: int):
        self.problem = problem
        self.objective = problem.objective
        self.space = problem.space
        self.boards = board_arrays(problem.board)
        self.seed = seed
        self.samples = samples
        names = problem.board.pair_names()
        self.targets = [(name, names.index(name)) for name, _ in self.objective.pair_targets]
        self.cache: dict[bytes, float] = {}
        self.counters = Counters()
        self.size = samples

    def state(self) -> dict:
        return {"cache": _cache_data(self.cache), **_counters_data(self.counters)}

    def restore(self, state: dict) -> None:
        self.cache = _cache_from(state["cache"])
        self.counters = Counters(state["evaluations"], state["layouts"], state["hits"], state["early"])

    def resize(self, size: int) -> None:
        """Fresh layouts have no bank to grow."""

    def refresh(self, s: Scored) -> Scored:
        """A fresh score has no per-layout terms to bring up to date."""
        return s

    def full(self, classes: Classes) -> Scored:
        return self.score(classes)

    def score(self, classes: Classes, parent: Scored | None = None, changes=()) -> Scored:
        ev = self.evaluate(classes)
        return ev.scored or Scored(classes, ev.fitness, self.samples)

    def evaluate(
        self, classes: Classes, parent: Scored | None = None, changes=(), threshold: float | None = None
    ) -> Evaluation:
        """The fitness of ``classes`` on ``samples`` new layouts (or its cached value)."""
        k = self.space.key(classes)
        if k in self.cache:
            ev = Evaluation(self.cache[k], None, 0, cached=True)
        else:
            seed = derived_seed(self.seed, self.counters.evaluations)
            table = self.space.tables[classes]
            extra, mask, joined = kernel.sample_and_score(table, self.boards, self.samples, seed)
            o = self.objective
            pair_prob = {name: float(((mask >> np.uint64(bit)) & np.uint64(1)).mean()) for name, bit in self.targets}
            value = o.fitness(
                o.static(*self.space.static_counts(classes)),
                float(o.per_layout(extra.astype(np.float64), joined).mean()),
                pair_prob,
            )
            self.cache[k] = value
            ev = Evaluation(value, Scored(classes, value, self.samples), self.samples)
        self.counters = _count(self.counters, ev)
        return ev


# A generation's cost grows as the bank's size to this power (early rejection keeps it below 1): measured on the
# classic board from a generation-budget run's clock (docs/optimize.md, "A time budget spent as generations").
COST_EXPONENT = 0.85


@dataclass(frozen=True)
class BankSchedule:
    """A bank that grows geometrically from ``start`` to ``end`` layouts over the budget."""

    start: int = 2_000
    end: int = 120_000

    @property
    def cost_growth(self) -> float:
        """How many times a generation on the full bank costs one on the first: its growth to ``COST_EXPONENT``."""
        return (self.end / self.start) ** COST_EXPONENT

    def size(self, progress: float) -> int:
        """The bank size at ``progress`` (0..1), in steps of 1,000 layouts once past 1,000."""
        raw = self.start * (self.end / self.start) ** min(max(progress, 0.0), 1.0)
        return int(raw) if raw < 1000 else int(raw // 1000 * 1000)
