"""How each stage's cost grows with the board: classic (20 slots), hexagon37, hexagon91 and hexagon217.

For each board, from a fresh project of random tiles (``trailwright new``), in one run on this machine:

- **score**: ns per layout of the fast kernel (one thread, 200,000 layouts after a warm-up);
- **optimize**: evaluations per second of one annealing chain on one worker (``--time``), and its peak memory;
- **publish**: seconds and peak memory of ``trailwright publish`` (the whole kit) and of ``trailwright check``;
- **playtest**: explorer games per second (``playtest --games``, three players).

Every command runs in its own process, so a peak is that stage's alone (``os.wait4``'s maximum resident size).

    python -m benchmarks scale                      # every board
    python -m benchmarks scale -- --boards classic,hexagon91 --time 15
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--boards", "classic", "--time", "2", "--games", "20"]

BOARDS = ("classic", "hexagon37", "hexagon91", "hexagon217")


def run(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """Run one trailwright command: (seconds, peak MiB, its output); a failure stops the benchmark."""
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", *command], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    assert process.stdout is not None
    out = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{out[-2000:]}")
    return time.perf_counter() - began, usage.ru_maxrss / 1024, out


def ns_per_layout(board_name: str, folder: Path) -> float:
    """The fast kernel's time per layout, one thread."""
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.scoring import layout_scores

    board, tiles = load_board(board_name), read_tileset(folder / "tileset.json")
    layout_scores(tiles, board, 20_000, 1)  # compile and warm
    began = time.perf_counter()
    layout_scores(tiles, board, 200_000, 2)
    return (time.perf_counter() - began) / 200_000 * 1e9


def measure(board: str, seconds: float, games: int, root: Path) -> dict:
    """One board's row."""
    run(["new", "p", "--board", board, "--seed", "1"], root)
    folder = root / "p"
    row: dict = {"board": board, "ns": ns_per_layout(board, folder)}
    opt_s, opt_mib, _ = run(
        [
            "optimize",
            "--board",
            board,
            "--time",
            str(seconds),
            "--chains",
            "1",
            "--workers",
            "1",
            "--quiet",
            "--out",
            "opt.json",
        ],
        folder,
    )
    import json

    meta = json.loads((folder / "opt.json").read_text())["meta"]
    row["evals_per_s"] = meta["search"]["evaluations"] / seconds
    row["optimize_s"], row["optimize_mib"] = opt_s, opt_mib
    row["publish_s"], row["publish_mib"], _ = run(["publish", ".", "--out", "output/kit"], folder)
    row["check_s"], row["check_mib"], out = run(["check", "output/kit"], folder)
    row["check"] = out.strip().splitlines()[-1]
    play_s, _, _ = run(["playtest", ".", "--games", str(games)], folder)
    row["games_per_s"] = games / play_s
    return row


def main(argv: list[str]) -> int:
    """Measure and print the table (markdown, as docs/scale.md shows it)."""
    p = argparse.ArgumentParser(prog="python -m benchmarks scale")
    p.add_argument("--boards", default=",".join(BOARDS))
    p.add_argument("--time", type=float, default=20.0, help="seconds of optimize per board")
    p.add_argument("--games", type=int, default=2000, help="playtest games per board")
    args = p.parse_args(argv)
    from generator.board import load_board

    rows = []
    for board in args.boards.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            row = measure(board, args.time, args.games, Path(tmp))
        row["slots"] = load_board(board).tile_count
        rows.append(row)
        print(f"{board}: {row}", flush=True)
    print(
        "\n| board | slots | score, ns per layout | optimize, evaluations/s | optimize peak | publish | "
        "publish peak | check | playtest, games/s (incl. start-up) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['board']} | {r['slots']} | {r['ns']:,.0f} | {r['evals_per_s']:,.0f} | "
            f"{r['optimize_mib']:,.0f} MiB | "
            f"{r['publish_s']:.1f} s | {r['publish_mib']:,.0f} MiB | {r['check_s']:.1f} s | {r['games_per_s']:,.0f} |"
        )
    return 0
