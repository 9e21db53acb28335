"""Quality against the budget: ``trailwright optimize --time T`` side by side for several T, as a user runs it.

Each run is the command itself in a fresh process (its start-up, its own cluster or threads, its teardown all
counted), seed by seed; the row records the wall time, the re-scored fitness and its interval, and a random set's
fitness on the same board (the command's own start for that seed, re-scored) to say what the search gained.

Targets (issue 52), in one run so that the machine's load is the same for every budget:
  - classic: ``--time 5`` re-scores at least 10.50, ``--time 10`` at least 10.58, both within 0.05 of ``--time 60``;
  - square-jungle: ``--time 10`` within 0.05 of ``--time 60``;
  - every other built-in board: ``--time 10`` gains at least 90 % of what ``--time 60`` gains over a random set;
  - wall time at most T + 0.5 s, and the first generation within 1 s of the command (``Result.startup``, from the
    process's start to the first progress report of a chain; read by a probe that runs the command itself).
Each verdict line gives its figure and its ratio (a short run's share of the long run's gain over a random set).
On a shared or busy machine the absolute figures fall short: read the ratios. Examples::

    python -m benchmarks budget                      # classic 5, 10 and 60 s, every other board 10 and 60, seed 1
    python -m benchmarks budget -- --small           # classic, 5 and 10 s: a minute
    python -m benchmarks budget -- --boards classic --budgets 5,10,60 --seeds 1,2,3
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLOSE = 0.05  # a short run within this of the long one
SMOKE = ["--boards", "classic", "--budgets", "5"]  # one short run: the command end to end
SHARE = 0.90  # of the long run's gain over a random set, a short run's at least
LATE = 0.5  # seconds a run may end past its budget
FLOORS = {("classic", 5.0): 10.50, ("classic", 10.0): 10.58}
SHORT = 10.0
FIRST = 1.0  # seconds from the command's start to its first generation, at most

# ``trailwright optimize`` itself (``generator.cli.main``, which counts its budget from the process's start), with the
# run's ``Result.startup`` and ``Result.seconds`` written to the file named first: what the output file, whose bytes
# hold no timings, cannot say
PROBE = """
import json, sys
import generator.optimize as package
inner, out = package.optimize, sys.argv.pop(1)
def optimize(*args, **kwargs):
    result = inner(*args, **kwargs)
    with open(out, "w") as f:
        json.dump({"startup": result.startup, "seconds": result.seconds}, f)
    return result
package.optimize = optimize
from generator.cli import main
sys.exit(main())
"""


def run_one(board: str, budget: float, seed: int, folder: Path) -> dict:
    """The command for one budget and seed: its wall time, its start-up (to the first generation) and what it wrote."""
    out, timings = folder / f"{board}-{budget:g}-{seed}.json", folder / f"{board}-{budget:g}-{seed}.timings"
    command = [sys.executable, "-c", PROBE, str(timings), "optimize", "--board", board, "--time", f"{budget:g}"]
    began = time.perf_counter()
    done = subprocess.run([*command, "--seed", str(seed), "--out", str(out), "--quiet"], capture_output=True, text=True)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        return {"board": board, "budget": budget, "seed": seed, "error": done.stderr.strip().splitlines()[-1]}
    score = json.loads(out.read_text())["meta"]["score"]
    startup = json.loads(timings.read_text())["startup"]
    return {
        "board": board,
        "budget": budget,
        "seed": seed,
        "fitness": score["fitness"],
        "se": score["fitness_se"],
        "samples": score["samples"],
        "wall": round(wall, 2),
        "first": round(startup, 2),
    }


def random_fitness(board: str, seed: int) -> float:
    """The fitness of the command's own random start for ``seed`` on ``board`` (what a search starts from)."""
    from generator.cli import build_parser
    from generator.cli.optimize import _setup
    from generator.optimize.run import rescore

    args = build_parser("optimize").parse_args(["optimize", "--board", board, "--seed", str(seed), "--time", "1"])
    problem = _setup(args)[0]
    return rescore(problem, problem.start, 200_000, 1).fitness


def verdicts(rows: list[dict], randoms: dict[str, float]) -> list[str]:
    """Each target's verdict, one line each (seed medians), with its figure and ratio."""
    by: dict[tuple[str, float], list[dict]] = {}
    for r in rows:
        if "fitness" in r:
            by.setdefault((r["board"], r["budget"]), []).append(r)
    median = {key: statistics.median(r["fitness"] for r in runs) for key, runs in by.items()}
    lines = [_timing(board, budget, runs) for (board, budget), runs in by.items()]
    for (board, budget), floor in FLOORS.items():
        if (board, budget) in median:
            lines.append(
                f"{_ok(median[board, budget] >= floor)} {board} --time {budget:g}: {median[board, budget]:.4f}"
                f" (at least {floor})"
            )
    longest = {board: max(b for k, b in median if k == board) for board, _ in median}
    for (board, budget), value in sorted(median.items()):
        if budget < longest[board]:
            lines.append(_against_long(board, budget, value, median[board, longest[board]], randoms.get(board)))
    return lines


def _timing(board: str, budget: float, runs: list[dict]) -> str:
    """Wall time (at most T + ``LATE``) and, for a run on threads of the command, the first generation (within
    ``FIRST``; a longer run spawns worker processes first: its figure is told, not judged)."""
    from generator.optimize.timing import in_process

    wall, first = max(r["wall"] for r in runs), max(r["first"] for r in runs)
    short = in_process(None, budget)
    good = wall <= budget + LATE and (first <= FIRST or not short)
    return (
        f"{_ok(good)} {board} --time {budget:g}: wall {wall:.2f} s (at most {budget + LATE:g}), first generation "
        f"{first:.2f} s ({f'at most {FIRST:g}' if short else 'told only: worker processes'}; slowest seed)"
    )


def _against_long(board: str, budget: float, value: float, top: float, random: float | None) -> str:
    """A short run against the longest of its board: within ``CLOSE`` (the classic board, the jungle), or its share of
    the long run's gain over a random set (``SHARE``, every other board at ``SHORT`` seconds); both figures are
    told on every line."""
    share = None if random is None else (value - random) / max(top - random, 1e-9)
    told = f"{board} --time {budget:g}: {value:.4f} vs {top:.4f} (diff {value - top:+.4f}" + (
        f", {share:.0%} of the gain over a random set at {random:.4f})" if share is not None else ")"
    )
    if board in ("classic", "square-jungle"):
        return f"{_ok(top - value <= CLOSE)} {told}, within {CLOSE}"
    if budget == SHORT and share is not None:
        return f"{_ok(share >= SHARE)} {told}, at least {SHARE:.0%}"
    return f"info {told}"


def _ok(good: bool) -> str:
    return "ok  " if good else "MISS"


def plan(boards: list[str], budgets: str | None) -> list[tuple[str, list[float]]]:
    """Each board's budgets: those given, else the issue's (classic 5, 10 and 60 s; every other board 10 and 60)."""
    if budgets is not None:
        return [(board, [float(b) for b in budgets.split(",")]) for board in boards]
    return [(board, [5.0, 10.0, 60.0] if board == "classic" else [SHORT, 60.0]) for board in boards]


def main(argv: list[str]) -> int:
    from generator.board.board import builtin_boards

    parser = argparse.ArgumentParser(prog="python -m benchmarks budget", description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=None, help="comma-separated board names (default: every built-in)")
    parser.add_argument(
        "--budgets", default=None, help="comma-separated seconds (default: classic 5, 10 and 60; other boards 10, 60)"
    )
    parser.add_argument("--seeds", default="1", help="comma-separated seeds")
    parser.add_argument("--small", action="store_true", help="classic only, --time 5 and 10, seed 1")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    boards = ["classic"] if args.small else (args.boards.split(",") if args.boards else builtin_boards())
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for board, budgets in plan(boards, "5,10" if args.small else args.budgets):
            for seed in seeds:
                for budget in budgets:
                    rows.append(run_one(board, budget, seed, Path(folder)))
                    print(json.dumps(rows[-1]), flush=True)
    randoms = {board: random_fitness(board, seeds[0]) for board in boards}
    lines = verdicts(rows, randoms)
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "random": randoms}, indent=1) + "\n")
    if any("error" in r for r in rows):
        return 2
    return 1 if any(line.startswith("MISS") for line in lines) else 0
