"""The GA's genomes and its deap toolbox (built inside a function).

On the classic game's tiles the genome is the article's: 12 bits a side, 2 for each pair of a hex
side's six ends (480 bits for 20 tiles). Other tile geometries have no such code, so their genome
is each face's design number in binary (``design_bits`` bits a face, most significant first); a number
past the last design stands for the design it wraps to and breaks the rules, costing 1.0 like a
classic side with too many trails.

deap's own operators draw from the global ``random`` module; these draw from the run's
generator, so a seed gives the same run and nothing global is seeded.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from generator.errors import TrailwrightError
from generator.model.genome import BITS_PER_SIDE, decode_side, encode_side
from generator.optimize.space import DESIGNS, Classes, Problem, design_of

_WEIGHTS = 1 << np.arange(BITS_PER_SIDE - 1, -1, -1)


@cache
def _side_designs() -> np.ndarray:
    """The design number of every 12-bit side code (most significant bit first)."""
    table = np.empty(1 << BITS_PER_SIDE, dtype=np.int16)
    for code in range(1 << BITS_PER_SIDE):
        bits = [bool(code >> (BITS_PER_SIDE - 1 - i) & 1) for i in range(BITS_PER_SIDE)]
        table[code] = design_of(decode_side(bits))
    return table


def design_bits(problem: Problem) -> int:
    """The bits of a face's design number on tiles of another geometry than the classic game's."""
    return max(1, (len(problem.space.designs) - 1).bit_length())


def genome_classes(problem: Problem, genome) -> tuple[Classes, int]:
    """The designs a genome decodes to, and how many free sides break the objective's rules."""
    space, free = problem.space, list(problem.free)
    allowed = np.zeros(len(space.designs), dtype=bool)
    allowed[list(problem.allowed)] = True
    if problem.board.geometry.is_classic:
        bits = np.asarray(genome, dtype=np.int64).reshape(-1, BITS_PER_SIDE)
        classes = _side_designs()[bits @ _WEIGHTS].reshape(-1, 2)
        return classes, int((~allowed[classes[free]]).sum())
    width = design_bits(problem)
    bits = np.asarray(genome, dtype=np.int64).reshape(-1, width)
    numbers = (bits @ (1 << np.arange(width - 1, -1, -1))).reshape(-1, space.faces)
    classes = numbers % len(space.designs)
    broken = ~allowed[classes] | (numbers >= len(space.designs))
    return classes, int(broken[free].sum())


def classes_genome(problem: Problem, classes: Classes) -> tuple[bool, ...]:
    """The genome of a set of designs (each side in canonical form)."""
    if not problem.board.geometry.is_classic:
        width = design_bits(problem)
        return tuple(bool(int(k) >> (width - 1 - i) & 1) for k in np.asarray(classes).ravel() for i in range(width))
    bits: list[bool] = []
    for t in range(classes.shape[0]):
        for f in range(2):
            side = DESIGNS[int(classes[t, f])]
            if len(side.trails) > 4:
                raise TrailwrightError(
                    f"tile {problem.start.tiles[t].id!r} has a side with {len(side.trails)} "
                    "trails; the article's genome holds at most 4"
                )
            bits += encode_side(side)
    return tuple(bits)


def restore_pinned(problem: Problem, genome: tuple[bool, ...]) -> tuple[bool, ...]:
    """The genome with the pinned tiles' bits put back."""
    if not problem.pinned:
        return genome
    g = list(genome)
    if not problem.board.geometry.is_classic:
        start = classes_genome(problem, problem.space.classes_of(problem.start))  # a pinned tile's own designs
        per = design_bits(problem) * problem.space.faces
        for t in problem.pinned:
            g[t * per : (t + 1) * per] = start[t * per : (t + 1) * per]
        return tuple(g)
    for t in problem.pinned:
        tile = problem.start.tiles[t]
        bits = encode_side(tile.front.canonical) + encode_side(tile.back.canonical)
        g[t * 2 * BITS_PER_SIDE : (t + 1) * 2 * BITS_PER_SIDE] = bits
    return tuple(g)


def toolbox(rng: np.random.Generator, tournament: int):
    """A deap toolbox whose operators draw from ``rng``; returns it and the Individual maker."""
    from deap import base, creator, tools

    if not hasattr(creator, "TrailwrightFitness"):
        creator.create("TrailwrightFitness", base.Fitness, weights=(1.0,))
        creator.create("TrailwrightIndividual", list, fitness=creator.TrailwrightFitness)

    def select(population, k):
        """Tournaments of ``tournament`` contestants drawn with replacement."""
        chosen = []
        for _ in range(k):
            contestants = [population[int(i)] for i in rng.integers(len(population), size=tournament)]
            chosen.append(max(contestants, key=lambda ind: ind.fitness.values[0]))
        return chosen

    def mate(a, b):
        """One-point crossover (moo's ``onePointCrossover``)."""
        cut = int(rng.integers(1, len(a)))
        a[cut:], b[cut:] = b[cut:], a[cut:]
        return a, b

    def mutate(ind):
        """Flip one random bit (moo's ``pointMutate``)."""
        i = int(rng.integers(len(ind)))
        ind[i] = not ind[i]
        return (ind,)

    tb = base.Toolbox()
    tb.register("best", tools.selBest)
    tb.register("select", select)
    tb.register("mate", mate)
    tb.register("mutate", mutate)

    return tb, creator.TrailwrightIndividual
