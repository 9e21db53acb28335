"""How much a chain's bank overstates its best, and how much of that is the order of its tiles.

A chain's bank gives every tile index its own slots, faces and turns, so the same set with its
tiles in another order scores differently on it. For single ``anneal`` chains this prints the
best's figure on its own bank, its true value on fresh layouts, and the same set on the same bank
in random tile orders (and random faces up): if the chain's own order stands many standard
deviations above those, the chain has fitted the order of its tiles to its bank.
``python -m benchmarks overfit -- --chains 4 --budget 30`` (the defaults; 2 chains at a time).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--chains", "1", "--budget", "1", "--orders", "3", "--workers", "1"]

FRESH_SAMPLES = 1_000_000
FRESH_SEED = 987_654_321


def _problem(seed: int):
    import numpy as np

    from generator.board import load_board
    from generator.optimize import make_problem, random_tileset
    from generator.optimize.space import allowed_designs
    from generator.scoring.objective import ARTICLE

    board = load_board("classic")
    return make_problem(
        board, ARTICLE, random_tileset(board.tile_count, allowed_designs(ARTICLE), np.random.default_rng([seed, 0]))
    )


def _chain(job: tuple[int, int, float]):
    """One chain of ``anneal`` (chain ``index`` of a run with ``seed``): its best designs and bank figure."""
    from generator.optimize import Config
    from generator.optimize.chain import Budget, chain_best, config_strategy, run_chain

    seed, index, budget = job
    problem = _problem(seed)
    strategy = config_strategy(Config(time=budget, seed=seed))
    chain = run_chain(problem, strategy, Budget(budget, None), seed, index, None, lambda: False, lambda *a: None)
    best = chain_best(strategy, chain)
    return seed, index, best.classes, best.fitness


def main(argv: list[str]) -> int:
    """Run the chains, then measure each best on fresh layouts and in random tile orders."""
    parser = argparse.ArgumentParser(prog="bench_overfit")
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds of each chain")
    parser.add_argument("--orders", type=int, default=20, help="random tile orders tried on each bank")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args, _ = parser.parse_known_args(argv)

    import numpy as np

    from generator.optimize.chain import chain_seeds
    from generator.optimize.search import Search
    from generator.optimize.strategies import STRATEGIES

    jobs = [(1 + i // 2, i % 2, args.budget) for i in range(args.chains)]
    with mp.get_context("spawn").Pool(args.workers) as pool:
        results = pool.map(_chain, jobs, chunksize=1)
    fresh = Search(_problem(1), FRESH_SEED, FRESH_SAMPLES, FRESH_SAMPLES)
    end = STRATEGIES["anneal"].bank.end
    rng = np.random.default_rng(5)
    print(
        f"{args.chains} anneal chains of {args.budget:g} s; fresh: {FRESH_SAMPLES:,} layouts; "
        f"{args.orders} random tile orders on each chain's own {end:,}-layout bank"
    )
    print("| run seed | chain | on its bank | fresh | bank, other orders: mean | sd | own order, in sd |")
    print("|---|---|---|---|---|---|---|")
    gaps, zs, ranks = [], [], []
    for seed, index, classes, _bank_value in results:
        true = fresh.full(classes).fitness
        bank = Search(_problem(seed), chain_seeds(seed, index)[1], end, end)
        own = bank.full(classes).fitness
        others = []
        for _ in range(args.orders):
            relabelled = classes[rng.permutation(len(classes))]
            turned = rng.random(len(classes)) < 0.5
            relabelled[turned] = relabelled[turned][:, ::-1]
            others.append(bank.full(relabelled).fitness)
        z = (own - np.mean(others)) / np.std(others, ddof=1)
        gaps.append(own - true)
        zs.append(z)
        ranks.append((1 + sum(o >= own for o in others)) / (args.orders + 1))  # exact under no overfitting
        print(
            f"| {seed} | {index} | {own:.4f} | {true:.4f} | {np.mean(others):.4f} | {np.std(others, ddof=1):.4f} | "
            f"{z:+.1f} |"
        )
    best = sum(r == 1 / (args.orders + 1) for r in ranks)
    print(
        f"\nbank minus fresh: {min(gaps):+.4f} to {max(gaps):+.4f}; own order {min(zs):+.1f} to {max(zs):+.1f} "
        f"standard deviations above the same set in other orders, and above every one of them in {best} of "
        f"{len(ranks)} chains (a rank test, exact with no overfitting: p = 1/{args.orders + 1} a chain)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
