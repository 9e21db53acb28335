"""Argument types shared by the subcommands."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from contextlib import contextmanager

from generator.errors import TrailwrightError
from generator.inputs import MAX_SEED


def positive_int(text: str) -> int:
    """An argparse type for whole numbers of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def bounded_int(lo: int, hi: int):
    """An argparse type for whole numbers from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text} must be from {lo} to {hi}")
        return value

    parse.__name__ = "whole number"
    return parse


seed_int = bounded_int(0, MAX_SEED)
threads_int = bounded_int(1, 256)  # threads of one process: more than any machine's cores


def bounded_float(lo: float, hi: float, above: bool = False):
    """An argparse type for finite numbers from ``lo`` (or above it, with ``above``) to ``hi``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        low = value > lo if above else value >= lo
        if not (math.isfinite(value) and low and value <= hi):
            low_end = f"above {lo:g} and at most" if above else f"from {lo:g} to"
            raise argparse.ArgumentTypeError(f"{text} must be a number {low_end} {hi:g}")
        return value

    parse.__name__ = "number"
    return parse


positive_float = bounded_float(0, 1e9, above=True)  # seconds: above 0, finite (a billion seconds is 32 years)


def add_tileset_argument(parser: argparse.ArgumentParser) -> None:
    """The tile set a command takes: a tile set file of any tiles, or a project folder (``apply_project``)."""
    parser.add_argument(
        "tileset",
        metavar="TILESET.json|DIR",
        help="a tile set file (the tiles of any board: hex or square, one or two ends an edge), or a project folder "
        "(trailwright new makes one)",
    )


def board_help() -> str:
    """What ``--board`` takes, every built-in board named (from the package's boards, so a new one is listed)."""
    from generator.board import builtin_boards

    return (
        f"a built-in board ({', '.join(builtin_boards())}) or a board TOML file (default: a project's board, else "
        "the one the tile set records, else classic)"
    )


def add_board_option(parser: argparse.ArgumentParser) -> None:
    """``--board NAME|FILE``, defaulting to a project's board, else the tile set's, else classic (``apply_project``)."""
    parser.add_argument("--board", default=DEFAULT_BOARD, metavar="NAME|FILE", help=board_help())


def add_style_option(parser: argparse.ArgumentParser, what: str = "style") -> None:
    """``--style FILE`` or ``--theme DIR`` (one option, two names): the look of the art."""
    parser.add_argument(
        "--style",
        "--theme",
        dest="style",
        metavar="FILE|DIR|NAME",
        default=None,
        help=f"a {what} TOML, a theme folder with its art, or a built-in theme (river); see docs/themes.md",
    )


def no_such_theme(value, style_files: bool):
    """The one-line refusal of a --theme (or --style) value that names nothing, in the file flags' convention."""
    from generator.errors import TrailwrightError
    from generator.project import builtin_themes

    what = "style file, theme folder" if style_files else "theme folder"
    return TrailwrightError(f"cannot read: no such {what} or shipped theme ({', '.join(builtin_themes())})", str(value))


def load_style_option(value, command: str):
    """The style or theme ``value`` names (``--style``/``--theme``); an error names the option as a theme or a
    style, and a theme's warnings (raster art under print resolution) go to stderr."""
    import sys
    from pathlib import Path

    from generator.render.style import is_theme, load_style

    if value is not None and not is_theme(value) and not Path(value).exists():
        raise no_such_theme(value, style_files=True)
    with flag_value("--theme" if is_theme(value) else "--style"):
        style = load_style(value)
    for line in style.art.warnings if style.art is not None else ():
        print(f"{command}: warning: {line}", file=sys.stderr, flush=True)
    return style


def drawn_style(style, board, settings_path: str | None):
    """``style`` at the size the kit prints ``board``'s tiles (``publish.settings.tile_width_mm``, from the project's
    or the given settings), so ``render`` and ``preview`` draw a tile at the size ``publish`` prints it."""
    from dataclasses import replace

    from generator.publish.settings import load_settings, tile_width_mm

    with flag_value("--settings"):
        width = tile_width_mm(style.tile_width_mm, board.geometry, load_settings(settings_path))
    return style if width == style.tile_width_mm else replace(style, tile_width_mm=width)


def warn_strangers(style, board, command: str) -> None:
    """A warning when the theme has art for landmarks the board does not have (it is drawn nowhere)."""
    import sys

    strangers = style.art.strangers(board) if style.art is not None else []
    if strangers:
        print(
            f"{command}: warning: theme {style.art.name!r} has art for {', '.join(strangers)}, which board "
            f"{board.name!r} does not have (its landmarks: {', '.join(lm.name for lm in board.landmarks)})",
            file=sys.stderr,
            flush=True,
        )


def recorded_board(tileset: str) -> str | None:
    """The board a tile set file records (``meta.settings.board``, as ``optimize`` writes it, or ``meta.board``): a
    built-in board's name, or a board file (relative to the tile set's folder, else as written); None when it records
    none. A board it names that is not here is one line."""
    from pathlib import Path

    from generator.board import builtin_boards
    from generator.model.tileset_io import read_meta

    meta = read_meta(tileset)
    settings = meta.get("settings")
    named = (settings.get("board") if isinstance(settings, dict) else None) or meta.get("board")
    if not isinstance(named, str) or not named.strip():
        return None
    if named in builtin_boards():
        return named
    for place in (Path(tileset).parent / named, Path(named)):
        if place.is_file():
            return str(place)
    raise TrailwrightError(f"records the board {named!r}, which is not here: name the board with --board", str(tileset))


class _Default(str):
    """A flag's default value, told apart from the same text typed by the user."""


DEFAULT_BOARD = _Default("classic")


def apply_project(args: argparse.Namespace) -> None:
    """A project folder given for the tile set supplies the files no flag names (``generator.project``); a tile set
    file that records its board supplies the board when ``--board`` is not typed, and the run says so."""
    from generator.project import FILES, resolve

    target = getattr(args, "tileset", None)
    if isinstance(target, str):
        given = {kind: getattr(args, kind, None) for kind in FILES if kind != "tileset"}
        untyped = isinstance(given.get("board"), _Default)
        if untyped:
            given["board"] = None  # not typed: the project's board, if it has one
        args.tileset, paths = resolve(target, given)
        for kind, path in paths.items():
            if hasattr(args, kind) and path is not None:
                setattr(args, kind, path)
        if untyped and paths.get("board") is None and (board := recorded_board(args.tileset)) is not None:
            args.board = board
            if board != DEFAULT_BOARD:
                say_board(args.command, board, f"the one {args.tileset} records")


def say_board(command: str, board: str, source: str) -> None:
    """The one line a command prints for a board it was not given: which board it took, and from where."""
    import sys

    print(f"{command}: board {board} ({source})", file=sys.stderr)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default, unless its help already names one or there is none to show."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or any(action.default is v for v in (None, False, argparse.SUPPRESS)):
            return text
        return super()._get_help_string(action)


@contextmanager
def flag_value(flag: str) -> Iterator[None]:
    """An error raised while checking the value of ``flag`` names the flag as typed (``--paper: unknown paper``)
    unless it names the file the value led to, so the user sees what they wrote, not an internal name."""
    try:
        yield
    except TrailwrightError as err:
        raise err.under(flag) from None
