"""``trailwright optimize``'s options, in the four groups ``--help`` shows (the command is ``cli.optimize``)."""

from __future__ import annotations

from generator.cli.options import add_board_option, bounded_float, positive_float, positive_int, seed_int

BACKUP = "tileset.json.bak"  # a project's previous tile set, kept when ``optimize DIR`` writes a new one


def register(sub, run) -> None:
    """Add the ``optimize`` subcommand running ``run``, its options in four groups as ``--help`` shows them."""
    p = sub.add_parser(
        "optimize",
        help="search for a tile set whose random mazes score well",
        description="Search for a tile set whose random mazes score well, then re-score the best on fresh "
        "layouts. Writes the tile set (with a meta block), its history as CSV and a plot. "
        "Ctrl-C stops cleanly and writes the best so far.",
    )
    p.add_argument(
        "project",
        nargs="?",
        metavar="DIR",
        default=None,
        help="a project folder (trailwright new makes one): its board and objective, its tile set as the start; the "
        f"result is written back into it, the previous set kept as {BACKUP}, the history in its output/",
    )
    _problem_options(p.add_argument_group("what to search for"))
    _search_options(p.add_argument_group("how to search"))
    _worker_options(p.add_argument_group("chains and workers"))
    _file_options(p.add_argument_group("files"))
    p.set_defaults(board=None)  # classic, unless given (a resumed run keeps its checkpoint's board)
    p.set_defaults(run=run)


def _problem_options(g) -> None:
    add_board_option(g)
    g.add_argument(
        "--objective", metavar="FILE", default=None, help="TOML weights and rules (default: the article's weights)"
    )
    g.add_argument("--init", metavar="TILESET", default=None, help="start from this tile set (default: random)")
    g.add_argument(
        "--pin",
        metavar="ID",
        action="append",
        default=[],
        help="keep the tile with this id unchanged (repeat, or separate ids with commas)",
    )


def _search_options(g) -> None:
    """Add the options of how to search: the algorithm, the budget, the layouts and the polish."""
    _algorithm_options(g)
    _budget_options(g)
    _sample_options(g)
    _polish_options(g)


def _algorithm_options(g) -> None:
    """Add the options choosing the search algorithm (or the article's preset) and its seed."""
    from generator.optimize import DEFAULT_STRATEGY, PRESETS, STRATEGIES

    g.add_argument(
        "--strategy",
        choices=sorted(STRATEGIES),
        default=None,
        help=f"search algorithm (default: {DEFAULT_STRATEGY}; ga with --preset article)",
    )
    g.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default=None,
        help="article: the article's GA exactly (population 20, 5 elites, 500 fresh layouts each)",
    )
    g.add_argument("--seed", type=seed_int, default=None, help="random seed (default 0)")


def _budget_options(g) -> None:
    """Add the options of the search's budget: seconds, or generations of each chain."""
    g.add_argument(
        "--time",
        type=positive_float,
        default=None,
        metavar="S",
        help="seconds of search (default 60 unless --generations is given)",
    )
    g.add_argument(
        "--generations",
        type=positive_int,
        default=None,
        metavar="N",
        help="generations of each chain (the same seed and count give the same result)",
    )


def _sample_options(g) -> None:
    """Add the options of how many layouts: the bank to start with, its largest size and the final re-score."""
    from generator.optimize.timing import BANK_PACE

    g.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        metavar="N",
        help="layouts: the starting bank (default 2000), or per evaluation for the article preset (at most 10 million)",
    )
    g.add_argument(
        "--max-samples",
        type=positive_int,
        default=None,
        metavar="N",
        help="the largest the bank grows to (default 120000, or fewer where the budget is short: "
        f"{BANK_PACE:,} slot-layouts a second of --time; at most 10 million)",
    )
    g.add_argument(
        "--rescore",
        type=positive_int,
        default=None,
        metavar="N",
        help="fresh layouts for the final score (default 1000000: standard error about 0.002; at most 100 million)",
    )


def _polish_options(g) -> None:
    """Add the options of polishing the winner after the search: by layouts screened, or by a share of the time."""
    g.add_argument(
        "--polish",
        type=positive_int,
        default=None,
        metavar="N",
        help="after the search, polish the winner: its every one-side change and swap screened on N layouts over "
        "all workers, the best few confirmed on 10 N fresh ones, every clear gain that adds up taken, while a round "
        "takes one (N at most 1 million)",
    )
    g.add_argument(
        "--polish-share",
        type=bounded_float(0, 0.9),
        default=None,
        metavar="S",
        help="the share of --time given to polishing the winner, in rounds until the time is up (default 1/3 for a "
        "timed run on a board of up to 37 slots whose fitness a screen by holes judges, without --polish, --preset "
        "or --generations; else 0: none)",
    )


def _worker_options(g) -> None:
    from generator.optimize.timing import IN_PROCESS_SECONDS

    g.add_argument(
        "--chains",
        type=positive_int,
        default=None,
        metavar="N",
        help="independent chains (Dask tasks; may exceed the workers, then they queue); the best on "
        f"fresh layouts wins (default: --workers, else all cores, or 1 for a run of up to {IN_PROCESS_SECONDS:g} s "
        "on threads of this process; at most 1024)",
    )
    g.add_argument(
        "--exchanges",
        type=positive_int,
        default=None,
        metavar="N",
        help="cooperating chains: they share their bests N times, evenly over the budget, and the best "
        "lineages take over the others (population annealing; default: independent chains)",
    )
    g.add_argument(
        "--migrate",
        type=positive_float,
        default=None,
        metavar="S",
        help="island mode: every S seconds the best chain's set restarts the worst chain (default: independent chains)",
    )
    g.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="worker processes of the local Dask cluster (default: all cores; at most 256)",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run the chains on an existing Dask cluster, e.g. tcp://host:8786 "
        "(default: $TRAILWRIGHT_SCHEDULER, else a local cluster)",
    )


def _file_options(g) -> None:
    g.add_argument(
        "--out",
        metavar="FILE",
        default=None,
        help="the tile set (default output/tileset.json, or beside the checkpoint with --resume); "
        "FILE-history.csv, FILE-history.svg and FILE.checkpoint go beside it",
    )
    g.add_argument(
        "--resume",
        metavar="CHECKPOINT",
        default=None,
        help="continue a run from its checkpoint, with the checkpoint's settings; --time or "
        "--generations may set a new total budget",
    )
    g.add_argument(
        "--checkpoint-every",
        type=positive_float,
        default=5.0,
        metavar="S",
        help="seconds between a chain's snapshots, and so between checkpoint files",
    )
    g.add_argument("--quiet", action="store_true", help="no progress display or summary")
