"""Search strategies, interchangeable and chosen by name (``STRATEGIES``).

Every strategy has the same shape: ``evaluator(problem, bank_seed)`` builds what scores its
candidates, ``start(search, classes, rng)`` makes its state from a start, ``step(search, state,
rng, progress)`` runs one generation (``progress`` goes from 0 to 1 over the budget) and
``best(search, state)`` names the best candidate so far. States are plain picklable values, so
a checkpoint is the state, the random generator's state and the evaluator's cache.

anneal  simulated annealing over designs on a growing bank (the default). A move changes one
        side's design or swaps two sides' designs between tiles (``mutate``).
pool    the Linjat optimiser (seed 002): a pool of candidates; mutate one, drop the worst.
beam    annealed beam selection (seed 004): keep the N best by ``random * exp(c * fitness)``.
ga      a genetic algorithm on deap over the article's 480-bit genome (``preset="article"``:
        the article's set-up exactly, with fresh layouts for every evaluation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from generator.optimize.search import FreshScorer, Scored, Search
from generator.optimize.space import Classes, Problem, key


@dataclass(frozen=True)
class BankSchedule:
    """A bank that grows geometrically from ``start`` to ``end`` layouts over the budget."""

    start: int = 2_000
    end: int = 120_000

    def size(self, progress: float) -> int:
        """The bank size at ``progress`` (0..1), in steps of 1,000 layouts once past 1,000."""
        raw = self.start * (self.end / self.start) ** min(max(progress, 0.0), 1.0)
        return int(raw) if raw < 1000 else int(raw // 1000 * 1000)


def mutate(problem: Problem, classes: Classes, rng: np.random.Generator, sides: int = 1, swap: float = 0.0):
    """A copy of ``classes`` with ``sides`` changes, and the (tile, face) changed.

    A change gives a free face another allowed design or, with chance ``swap``, exchanges the
    designs of two faces on different free tiles. A swap keeps the designs used (so bridges and
    dupScore) and changes only which designs share a tile; good sets differ mostly in that
    pairing, which one-face changes reach only through worse sets.
    """
    child = classes.copy()
    free = problem.free
    changes = []
    for _ in range(sides):
        t = free[int(rng.integers(len(free)))]
        f = int(rng.integers(2))
        if swap and rng.random() < swap:
            other = _swap_partner(child, free, t, f, rng)
            if other is not None:
                u, g = other
                child[t, f], child[u, g] = child[u, g], child[t, f]
                changes += [(t, f), (u, g)]
                continue
        options = [d for d in problem.allowed if d != child[t, f]]
        child[t, f] = options[int(rng.integers(len(options)))]
        changes.append((t, f))
    return child, changes


def swap_changes_set(classes: Classes, t: int, f: int, u: int, g: int) -> bool:
    """Whether swapping the designs of (``t``, ``f``) and (``u``, ``g``) gives another set.

    It does only when the two designs differ and so do the faces left in place (else it swaps
    the tiles whole, which a layout does anyway).
    """
    return classes[t, f] != classes[u, g] and classes[t, 1 - f] != classes[u, 1 - g]


def _swap_partner(classes: Classes, free, t: int, f: int, rng: np.random.Generator):
    """A face of another free tile whose swap with (``t``, ``f``) changes the set, or ``None``."""
    options = [(u, g) for u in free if u != t for g in range(2) if swap_changes_set(classes, t, f, u, g)]
    return options[int(rng.integers(len(options)))] if options else None


# --- annealing ------------------------------------------------------------------------------


@dataclass
class AnnealState:
    """The chain's current candidate and the best seen on the current bank."""

    current: Scored
    best: Scored


@dataclass(frozen=True)
class Anneal:
    """Simulated annealing with common random numbers: one change a move, temperature falling geometrically."""

    name = "anneal"
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
        search.resize(self.bank.size(progress))
        current = search.refresh(state.current)
        best = current if state.best is state.current else search.refresh(state.best)
        if current.fitness > best.fitness:  # the bank grew and changed its mind
            best = current
        temperature = self.t_start * (self.t_end / self.t_start) ** progress
        child, changes = mutate(search.problem, current.classes, rng, swap=self.swap)
        # Metropolis: accept when value >= current + T log u; drawing u first lets bad moves stop early
        threshold = current.fitness + temperature * math.log(1.0 - rng.random())
        value = search.fitness(current, child, changes, threshold)
        if value >= threshold:
            current = search.scored(current, child, changes)
            if current.fitness > best.fitness:
                best = current
        return AnnealState(current, best)

    def best(self, search: Search, state: AnnealState) -> Scored:
        return state.best


# --- the Linjat pool ------------------------------------------------------------------------


@dataclass
class PoolState:
    """The pool's candidates."""

    members: list[Scored]


@dataclass(frozen=True)
class Pool:
    """Seed 002: keep a pool of candidates; each step mutates a random one and drops the worst."""

    name = "pool"
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
            if key(child) not in search.cache:
                search.fitness(None, child, ())
                members.append(search.scored(None, child, ()))
        return PoolState(members)

    def step(self, search: Search, state: PoolState, rng: np.random.Generator, progress: float) -> PoolState:
        search.resize(self.bank.size(progress))
        members = [search.refresh(m) for m in state.members]
        parent = members[int(rng.integers(len(members)))]
        child, changes = mutate(search.problem, parent.classes, rng, 2 if rng.random() < self.two_sides else 1,
                                swap=self.swap)
        if key(child) in search.cache:  # seen before: the hash table of seed 003
            search.hits += 1
            return PoolState(members)
        worst = min(range(len(members)), key=lambda i: members[i].fitness)
        value = search.fitness(parent, child, changes, members[worst].fitness)
        if value > members[worst].fitness:
            members[worst] = search.scored(parent, child, changes)
        return PoolState(members)

    def best(self, search: Search, state: PoolState) -> Scored:
        return max(state.members, key=lambda m: m.fitness)


# --- annealed beam --------------------------------------------------------------------------


@dataclass
class BeamState:
    """The states kept by the last selection."""

    beam: list[Scored]


@dataclass(frozen=True)
class Beam:
    """Seed 004: expand every state, keep the N largest ``log(random) + c * fitness``; c rises."""

    name = "beam"
    bank: BankSchedule = BankSchedule()
    width: int = 6
    children: int = 3  # mutations of each state per generation
    c_start: float = 30.0
    c_end: float = 1000.0
    swap: float = 0.5  # chance a child swaps two faces' designs

    def evaluator(self, problem: Problem, bank_seed: int) -> Search:
        return Search(problem, bank_seed, self.bank.end, self.bank.start)

    def start(self, search: Search, classes: Classes, rng: np.random.Generator) -> BeamState:
        return BeamState([search.full(classes)])

    def step(self, search: Search, state: BeamState, rng: np.random.Generator, progress: float) -> BeamState:
        search.resize(self.bank.size(progress))
        beam = [search.refresh(s) for s in state.beam]
        pool = list(beam)
        for parent in beam:
            for _ in range(self.children):
                child, changes = mutate(search.problem, parent.classes, rng, swap=self.swap)
                if key(child) in search.cache:  # the hash table of states already seen
                    search.hits += 1
                    continue
                search.fitness(parent, child, changes)
                pool.append(search.scored(parent, child, changes))
        c = self.c_start * (self.c_end / self.c_start) ** progress
        fitness = np.array([s.fitness for s in pool])
        noise = np.log(1.0 - rng.random(len(pool)))  # log u, u in (0, 1]
        order = np.argsort(-(noise + c * (fitness - fitness.max())), kind="stable")
        return BeamState([pool[i] for i in order[: self.width]])

    def best(self, search: Search, state: BeamState) -> Scored:
        return max(state.beam, key=lambda s: s.fitness)


# --- the genetic algorithm (deap) -----------------------------------------------------------


@dataclass
class GAState:
    """The population, as plain genomes and fitnesses (deap individuals are rebuilt each step)."""

    population: list[tuple[tuple[bool, ...], float]]  # genome and fitness


@dataclass(frozen=True)
class GA:
    """A generational GA on deap over the article's 480-bit genome.

    By default candidates are scored on a growing shared bank; ``fresh`` scores every new
    genome on its own ``samples`` new layouts, as the article did. Sides that break the
    objective's rules (forbidden, too many trails) cost 1.0 each; pinned tiles are restored
    after crossover and mutation.
    """

    name = "ga"
    bank: BankSchedule = BankSchedule()
    population: int = 20
    elites: int = 5
    tournament: int = 2
    crossover: float = 0.5  # chance a pair of parents is crossed at one point
    mutation: float = 0.5  # chance one random bit of a child flips
    fresh: bool = False
    samples: int = 500  # layouts per evaluation when ``fresh``

    def evaluator(self, problem: Problem, bank_seed: int):
        if self.fresh:
            return FreshScorer(problem, self.samples)
        return Search(problem, bank_seed, self.bank.end, self.bank.start)

    def _evaluate(self, search, genome, rng) -> float:
        from generator.optimize.genomes import genome_classes

        classes, violations = genome_classes(search.problem, genome)
        if isinstance(search, FreshScorer):
            value = search.fitness(classes, int(rng.integers(2**63)))
        else:
            value = search.fitness(None, classes, ())
        return value - violations

    def start(self, search, classes: Classes, rng: np.random.Generator) -> GAState:
        from generator.optimize.genomes import classes_genome

        first = classes_genome(search.problem, classes)
        value = self._evaluate(search, first, rng)
        return GAState([(first, value)] * self.population)  # the article's ``initialize``: copies of the start

    def step(self, search, state: GAState, rng: np.random.Generator, progress: float) -> GAState:
        from generator.optimize.genomes import restore_pinned, toolbox

        search.resize(self.bank.size(progress))
        tb, individual = toolbox(rng, self.tournament)
        population = []
        for genome, value in state.population:
            ind = individual(genome)
            # on a bank, the cache gives the value on the current bank (scored again after it grows)
            ind.fitness.values = (value if self.fresh else self._evaluate(search, genome, rng),)
            population.append(ind)
        elites = tb.best(population, self.elites)
        parents = tb.select(population, self.population - self.elites)
        children = [individual(p) for p in parents]
        for a, b in zip(children[::2], children[1::2]):
            if rng.random() < self.crossover:
                tb.mate(a, b)
        for c in children:
            if rng.random() < self.mutation:
                tb.mutate(c)
        result = [(tuple(e), e.fitness.values[0]) for e in elites]
        for c in children:
            genome = restore_pinned(search.problem, tuple(c))
            result.append((genome, self._evaluate(search, genome, rng)))
        return GAState(result)

    def best(self, search, state: GAState) -> Scored:
        from generator.optimize.genomes import genome_classes

        genome, value = max(state.population, key=lambda p: p[1])
        return Scored(genome_classes(search.problem, genome)[0], value, search.size)


ARTICLE_GA = GA(population=20, elites=5, tournament=2, crossover=0.5, mutation=0.5, fresh=True, samples=500)

STRATEGIES = {"anneal": Anneal(), "pool": Pool(), "beam": Beam(), "ga": GA()}
PRESETS = {"article": ("ga", ARTICLE_GA)}
DEFAULT_STRATEGY = "anneal"


def strategy_named(name: str, preset: str | None = None, samples: int | None = None,
                   max_samples: int | None = None):
    """The strategy called ``name`` (with ``preset`` applied, and its layouts set); errors list the choices."""
    strategy = _named(name, preset)
    if getattr(strategy, "fresh", False):
        return replace(strategy, samples=samples) if samples else strategy
    start = samples or strategy.bank.start
    end = max(max_samples or strategy.bank.end, start)
    return replace(strategy, bank=BankSchedule(start, end))


def _named(name: str, preset: str | None):
    from generator.errors import TrailwrightError

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


__all__ = ["STRATEGIES", "PRESETS", "DEFAULT_STRATEGY", "strategy_named", "Anneal", "Pool", "Beam", "GA",
           "ARTICLE_GA", "BankSchedule", "mutate", "swap_changes_set"]
