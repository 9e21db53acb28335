"""The final polish: the winner's whole neighbourhood searched on large common banks of layouts, spread over
every worker, taking the best clear improvement and repeating while there is one.

Glossary
--------
neighbourhood  every other allowed design for each free side, and every swap of two free sides' designs that
               changes the set (``check.neighbours``). A side's turn is no move: a tile is laid at a random
               turn, so it never changes a layout's chances.
screen         every neighbour scored against the set on one bank (``screen`` layouts), each worker taking every
               ``workers``-th neighbour; the clearly worse stop early (``check.check_local``).
confirm        the best few of the screen scored again on a second, larger and independent bank: a gain seen
               there is not the screen's luck of the draw (the best of two thousand noisy gains is optimistic).
               A neighbour is taken when it gains more than two standard errors of the paired difference there.
round          one screen and its confirmation; the polish stops after a round that takes nothing, or after
               ``rounds`` rounds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator.model import TileSet
from generator.optimize.check import Neighbour, Paired, check_local, describe
from generator.optimize.space import Problem, classes_of, to_tileset

CONFIRMED = 16  # neighbours of a screen confirmed on the larger bank


@dataclass(frozen=True)
class Step:
    """One neighbour the polish took: what it changed, and its gain on the confirming bank with that gain's error."""

    change: str
    gain: float
    gain_se: float


@dataclass(frozen=True)
class Polished:
    """The polished set and the steps that made it."""

    tileset: TileSet
    classes: np.ndarray  # the same set as designs
    steps: tuple[Step, ...]
    rounds: int
    neighbours: int  # neighbours screened in all


def screen_part(problem: Problem, tileset: TileSet, samples: int, seed: int, part: int, parts: int):
    """One worker's share of a screen: (its neighbours screened, those not clearly worse)."""
    check = check_local(problem, tileset, samples, seed, part=part, parts=parts)
    return check.neighbours, check.close


def confirm(problem: Problem, tileset: TileSet, candidates, samples: int, seed: int) -> list[Neighbour]:
    """``candidates`` (neighbours) scored again against ``tileset`` on ``samples`` fresh layouts from ``seed``."""
    bank = Paired(problem, tileset, samples, seed)
    return [bank.neighbour(n.changes) for n in candidates]


def here(f: Callable, *args, parts: int) -> list:
    """Every part of ``f`` run in this process, in order (``polish``'s ``run`` without a cluster)."""
    return [f(*args, part, parts) for part in range(parts)]


def on_cluster(client) -> Callable:
    """``polish``'s ``run`` on a Dask client: one task per part, results in part order."""

    def run(f: Callable, *args, parts: int) -> list:
        return client.gather([client.submit(f, *args, part, parts, pure=False) for part in range(parts)])

    return run


def polish(
    problem: Problem,
    tileset: TileSet,
    screen: int,
    seed: int,
    run: Callable = here,
    workers: int = 1,
    rounds: int = 8,
    on_step: Callable[[Step], None] = lambda s: None,
    stop: threading.Event | None = None,
    on_round: Callable[[int], None] = lambda r: None,
) -> Polished:
    """Polish ``tileset`` (see the module glossary): screens of ``screen`` layouts, confirmed on ten times as many.

    ``run(f, *args, parts=workers)`` runs ``f(*args, part, parts)`` for every part and returns the results in
    order (``here``, or ``on_cluster``); the same seed gives the same polish whatever the number of workers.
    ``on_round(k)`` is called as round ``k`` begins and ``on_step(step)`` as a step is taken.
    """
    steps: list[Step] = []
    tried = 0
    done = 0
    classes = classes_of(tileset)
    for done in range(1, rounds + 1):
        if stop is not None and stop.is_set():
            break
        on_round(done)
        shares = run(screen_part, problem, tileset, screen, seed + done, parts=workers)
        tried += sum(n for n, _ in shares)
        close = sorted((c for _, found in shares for c in found if c.gain > 0), key=lambda c: (-c.gain, c.changes))
        if not close:
            break
        checked = confirm(problem, tileset, close[:CONFIRMED], 10 * screen, seed + 1000 + done)
        clear = [c for c in checked if c.gain > 2 * c.gain_se]
        if not clear:
            break
        best = max(clear, key=lambda c: (c.gain, [-x for t in c.changes for x in t]))
        classes = classes.copy()
        for t, f, d in best.changes:
            classes[t, f] = d
        steps.append(Step(describe(problem, best), best.gain, best.gain_se))
        on_step(steps[-1])
        tileset = to_tileset(problem, classes)
    return Polished(tileset, classes, tuple(steps), done, tried)
