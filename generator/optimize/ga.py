"""The genetic algorithm strategy (``ga``): a generational GA on deap over the article's 480-bit genome, and the
article's set-up exactly (``ARTICLE_GA``, ``preset="article"``). The genome itself is ``optimize.genomes``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.optimize.search import BankSchedule, Evaluator, FreshScorer, Scored, Search
from generator.optimize.space import Classes, Problem


@dataclass(frozen=True)
class GAState:
    """The population: genomes (as "0"/"1" text) and each one's designs and fitness (deap rebuilds each step)."""

    genomes: tuple[str, ...]
    members: tuple[Scored, ...]  # fitness less 1.0 for each side that breaks the rules


@dataclass(frozen=True)
class GA:
    """A generational GA on deap over the article's 480-bit genome (other tiles: each face's design number in
    binary, ``generator.optimize.genomes``).

    By default candidates are scored on a growing shared bank; ``fresh`` scores every new
    genome on its own ``samples`` new layouts, as the article did. Sides that break the
    objective's rules (forbidden, too many trails) cost 1.0 each; pinned tiles are restored
    after crossover and mutation.
    """

    name = "ga"
    # by the clock, not OnBank: its progress moves only the bank, and evolution needs generations (docs/optimize.md)
    time_warp = 1.0
    state_type = GAState
    bank: BankSchedule = BankSchedule()
    population: int = 20
    elites: int = 5
    tournament: int = 2
    crossover: float = 0.5  # chance a pair of parents is crossed at one point
    mutation: float = 0.5  # chance one random bit of a child flips
    fresh: bool = False
    samples: int = 500  # layouts per evaluation when ``fresh``

    def evaluator(self, problem: Problem, seed: int) -> Evaluator:
        if self.fresh:
            return FreshScorer(problem, seed, self.samples)
        return Search(problem, seed, self.bank.end, self.bank.start)

    @staticmethod
    def _evaluate(search: Evaluator, genome: tuple[bool, ...]) -> Scored:
        from generator.optimize.genomes import genome_classes

        classes, violations = genome_classes(search.problem, genome)
        return Scored(classes, search.evaluate(classes).fitness - violations, search.size)

    def start(self, search: Evaluator, classes: Classes, rng: np.random.Generator) -> GAState:
        from generator.optimize.genomes import classes_genome

        first = classes_genome(search.problem, classes)
        member = self._evaluate(search, first)
        # the article's ``initialize``: copies of the start
        return GAState((_bits(first),) * self.population, (member,) * self.population)

    def step(self, search: Evaluator, state: GAState, rng: np.random.Generator, progress: float) -> GAState:
        from generator.optimize.genomes import restore_pinned, toolbox

        search.resize(self.bank.size(progress))
        tb, individual = toolbox(rng, self.tournament)
        population = []
        for text in state.genomes:
            ind = individual(_genome(text))
            # the cache gives the value on the current bank (scored again after it grows)
            ind.fitness.values = (self._evaluate(search, tuple(ind)).fitness,)
            population.append(ind)
        elites = tb.best(population, self.elites)
        parents = tb.select(population, self.population - self.elites)
        children = [individual(p) for p in parents]
        for a, b in zip(children[::2], children[1::2], strict=False):
            if rng.random() < self.crossover:
                tb.mate(a, b)
        for c in children:
            if rng.random() < self.mutation:
                tb.mutate(c)
        genomes = [tuple(e) for e in elites] + [restore_pinned(search.problem, tuple(c)) for c in children]
        return GAState(tuple(_bits(g) for g in genomes), tuple(self._evaluate(search, g) for g in genomes))

    def best(self, state: GAState) -> Scored:
        return max(state.members, key=lambda m: m.fitness)


def _bits(genome: tuple[bool, ...]) -> str:
    return "".join("1" if b else "0" for b in genome)


def _genome(text: str) -> tuple[bool, ...]:
    return tuple(c == "1" for c in text)


ARTICLE_GA = GA(population=20, elites=5, tournament=2, crossover=0.5, mutation=0.5, fresh=True, samples=500)
