"""``trailwright score``: the article's score of a tile set, as a table or JSON."""

from __future__ import annotations

import argparse
import time
from contextlib import contextmanager

from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_tileset_argument,
    flag_value,
    positive_int,
    seed_int,
    threads_int,
)
from generator.fileio import dumps_json


def register(sub) -> None:
    """Add the ``score`` subcommand."""
    p = sub.add_parser(
        "score",
        help="score a tile set with the article's Monte-Carlo fitness",
        description="Score a tile set on random layouts of a board (the article's scoreTiles).",
        formatter_class=HelpFormatter,
    )
    add_tileset_argument(p)
    add_board_option(p)
    p.add_argument(
        "--samples", type=positive_int, default=500, help="random layouts to average over (at most 1 billion)"
    )
    p.add_argument("--seed", type=seed_int, default=0, help="random seed for the layouts")
    p.add_argument("--engine", choices=["fast", "reference"], default="fast", help="scoring engine")
    p.add_argument(
        "--threads",
        type=threads_int,
        default=None,
        help="threads scoring at once (default: every core; the numbers do not depend on it)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score the tile set and print the report."""
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.scoring import score
    from generator.scoring.score import check_samples
    from generator.scoring.stream import available_cores
    from generator.scoring.tables import check_size
    from generator.warm import announce

    with flag_value("--samples"):
        check_samples(args.samples)
    with flag_value("--board"):
        board = load_board(args.board)
    tileset = read_tileset(args.tileset)
    check_size(tileset, board, args.tileset)
    threads = args.threads or available_cores()
    if args.engine == "fast":
        announce(["scoring"])
    with progress_bar(args.samples) as progress:
        report = score(
            tileset, board, samples=args.samples, seed=args.seed, engine=args.engine, threads=threads, progress=progress
        )
    if args.json:
        print(dumps_json({"tileset": args.tileset, **report.to_dict()}, indent=2))
    else:
        print_report(args.tileset, report)
    return 0


@contextmanager
def progress_bar(total: int, delay: float = 1.0, console=None):
    """A ``progress(done)`` callback that shows a bar (on stderr) once the work has taken ``delay`` seconds."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    start = time.monotonic()
    bar: list[Progress] = []

    def progress(done: int) -> None:
        if not bar and time.monotonic() - start >= delay:
            bar.append(
                Progress(
                    TextColumn("scoring layouts"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"),
                    TimeRemainingColumn(),
                    console=console or Console(stderr=True),
                    transient=True,
                )
            )
            bar[0].start()
            bar[0].add_task("score", total=total, rate="")
        if bar:
            rate = done / max(time.monotonic() - start, 1e-9)
            bar[0].update(bar[0].task_ids[0], completed=done, rate=f"{rate / 1e6:.2f}M/s")

    try:
        yield progress
    finally:
        if bar:
            bar[0].stop()


def print_report(name: str, report) -> None:
    """A readable table: the fitness and its components, then pairs from weakest to strongest."""
    from rich.console import Console

    console = Console()
    console.print(_components_table(name, report))
    console.print(_pairs_table(report))


def _components_table(name: str, report):
    """The table of the fitness's components, each with its value, weight and contribution, then the fitness."""
    from rich.markup import escape
    from rich.table import Table

    head = Table(
        title=f"{escape(name)} on board {escape(repr(report.board))}: {report.samples} layouts, seed {report.seed}, "
        f"{report.engine} engine",
        title_justify="left",
    )
    head.add_column("component")
    head.add_column("value", justify="right")
    head.add_column("weight", justify="right")
    head.add_column("contribution", justify="right")
    for label, value, weight, contribution in _component_rows(report):
        head.add_row(label, value, f"{weight:+g}", f"{contribution + 0.0:+.3f}")
    head.add_section()
    head.add_row(
        "fitness (95 % interval)", _mean(report.fitness, report.fitness_se, report.samples, 4), "", "", style="bold"
    )
    return head


def _component_rows(report) -> list[tuple[str, str, float, float]]:
    """Each component of the fitness: its label, its value as shown, its weight as applied and its contribution."""
    from generator.scoring.objective import term_scales

    scales = term_scales(report.objective.get("size_aware", False), report.objective.get("sides", 40))
    w = {k: v * scales[k] if k in scales else v for k, v in report.objective.items()}  # the weights as applied
    return [
        ("bridge sides", f"{report.bridges}", w["bridges_weight"], w["bridges_weight"] * report.bridges),
        ("dupScore", f"{report.dup_score}", w["dup_weight"], w["dup_weight"] * report.dup_score),
        (
            "fully connected tiles",
            f"{report.fully_connected}",
            w["fully_connected_weight"],
            w["fully_connected_weight"] * report.fully_connected,
        ),
        (
            "extra edges (mean)",
            _mean(report.extra_edges_mean, report.extra_edges_se, report.samples, 3),
            w["extra_edges_weight"],
            w["extra_edges_weight"] * report.extra_edges_mean,
        ),
        (
            "landmark pairs joined (mean)",
            f"{report.path_prob_mean * len(report.pair_prob):.3f} of {len(report.pair_prob)}",
            w["pair_weight"],
            w["pair_weight"] * report.path_prob_mean * len(report.pair_prob),
        ),
    ]


def _pairs_table(report):
    """The table of landmark pairs from weakest to strongest, each joined share with its interval, then the mean."""
    from rich.markup import escape
    from rich.table import Table

    from generator.stats import around, wilson

    pairs = Table(title="landmark pairs, weakest first", title_justify="left")
    pairs.add_column("pair")
    pairs.add_column("joined", justify="right")
    pairs.add_column("95 % interval", justify="right")
    for pair, prob in sorted(report.pair_prob.items(), key=lambda kv: kv[1]):
        i = wilson(round(prob * report.samples), report.samples)  # a share of layouts: right at 0 % and 100 %
        pairs.add_row(escape(pair), f"{prob:6.1%}", f"{i.low:.1%} to {i.high:.1%}")
    pairs.add_section()
    mean = around(report.path_prob_mean, report.path_prob_se, report.samples)
    span = f"{mean.low:.1%} to {mean.high:.1%}" if mean.bounded else "no spread yet"
    pairs.add_row("mean", f"{report.path_prob_mean:6.1%}", span, style="bold")
    return pairs


def _mean(value: float, se: float, samples: int, digits: int) -> str:
    """A mean over layouts and its Student's t 95 % interval (generator/stats.py)."""
    from generator.stats import around

    i = around(value, se, samples)
    return f"{value:.{digits}f} ± {(i.high - i.low) / 2:.{digits}f}" if i.bounded else f"{value:.{digits}f} (no spread)"
