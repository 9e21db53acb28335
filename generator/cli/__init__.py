"""The ``trailwright`` command: thin subcommands that call the core.

Each subcommand lives in its own module with a ``register(subparsers)`` function that adds
its parser and sets ``run``. User errors, usage errors included, print one line and exit with
status 2.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import time

from generator import __version__
from generator.cli.options import apply_project
from generator.errors import TrailwrightError

COMMANDS = [
    "new",
    "studio",
    "score",
    "optimize",
    "render",
    "preview",
    "publish",
    "playtest",
    "host",
    "games",
    "calibrate",
    "check",
]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, then exit status 2."""

    def error(self, message: str):
        """Print ``PROG: error: MESSAGE`` on one line (no usage block) and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {' '.join(message.splitlines())}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, or only the command ``only``.

    Registering a command imports its options' sources (``optimize`` the search stack, ``check``
    the publishing one), so a command line that names its command registers just that one: a
    ``score`` starts without importing what it does not use.
    """
    parser = OneLineParser(
        prog="trailwright",
        description="Turn a path-tile maze game (hex or square tiles, one or two trail ends an edge, one face or "
        "two) into a printed, playable prototype.",
    )
    parser.add_argument("--version", action="version", version=f"trailwright {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=OneLineParser)
    for name in COMMANDS if only is None else [only]:
        importlib.import_module(f"generator.cli.{name}").register(sub)
    return parser


def _started() -> float:
    """When this process started, as a ``time.perf_counter()`` time (now, where the system does not say)."""
    now = time.perf_counter()
    return now - min(max(_age(), 0.0), 60.0)


def _age() -> float:
    """Seconds since this process started: on Linux from its start in clock ticks since boot (psutil's start time adds
    the boot time, which the kernel gives in whole seconds: it put the start up to a second early, 0.41 s here), else
    from psutil, else none."""
    try:
        with open("/proc/self/stat") as stat:
            after = stat.read().rsplit(")", 1)[1].split()  # the name before ")" may hold spaces
        return time.clock_gettime(time.CLOCK_BOOTTIME) - int(after[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, AttributeError, ValueError, IndexError):
        pass
    try:
        import psutil  # Dask's own dependency

        return time.time() - psutil.Process().create_time()
    except (ImportError, OSError):
        return 0.0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    whole = argv is None  # the process's own command line: the process ends with it
    started = _started() if whole else time.perf_counter()  # a time budget counts from here (optimize)
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    args.started = started
    try:
        apply_project(args)
        return args.run(args) or 0
    except TrailwrightError as err:
        print(f"trailwright: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("trailwright: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`trailwright check out --all | head`): stop quietly, as cat does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush cannot fail again
        return 1  # as rich does for the commands that print through it
    except OSError as err:  # the system refused a file the command reads or writes: the file and why, no traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"trailwright: error: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    finally:
        if whole:  # the exit then skips collecting every object the process holds: up to 1 s of an optimize's wall
            gc.freeze()  # time on a busy 2-core machine, 0.1 s with this (its exit handlers still run)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
