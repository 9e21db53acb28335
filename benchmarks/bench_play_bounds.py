"""Bounds on the game-quality measures, met on fresh games (issue 25).

Target: a play-aware search with a game length and bounds on the measures (the ``[play]`` table's
``min_``/``max_`` keys) ends with a winner that meets every bound on games it never searched on, for
every seed. Each seed's search runs ``--time`` seconds from ``--init``; its winner then plays
``--check-games`` fresh games (seed 10,000 + seed; the luck share on a second fresh bank), and the
same is done for the unbounded search (without a length target: the start set itself), so the table
shows what the bounds bought. A bound is met when a test against it shows so (Holm-corrected over the
bounds: ``play_target.bound_verdicts``). Exit status 1 when any bound is not shown met on fresh games.

    python -m benchmarks play_bounds -- --bounds min_lead_changes=1.3,min_choices=5.2 --seeds 1,2,3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.bench_play_optimize import MEASURES, ROOT, baseline, run_one

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--seeds", "1", "--time", "2", "--check-games", "50", "--rescore", "2000"]

DEFAULT_BOUNDS = "min_lead_changes=1.3,min_choices=5.2"


def parse_bounds(text: str) -> dict[str, float]:
    """``min_drama=0.2,max_luck_share=0.9`` as a dict, each key checked."""
    bounds = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        side, _, measure = name.strip().partition("_")
        if side not in ("min", "max") or measure not in MEASURES:
            raise SystemExit(f"--bounds: {name!r} is not min_/max_ followed by one of {', '.join(MEASURES)}")
        bounds[name.strip()] = float(value)
    return bounds


def misses(row: dict, bounds: dict[str, float]) -> list[str]:
    """The bounds ``row``'s fresh games are not shown to meet, each as ``name value (verdict)`` (empty when a test
    shows every one met: ``play_target.bound_verdicts``, Holm-corrected over the bounds)."""
    from generator.scoring.play_target import PlayScore, PlayTarget, bound_verdicts

    limits = {name[4:]: (bounds.get(f"min_{name[4:]}"), bounds.get(f"max_{name[4:]}")) for name in bounds}
    target = PlayTarget(bounds=tuple((m, low, high) for m, (low, high) in limits.items()))
    measured = {m: row.get(m) for m in limits}
    score = PlayScore(0, 0, 0, 0, 0, measured, {m: row.get(f"{m}_se") for m in limits})
    said = bound_verdicts(target, score)
    return [f"{m} {row[m]:g} ({said[m]})" for m in limits if said[m] != "met"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks play_bounds")
    parser.add_argument("--bounds", default=DEFAULT_BOUNDS, help="min_/max_ bounds, comma-separated NAME=VALUE")
    parser.add_argument("--target", default="none", help="the [play] table's median rounds ('none': bounds only)")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--time", type=float, default=90.0, help="seconds of search per run")
    parser.add_argument("--check-games", type=int, default=2000, help="fresh games that measure each winner")
    parser.add_argument("--rescore", type=int, default=100_000, help="layouts of each winner's static re-score")
    parser.add_argument("--init", default="examples/previous-best.json", help="the tile set every search starts from")
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the unbounded row of each seed (its search, or the start set)"
    )
    args = parser.parse_args(argv)
    bounds = parse_bounds(args.bounds)
    from generator.board import load_board

    board, init = load_board("classic"), str(ROOT / args.init)
    target = None if args.target == "none" else float(args.target)
    shown = sorted({n[4:] for n in bounds})
    print(f"target {args.target} rounds, bounds {args.bounds}; {args.time:g} s a search from {Path(init).name}")
    print("| seed | bounds | " + " | ".join(f"{m} (fresh)" for m in shown) + " | median | static | met |")
    print("|---|---|" + "---|" * len(shown) + "---|---|---|")
    missed = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        for label, play in (("none", {}), ("bounded", bounds)):
            if label == "none" and args.no_baseline:
                continue
            if label == "none" and target is None:  # nothing to search for: the start set as it plays
                row = baseline(board, args.check_games, seed, args.rescore, Path(init))
            else:
                row, _ = run_one(
                    board, target, args.time, seed, 200, args.check_games, args.rescore, Path(init).name, init, play
                )
            out = misses(row, play)
            missed += bool(out) and label == "bounded"
            readings = " | ".join(f"{row[m]:.3f} ± {row[m + '_se']:.3f}" for m in shown)
            verdict = "–" if label == "none" else ("yes" if not out else "NO: " + ", ".join(out))
            print(
                f"| {seed} | {label} | {readings} | {row['median']:g} | {row['static_fitness']:.3f} | {verdict} |",
                flush=True,
            )
    print(f"every bound met on fresh games for every seed: {'yes' if not missed else 'NO'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
