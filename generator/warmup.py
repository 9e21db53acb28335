"""The warm-up: every compiled kernel run once on a tiny input, so it is compiled into numba's disk cache
(``jitcache``) or loaded from it, and the bytecode of what a run imports, written ahead over the cores.

It runs the stages it warms (scoring, play, optimize), so it stands above them; the groups it warms and whether
each is cold are ``generator.warm``'s, which every stage may ask.

Glossary
--------
chain     groups that share compiled functions (``CHAINS``: the measures replay games with the play engine's
          functions, the search and the polish call the scoring kernel's helpers), warmed one after the other in
          one process, so that no two processes compile the same function at once.
bytecode  the Python bytecode of what a run imports (``runtime_sources``: the packages Trailwright requires, their
          tests left out, and ``generator`` itself; with an extra, such as the tests' tools where ``make install``
          puts them, what that extra requires too), written once by the install (``compile_bytecode``) rather
          than every package's (a third of the files are tests and tools a run never imports) or, where
          ``PYTHONDONTWRITEBYTECODE`` is set, compiled again in every process.
warm_all  the bytecode, then every chain, in a pool of processes (``make install`` runs it over the cores), the
          longest chain first: each process takes the next as it finishes one, so the cores finish together, and
          every later process, a Dask worker included, loads the kernels.
warm      some groups, in this process (``warm("scoring", "bots")``).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.warm import GROUPS


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


# warm_all's chains (see the glossary); a process warms a chain's groups in this order
CHAINS = (("play", "measures"), ("scoring", "search", "polish"), ("bots",))
BYTECODE_SECONDS = 8  # about how long the bytecode takes to compile on one core (CPU seconds, as ``Group.seconds``)


def warm(*names: str) -> dict[str, float]:
    """Compile (or load) the kernels of groups ``names``, in order; the seconds each took."""
    took = {}
    for name in names:
        began = time.perf_counter()
        WARMERS[name]()
        took[name] = time.perf_counter() - began
    return took


def _requirements(dist, extras: set[str]) -> Iterator[tuple[str, set[str]]]:
    """The distributions ``dist`` requires with ``extras`` (no extra of its own: not the tests'), and their extras."""
    from packaging.requirements import Requirement

    for line in dist.requires or ():
        req = Requirement(line)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in extras | {""}):
            yield req.name, set(req.extras)


def runtime_sources(top: str = "trailwright", extras: tuple[str, ...] = ()) -> list[Path]:
    """The Python files a run may import (the glossary's *bytecode*): ``generator``'s, and those of every installed
    distribution ``top`` requires with ``extras``, followed on through theirs (with the extras they name), outside
    test folders."""
    from importlib import metadata

    files = set(Path(__file__).parent.rglob("*.py"))
    seen: dict[str, set[str]] = {}
    todo: list[tuple[str, set[str]]] = [(top, set(extras))]
    while todo:
        name, wanted = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen and wanted <= seen[key]:
            continue
        seen[key] = seen.get(key, set()) | wanted
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:  # not installed here (a marker this platform does not meet)
            continue
        todo.extend(_requirements(dist, seen[key]))
        for file in dist.files or ():
            if file.suffix == ".py" and not {"tests", "test"} & set(file.parts):
                files.add(Path(str(dist.locate_file(file))))
    return sorted(f for f in files if f.is_file())


def compile_bytecode(part: int = 0, parts: int = 1, extras: tuple[str, ...] = ()) -> int:
    """Write the bytecode of every ``parts``-th of ``runtime_sources(extras=extras)`` from the ``part``-th (where it
    is not current); how many files were read."""
    import compileall

    files = runtime_sources(extras=extras)[part::parts]
    for file in files:
        compileall.compile_file(file, quiet=2)
    return len(files)


@dataclass(frozen=True)
class Share:
    """A job of ``warm_all``: every ``parts``-th file of the bytecode (with ``extras``), from the ``part``-th."""

    part: int
    parts: int
    extras: tuple[str, ...] = ()


def _warm_job(job: tuple[str, ...] | Share) -> dict[str, float]:
    """A chain of groups, or a share of the bytecode; the seconds each took."""
    if not isinstance(job, Share):
        return warm(*job)
    began = time.perf_counter()
    compile_bytecode(job.part, job.parts, job.extras)
    return {f"bytecode {job.part + 1}/{job.parts}": time.perf_counter() - began}


def jobs(workers: int, extras: tuple[str, ...] = ()) -> list[tuple[str, ...] | Share]:
    """warm_all's jobs in the order the pool hands them out: the bytecode (with ``extras``) in ``workers`` shares
    (every later import,
    the kernels' included, reads it), then the chains, the longest first by ``Group.seconds``. A process takes the
    next job as it finishes one, so the long chains start at once and the short ones fill in where a process is
    done early: the processes end about together."""
    chains = sorted(CHAINS, key=lambda chain: -sum(GROUPS[name].seconds for name in chain))
    return [Share(part, workers, extras) for part in range(workers)] + chains


def warm_all(workers: int | None = None, extras: tuple[str, ...] = ()) -> dict[str, float]:
    """Write the bytecode (with ``extras``) and warm every group, ``jobs`` spread over ``workers`` processes
    (default: the available cores); the seconds each job's parts took."""
    from generator.scoring.stream import available_cores

    workers = max(1, min(workers or available_cores(), len(CHAINS)))
    if workers == 1:
        return {**_warm_job(Share(0, 1, extras)), **warm(*(name for chain in CHAINS for name in chain))}
    import multiprocessing

    took: dict[str, float] = {}
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for part in pool.map(_warm_job, jobs(workers, extras)):
            took.update(part)
    return took


def main(argv: list[str] | None = None) -> int:
    """``python -m generator.warmup [WORKERS] [--with EXTRA]``: write the bytecode (and that of what ``EXTRA``
    requires: ``make install`` names ``test``, whose tools it installs) and warm every kernel, saying where the
    kernels' cache is and what took how long."""
    import argparse
    import os

    from generator.jitcache import ENV

    parser = argparse.ArgumentParser(prog="python -m generator.warmup")
    parser.add_argument("workers", nargs="?", type=int, help="processes (default: the available cores)")
    parser.add_argument("--with", dest="extras", action="append", default=[], metavar="EXTRA", help="an extra's too")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    print(f"bytecode, and kernels not yet in {os.environ[ENV]}: compiling on every core (once a version)", flush=True)
    began = time.perf_counter()
    times = warm_all(args.workers, tuple(args.extras))
    each = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in times.items())
    print(f"bytecode and kernels ready in {time.perf_counter() - began:.0f} s ({each})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
