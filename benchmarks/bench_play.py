"""Play speed: the fast engine against the plain Python reference, measured in one run.

Targets (issue 15): the fast engine plays at least 100 times as many games per second as the
reference, and at least 2,000 ``explorer`` games per second for 3 players on the classic board on
one core; ``trailwright playtest X --games 10000`` takes a few seconds. Issue 25: at least 10,000
explorer games per second with the per-round log and the game-quality measures on.

Rates are games per second of *process CPU time* (``time.process_time``), best of the repeats: on a
shared machine wall time measures the other users; the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks import print_rows

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--fast-games", "50", "--reference-games", "2", "--repeats", "1", "--cli-games", "100"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "previous-best.json"


def cpu_rate(run, count: int, repeats: int, at_least: float = 0.0) -> float:
    """The best games per CPU second over ``repeats`` runs, each repeating ``run(count)`` for ``at_least`` s."""
    best = 0.0
    for _ in range(repeats):
        start, played = time.process_time(), 0
        while True:
            run(count)
            played += count
            spent = time.process_time() - start
            if spent >= at_least:
                break
        best = max(best, played / max(spent, 1e-9))
    return best


def logged_rows(tiles, board, rules, games: int, repeats: int, plain: float) -> list[tuple]:
    """Issue 25: the fast engine with its per-round log and the game-quality measures on, beside it without."""
    from generator.play.measures import measures_of_rows
    from generator.play.simulate import play

    seats = ("explorer",) * 3

    def measured(n: int, choices: bool) -> None:
        run = play(tiles, board, rules, seats, n, seed=2, log=True)
        measures_of_rows(run.rows, run.offsets, run.winners, seats, board, rules, tiles, choices)

    measured(20, True)  # load the compiled replay from the disk cache
    logged = cpu_rate(lambda n: play(tiles, board, rules, seats, n, seed=2, log=True), games, repeats)
    both = cpu_rate(lambda n: measured(n, False), games, repeats)
    every = cpu_rate(lambda n: measured(n, True), games, repeats)
    return [
        ("  the same with the per-round log, games/CPU-s", f"{logged:,.0f}", "", True),
        ("  with the log and the measures, games/CPU-s", f"{both:,.0f}", ">= 10,000", both >= 10_000),
        ("  log and measures / without", f"{both / plain:.2f}", "", True),
        ("  ... and choices per turn too, games/CPU-s", f"{every:,.0f}", "", True),
    ]


def main(argv: list[str]) -> int:
    """Measure and print; exit status 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="bench_play")
    parser.add_argument("--fast-games", type=int, default=5_000)
    parser.add_argument("--reference-games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cli-games", type=int, default=10_000, help="games of the timed `trailwright playtest`")
    args, _ = parser.parse_known_args(argv)

    from generator.board import load_board
    from generator.model import read_tileset
    from generator.play import default_rules
    from generator.play.simulate import play

    tiles, board = read_tileset(EXAMPLE), load_board("classic")
    rules = default_rules(board)
    rows = []
    for policy, games in (("explorer", args.reference_games), ("random", max(2, args.reference_games // 10))):
        seats = (policy,) * 3
        play(tiles, board, rules, seats, 2, engine="fast")  # load the compiled engine from the disk cache
        ref = cpu_rate(lambda n, seats=seats: play(tiles, board, rules, seats, n, seed=1, engine="reference"), games, 1)
        same = cpu_rate(lambda n, seats=seats: play(tiles, board, rules, seats, n, seed=1), games, args.repeats, 1.0)
        rows += [
            (f"reference engine, 3 {policy} players, games/CPU-s", f"{ref:,.1f}", "", True),
            (f"fast engine, the same {games} games, games/CPU-s", f"{same:,.0f}", "", True),
            (f"fast / reference ({policy})", f"{same / ref:,.0f}x", ">= 100x", same / ref >= 100),
        ]
    seats = ("explorer",) * 3
    fast = cpu_rate(lambda n: play(tiles, board, rules, seats, n, seed=2), args.fast_games, args.repeats)
    rows.append(
        (f"fast engine, 3 explorers, {args.fast_games:,} games, games/CPU-s", f"{fast:,.0f}", ">= 2,000", fast >= 2_000)
    )
    rows += logged_rows(tiles, board, rules, args.fast_games, args.repeats, fast)
    walkers = max(1, args.fast_games // 5)  # random walkers' games are long (many reach the round cap)
    fast = cpu_rate(lambda n: play(tiles, board, rules, ("random",) * 3, n, seed=2), walkers, args.repeats)
    rows.append((f"fast engine, 3 random walkers, {walkers:,} games, games/CPU-s", f"{fast:,.0f}", "", True))
    games = str(args.cli_games)
    cli = [str(Path(sys.executable).with_name("trailwright")), "playtest", str(EXAMPLE), "--games", games, "--json"]
    if not Path(cli[0]).exists():
        cli = [sys.executable, "-m", "generator.cli", *cli[1:]]
    subprocess.run(cli, capture_output=True, check=True)  # warm the disk caches
    start = time.perf_counter()
    before = os.times()
    subprocess.run(cli, capture_output=True, check=True)
    wall = time.perf_counter() - start
    cpu = os.times().children_user - before.children_user + os.times().children_system - before.children_system
    rows.append(
        (
            f"`trailwright playtest X --games {args.cli_games}` (and its skill games), CPU s",
            f"{cpu:.1f}",
            "< 10",
            cpu < 10,
        )
    )
    rows.append(("  the same, wall s", f"{wall:.1f}", "", True))
    return print_rows(
        f"classic board, {EXAMPLE.name}; best of {args.repeats} runs; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        rows,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
