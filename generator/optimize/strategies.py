"""Search strategies, interchangeable and chosen by name (``STRATEGIES``).

Every strategy keeps the ``Strategy`` protocol: ``evaluator(problem, seed)`` builds what scores
its candidates, ``start(search, classes, rng)`` makes its state from a start, ``step(search,
state, rng, progress)`` runs one generation (``progress`` goes from 0 to 1 over the budget) and
``best(state)`` names the best candidate so far. A state is a frozen dataclass of candidates
(``Scored``) and plain values, written to a checkpoint as JSON (``dump_state`` / ``load_state``)
beside the random generator's state and the evaluator's cache.

anneal  simulated annealing over designs on a growing bank (the default). A move changes one
        side's design or swaps two sides' designs between tiles (``mutate``).
pool    the Linjat optimiser (seed 002): a pool of candidates; mutate one, drop the worst.
beam    annealed beam selection (seed 004): keep the N best by ``random * exp(c * fitness)``.
ga      a genetic algorithm on deap over the article's 480-bit genome (``preset="article"``:
        the article's set-up exactly, with fresh layouts for every evaluation; ``optimize.ga``).
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, fields, replace
from typing import Any, Protocol

import numpy as np

from generator.errors import TrailwrightError
from generator.optimize import prior
from generator.optimize.ga import ARTICLE_GA, GA
from generator.optimize.search import BankSchedule, Evaluator, Scored, Search
from generator.optimize.space import Classes, Problem


class Strategy(Protocol):
    """A search algorithm; every one is interchangeable and chosen by name (``STRATEGIES``)."""

    name: str
    state_type: type

    @property
    def time_warp(self) -> float: ...  # ``Budget.warp`` under a time budget (1: the schedule follows the clock)
    def evaluator(self, problem: Problem, seed: int) -> Evaluator: ...
    def start(self, search: Evaluator, classes: Classes, rng: np.random.Generator) -> Any: ...
    def step(self, search: Evaluator, state: Any, rng: np.random.Generator, progress: float) -> Any: ...
    def best(self, state: Any) -> Scored: ...


def dump_state(state) -> dict:
    """A strategy's state as JSON-ready data: each candidate by ``Scored.to_data``."""

    def plain(value):
        return value.to_data() if isinstance(value, Scored) else value

    return {
        f.name: (plain(v) if not isinstance(v, tuple) else [plain(x) for x in v])
        for f in fields(state)
        for v in [getattr(state, f.name)]
    }


def load_state(state_type: type, data: dict):
    """The inverse of ``dump_state``; a malformed state raises ``KeyError``, ``TypeError`` or ``ValueError``."""

    def value(v):
        return Scored.from_data(v) if isinstance(v, dict) else v

    return state_type(
        **{
            f.name: (
                value(data[f.name]) if not isinstance(data[f.name], list) else tuple(value(x) for x in data[f.name])
            )
            for f in fields(state_type)
            if f.name in data or f.default is MISSING  # a field added since keeps its default (an older checkpoint)
        }
    )


class OnBank:
    """A strategy scored on a growing bank (``bank``): under a time budget its schedule runs ahead of the clock by
    the bank's cost growth (``Budget.warp``), so its seconds are spent as a generation budget would spend them."""

    bank: BankSchedule

    @property
    def time_warp(self) -> float:
        """How many times a generation at the end costs the first (``Budget.warp``)."""
        return self.bank.cost_growth


def mutate(
    problem: Problem,
    classes: Classes,
    rng: np.random.Generator,
    sides: int = 1,
    swap: float = 0.0,
    favoured: tuple[int, ...] = (),
):
    """A copy of ``classes`` with ``sides`` changes, and the (tile, face) changed.

    A change gives a free face another allowed design (``_new_design``: drawn from ``favoured`` half the time where
    there are any) or, with chance ``swap``, exchanges the designs of two faces on different free tiles. A swap keeps
    the designs used (so bridges and dupScore) and changes only which designs share a tile; good sets differ mostly
    in that pairing, which one-face changes reach only through worse sets.
    """
    child = classes.copy()
    free = problem.free
    changes = []
    for _ in range(sides):
        t = free[int(rng.integers(len(free)))]
        f = int(rng.integers(problem.faces))
        if swap and rng.random() < swap:
            other = _swap_partner(child, free, t, f, rng)
            if other is not None:
                u, g = other
                child[t, f], child[u, g] = child[u, g], child[t, f]
                changes += [(t, f), (u, g)]
                continue
        child[t, f] = _new_design(problem.allowed, favoured, int(child[t, f]), rng)
        changes.append((t, f))
    return child, changes


def _new_design(allowed: tuple[int, ...], favoured: tuple[int, ...], current: int, rng: np.random.Generator) -> int:
    """A design other than ``current`` for a one-face change: from ``favoured`` (``prior``) with chance
    ``prior.PRIOR_CHANCE``, else from ``allowed``, uniformly either way; without favoured designs no chance is drawn,
    so a board of few designs draws as it always did."""
    if favoured and rng.random() < prior.PRIOR_CHANCE:
        return _other_design(favoured, current, rng)
    return _other_design(allowed, current, rng)


def _other_design(allowed: tuple[int, ...], current: int, rng: np.random.Generator) -> int:
    """One of ``allowed`` other than ``current``, uniformly: the draw of a list of them without ``current``, without
    building it (a list of hex-pairs' 1,799 designs each move took a tenth of a short run's generations)."""
    at = allowed.index(current) if current in allowed else len(allowed)
    k = int(rng.integers(len(allowed) - (at < len(allowed))))
    return allowed[k + (k >= at)]


def swap_changes_set(classes: Classes, t: int, f: int, u: int, g: int) -> bool:
    """Whether swapping the designs of (``t``, ``f``) and (``u``, ``g``) gives another set.

    It does only when the two designs differ and so do the faces left in place (else it swaps
    the tiles whole, which a layout does anyway). Single-sided tiles have no face left in place: a swap
    of their designs swaps the tiles whole, so it never does.
    """
    if classes.shape[1] == 1:
        return False
    return classes[t, f] != classes[u, g] and classes[t, 1 - f] != classes[u, 1 - g]


def _swap_partner(classes: Classes, free, t: int, f: int, rng: np.random.Generator):
    """A face of another free tile whose swap with (``t``, ``f``) changes the set (``swap_changes_set``), or ``None``:
    drawn from them listed tile by tile, face by face."""
    if classes.shape[1] == 1:
        return None
    tiles = np.array([u for u in free if u != t], dtype=np.int64)
    faces = np.arange(2)
    rows = classes[tiles]
    options = np.argwhere((rows[:, faces] != classes[t, f]) & (rows[:, 1 - faces] != classes[t, 1 - f]))
    if not len(options):
        return None
    i, g = options[int(rng.integers(len(options)))]
    return int(tiles[i]), int(g)


# --- annealing ------------------------------------------------------------------------------

# A chain without swaps starts this many times as hot: on square-pathways (tiles of one face), --time 10 seeds 1-3
# re-scored -0.69, -0.63 and -0.66 starting at 0.024 where they stuck at -0.86, -0.79 and -0.82 starting at 0.008
# (one chain fell into a local optimum within 0.2 s and never left it); the classic --time 5 and hex-pairs --time 10,
# which swap, were no better for it (a load of 4 on 2 cores).
SWAPLESS_HEAT = 3.0


@dataclass(frozen=True)
class AnnealState:
    """The chain's current candidate and the best seen on the current bank."""

    current: Scored
    best: Scored
    favoured: tuple[int, ...] | None = None  # the design prior (``prior.favoured``); None until the first step


@dataclass(frozen=True)
class Anneal(OnBank):
    """Simulated annealing with common random numbers: one change a move, temperature falling geometrically."""

    name = "anneal"
    state_type = AnnealState
    bank: BankSchedule = BankSchedule()
    t_start: float = 0.008
    t_end: float = 0.0005
    swap: float = 0.5  # chance a move swaps two faces' designs instead of changing one

    def evaluator(self, problem: Problem, bank_seed: int) -> Search:
        return Search(problem, bank_seed, self.bank.end, self.bank.start)

    def start(self, search: Search, classes: Classes, rng: np.random.Generator) -> AnnealState:
        s = search.full(classes)
        return AnnealState(s, s)

    def step(self, search: Search, state: AnnealState, rng: np.random.Generator, progress: float) -> AnnealState:
        favoured = prior.favoured(search.problem, rng) if state.favoured is None else state.favoured
        search.resize(self.bank.size(progress))
        current = search.refresh(state.current)
        same = state.best is state.current or np.array_equal(state.best.classes, state.current.classes)
        best = current if same else search.refresh(state.best)
        if current.fitness > best.fitness:  # the bank grew and changed its mind
            best = current
        hottest = self.hottest(search.problem)
        temperature = hottest * (self.t_end / hottest) ** progress
        child, changes = mutate(search.problem, current.classes, rng, swap=self.swap, favoured=favoured)
        # Metropolis: accept when value >= current + T log u; drawing u first lets bad moves stop early
        threshold = current.fitness + temperature * math.log(1.0 - rng.random())
        ev = search.evaluate(child, current, changes, threshold)
        if ev.fitness >= threshold:
            current = ev.scored or search.score(child, current, changes)
            if current.fitness > best.fitness:
                best = current
        return AnnealState(current, best, favoured)

    def best(self, state: AnnealState) -> Scored:
        return state.best

    def hottest(self, problem: Problem) -> float:
        """The first temperature: ``t_start``, or ``SWAPLESS_HEAT`` times it for a chain that cannot swap (tiles of
        one face, whose swaps would exchange whole tiles, or ``swap`` 0). Its one-face changes are its only way out
        of a local optimum, and they pass through worse sets."""
        return self.t_start * (1.0 if problem.faces > 1 and self.swap > 0 else SWAPLESS_HEAT)


# --- the Linjat pool ------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolState:
    """The pool's candidates."""

    members: tuple[Scored, ...]


@dataclass(frozen=True)
class Pool(OnBank):
    """Seed 002: keep a pool of candidates; each step mutates a random one and drops the worst."""

    name = "pool"
    state_type = PoolState
    bank: BankSchedule = BankSchedule()
    size: int = 10
    two_sides: float = 0.3  # chance a mutation changes two sides instead of one
    swap: float = 0.5  # chance each change swaps two faces' designs

    def evaluator(self, problem: Problem, bank_seed: int) -> Search:
        return Search(problem, bank_seed, self.bank.end, self.bank.start)

    def start(self, search: Search, classes: Classes, rng: np.random.Generator) -> PoolState:
        members = [search.full(classes)]
        for _ in range(100 * self.size):
            if len(members) >= self.size:
                break
            child, _ = mutate(search.problem, classes, rng, 2)
            ev = search.evaluate(child)
            if ev.scored is not None:  # not one already seen
                members.append(ev.scored)
        return PoolState(tuple(members))

    def step(self, search: Search, state: PoolState, rng: np.random.Generator, progress: float) -> PoolState:
        search.resize(self.bank.size(progress))
        members = [search.refresh(m) for m in state.members]
        parent = members[int(rng.integers(len(members)))]
        child, changes = mutate(
            search.problem, parent.classes, rng, 2 if rng.random() < self.two_sides else 1, swap=self.swap
        )
        worst = min(range(len(members)), key=lambda i: members[i].fitness)
        ev = search.evaluate(child, parent, changes, members[worst].fitness)
        if not ev.cached and ev.fitness > members[worst].fitness:  # a cached one was seen before (seed 003)
            members[worst] = ev.scored or search.score(child, parent, changes)
        return PoolState(tuple(members))

    def best(self, state: PoolState) -> Scored:
        return max(state.members, key=lambda m: m.fitness)


# --- annealed beam --------------------------------------------------------------------------


@dataclass(frozen=True)
class BeamState:
    """The states kept by the last selection."""

    beam: tuple[Scored, ...]


@dataclass(frozen=True)
class Beam(OnBank):
    """Seed 004: expand every state, keep the N largest ``log(random) + c * fitness``; c rises."""

    name = "beam"
    state_type = BeamState
    bank: BankSchedule = BankSchedule()
    width: int = 6
    children: int = 3  # mutations of each state per generation
    c_start: float = 30.0
    c_end: float = 1000.0
    swap: float = 0.5  # chance a child swaps two faces' designs

    def evaluator(self, problem: Problem, bank_seed: int) -> Search:
        return Search(problem, bank_seed, self.bank.end, self.bank.start)

    def start(self, search: Search, classes: Classes, rng: np.random.Generator) -> BeamState:
        return BeamState((search.full(classes),))

    def step(self, search: Search, state: BeamState, rng: np.random.Generator, progress: float) -> BeamState:
        search.resize(self.bank.size(progress))
        beam = [search.refresh(s) for s in state.beam]
        pool = list(beam)
        for parent in beam:
            for _ in range(self.children):
                child, changes = mutate(search.problem, parent.classes, rng, swap=self.swap)
                ev = search.evaluate(child, parent, changes)
                if ev.scored is not None:  # not in the hash table of states already seen
                    pool.append(ev.scored)
        c = self.c_start * (self.c_end / self.c_start) ** progress
        fitness = np.array([s.fitness for s in pool])
        noise = np.log(1.0 - rng.random(len(pool)))  # log u, u in (0, 1]
        order = np.argsort(-(noise + c * (fitness - fitness.max())), kind="stable")
        return BeamState(tuple(pool[i] for i in order[: self.width]))

    def best(self, state: BeamState) -> Scored:
        return max(state.beam, key=lambda s: s.fitness)


STRATEGIES = {"anneal": Anneal(), "pool": Pool(), "beam": Beam(), "ga": GA()}
PRESETS = {"article": ("ga", ARTICLE_GA)}
DEFAULT_STRATEGY = "anneal"


def strategy_named(name: str, preset: str | None = None, samples: int | None = None, max_samples: int | None = None):
    """The strategy called ``name`` (with ``preset`` applied, and its layouts set); errors list the choices."""
    strategy = _named(name, preset)
    if getattr(strategy, "fresh", False):
        return replace(strategy, samples=samples) if samples else strategy
    start = samples or strategy.bank.start
    end = max(max_samples or strategy.bank.end, start)
    return replace(strategy, bank=BankSchedule(start, end))


def _named(name: str, preset: str | None):
    if preset is not None:
        if preset not in PRESETS:
            raise TrailwrightError(f"unknown preset {preset!r} (expected one of {', '.join(PRESETS)})")
        base, strategy = PRESETS[preset]
        if name not in (base, None):
            raise TrailwrightError(f"preset {preset!r} is for strategy {base!r}, not {name!r}")
        return strategy
    if name not in STRATEGIES:
        raise TrailwrightError(f"unknown strategy {name!r} (expected one of {', '.join(STRATEGIES)})")
    return STRATEGIES[name]


__all__ = [
    "STRATEGIES",
    "PRESETS",
    "DEFAULT_STRATEGY",
    "strategy_named",
    "Anneal",
    "Pool",
    "Beam",
    "GA",
    "ARTICLE_GA",
    "BankSchedule",
    "Strategy",
    "dump_state",
    "load_state",
    "mutate",
    "swap_changes_set",
]
