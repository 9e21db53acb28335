"""``trailwright calibrate``: a one-sheet duplex test print that measures how far the printer shifts backs."""

from __future__ import annotations

import argparse
from pathlib import Path

from generator.cli.options import HelpFormatter, flag_value


def offset_pair(text: str) -> tuple[float, float]:
    """An argparse type for ``X,Y`` in mm."""
    from generator.errors import TrailwrightError
    from generator.publish.settings import back_offset

    try:
        parts = [float(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not X,Y in mm") from None
    try:
        return back_offset(parts, "--back-offset")
    except TrailwrightError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_back_offset_option(parser: argparse.ArgumentParser) -> None:
    """``--back-offset X,Y``, overriding the settings' ``[printer] back_offset_mm``."""
    parser.add_argument(
        "--back-offset",
        type=offset_pair,
        metavar="X,Y",
        default=None,
        help="move every duplex back page X mm right and Y mm up (read X and Y off the "
        "calibration sheet; default: the settings' [printer] back_offset_mm)",
    )


def register(sub) -> None:
    """Add the ``calibrate`` subcommand."""
    p = sub.add_parser(
        "calibrate",
        help="write a one-sheet duplex calibration PDF to measure how far your printer shifts the back",
        description="Write calibration-PAPER.pdf: crosshairs and scales on the front, lines on the back. Print it "
        "double-sided (long edge), hold it against a window and read X and Y off the scales; then "
        "publish with --back-offset X,Y or [printer] back_offset_mm = [X, Y] in the settings.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("--paper", default="a4", metavar="NAME", help="the paper to print on")
    p.add_argument("--settings", metavar="FILE", default=None, help="a publish settings TOML (margins, printer)")
    add_back_offset_option(p)
    p.add_argument(
        "--out",
        metavar="DIR",
        default="output/calibration",
        help="output folder (its own: publish replaces output/print/ as a whole)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the calibration sheet and say how to read it."""
    from dataclasses import replace

    from generator import __version__
    from generator.fileio import write_atomic
    from generator.publish.calibrate import calibration_pdf
    from generator.publish.pdf import DocInfo
    from generator.publish.settings import load_paper, load_settings

    with flag_value("--settings"):
        settings = load_settings(args.settings)
    if args.back_offset is not None:
        settings = replace(settings, back_offset_mm=args.back_offset)
    with flag_value("--paper"):
        paper = load_paper(args.paper)
    x, y = settings.back_offset_mm
    info = DocInfo(
        f"{settings.title}: duplex calibration, {paper.title}",
        f"trailwright {__version__}; back offset {x:g}, {y:g} mm",
        f"trailwright {__version__}",
    )
    path = write_atomic(Path(args.out) / f"calibration-{paper.name}.pdf", calibration_pdf(paper, settings, info))
    print(
        f"wrote {path}: print it double-sided (flip on the long edge) at 100%, hold it against a window and read "
        f"X and Y at the centre target; then publish with --back-offset X,Y"
        + (f" (this sheet's backs are already moved by {x:g}, {y:g} mm)" if x or y else "")
    )
    return 0
