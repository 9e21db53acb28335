"""A newcomer's first run: a fresh clone of this repository (its committed HEAD) in a temporary folder, with an empty
kernel cache (``NUMBA_CACHE_DIR``), and the wall time of ``make install``, the first ``make print``, and the first
``score``, ``optimize --time 10``, ``playtest``, studio page and host bot move, each beside its warm time (the same
step run again at once).

Targets (issue 45): ``make install`` plus ``make print`` within 120 s on a 2-core machine. The studio page is the time
from the server's start to its first ``/api/state`` (the figures the grid draws); the host bot move is a fresh
process's first move of the host's compiled bots (``FastBots``, as a room's first bot move runs it). Minutes of
work: ``--print-time`` shortens the make print's search (60 s by default, as a newcomer's).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from benchmarks import print_rows

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-firstrun-token"
TARGET = 120.0  # seconds for make install and the first make print
# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``): the kernels from
# the shared cache (nothing compiles; the install and the first print are not timed as a newcomer's)
SMOKE = ["--print-time", "2", "--optimize-time", "2", "--games", "20", "--shared-cache"]
BOT = """
from generator.board import load_board
from generator.model import read_tileset
from generator.play import default_rules
from generator.play.fastbot import FastBots
from generator.play.game import geometry
from generator.play.match import Match
from generator.play.policies import POLICIES
board, tiles = load_board("classic"), read_tileset("examples/best-known.json")
rules = default_rules(board)
match = Match(tiles, geometry(board, rules), rules, 2, seed=0)
print(FastBots(tiles, board, rules).next_action(match, POLICIES["explorer"]))
"""


def _timed(run: Callable[[], None]) -> float:
    """The wall seconds of ``run()``; its processes' CPU seconds are added to ``CPU`` (a busy machine stretches the
    wall time, not the CPU time)."""
    began, before = time.perf_counter(), _children_cpu()
    run()
    CPU.append(_children_cpu() - before)
    return time.perf_counter() - began


CPU: list[float] = []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command(cmd: list[str], cwd: Path, env: dict[str, str]) -> Callable[[], None]:
    def run() -> None:
        done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {(done.stderr or done.stdout)[-2000:]}")

    return run


def _studio(clone: Path, env: dict[str, str], port: int) -> Callable[[], None]:
    """Start the studio on a fresh project, wait for its first /api/state, stop it."""
    exe = clone / ".venv" / "bin" / "trailwright"

    def run() -> None:
        project = clone / "work" / f"studio-{time.monotonic_ns()}"
        subprocess.run([str(exe), "new", str(project)], env=env, check=True, capture_output=True)
        cmd = [str(exe), "studio", str(project), "--no-browser", "--port", str(port), "--token", TOKEN]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/state", headers={"x-trailwright-token": TOKEN})
        try:
            deadline = time.monotonic() + 300
            while True:
                try:
                    urllib.request.urlopen(request, timeout=60).read()
                    return
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the studio did not answer") from None
                    time.sleep(0.1)
        finally:
            proc.terminate()
            proc.wait(timeout=30)

    return run


def _steps(clone: Path, env: dict[str, str], args: argparse.Namespace) -> list[tuple[str, Callable[[], None]]]:
    tw, py = str(clone / ".venv" / "bin" / "trailwright"), str(clone / ".venv" / "bin" / "python")
    work, seconds, games = clone / "work", str(args.optimize_time), str(args.games)
    return [
        ("score", _command([tw, "score", "examples/best-known.json"], clone, env)),
        (
            f"optimize --time {seconds}",
            _command([tw, "optimize", "--time", seconds, "--quiet", "--out", str(work / "o.json")], clone, env),
        ),
        (
            f"playtest ({args.games:,} games)",
            _command([tw, "playtest", "examples/best-known.json", "--games", games], clone, env),
        ),
        ("studio: first /api/state", _studio(clone, env, args.port)),
        ("host bot move (a fresh process)", _command([py, "-c", BOT], clone, env)),
    ]


def main(argv: list[str]) -> int:
    """Measure and print; exit status 1 when make install and make print take over ``TARGET`` seconds."""
    parser = argparse.ArgumentParser(prog="bench_firstrun")
    parser.add_argument("--print-time", type=int, default=60, help="make print's search seconds (TIME)")
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--optimize-time", type=int, default=10, help="the timed optimize's seconds")
    parser.add_argument("--games", type=int, default=1000, help="the timed playtest's games")
    parser.add_argument(
        "--shared-cache", action="store_true", help="the kernels from the user's cache, not an empty one (no compile)"
    )
    args, _ = parser.parse_known_args(argv)
    began_load = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp(prefix="trailwright-firstrun-"))
    clone = folder / "clone"
    env = {k: v for k, v in os.environ.items() if k not in ("TRAILWRIGHT_SCHEDULER", "VIRTUAL_ENV")}
    cache = "the shared kernel cache" if args.shared_cache else "an empty kernel cache"
    if not args.shared_cache:
        env["NUMBA_CACHE_DIR"] = str(folder / "numba")  # empty: nothing compiled yet
    try:
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        (clone / "work").mkdir()
        make = lambda *a: _command(["make", *a], clone, env)  # noqa: E731
        install = _timed(make("install"))
        first_print = _timed(make("print", f"TIME={args.print_time}"))
        make("clean")()  # the warm make print starts from no tile set, as the first did
        warm_print = _timed(make("print", f"TIME={args.print_time}"))
        rows = [
            (f"make install (fresh clone, {cache}): wall, CPU s", f"{install:.1f}, {CPU[0]:.1f}", "", True),
            (
                "make print: first, warm, s (first's CPU s)",
                f"{first_print:.1f}, {warm_print:.1f} ({CPU[1]:.1f})",
                "",
                True,
            ),
            (
                "make install + first make print, s",
                f"{install + first_print:.1f}",
                f"<= {TARGET:.0f}",
                install + first_print <= TARGET,
            ),
        ]
        for name, step in _steps(clone, env, args):
            first, warm = _timed(step), _timed(step)
            rows.append((f"{name}: first, warm, s", f"{first:.1f}, {warm:.1f}", "", True))
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    cores = len(os.sched_getaffinity(0))
    load = f"load average {began_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    heading = f"a fresh clone's first run ({cores} cores, {load}, {cache}, make print TIME={args.print_time})"
    return print_rows(heading, rows)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
