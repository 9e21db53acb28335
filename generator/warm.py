"""Every compiled kernel, warmed before it is needed: compiled once into numba's disk cache (``jitcache``), or
loaded from it.

Glossary
--------
group     kernels by what uses them (``GROUPS``): the scoring kernel (``score``), the search's, the polish's
          holes and screen, the play engine, the game measures, the bots. A group is warmed by
          running its kernels on a tiny input, so every signature a real run uses is compiled.
cold      a group whose kernels have no index in the disk cache for these sources (``is_cold``): calling
          them compiles first. Cheap to tell: a look at a few files.
warm_all  every group at once, in a pool of processes (``make install`` runs it over the cores: the
          groups compile in parallel, and every later process, a Dask worker included, loads them).
warm      some groups, in this process (a server's background thread at start: ``warm("scoring", "bots")``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Group:
    """Kernels compiled together: what to call them in a message, about how long they take to compile on one
    core of a small machine (measured on a busy 2-core one, halved), and their entry points (module, function:
    numba dispatchers)."""

    what: str
    seconds: int
    entries: tuple[tuple[str, str], ...]


GROUPS: dict[str, Group] = {
    "scoring": Group("the scoring kernel", 15, (("generator.scoring.kernel", "_accumulate"),)),
    "search": Group(
        "the search's kernels",
        20,
        (
            ("generator.scoring.kernel", "_sample_and_score"),
            ("generator.scoring.kernel", "_score_given"),
            ("generator.scoring.layouts", "_sample"),
        ),
    ),
    "polish": Group(
        "the polish's screen",
        15,
        (("generator.scoring.holes", "_values"), ("generator.optimize.screen", "_add")),
    ),
    "play": Group("the play engine", 30, (("generator.play.fast", "play_games"),)),
    "measures": Group("the game measures", 10, (("generator.play.fastmeasures", "measure_rows"),)),
    "bots": Group("the bots", 5, (("generator.play.fastbot", "choose"),)),
}


def _dispatchers(name: str) -> list:
    import importlib

    return [getattr(importlib.import_module(module), function) for module, function in GROUPS[name].entries]


def is_cold(name: str) -> bool:
    """Whether using group ``name`` now would compile it (no cached code for these sources)."""
    from generator.jitcache import is_cold as cold

    return any(cold(d) for d in _dispatchers(name))


def announce(names: Iterable[str], stream: TextIO | None = None) -> list[str]:
    """Say once on ``stream`` (stderr) which of groups ``names`` must compile now, and about how long it takes;
    returns those groups. Nothing when all are cached."""
    cold = [n for n in dict.fromkeys(names) if is_cold(n)]
    if cold:
        what = " and ".join(GROUPS[n].what for n in cold)
        seconds = sum(GROUPS[n].seconds for n in cold)
        print(f"compiling {what}, once: about {seconds} s", file=stream or sys.stderr, flush=True)
    return cold


def _sample_problem():
    """The classic board, the article's objective and a fixed random tile set."""
    import numpy as np

    from generator.board import load_board
    from generator.optimize.space import DESIGN_TABLES, make_problem, random_tileset
    from generator.scoring import ARTICLE

    board = load_board("classic")
    tiles = random_tileset(board.tile_count, tuple(range(len(DESIGN_TABLES))), np.random.default_rng(0))
    return board, tiles, make_problem(board, ARTICLE, tiles)


def _warm_scoring() -> None:
    from generator.scoring import layout_counts

    board, tiles, _ = _sample_problem()
    layout_counts(tiles, board, 8, 0)


def _warm_search() -> None:
    from generator.scoring import warm_up

    board, _, _ = _sample_problem()
    warm_up(board)


def _warm_polish() -> None:
    from generator.optimize.screen import screen_part
    from generator.optimize.space import DESIGN_TABLES
    from generator.scoring import warm_up

    board, tiles, problem = _sample_problem()
    warm_up(board, DESIGN_TABLES)
    screen_part(problem, tiles, 8, 0, 0, 1)


def _warm_play(measured: bool) -> None:
    from generator.play import default_rules
    from generator.play.simulate import simulate

    board, tiles, _ = _sample_problem()
    rules = default_rules(board)
    simulate(tiles, board, rules, 2, 2, ("explorer", "greedy"), measured=2 if measured else 0)


def _warm_bots() -> None:
    from generator.play import default_rules
    from generator.play.fastbot import FastBots
    from generator.play.game import geometry
    from generator.play.match import Match
    from generator.play.policies import POLICIES

    board, tiles, _ = _sample_problem()
    rules = default_rules(board)
    bots, match = FastBots(tiles, board, rules), Match(tiles, geometry(board, rules), rules, 2, seed=0)
    seats = ("explorer", "greedy")
    for _ in range(400):  # a few rounds: every kind of choice and every helper the bots call
        if match.over:
            break
        match.act(bots.next_action(match, POLICIES[seats[match.current]]))


WARMERS: dict[str, Callable[[], None]] = {
    "scoring": _warm_scoring,
    "search": _warm_search,
    "polish": _warm_polish,
    "play": lambda: _warm_play(False),
    "measures": lambda: _warm_play(True),
    "bots": _warm_bots,
}


# warm_all's jobs, the longest first: a job's groups are warmed one after the other in one process, so that no two
# processes compile the same kernel at once (the measures replay games with the play engine's functions)
JOBS = (("play", "measures"), ("scoring", "search", "polish"), ("bots",))


def warm(*names: str) -> dict[str, float]:
    """Compile (or load) the kernels of groups ``names``, in order; the seconds each took."""
    took = {}
    for name in names:
        began = time.perf_counter()
        WARMERS[name]()
        took[name] = time.perf_counter() - began
    return took


def _warm_job(names: tuple[str, ...]) -> dict[str, float]:
    return warm(*names)


def warm_all(workers: int | None = None) -> dict[str, float]:
    """Warm every group, ``JOBS`` spread over ``workers`` processes (default: the available cores); the seconds
    each group took."""
    from generator.scoring.stream import available_cores

    workers = max(1, min(workers or available_cores(), len(JOBS)))
    if workers == 1:
        return warm(*(name for job in JOBS for name in job))
    import multiprocessing

    took: dict[str, float] = {}
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for part in pool.map(_warm_job, JOBS):
            took.update(part)
    return took


def main(argv: list[str] | None = None) -> int:
    """``python -m generator.warm [WORKERS]``: warm every kernel, saying where the cache is and what took how long."""
    import os

    from generator.jitcache import ENV

    argv = sys.argv[1:] if argv is None else argv
    workers = int(argv[0]) if argv else None
    print(f"kernels: compiling any not yet in {os.environ[ENV]} (once a version, on every core)", flush=True)
    began = time.perf_counter()
    times = warm_all(workers)
    each = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in times.items())
    print(f"kernels ready in {time.perf_counter() - began:.0f} s ({each})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
