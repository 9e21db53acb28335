"""Evaluating candidates with common random numbers: a shared bank of layouts, scores cached per layout.

Glossary
--------
bank       layouts drawn once from one seed and shared by every candidate of a chain. The bank
           grows as the search goes on (a prefix of one stream), so late decisions see more layouts.
scored     a candidate's designs with its per-layout terms on the bank and its fitness there.
move       a change of design on some faces of some tiles. Only the layouts where a changed tile
           shows a changed face are scored again; the rest keep their cached terms.
cache      fitness by canonical key for the current bank size, so no candidate is scored twice.
fresh      the article's way: every evaluation draws new layouts (``FreshScorer``).
"""

from __future__ import annotations

import numpy as np

from generator.optimize.space import DESIGN_TABLES, Classes, Problem, key, static_counts
from generator.scoring import kernel
from generator.scoring.tables import board_arrays


EARLY_FIRST = 256  # affected layouts scored before the first early look; the count doubles for each next look
EARLY_Z = 3.0


class Scored:
    """A candidate and its per-layout terms on the first ``size`` layouts of the bank.

    Pickling drops the arrays: they are a pure function of the designs and the bank, and are
    scored again when needed, so a checkpoint stays small and a resumed run is the same run.
    """

    __slots__ = ("classes", "fitness", "size", "arrays", "sums")

    def __init__(self, classes: Classes, fitness: float, size: int, arrays=None, sums=None):
        self.classes = classes
        self.fitness = fitness
        self.size = size
        self.arrays = arrays  # (extra int16, mask uint64, joined int8) or None
        self.sums = sums  # (sum of extra, sum of joined) or None

    def __getstate__(self):
        return (self.classes, self.fitness, self.size)

    def __setstate__(self, state):
        self.classes, self.fitness, self.size = state
        self.arrays = self.sums = None


class Search:
    """One chain's evaluator: the problem, its bank of layouts, the cache and the counters."""

    def __init__(self, problem: Problem, bank_seed: int, capacity: int, size: int):
        self.problem = problem
        self.objective = problem.objective
        self.boards = board_arrays(problem.board)
        self.capacity = capacity
        perm, flip, rot = kernel.sample_layouts(problem.board.tile_count, capacity, bank_seed)
        self.bank = kernel.Bank(self.boards, perm, flip, rot)
        # face_shown[i, t]: the face tile t shows in layout i
        self.face_shown = np.take_along_axis(flip, np.argsort(perm, axis=1), axis=1).astype(np.uint8)
        self.targets = [(problem.board.pair_names().index(name), p) for name, p in self.objective.pair_targets]
        self.size = 0
        self.cache: dict[bytes, float] = {}
        self.evaluations = 0  # candidates scored
        self.layouts = 0  # layouts scored
        self.hits = 0  # candidates found in the cache
        self.early = 0  # candidates rejected on part of the bank
        self._last: tuple[bytes, Scored] | None = None
        self.resize(size)

    # --- the bank ---------------------------------------------------------------------------

    def resize(self, size: int) -> None:
        """Use the first ``size`` layouts of the bank (it only grows); the cache starts afresh."""
        size = int(min(max(size, self.size), self.capacity))
        if size == self.size:
            return
        self.size = size
        self.cache = {}
        self._last = None
        view = self.face_shown[:size]
        self._rows = [[np.flatnonzero(view[:, t] == f) for f in range(2)] for t in range(view.shape[1])]

    def state(self) -> dict:
        """What a checkpoint keeps of this evaluator."""
        return {"size": self.size, "cache": self.cache, "evaluations": self.evaluations,
                "layouts": self.layouts, "hits": self.hits, "early": self.early}

    def restore(self, state: dict) -> None:
        """Continue from a checkpoint's ``state()``."""
        self.resize(state["size"])
        self.cache = state["cache"]
        self.evaluations, self.layouts, self.hits = state["evaluations"], state["layouts"], state["hits"]
        self.early = state["early"]

    # --- fitness ----------------------------------------------------------------------------

    def _fitness(self, classes: Classes, sums: tuple[int, int], mask: np.ndarray) -> float:
        bridges, dup, fully = static_counts(classes)
        o = self.objective
        value = (o.bridges_weight * bridges + o.dup_weight * dup + o.fully_connected_weight * fully
                 + (o.extra_edges_weight * sums[0] + o.pair_weight * sums[1]) / self.size)
        for bit, target in self.targets:
            hits = int(np.count_nonzero(mask & np.uint64(1 << bit)))
            value += o.target_weight * abs(hits / self.size - target)
        return float(value)

    def _score_rows(self, table: np.ndarray, rows: np.ndarray | None, out) -> None:
        """Score layouts ``rows`` of the bank (all of the current size when ``None``) into ``out``."""
        self.bank.score(table, np.arange(self.size) if rows is None else rows, out)

    def _score(self, classes: Classes, base: Scored | None, rows: np.ndarray | None, count_it: bool = True) -> Scored:
        """Score ``classes``: all layouts, or only ``rows`` on top of ``base``'s terms."""
        table = DESIGN_TABLES[classes]
        n = self.size
        if base is None or rows is None:
            out = (np.empty(n, np.int16), np.empty(n, np.uint64), np.empty(n, np.int8))
            index = None
            count = n
        else:
            out = tuple(a.copy() for a in base.arrays)
            index = rows
            count = len(rows)
        if count:
            self._score_rows(table, index, out)
        self.evaluations += count_it
        self.layouts += count
        if index is None:
            sums = (int(out[0].sum(dtype=np.int64)), int(out[2].sum(dtype=np.int64)))
        else:
            old = (base.arrays[0][rows].sum(dtype=np.int64), base.arrays[2][rows].sum(dtype=np.int64))
            new = (out[0][rows].sum(dtype=np.int64), out[2][rows].sum(dtype=np.int64))
            sums = (int(base.sums[0] - old[0] + new[0]), int(base.sums[1] - old[1] + new[1]))
        return Scored(classes, self._fitness(classes, sums, out[1]), n, out, sums)

    def rows(self, changes) -> np.ndarray | None:
        """The layouts that show any changed (tile, face); ``None`` when that is most of them."""
        changed = set(changes)
        if len(changed) == 1:
            (t, f), = changed
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
            return self._score(s.classes, None, None, count_it=False)
        old = s.size
        n = self.size
        out = tuple(np.concatenate([a, np.zeros(n - old, a.dtype)]) for a in s.arrays)
        rows = np.arange(old, n)
        self._score_rows(DESIGN_TABLES[s.classes], rows, out)
        self.layouts += len(rows)
        sums = (s.sums[0] + int(out[0][old:].sum(dtype=np.int64)), s.sums[1] + int(out[2][old:].sum(dtype=np.int64)))
        return Scored(s.classes, self._fitness(s.classes, sums, out[1]), n, out, sums)

    def full(self, classes: Classes) -> Scored:
        """Score a candidate on the whole bank (no parent to start from)."""
        k = key(classes)
        scored = self._score(classes, None, None)
        self.cache.setdefault(k, scored.fitness)
        return scored

    def fitness(self, parent: Scored | None, classes: Classes, changes, threshold: float | None = None) -> float:
        """The bank fitness of ``classes`` (cached by key); ``changes`` lists the (tile, face) moved.

        With a ``threshold``, scoring stops early once the layouts scored so far show, by a
        margin of ``EARLY_Z`` standard errors, that the fitness is below it; the estimate is
        returned (and cached) instead. Differences on shared layouts are precise, so most bad
        moves are rejected after a few thousand layouts even on a bank of 100,000.
        """
        k = key(classes)
        if k in self.cache:
            self.hits += 1
            return self.cache[k]
        rows = None if parent is None else self.rows(changes)
        if rows is not None and threshold is not None and not self.targets and len(rows) > EARLY_FIRST:
            scored = self._early(parent, classes, rows, threshold)
            if not isinstance(scored, Scored):
                self.cache[k] = scored
                return scored
        else:
            scored = self._score(classes, parent if rows is not None else None, rows)
        self.cache[k] = scored.fitness
        self._last = (k, scored)
        return scored.fitness

    def _early(self, parent: Scored, classes: Classes, rows: np.ndarray, threshold: float) -> float | Scored:
        """An estimate below ``threshold`` from a prefix of ``rows``, or, when not clearly below, the full score.

        The prefix doubles from ``EARLY_FIRST`` layouts; after each, the change in the per-layout
        terms over the layouts scored so far estimates the whole change, with its standard error.
        """
        o = self.objective
        table = DESIGN_TABLES[classes]
        n = self.size
        bridges, dup, fully = static_counts(classes)
        static = o.bridges_weight * bridges + o.dup_weight * dup + o.fully_connected_weight * fully
        base = (o.extra_edges_weight * parent.sums[0] + o.pair_weight * parent.sums[1]) / n
        out = tuple(a.copy() for a in parent.arrays)
        extra, mask, joined = out
        scale = len(rows) / n
        total = squares = 0.0
        done, stage = 0, EARLY_FIRST
        while stage < len(rows):
            index = rows[done:stage]
            self._score_rows(table, index, out)
            self.layouts += len(index)
            diff = (o.extra_edges_weight * (extra[index].astype(np.float64) - parent.arrays[0][index])
                    + o.pair_weight * (joined[index].astype(np.float64) - parent.arrays[2][index]))
            total += diff.sum()
            squares += diff @ diff
            done, stage = stage, 2 * stage
            mean = total / done
            sd = np.sqrt(max(squares / done - mean * mean, 0.0) * done / (done - 1))
            estimate = static + base + scale * mean
            if estimate + EARLY_Z * scale * sd / np.sqrt(done) < threshold:
                self.evaluations += 1
                self.early += 1
                return float(estimate)
        rest = rows[done:]
        self._score_rows(table, rest, out)
        self.layouts += len(rest)
        self.evaluations += 1
        old = (parent.arrays[0][rows].sum(dtype=np.int64), parent.arrays[2][rows].sum(dtype=np.int64))
        new = (extra[rows].sum(dtype=np.int64), joined[rows].sum(dtype=np.int64))
        sums = (int(parent.sums[0] - old[0] + new[0]), int(parent.sums[1] - old[1] + new[1]))
        return Scored(classes, self._fitness(classes, sums, mask), n, out, sums)

    def scored(self, parent: Scored | None, classes: Classes, changes) -> Scored:
        """``classes`` with its per-layout terms (the one just evaluated, or scored now)."""
        k = key(classes)
        if self._last is not None and self._last[0] == k and self._last[1].classes is classes:
            return self._last[1]
        rows = None if parent is None else self.rows(changes)
        scored = self._score(classes, parent if rows is not None else None, rows)
        self.cache.setdefault(k, scored.fitness)
        return scored


class FreshScorer:
    """The article's evaluation: new random layouts for every candidate, cached by key."""

    def __init__(self, problem: Problem, samples: int):
        self.problem = problem
        self.objective = problem.objective
        self.boards = board_arrays(problem.board)
        self.samples = samples
        self.targets = [(problem.board.pair_names().index(name), p) for name, p in self.objective.pair_targets]
        self.cache: dict[bytes, float] = {}
        self.evaluations = self.layouts = self.hits = 0
        self.size = samples

    def state(self) -> dict:
        return {"cache": self.cache, "evaluations": self.evaluations, "layouts": self.layouts, "hits": self.hits}

    def restore(self, state: dict) -> None:
        self.cache = state["cache"]
        self.evaluations, self.layouts, self.hits = state["evaluations"], state["layouts"], state["hits"]

    def resize(self, size: int) -> None:
        """Fresh layouts have no bank to grow."""

    def fitness(self, classes: Classes, seed: int) -> float:
        """The fitness of ``classes`` on ``samples`` layouts drawn from ``seed`` (or its cached value)."""
        k = key(classes)
        if k in self.cache:
            self.hits += 1
            return self.cache[k]
        extra, mask, joined = kernel.sample_and_score(DESIGN_TABLES[classes], self.boards, self.samples, seed)
        self.evaluations += 1
        self.layouts += self.samples
        bridges, dup, fully = static_counts(classes)
        o = self.objective
        value = (o.bridges_weight * bridges + o.dup_weight * dup + o.fully_connected_weight * fully
                 + float((o.extra_edges_weight * extra.astype(np.float64) + o.pair_weight * joined).mean()))
        for bit, target in self.targets:
            value += o.target_weight * abs(float(((mask >> np.uint64(bit)) & np.uint64(1)).mean()) - target)
        self.cache[k] = float(value)
        return float(value)
