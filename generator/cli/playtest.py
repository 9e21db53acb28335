"""``trailwright playtest``: play the printed game many times and report how it plays."""

from __future__ import annotations

import argparse

from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_tileset_argument,
    bounded_int,
    flag_value,
    positive_int,
)
from generator.fileio import dumps_json

MAX_PLAY_SEED = 2**32 - 1  # game g of seed s draws from generator seed s * 2**32 + g


def register(sub) -> None:
    """Add the ``playtest`` subcommand."""
    p = sub.add_parser(
        "playtest",
        help="simulate the booklet's game and report game length, lost turns, seats and traps",
        description="Play the printed game with simulated players (see docs/play.md): rounds until the game "
        "ends, lost turns, how often each rule fires, win rate by seat, the skill gap, trapped states.",
        formatter_class=HelpFormatter,
    )
    add_tileset_argument(p)
    add_board_option(p)
    p.add_argument("--rules", metavar="FILE", help="a rules TOML file (default: the booklet's game)")
    p.add_argument("--players", type=int, help="players, 2 to 4 (default: the rules' default, 3)")
    p.add_argument("--games", type=positive_int, default=2000, help="games to play (at most 1 million)")
    p.add_argument(
        "--policy",
        default="explorer",
        metavar="NAME[,NAME...]",
        help="one policy for every seat, or one per seat: random, explorer, greedy",
    )
    p.add_argument(
        "--rival", default="greedy", metavar="NAME", help="the weaker policy the skill gap seats one explorer among"
    )
    p.add_argument("--seed", type=bounded_int(0, MAX_PLAY_SEED), default=0, help="random seed (0 to 2**32 - 1)")
    p.add_argument("--engine", choices=["fast", "reference"], default="fast", help="game engine")
    p.add_argument(
        "--measure-games",
        type=bounded_int(0, 10_000_000),
        metavar="N",
        help="measure the game's quality (lead changes, drama, luck share, choices per turn...) on the first N "
        "games (default: every game; 0: none). See docs/measures.md",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument("--out", metavar="DIR", help="write playtest.json, rounds.svg (histogram) and heat.svg here")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play, then print tables or JSON, and write the pictures."""
    from generator.play.measures import luck_share

    tileset, board, rules = _load(args)
    players, names = _seats(args, rules)
    report, gap = _play(args, tileset, board, rules, players, names)
    quality = report.quality and (report.quality, luck_share(gap.win_rate, gap.win_se, report.players))
    data = _data(args, report, gap, quality)
    if args.out:
        write_outputs(args.out, data, report, board)
    if args.json:
        print(dumps_json(data, indent=2))
    else:
        print_report(args.tileset, report, gap, rules)
        if quality:
            print_measures(*quality, classic=board.geometry.is_classic)
    return 0


def _load(args: argparse.Namespace) -> tuple:
    """Check the game count and the output folder, then read the tile set, the board and the rules."""
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.play import load_rules
    from generator.play.simulate import check_games

    with flag_value("--games"):
        check_games(args.games)
    if args.out:
        from generator.fileio import check_out

        check_out(args.out, "folder")
    with flag_value("--board"):
        board = load_board(args.board)
    tileset = read_tileset(args.tileset)
    with flag_value("--rules"):
        rules = load_rules(args.rules, board)
    return tileset, board, rules


def _play(args: argparse.Namespace, tileset, board, rules, players: int, names: tuple[str, ...]) -> tuple:
    """Play the games and the skill-gap games on every core, with a progress bar for a long run: report and gap."""
    from rich.progress import Progress

    from generator.play.simulate import simulate, skill_gap
    from generator.scoring.stream import available_cores
    from generator.warm import announce

    skill_games = max(players, args.games // 2)
    measured = args.games if args.measure_games is None else min(args.measure_games, args.games)
    cores = available_cores()  # the games are played and measured on every core (the same games on any number)
    if args.engine == "fast":
        announce(["play", "measures"] if measured else ["play"])
    with Progress(transient=True, disable=args.json or args.games + skill_games < 5000) as bar:
        task = bar.add_task("playing", total=args.games + skill_games)
        advance = lambda n: bar.advance(task, n)  # noqa: E731
        report = simulate(
            tileset, board, rules, players, args.games, names, args.seed, args.engine, advance, measured, cores
        )
        gap = skill_gap(
            tileset, board, rules, players, skill_games, "explorer", args.rival, args.seed, args.engine, advance, cores
        )
    return report, gap


def _data(args: argparse.Namespace, report, gap, quality) -> dict:
    """The report as one JSON-ready object: the files, the games' figures, the skill gap and the measures."""
    from generator.play.readings import to_dict as measures_to_dict

    return {
        "tileset": args.tileset,
        "rules": args.rules or "default",
        **report.to_dict(per_game=False),
        "skill_gap": {
            "strong": gap.strong,
            "weak": gap.weak,
            "games": gap.games,
            "win_rate": gap.win_rate,
            "win_se": gap.win_se,
            "luck": gap.luck,
            "gap": gap.gap,
        },
        "measures": quality and measures_to_dict(*quality),
    }


def _seats(args: argparse.Namespace, rules) -> tuple[int, tuple[str, ...]]:
    """How many play and the policy names (one, or one per seat), checked against the rules."""
    from generator.errors import TrailwrightError
    from generator.play.policies import get_policy

    names = tuple(n.strip() for n in args.policy.split(","))
    for flag, name in [("--policy", n) for n in names] + [("--rival", args.rival)]:
        with flag_value(flag):
            get_policy(name)
    if args.players is not None:
        players, given = args.players, f"--players {args.players}"
    else:  # one policy per seat sets the count; else the rules' own default (always allowed)
        players = len(names) if len(names) > 1 else rules.players_default
        given = f"--policy {args.policy} seats {players} players"
    if not rules.players_min <= players <= rules.players_max:
        raise TrailwrightError(f"{given}: the rules allow {rules.seats()}")
    if len(names) not in (1, players):
        raise TrailwrightError(f"--policy names {len(names)} policies for {players} players: name one, or one per seat")
    return players, names


def print_measures(quality, luck, classic: bool = True) -> None:
    """Is it a good game? Each measure with its standard error and a plain reading; the example sets for scale
    (classic tile sets: on a board of other tiles the title says so)."""
    from rich.console import Console
    from rich.table import Table

    from generator.play.readings import REFERENCE_SETS, readings

    t = Table(
        title=f"Is it a good game? ({quality.games} games measured, 95 % intervals; see docs/measures.md)",
        title_justify="left",
    )
    for column in ("measure", "value", "what it says"):
        t.add_column(column, justify="right" if column == "value" else "left")
    for name, m, reading in readings(quality, luck):
        t.add_row(name, "-" if m is None else _measure(name, m), reading)
    t.add_row("seat advantage", f"{quality.seat_advantage:.2f}", "the largest gap between a seat's win rate and 1/n")
    where = "" if classic else ", classic tile sets on the classic board"
    sets = Table(title=f"for scale{where}: 600 games of 3 explorers in an independent simulator", title_justify="left")
    for column in ("tile set", "lead changes", "drama", "settled share", "luck share"):
        sets.add_column(column, justify="left" if column == "tile set" else "right")
    for name, values in REFERENCE_SETS.items():
        sets.add_row(name, *(f"{v:.2f}" for v in values))
    console = Console(width=max(120, Console().width))
    console.print(t)
    console.print(sets)


def write_outputs(folder: str, data: dict, report, board) -> None:
    """playtest.json, rounds.svg and heat.svg in ``folder``, beside whatever else it holds (each whole, all
    renamed into place once all are on disk)."""
    from pathlib import Path

    from generator.fileio import write_together
    from generator.play.pictures import heat_svg, histogram_svg

    here = Path(folder)
    write_together(
        {
            here / "playtest.json": dumps_json({**data, "rounds": list(report.rounds)}, indent=1) + "\n",
            here / "rounds.svg": histogram_svg(report),
            here / "heat.svg": heat_svg(report, board),
        }
    )


def print_report(name: str, report, gap, rules) -> None:
    """Readable tables: game length, lost turns, rule firings (the ``rules``' hazards named), seats, skill, traps."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from generator.stats import ALPHA

    hazards = ", ".join(h.landmark for h in rules.hazards) or "none in these rules"
    t = Table(
        title=f"{escape(name)} on board {escape(repr(report.board))}: {report.games} games, {report.players} players "
        f"({', '.join(report.policies)}), seed {report.seed}, {report.engine} engine",
        title_justify="left",
    )
    t.add_column("figure")
    t.add_column("value", justify="right")
    rows = [
        (
            "rounds until the game ends: median (p10-p90)",
            f"{report.rounds_median:g} ({report.rounds_p10:g}-{report.rounds_p90:g})",
        ),
        ("rounds: mean", f"{report.rounds_mean:.2f}"),
        (f"unfinished at the cap of {report.round_cap} rounds", f"{report.unfinished:.1%}"),
        None,
        ("turns spent turning a tile, per game", f"{report.turning_turns:.2f}"),
        ("steps lost when a landmark ends a move, per game", f"{report.steps_lost:.2f}"),
        ("share of pips rolled that are lost", f"{report.pips_lost_share:.1%}"),
        None,
        (f"hazard entries per game ({escape(hazards)})", f"{report.lair_entries:.2f}"),
        ("chases back per game", f"{report.chases:.2f}"),
        ("connector crossings per game", f"{report.connector_crossings:.2f}"),
        ("tiles laid per game", f"{report.tiles_laid:.2f}"),
        None,
        ("turns begun trapped (no known way to a needed landmark or empty slot)", f"{report.trapped_share:.1%}"),
        ("turns with no way out even by turning one tile, per game", f"{report.stuck_turns:.2f}"),
        ("games where that happened", f"{report.stuck_games:.1%}"),
        None,
    ]
    rows += [
        (f"seat {p + 1} ({report.policies[p]}) wins (95 % interval)", _share(w, report.games))
        for p, w in enumerate(report.win_rate)
    ]
    seats = "yes" if report.seat_p <= ALPHA else "not shown"
    rows += [
        ("seats win unequally (chi-square test of equal wins)", f"{seats}, p = {report.seat_p:.3g}"),
        (
            f"skill: one {gap.strong} among {gap.weak} players wins ({gap.games} games)",
            f"{_share(gap.win_rate, gap.games)} (luck {gap.luck:.1%})",
        ),
    ]
    for row in rows:
        if row is None:
            t.add_section()
        else:
            t.add_row(*row)
    Console().print(t)


def _share(rate: float, games: int) -> str:
    """A share of games and its Wilson 95 % interval."""
    from generator.stats import wilson

    i = wilson(round(rate * games), games)
    return f"{rate:.1%} ({i.low:.1%} to {i.high:.1%})"


def _measure(name: str, m) -> str:
    """A measure and its 95 % interval: Wilson for a share of games, else Student's t (see ``generator.stats``)."""
    from generator.stats import around, wilson

    if name in ("completion", "drama") and m.games:
        i = wilson(round(m.value * m.games), m.games)
    else:
        i = around(m.value, m.se, m.games or 10**9)  # the luck share: a share of many games (normal)
    return f"{m.value:.2f} ({i.low:.2f} to {i.high:.2f})" if i.bounded else f"{m.value:.2f} (no spread yet)"
