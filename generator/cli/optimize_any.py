"""``trailwright optimize`` on a board of another geometry than the classic game's: the pool search of
``generator.optimize.anygeometry``. It takes the problem's flags and the budget; the classic search's own
flags (strategies, chains, workers, the polish, checkpoints) are refused by name, in one line."""

from __future__ import annotations

import argparse

# flags of the classic search that the search for other geometries does not have yet
CLASSIC_ONLY = {
    "pin": "--pin",
    "strategy": "--strategy",
    "preset": "--preset",
    "max_samples": "--max-samples",
    "polish": "--polish",
    "polish_share": "--polish-share",
    "chains": "--chains",
    "exchanges": "--exchanges",
    "migrate": "--migrate",
    "workers": "--workers",
    "scheduler": "--scheduler",
}
DEFAULT_SAMPLES = 500
DEFAULT_RESCORE = 100_000


def other_geometry(args: argparse.Namespace):
    """The board named by ``--board`` when its tiles are not the classic game's, else None."""
    from generator.board import load_board
    from generator.cli.options import flag_value

    if args.resume is not None or args.board is None:
        return None
    with flag_value("--board"):
        board = load_board(args.board)
    return None if board.geometry.is_classic else board


def run_any(args: argparse.Namespace, board) -> int:
    """Search, write the tile set (its meta block records the settings), print one summary line."""
    import sys
    import threading

    from generator.cli.options import flag_value
    from generator.errors import TrailwrightError
    from generator.fileio import check_out, write_atomic
    from generator.model import dumps_tileset, read_tileset
    from generator.optimize.anygeometry import any_meta, optimize_any
    from generator.scoring.holes import unavailable
    from generator.scoring.objective import ARTICLE, load_objective, resolve_targets
    from generator.scoring.tables import check_size

    for name, flag in CLASSIC_ONLY.items():
        if getattr(args, name, None) not in (None, []):
            why = "only the classic game's does"
            if name.startswith("polish"):
                why = f"the polish screens by holes, and for these tiles {unavailable(board.geometry)}"
            raise TrailwrightError(f"{flag}: the search for {board.geometry} has no such setting yet ({why})")
    with flag_value("--objective"):
        objective = load_objective(args.objective) if args.objective is not None else ARTICLE
    objective = resolve_targets(objective, board.pair_names(), args.objective or "objective")
    if objective.play is not None:  # the pool search judges layouts only; dropping the target silently would mislead
        raise TrailwrightError(
            f"[play]: the search for {board.geometry} does not take a play target yet (drop the [play] table, "
            "then judge the result with trailwright playtest)",
            args.objective,
        )
    start = None
    if args.init is not None:
        with flag_value("--init"):
            start = read_tileset(args.init)
        check_size(start, board, args.init)
    out = args.out or "output/tileset.json"
    check_out(out, "file")
    seed = args.seed or 0
    seconds = args.time if args.time is not None or args.generations is not None else 60.0
    samples = args.samples or DEFAULT_SAMPLES
    result = optimize_any(
        board,
        objective,
        seed,
        seconds=seconds,
        steps=args.generations,
        samples=samples,
        rescore=args.rescore or DEFAULT_RESCORE,
        start=start,
        stop=threading.Event(),
    )
    budget = {"time": seconds} if args.generations is None else {"generations": args.generations}
    write_atomic(out, dumps_tileset(result.tileset, any_meta(board, result, seed, samples, budget)))
    if not args.quiet:
        s = result.score
        print(
            f"{out}: {board.geometry} on board {board.name!r}; {result.steps} steps in {result.seconds:.1f} s; "
            f"fitness {s.fitness:.4f} ± {s.fitness_se:.4f} on {s.samples:,} fresh layouts",
            file=sys.stderr,
        )
    return 0
