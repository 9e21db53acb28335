"""``trailwright games export``: the hosted games' record as JSON Lines (each line replays exactly)."""

from __future__ import annotations

import argparse

from generator.cli.host import DEFAULT_DB
from generator.cli.options import HelpFormatter, flag_value, positive_int


def register(sub) -> None:
    """Add the ``games`` subcommand."""
    g = sub.add_parser(
        "games",
        help="the hosted games' record: export it, or compare how people play with the simulation",
        description="export: every recorded game as one JSON object a line (each replays exactly in the reference "
        "engine). report: the finished games people played, read by the simulator's measures, beside simulated "
        "explorers on the same tile set and rules, and where people differ. See docs/host.md.",
        formatter_class=HelpFormatter,
    )
    g.add_argument("action", choices=["export", "report"], help="what to do with the record")
    g.add_argument("--db", default=DEFAULT_DB, metavar="FILE", help="the games file")
    g.add_argument("--out", metavar="FILE.jsonl", help="export: write here (default: print)")
    g.add_argument(
        "--games", type=positive_int, default=2000, help="report: simulated games to compare with (at most 1 million)"
    )
    g.add_argument("--json", action="store_true", help="report: one JSON object instead of tables")
    g.set_defaults(run=lambda args: export(args) if args.action == "export" else report(args))


def recorded(path: str) -> list:
    """Every recorded (game record, room) of the games file; one-line errors naming it."""
    import sqlite3

    from generator.errors import TrailwrightError
    from generator.host.records import rooms_of
    from generator.host.rooms import RoomError

    try:
        return list(rooms_of(path))
    except FileNotFoundError:
        raise TrailwrightError("no such games file", path) from None
    except (sqlite3.Error, ValueError, KeyError, TypeError, RoomError) as err:
        raise TrailwrightError(f"not a readable games file: {' '.join(str(err).split())}", path) from None


def export(args: argparse.Namespace) -> int:
    """Every recorded game, one JSON object a line."""
    from generator.fileio import dumps_json, write_atomic
    from generator.host.records import export_line

    lines = [dumps_json(export_line(game, room), sort_keys=True) for game, room in recorded(args.db)]
    text = "".join(line + "\n" for line in lines)
    if args.out:
        with flag_value("--out"):
            write_atomic(args.out, text)
    else:
        print(text, end="")
    return 0


def report(args: argparse.Namespace) -> int:
    """People's finished games of each game spec beside the simulated explorers'."""
    import json

    from generator.errors import TrailwrightError
    from generator.fileio import dumps_json
    from generator.host.report import compare, human_games
    from generator.play.simulate import check_games

    with flag_value("--games"):
        check_games(args.games)
    groups: dict[str, list] = {}
    for game, room in recorded(args.db):
        key = json.dumps({k: v for k, v in game.items() if k != "seed"}, sort_keys=True)
        groups.setdefault(key, []).append(room)
    found = [(rooms, human_games(rooms)) for rooms in groups.values()]
    found = [(rooms, humans) for rooms, humans in found if humans]
    if not found:
        raise TrailwrightError("no finished game with a person in it yet", args.db)
    out = []
    for _, humans in found:
        figures, played = compare(humans, args.games)
        out.append((humans[0], figures, played))
    if args.json:
        print(dumps_json([_report_data(room, figures, played) for room, figures, played in out], indent=2))
    else:
        for room, figures, played in out:
            _print_report(room, figures, played, args.games)
    return 0


def _report_data(room, figures, played: int) -> dict:
    from dataclasses import asdict

    def side(e):
        return None if e is None else asdict(e)

    return {
        "board": room.spec.board.name,
        "players": room.players,
        "human_games": played,
        "figures": [
            {
                "name": f.name,
                "kind": f.kind.kind,
                "people": side(f.people),
                "explorers": side(f.explorers),
                "p": f.p,
                "p_holm": f.p_holm,
                "differs": f.differs,
                "gap": f.gap,
                "more_games": f.more,
                "tell": f.tell(),
            }
            for f in figures
        ],
        "differences": [f.said() for f in figures if f.differs],
    }


def _print_report(room, figures, played: int, games: int) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    t = Table(
        title=f"{played} game(s) people played on {escape(room.spec.board.name)}, {room.players} seats, beside "
        f"{games} games of simulated explorers (95 % intervals; 'differs': Welch's test, Holm-corrected over "
        "the figures; see docs/host.md)",
        title_justify="left",
    )
    for column in ("figure", "people", "explorers", "p (corrected)", ""):
        t.add_column(column, justify="left" if column in ("figure", "") else "right")
    for f in figures:
        p = "too few games" if f.p_holm is None else "< 0.001" if f.p_holm < 0.001 else f"{f.p_holm:.3f}"
        t.add_row(f.name, _interval(f, f.people), _interval(f, f.explorers), p, "differs" if f.differs else "")
    console = Console(width=max(130, Console().width))
    console.print(t)
    if played < 2:
        console.print(
            f"  {played} game: too few to test (it takes 2); its shares and counts take its turns as independent"
        )
    for f in figures:
        if f.differs:
            console.print(f"  {escape(f.said())}")
    for f in figures:
        if f.tell():
            console.print(f"  {escape(f.tell())}")


def _interval(f, e) -> str:
    """A figure's value and 95 % interval on one side."""
    if e is None:
        return "-"
    if not e.bounded:
        return f"{f.show(e.value, 1)} (no spread yet)"
    return f"{f.show(e.value, 1)} ({f.show(e.low, 1)} to {f.show(e.high, 1)})"
