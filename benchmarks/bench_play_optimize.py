"""Play-aware optimisation: the default objective plus a [play] target for 3 explorers.

Target (issue 15): the default objective plus a target of 15 rounds (the best-known set plays about
10) lands within ±1 round of it (median of ``--check-games`` fresh games of the winner); the run
reports what that costs in static fitness. ``make bench`` runs target 15 alone. The trade-off curve
in docs/play-optimize.md is ``--targets 10,11,...,20 --walk --out docs``: with ``--out DIR`` the runs
are appended to ``DIR``/play-optimize-runs.jsonl and, for several targets, the curve is drawn to
``DIR``/images/play-optimize-tradeoff.svg (without it nothing is written).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.play_optimize_pictures import drama_svg, tradeoff_svg
from generator.scoring.play_target import MEASURED

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--time", "2", "--games", "20", "--check-games", "50", "--rescore", "2000"]

ROOT = Path(__file__).resolve().parents[1]


def run_one(
    board,
    target: float | None,
    budget: float,
    seed: int,
    games: int,
    check_games: int,
    rescore: int,
    start_name: str,
    init,
    play: dict,
) -> tuple[dict, object]:
    """One play-aware optimisation (from ``init``, a path or a tile set, else a random start as ``optimize``
    makes one): the row with the winner's static re-score and fresh games, and the winner."""
    import numpy as np

    from generator.model import read_tileset
    from generator.optimize import Config, make_problem, optimize, random_tileset
    from generator.optimize.play import game_bank
    from generator.optimize.space import allowed_designs
    from generator.play import default_rules
    from generator.play.simulate import simulate
    from generator.scoring.objective import objective_from_dict
    from generator.scoring.play_target import summarise_games

    length = {} if target is None else {"median_rounds": target}
    objective = objective_from_dict({"play": {**length, "players": 3, "games": games, **play}})
    start = (
        read_tileset(init)
        if isinstance(init, str)
        else init
        if init is not None
        else random_tileset(board.tile_count, allowed_designs(objective), np.random.default_rng([seed, 0]))
    )
    problem = make_problem(board, objective, start)
    began = time.perf_counter()
    result = optimize(problem, Config(time=budget, seed=seed, rescore=rescore), workers=1)
    wall = time.perf_counter() - began
    check = simulate(
        result.tileset, board, default_rules(board), 3, check_games, seed=10_000 + seed, measured=check_games
    )
    own = summarise_games(objective.play, *game_bank(result.tileset, board, default_rules(board), objective.play))
    return {
        "target": target,
        "floor": next(((k[4:], v) for k, v in play.items() if k.startswith("min_")), None),
        "ceiling": next(((k[4:], v) for k, v in play.items() if k.startswith("max_") and k[4:] in MEASURES), None),
        **_quality(check.quality),
        **_luck(result.tileset, board, check_games, seed),
        "budget": budget,
        "seed": seed,
        "init": start_name,
        "bank_games": games,
        "weight": objective.play.weight,
        "tolerance": objective.play.tolerance,
        "check_games": check_games,
        "median": check.rounds_median,
        "p10": check.rounds_p10,
        "p90": check.rounds_p90,
        "unfinished": round(check.unfinished, 4),
        "static_fitness": round(result.score.fitness, 4),
        "se": round(result.score.fitness_se, 4),
        "search_median": result.play.median,
        "bank_centre": round(own.centre, 2),
        "evaluations": sum(c.search_state["evaluations"] for c in result.chains),
        "generations": sum(c.generation for c in result.chains),
        "wall": round(wall, 1),
    }, result.tileset


def _quality(m) -> dict:
    """The fresh games' measures that a walk bounds, with standard errors."""
    return {
        "drama": round(m.drama.value, 4),
        "drama_se": round(m.drama.se, 4),
        "lead_changes": round(m.lead_changes.value, 3),
        "lead_changes_se": round(m.lead_changes.se, 3),
        "settled_share": round(m.settled_share.value, 4),
        "settled_share_se": round(m.settled_share.se, 4),
        **{k: round(getattr(m, k).value, 4) for k in ("choices", "downtime") if getattr(m, k) is not None},
        **{f"{k}_se": round(getattr(m, k).se, 4) for k in ("choices", "downtime") if getattr(m, k) is not None},
    }


MEASURES = MEASURED  # the measures a [play] table may bound


def _luck(tiles, board, games: int, seed: int) -> dict:
    """The luck share on fresh games: one explorer among greedy players, its seat rotating."""
    from generator.play import default_rules
    from generator.play.measures import luck_share
    from generator.play.simulate import skill_gap

    gap = skill_gap(tiles, board, default_rules(board), 3, games, "explorer", "greedy", 10_000 + seed)
    luck = luck_share(gap.win_rate, gap.win_se, 3)
    return {"luck_share": round(luck.value, 4), "luck_share_se": round(luck.se, 4)}


def baseline(
    board, check_games: int, seed: int, rescore: int, path: Path = ROOT / "examples" / "previous-best.json"
) -> dict:
    """A set itself (the previous best by default, where the documented runs start): its fitness and play."""
    from generator.model import read_tileset
    from generator.play import default_rules
    from generator.play.simulate import simulate
    from generator.scoring import score

    tiles = read_tileset(path)
    check = simulate(tiles, board, default_rules(board), 3, check_games, seed=10_000 + seed, measured=check_games)
    s = score(tiles, board, samples=rescore, seed=seed)
    return {
        "target": None,
        **_quality(check.quality),
        **_luck(tiles, board, check_games, seed),
        "median": check.rounds_median,
        "p10": check.rounds_p10,
        "p90": check.rounds_p90,
        "unfinished": round(check.unfinished, 4),
        "static_fitness": round(s.fitness, 4),
        "se": round(s.fitness_se, 4),
    }


def draw(out: Path) -> None:
    """Draw the trade-off picture from the last run in ``out``/play-optimize-runs.jsonl (its rows after the
    last baseline row), labelled with that run's settings."""
    lines = [json.loads(line) for line in (out / "play-optimize-runs.jsonl").read_text(encoding="utf-8").splitlines()]
    last = max(i for i, r in enumerate(lines) if r["target"] is None)
    base, rows = lines[last], lines[last + 1 :]
    r0, walk = rows[0], any(r["init"].endswith("winner") for r in rows)
    note = (
        f"measured: {r0['budget']:g} s of search per target from {r0['init']}"
        f"{', each next target from the last winner' if walk else ''}, seed {r0['seed']}; "
        f"first bank of {r0['bank_games']} games (redrawn, growing), weight {r0['weight']:g}, "
        f"tolerance {r0['tolerance']:g}, "
        f"medians of {r0['check_games']} fresh games; machine load {r0['load']:g} on 2 cores (shared)"
    )
    (out / "images").mkdir(parents=True, exist_ok=True)
    if any(r.get("floor") or r.get("ceiling") for r in rows):
        (out / "images" / "play-optimize-drama.svg").write_text(drama_svg(rows, base, note), encoding="utf-8")
    else:
        (out / "images" / "play-optimize-tradeoff.svg").write_text(tradeoff_svg(rows, base, note), encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks play_optimize")
    parser.add_argument("--targets", default="15", help="target medians, comma-separated")
    parser.add_argument("--time", type=float, default=60.0, help="seconds of search per target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=200, help="games in the search's bank")
    parser.add_argument("--check-games", type=int, default=2000, help="fresh games that measure the winner")
    parser.add_argument("--rescore", type=int, default=200_000, help="layouts of the winner's static re-score")
    parser.add_argument(
        "--init",
        default="examples/previous-best.json",
        help="start every search from this tile set ('random': a random start as optimize makes one)",
    )
    parser.add_argument(
        "--walk", action="store_true", help="targets in order, each search starting from the previous target's winner"
    )
    parser.add_argument("--save", default=None, help="write each winner's tile set to this folder")
    parser.add_argument("--weight", type=float, default=None, help="[play] weight (default: the table's default)")
    parser.add_argument(
        "--tolerance", type=float, default=None, help="[play] tolerance in rounds (default: the table's)"
    )
    parser.add_argument(
        "--out",
        default=None,
        help="append the runs to DIR/play-optimize-runs.jsonl and draw the "
        "curve in DIR/images (docs/ for the documented curve)",
    )
    parser.add_argument(
        "--floors",
        default=None,
        help="floors on --measure (min_<measure>), comma-separated, 'none' for no floor: every target runs with "
        "each; the picture is then drama against length (images/play-optimize-drama.svg)",
    )
    parser.add_argument(
        "--measure",
        default="drama",
        choices=list(MEASURES),
        help="the measure --floors bound",
    )
    parser.add_argument(
        "--ceilings", action="store_true", help="the --floors values are ceilings (max_<measure>), e.g. luck_share"
    )
    parser.add_argument("--redraw", action="store_true", help="only redraw the picture from the last run in --out")
    args = parser.parse_args(argv)
    if args.redraw:
        draw(Path(args.out or ROOT / "docs"))
        return 0
    from generator.board import load_board

    board = load_board("classic")
    base = baseline(board, args.check_games, args.seed, args.rescore)
    print(
        f"previous-best: median {base['median']:g} rounds ({base['p10']:g}-{base['p90']:g}), "
        f"static fitness {base['static_fitness']:.3f}",
        flush=True,
    )
    init = None if args.init == "random" else str(ROOT / args.init)
    play = {k: v for k, v in (("weight", args.weight), ("tolerance", args.tolerance)) if v is not None}
    rows, name = [], Path(args.init).name if init else "random"
    floors = [None if d == "none" else float(d) for d in args.floors.split(",")] if args.floors else [None]
    walk = [(float(t), d) for t in args.targets.split(",") for d in floors]
    for target, floor in walk:
        side = "max" if args.ceilings else "min"
        bounded = play if floor is None else {**play, f"{side}_{args.measure}": floor}
        row, winner = run_one(
            board, target, args.time, args.seed, args.games, args.check_games, args.rescore, name, init, bounded
        )
        if args.walk:
            init, name = winner, f"target {target:g}'s winner"
        if args.save:
            from generator.model import dumps_tileset

            Path(args.save).mkdir(parents=True, exist_ok=True)
            (Path(args.save) / f"target-{target:g}.json").write_text(
                dumps_tileset(winner, {"benchmark": row}), encoding="utf-8"
            )
        rows.append(row)
        print(
            f"target {target:g}{'' if floor is None else f', {side}_{args.measure} {floor:g}'}: "
            f"{args.measure} {row[args.measure]:.3f}, drama {row['drama']:.3f}, "
            f"median {row['median']:g} ({row['p10']:g}-{row['p90']:g}) on {args.check_games} "
            f"fresh games, static fitness {row['static_fitness']:.3f} "
            f"(cost {base['static_fitness'] - row['static_fitness']:.3f}), "
            f"{row['evaluations']:,} candidates, {row['wall']:.0f} s",
            flush=True,
        )
    if args.out:
        out, load = Path(args.out), round(os.getloadavg()[0], 1)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "play-optimize-runs.jsonl", "a", encoding="utf-8") as f:
            for row in [base, *rows]:
                f.write(json.dumps({**row, "load": load}) + "\n")
        if len(rows) > 1:
            draw(out)
    for r in rows:
        if r["ceiling"] is not None:
            name, high = r["ceiling"]
            print(f"  {name} ceiling {high:g} met on fresh games: {'yes' if r[name] <= high else 'NO'} ({r[name]:g})")
        if r["floor"] is not None:
            name, low = r["floor"]
            met = r[name] >= low
            print(
                f"  {name} floor {low:g} met on {r['check_games']} fresh games: {'yes' if met else 'NO'} ({r[name]:g})"
            )
    hit = [r for r in rows if r["target"] == 15.0]
    ok = all(abs(r["median"] - 15) <= 1 for r in hit)
    print(f"target 15 within ±1 round: {'yes' if ok else 'NO'}" if hit else "", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
