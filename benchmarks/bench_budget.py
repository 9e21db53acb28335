"""Quality against the budget: ``trailwright optimize --time T`` side by side for several T, as a user runs it.

Each run is the command itself in a fresh process (its start-up, its own cluster or threads, its teardown all
counted), seed by seed; the row records the wall time, the re-scored fitness and its interval, and a random set's
fitness on the same board (the command's own start for that seed, re-scored) to say what the search gained.

Targets (issue 52), in one run so that the machine's load is the same for every budget:
  - classic: ``--time 5`` re-scores at least 10.50, ``--time 10`` at least 10.58, both within 0.05 of ``--time 60``;
  - square-jungle: ``--time 10`` within 0.05 of ``--time 60``;
  - every other built-in board: ``--time 10`` gains at least 90 % of what ``--time 60`` gains over a random set;
  - wall time at most T + 0.5 s.
On a shared or busy machine the absolute figures fall short: read the ratios. Examples::

    python -m benchmarks budget                      # every built-in board, 5, 10 and 60 s, seed 1
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


def run_one(board: str, budget: float, seed: int, folder: Path) -> dict:
    """The command for one budget and seed: its wall time and what it wrote."""
    out = folder / f"{board}-{budget:g}-{seed}.json"
    command = [sys.executable, "-m", "generator.cli", "optimize", "--board", board, "--time", f"{budget:g}"]
    began = time.perf_counter()
    done = subprocess.run([*command, "--seed", str(seed), "--out", str(out), "--quiet"], capture_output=True, text=True)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        return {"board": board, "budget": budget, "seed": seed, "error": done.stderr.strip().splitlines()[-1]}
    score = json.loads(out.read_text())["meta"]["score"]
    return {
        "board": board,
        "budget": budget,
        "seed": seed,
        "fitness": score["fitness"],
        "se": score["fitness_se"],
        "samples": score["samples"],
        "wall": round(wall, 2),
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
    """Each target's verdict, one line each (seed medians)."""
    by: dict[tuple[str, float], list[float]] = {}
    for r in rows:
        if "fitness" in r:
            by.setdefault((r["board"], r["budget"]), []).append(r["fitness"])
    median = {key: statistics.median(values) for key, values in by.items()}
    lines = [f"{'ok ' if v <= ceiling else 'LATE'} {k}" for k, v, ceiling in _walls(rows)]
    for (board, budget), floor in FLOORS.items():
        if (board, budget) in median:
            lines.append(
                f"{_ok(median[board, budget] >= floor)} {board} --time {budget:g}: {median[board, budget]:.4f}"
                f" (at least {floor})"
            )
    longest = {board: max(b for k, b in median if k == board) for board, _ in median}
    for (board, budget), value in sorted(median.items()):
        top = median[board, longest[board]]
        if budget == longest[board]:
            continue
        if board in ("classic", "square-jungle"):
            lines.append(
                f"{_ok(top - value <= CLOSE)} {board} --time {budget:g}: {value:.4f}, "
                f"--time {longest[board]:g}: {top:.4f} (within {CLOSE})"
            )
        elif budget == SHORT and board in randoms:
            gain = (value - randoms[board]) / max(top - randoms[board], 1e-9)
            lines.append(
                f"{_ok(gain >= SHARE)} {board} --time {budget:g} gains {gain:.0%} of --time "
                f"{longest[board]:g}'s over a random set ({randoms[board]:.4f})"
            )
    return lines


def _walls(rows: list[dict]):
    for r in rows:
        if "wall" in r:
            yield (
                f"{r['board']} --time {r['budget']:g} seed {r['seed']}: wall {r['wall']} s",
                r["wall"],
                r["budget"] + LATE,
            )


def _ok(good: bool) -> str:
    return "ok  " if good else "MISS"


def main(argv: list[str]) -> int:
    from generator.board.board import builtin_boards

    parser = argparse.ArgumentParser(prog="python -m benchmarks budget", description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=None, help="comma-separated board names (default: every built-in)")
    parser.add_argument("--budgets", default="5,10,60", help="comma-separated seconds")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds")
    parser.add_argument("--small", action="store_true", help="classic only, --time 5 and 10, seed 1")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    boards = ["classic"] if args.small else (args.boards.split(",") if args.boards else builtin_boards())
    budgets = [5.0, 10.0] if args.small else [float(b) for b in args.budgets.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for board in boards:
            for seed in seeds:
                for budget in budgets:
                    rows.append(run_one(board, budget, seed, Path(folder)))
                    print(json.dumps(rows[-1]), flush=True)
    randoms = {board: random_fitness(board, seeds[0]) for board in boards}
    lines = verdicts(rows, randoms)
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "random": randoms}, indent=1) + "\n")
    return (
        0 if all(not line.startswith(("MISS", "LATE")) for line in lines) and all("error" not in r for r in rows) else 1
    )
