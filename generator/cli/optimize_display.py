"""``trailwright optimize``'s live progress display and its closing summary table."""

from __future__ import annotations

import math


def _bounded(value: float | None, se: float | None, low: float | None, high: float | None, verdict: str) -> str:
    """A bounded measure on fresh games, its 95 % interval, its bounds, and whether a test shows it met them."""
    span = f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"
    if value is None:
        return f"- ({span})"
    error = f" ± {1.96 * se:.3f}" if se else ""
    return f"{value:.3f}{error} ({span}): {verdict}"


class Display:
    """A live two-line display: progress and time left, then the best fitness and its components."""

    def __init__(self, console, config):
        from rich.live import Live

        self.config = config
        self.latest = {}
        self.live = Live(self._render(0.0, "starting", ""), console=console, transient=True, refresh_per_second=4)
        self.quiet = console.quiet

    def __enter__(self):
        if not self.quiet:
            self.live.__enter__()
        return self

    def __exit__(self, *exc):
        return None if self.quiet else self.live.__exit__(*exc)

    @staticmethod
    def _render(done: float, line1: str, line2: str):
        from rich.console import Group
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        head = Table.grid(padding=(0, 1))
        head.add_row("optimizing", ProgressBar(total=1.0, completed=done, width=30), line1)
        return Group(head, line2)

    def update(self, p) -> None:
        self.latest[p.chain] = p
        c = self.config
        elapsed = max(q.elapsed for q in self.latest.values())
        fractions = []
        if c.time is not None:
            fractions.append(elapsed / c.time)
        if c.generations is not None:
            fractions.append(min(q.generation for q in self.latest.values()) / c.generations)
        done = min(max(fractions), 1.0)
        left = (c.time - elapsed) if c.time is not None else (elapsed / done - elapsed if done > 0 else 0.0)
        evals = sum(q.evaluations for q in self.latest.values())
        rate = f"{evals / elapsed:6.0f}" if elapsed >= 0.5 else "     —"  # no rate from a blink
        best = max(self.latest.values(), key=lambda q: q.best)
        line1 = f"{max(left, 0):4.0f} s left  {rate} evals/s"
        parts = [f"best {best.best:.4f}", f"bridges {best.bridges}", f"dupScore {best.dup_score}"]
        if best.extra_edges is not None:
            parts += [
                f"extra edges {best.extra_edges:.2f}",
                f"pairs {best.pairs_joined:.2f}",
                f"on {best.bank:,} layouts",
            ]
        if not self.quiet:
            self.live.update(self._render(done, line1, "  ".join(parts)))


def summary(console, config, result, paths, board: str) -> None:
    """The summary table: how the search went on ``board`` (its name) and what the winner scores on fresh layouts."""
    from rich.table import Table

    from generator.stats import around

    s = result.score
    table = Table(
        title=f"optimize: {config.preset or config.strategy}, seed {config.seed}, board {board}"
        + (" (stopped early)" if result.stopped else ""),
        title_justify="left",
    )
    table.add_column("")
    table.add_column("value", justify="right")
    rows = _search_rows(config, result) + _score_rows(s)
    if result.play is not None:  # the objective's [play] target, on fresh games
        rows += _play_rows(result)
    for label, value in rows:
        table.add_row(label, value)
    table.add_section()
    half = (lambda i: (i.high - i.low) / 2 if i.bounded else math.inf)(around(result.fitness, s.fitness_se, s.samples))
    table.add_row(f"fitness on {s.samples:,} fresh layouts (95 %)", f"{result.fitness:.4f} ± {half:.4f}", style="bold")
    console.print(table)
    for name in ("tileset", "history", "plot", "checkpoint"):
        console.print(f"  {name:<10} {paths[name]}", markup=False)  # a path may hold [brackets]


def _search_rows(config, result) -> list[tuple[str, str]]:
    """The summary's rows on the search: chains, candidates, time, any reduced samples and the polish steps."""
    return [
        ("chains x generations", " + ".join(str(c.generation) for c in result.chains)),
        ("candidates scored", f"{sum(c.search_state['evaluations'] for c in result.chains):,}"),
        ("wall time", f"{result.seconds:.1f} s"),
        (
            "  start-up (command, cluster), selection, polish, re-score",
            f"{result.startup:.1f} s, {result.selection:.1f} s, {result.polishing:.1f} s, {result.rescoring:.1f} s",
        ),
        *(
            (
                (
                    "  the budget's samples (default)",
                    f"choice {sizes.selection:,} ({sizes.wanted_selection:,}), "
                    f"re-score {sizes.rescore:,} ({sizes.wanted_rescore:,})",
                ),
            )
            if (sizes := result.samples) is not None and sizes.reduced
            else ()
        ),
        ("winner's fitness on its bank", f"{result.search_fitness:.4f}"),
        *(
            (f"  polish step {i + 1}", f"{p.change}: {p.gain:+.4f} ± {p.gain_se:.4f}")
            for i, p in enumerate(result.polished)
        ),
        *(
            (("  polish", "no clear gain: the winner is locally optimal"),)
            if config.polish and not result.polished
            else ()
        ),
    ]


def _score_rows(s) -> list[tuple[str, str]]:
    """The summary's rows on the winner's score on fresh layouts: its components and the pairs it joins."""
    pairs = len(s.pair_prob)
    return [
        ("bridge sides", str(s.bridges)),
        ("dupScore", str(s.dup_score)),
        ("fully connected tiles", str(s.fully_connected)),
        ("extra edges (mean)", f"{s.extra_edges_mean:.3f}"),
        ("landmark pairs joined (mean)", f"{s.path_prob_mean * pairs:.3f} of {pairs} ({s.path_prob_mean:.1%})"),
    ]


def _play_rows(result) -> list[tuple[str, str]]:
    """The summary's rows on the objective's [play] target, measured on fresh games: rounds, bounds, seats, penalty."""
    from generator.scoring.play_target import bound_verdicts

    s = result.score
    target = result.play_target
    said = bound_verdicts(target, result.play)
    wanted = "" if target.median_rounds is None else f" ({target.median_rounds:g})"
    return [
        (f"rounds, {target.players} {target.policy} players: median (target)", f"{result.play.median:g}{wanted}"),
        *(
            (
                f"  {name.replace('_', ' ')} (bounds)",
                _bounded(result.play.measured.get(name), result.play.measured_se.get(name), low, high, said[name]),
            )
            for name, low, high in target.bounds
        ),
        ("games unfinished · seat advantage", f"{result.play.unfinished:.1%} · {result.play.seat_advantage:+.1%}"),
        ("static fitness · play penalty", f"{s.fitness:.4f} · {result.play.penalty:+.4f}"),
    ]
