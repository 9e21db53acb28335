"""Workers become quality (issue 23): cooperating chains against independent ones, at equal generations per chain.

Every run starts from the same random set (seed ``[seed, 0]``) and gives each chain ``--generations``
generations, so on 2 cores it emulates a cluster of as many workers as chains (a generation budget
is the same work on any cluster). Three settings per board and seed: 2 independent chains, 8
independent chains (the best on shared layouts wins), 8 cooperating chains (``--exchanges``: population
annealing over the chains). Each winner is re-scored on ``--rescore`` fresh layouts (its [play]
penalty measured on fresh games), and the cooperating winner is compared with each other winner on one
more bank of fresh layouts, paired (common random numbers: the standard error of the difference
itself; with a [play] target, plus the play penalty on ``--play-games`` more fresh games, its standard error
from resampling them). Target: on the median of the seeds, 8 cooperating chains beat 8 independent ones, and on
most seeds a one-sided test of the paired gap (Holm-corrected over the seeds) shows them better than 2 chains.
``--many`` sets the chains of the two larger settings (8).

    python -m benchmarks cooperate -- --boards hexagon37 --generations 800 --seeds 1,2,3
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--boards", "classic-play", "--seeds", "1", "--generations", "2", "--exchanges", "1", "--rescore", "2000"]
SMOKE += ["--many", "3", "--workers", "1", "--play-games", "100"]

PLAY = {"median_rounds": 12, "players": 3}  # the [play] target of the "classic-play" case
BOOTSTRAP = 200  # resamples of the games for the play penalty's standard error


def settings(many: int = 8) -> tuple[tuple[str, int, int | None], ...]:
    """The three settings of a seed: (name, chains, exchanges: None for ``--exchanges``)."""
    return (("2 independent", 2, 0), (f"{many} independent", many, 0), (f"{many} cooperating", many, None))


def run_one(case: str, generations: int, seed: int, chains: int, exchanges: int, rescore: int, workers: int):
    """One run from a random start: the row (the winner re-scored on fresh layouts and games), the problem and
    the winner."""
    import numpy as np

    from generator.board import load_board
    from generator.optimize import Config, make_problem, optimize, random_tileset
    from generator.optimize.space import allowed_designs
    from generator.scoring.objective import objective_from_dict

    board = load_board(case.removesuffix("-play"))
    objective = objective_from_dict({"play": PLAY} if case.endswith("-play") else {})
    start = random_tileset(board.tile_count, allowed_designs(objective), np.random.default_rng([seed, 0]))
    problem = make_problem(board, objective, start)
    began = time.perf_counter()
    config = Config(generations=generations, seed=seed, chains=chains, exchanges=exchanges, rescore=rescore)
    result = optimize(problem, config, workers=workers)
    row = {
        "case": case,
        "seed": seed,
        "chains": chains,
        "exchanges": exchanges,
        "generations": generations,
        "fitness": round(result.fitness, 5),
        "se": round(result.score.fitness_se, 5),
        "play_penalty": round(result.fitness - result.score.fitness, 5),
        "wall": round(time.perf_counter() - began, 1),
    }
    return row, problem, result.tileset


def paired_gap(problem, a, b, samples: int, seed: int) -> tuple[float, float]:
    """``a``'s static fitness minus ``b``'s on one bank of fresh layouts, with the paired standard error."""
    from generator.optimize.check import Paired
    from generator.optimize.space import classes_of

    bank = Paired(problem, b, samples, seed)
    n = bank.neighbour((), bank.search.full(classes_of(a)))
    return n.gain, n.gain_se


def play_gap(problem, a, b, games: int, seed: int) -> tuple[float, float]:
    """``a``'s play penalty minus ``b``'s on the same ``games`` fresh games (common random numbers), with a standard
    error from resampling the games (pairs of game g kept together)."""
    import numpy as np

    from generator.optimize.play import game_bank
    from generator.play import default_rules
    from generator.scoring.play_target import summarise_games

    target, rules = problem.objective.play, default_rules(problem.board)
    (ra, wa, _), (rb, wb, _) = (game_bank(t, problem.board, rules, target, seed, games=games) for t in (a, b))

    def gap(i):
        return summarise_games(target, ra[i], wa[i]).penalty - summarise_games(target, rb[i], wb[i]).penalty

    rng = np.random.default_rng(seed)
    boot = [gap(rng.integers(0, games, games)) for _ in range(BOOTSTRAP)]
    return gap(np.arange(games)), float(np.std(boot, ddof=1))


def run_case(case: str, args) -> list[dict]:
    """Every seed's three settings, and the cooperating winner's paired gap over each of the others."""
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        won = {}
        for setting, chains, exchanges in settings(args.many):
            exchanges = args.exchanges if exchanges is None else exchanges
            row, problem, won[setting] = run_one(
                case, args.generations, seed, chains, exchanges, args.rescore, args.workers
            )
            rows.append({**row, "setting": setting})
            print(f"  seed {seed}, {setting}: {row['fitness']:.4f} ± {row['se']:.4f} ({row['wall']:.0f} s)", flush=True)
        coop = rows[-1]
        for other in rows[-3:-1]:
            a, b = won[coop["setting"]], won[other["setting"]]
            gap, se = paired_gap(problem, a, b, args.rescore, 7000 + seed)
            if problem.objective.play is not None:  # and the play penalties, on many more fresh games
                more, more_se = play_gap(problem, a, b, args.play_games, 8000 + seed)
                gap, se = gap + more, (se**2 + more_se**2) ** 0.5
            other.update(gap=round(gap, 5), gap_se=round(se, 5))
            print(f"    cooperating - {other['setting']}: {gap:+.4f} ± {se:.4f} (paired)", flush=True)
        if args.out:
            with Path(args.out).open("a", encoding="utf-8") as f:
                f.writelines(json.dumps(r) + "\n" for r in rows[-3:])
    return rows


def _one_sided(gap: float, se: float) -> float:
    """The one-sided p-value of a paired gap above 0 (normal law); two winners alike (no error at all) show nothing
    unless one is better."""
    from generator.stats import t_sf

    if se == 0:
        return 0.0 if gap > 0 else 1.0
    return t_sf(gap / se, math.inf)


def verdict(rows: list[dict], many: int = 8) -> tuple[bool, str]:
    """The medians over the seeds, and whether cooperation beats both others as the target asks: better than
    ``many`` (8) independent chains on the median seed, and shown better than 2 chains on most seeds by a one-sided
    test of each seed's paired gap (normal law: a million layouts), Holm-corrected over the seeds."""
    from generator.stats import holm

    (two, _, _), (indep, _, _), (coop, _, _) = named = settings(many)
    med = {s: statistics.median(r["fitness"] for r in rows if r["setting"] == s) for s, _, _ in named}
    gap = {s: statistics.median(r["gap"] for r in rows if r["setting"] == s) for s in (two, indep)}
    gap_se = {s: statistics.median(r["gap_se"] for r in rows if r["setting"] == s) for s in (two, indep)}
    shown = {s: holm([_one_sided(r["gap"], r["gap_se"]) for r in rows if r["setting"] == s]) for s in (two, indep)}
    ok = gap[indep] > 0 and sum(shown[two]) > len(shown[two]) / 2
    text = (
        f"medians: {two} {med[two]:.4f}, {indep} {med[indep]:.4f}, "
        f"{coop} {med[coop]:.4f}; paired gaps (median of seeds): "
        f"over 2 chains {gap[two]:+.4f} ± {gap_se[two]:.4f} (standard error), shown better on "
        f"{sum(shown[two])} of {len(shown[two])} seeds; over {indep} {gap[indep]:+.4f} ± {gap_se[indep]:.4f}, "
        f"shown better on {sum(shown[indep])} of {len(shown[indep])} seeds (one-sided tests, Holm over the seeds)"
    )
    return ok, text


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks cooperate")
    parser.add_argument("--boards", default="classic-play,hexagon37", help="boards; NAME-play adds a [play] target")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--generations", type=int, default=800, help="generations of every chain")
    parser.add_argument("--exchanges", type=int, default=7, help="exchanges of the cooperating chains")
    parser.add_argument("--many", type=int, default=8, help="chains of the larger independent and cooperating runs")
    parser.add_argument("--rescore", type=int, default=1_000_000, help="fresh layouts of each winner's re-score")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--play-games", type=int, default=200_000, help="fresh games of each [play] comparison")
    parser.add_argument("--out", default=None, help="append the runs to this JSON-lines file")
    args = parser.parse_args(argv)
    status = 0
    for case in args.boards.split(","):
        print(f"{case}: {args.generations} generations a chain, seeds {args.seeds}", flush=True)
        ok, text = verdict(run_case(case, args), args.many)
        print(f"  {text}\n  cooperation pays as the target asks: {'yes' if ok else 'NO'}", flush=True)
        status |= 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
