"""The ``trailwright`` command: thin subcommands that call the core.

Each subcommand lives in its own module with a ``register(subparsers)`` function that adds
its parser and sets ``run``. User errors, usage errors included, print one line and exit with
status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from generator import __version__
from generator.errors import TrailwrightError

COMMANDS = ["score", "optimize", "render", "preview", "publish", "playtest"]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, then exit status 2."""

    def error(self, message: str):
        """Print ``PROG: error: MESSAGE`` on one line (no usage block) and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {' '.join(message.splitlines())}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = OneLineParser(
        prog="trailwright",
        description="Turn a hex-tile maze game into a printed, playable prototype.",
    )
    parser.add_argument("--version", action="version", version=f"trailwright {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=OneLineParser)
    for name in COMMANDS:
        importlib.import_module(f"generator.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except TrailwrightError as err:
        print(f"trailwright: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("trailwright: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
