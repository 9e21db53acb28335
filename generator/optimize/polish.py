"""The final polish: the winner's whole neighbourhood searched on large common banks of layouts, spread over
every worker, taking the best clear improvement and repeating while there is one.

Glossary
--------
neighbourhood  every other allowed design for each free side, and every swap of two free sides' designs that
               changes the set (``check.neighbours``). A side's turn is no move: a tile is laid at a random
               turn, so it never changes a layout's chances.
screen         every neighbour judged against the set on ``screen`` layouts: by holes (``optimize.screen``:
               all of them at once, over the moved tiles' turns, each worker taking every ``workers``-th
               piece of the layouts) when the fitness allows, else each scored on one bank, each worker
               taking every ``workers``-th neighbour, the clearly worse stopping early (``check.check_local``).
confirm        the best few of the screen scored again, exactly, on a second, larger and independent bank
               (each worker taking every ``workers``-th): a gain seen there is not the screen's luck of the
               draw (the best of two thousand noisy gains is optimistic). A neighbour is clear when it gains
               more than two standard errors of the paired difference there.
take           the clear neighbours, best first, each unless it shares a tile with one taken before, or (a
               one-side change) a design it removes or adds: such changes add up, where two that each remove
               a copy of one design would not.
round          one screen, its confirmation and what it takes; the polish stops after a round that takes
               nothing, or after ``rounds`` rounds. With a ``deadline`` it goes on (on fresh layouts) until
               it is reached; a round that would end after it screens fewer layouts, so as to fit (``_fitted``),
               and one the deadline overtakes all the same (a machine that slows down) stops there: each worker
               looks at the clock between neighbours, pieces of layouts and candidates, and the round is
               dropped, taking nothing (the set stays as the rounds before it left it, never worse).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator.model import TileSet
from generator.optimize import screen as hole_screen
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


def screen_part(
    problem: Problem, tileset: TileSet, samples: int, seed: int, part: int, parts: int, until: float | None = None
):
    """One worker's share of a screen by scoring: (its neighbours screened, those not clearly worse); None when
    the ``time.time()`` ``until`` passes first."""
    check = check_local(problem, tileset, samples, seed, part=part, parts=parts, until=until)
    return None if check is None else (check.neighbours, check.close)


def confirm_part(
    problem: Problem,
    tileset: TileSet,
    candidates,
    samples: int,
    seed: int,
    part: int,
    parts: int,
    until: float | None = None,
):
    """Every ``parts``-th of ``candidates`` (from the ``part``-th) scored again against ``tileset`` on ``samples``
    fresh layouts from ``seed``: [(index, neighbour)]; None when the ``time.time()`` ``until`` passes first."""
    if until is not None and time.time() > until:
        return None
    bank = Paired(problem, tileset, samples, seed)
    out = []
    for k, c in list(enumerate(candidates))[part::parts]:
        if until is not None and time.time() > until:
            return None
        out.append((k, bank.neighbour(c.changes)))
    return out


def _screen(problem: Problem, tileset: TileSet, samples: int, seed: int, run: Callable, workers: int, until=None):
    """(neighbours screened, those whose screened gain is positive, best first); None when ``until`` came first."""
    if hole_screen.applies(problem):
        shares = run(
            functools.partial(hole_screen.screen_part, until=until), problem, tileset, samples, seed, parts=workers
        )
        if None in shares:
            return None
        found = hole_screen.screened(problem, tileset, samples, shares)
        tried = len(found)
    else:
        shares = run(functools.partial(screen_part, until=until), problem, tileset, samples, seed, parts=workers)
        if None in shares:
            return None
        tried, found = sum(n for n, _ in shares), [c for _, close in shares for c in close]
    return tried, sorted((c for c in found if c.gain > 0), key=lambda c: (-c.gain, c.changes))


def _confirmed(problem, tileset, candidates, samples: int, seed: int, run: Callable, workers: int, until=None):
    """``candidates`` scored again, in their order, over the workers (see ``confirm_part``); None when ``until``
    came first."""
    confirm = functools.partial(confirm_part, until=until)
    parts = run(confirm, problem, tileset, candidates, samples, seed, parts=min(workers, len(candidates)))
    if None in parts:
        return None
    return [n for _, n in sorted((p for share in parts for p in share), key=lambda p: p[0])]


def taken(clear: list[Neighbour], classes: np.ndarray) -> list[Neighbour]:
    """The clear neighbours a round takes (the glossary's *take*), best first."""
    out: list[Neighbour] = []
    tiles: set[int] = set()
    designs: set[int] = set()
    for c in sorted(clear, key=lambda c: (-c.gain, c.changes)):
        moved = {t for t, _, _ in c.changes}
        (t, f, d), *swap = c.changes
        changed = set() if swap else {d, int(classes[t, f])}
        if moved & tiles or changed & designs:
            continue
        out.append(c)
        tiles |= moved
        designs |= changed
    return out


def here(f: Callable, *args, parts: int) -> list:
    """Every part of ``f`` run in this process, in order (``polish``'s ``run`` without a cluster)."""
    return [f(*args, part, parts) for part in range(parts)]


def on_cluster(client) -> Callable:
    """``polish``'s ``run`` on a Dask client: one task per part, results in part order."""

    def run(f: Callable, *args, parts: int) -> list:
        return client.gather([client.submit(f, *args, part, parts, pure=False) for part in range(parts)])

    return run


def _fitted(screen: int, took: float, left: float | None) -> int:
    """The screen of the next round: ``screen`` layouts, or, when the last round took longer than the time
    ``left``, as many fewer as fit in it (none when under a quarter would: too few to see a gain)."""
    if left is None:
        return screen
    if left <= 0:
        return 0
    share = min(1.0, left / took) if took > 0 else 1.0
    return round(screen * share) if share >= 0.25 else 0


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
    deadline: float | None = None,
) -> Polished:
    """Polish ``tileset`` (see the module glossary): screens of ``screen`` layouts, confirmed on ten times as many.

    ``run(f, *args, parts=workers)`` runs ``f(*args, part, parts)`` for every part and returns the results in
    order (``here``, or ``on_cluster``); the same seed gives the same polish whatever the number of workers.
    ``deadline`` is a ``time.perf_counter()`` time (the workers read it as the same moment of ``time.time()``).
    ``on_round(k)`` is called as round ``k`` begins and ``on_step(step)`` as a step is taken.
    """
    steps: list[Step] = []
    tried = 0
    done = 0
    classes = classes_of(tileset)
    took = 0.0
    for done in range(1, rounds + 1):
        began = time.perf_counter()
        layouts = _fitted(screen, took, None if deadline is None else deadline - began)
        if (stop is not None and stop.is_set()) or not layouts:
            done -= 1
            break
        on_round(done)
        until = None if deadline is None else time.time() + deadline - time.perf_counter()
        screened = _screen(problem, tileset, layouts, seed + done, run, workers, until)
        if screened is None:
            done -= 1
            break
        count, close = screened
        tried += count
        checked = _confirmed(problem, tileset, close[:CONFIRMED], 10 * layouts, seed + 1000 + done, run, workers, until)
        if checked is None:
            done -= 1
            break
        chosen = taken([c for c in checked if c.gain > 2 * c.gain_se], classes)
        took = time.perf_counter() - began
        if not chosen and deadline is None:
            break
        classes = classes.copy()
        for best in chosen:
            for t, f, d in best.changes:
                classes[t, f] = d
            steps.append(Step(describe(problem, best), best.gain, best.gain_se))
            on_step(steps[-1])
        tileset = to_tileset(problem, classes)
    return Polished(tileset, classes, tuple(steps), done, tried)
