"""``trailwright render``: one SVG per tile side, and the board, at print size."""

from __future__ import annotations

import argparse
import re

from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_style_option,
    add_tileset_argument,
    drawn_style,
    flag_value,
    load_style_option,
    warn_strangers,
)


def non_negative_mm(text: str) -> float:
    """An argparse type for lengths in mm of at least 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 20:
        raise argparse.ArgumentTypeError(f"{text} must be from 0 to 20 mm")
    return value


def register(sub) -> None:
    """Add the ``render`` subcommand."""
    p = sub.add_parser(
        "render",
        help="draw every tile side and the board as print-ready SVG",
        description="Write tile-<id>-front.svg and tile-<id>-back.svg for every tile, and board.svg, in mm.",
        formatter_class=HelpFormatter,
    )
    add_tileset_argument(p)
    add_board_option(p)
    add_style_option(p)
    p.add_argument("--out", metavar="DIR", default="output/tiles", help="output folder")
    p.add_argument("--bleed", type=non_negative_mm, default=0.0, metavar="MM", help="art past the cut on every side")
    p.add_argument(
        "--clearance",
        type=non_negative_mm,
        default=0.5,
        metavar="MM",
        help="how much larger than a tile each slot on the board is, on every side",
    )
    p.add_argument("--no-labels", action="store_true", help="leave out the small tile number and face")
    p.set_defaults(run=run, settings=None)  # a project's settings.toml: the size its kit prints tiles at


RENDERED = re.compile(r"tile-.+\.svg|board\.svg")  # what render owns in its folder (other files are kept)


def run(args: argparse.Namespace) -> int:
    """Render the sides and the board into the output folder."""
    from generator.board import load_board
    from generator.fileio import check_folder, write_folder
    from generator.model import FACES, read_tileset
    from generator.model.ids import id_width, side_file_name
    from generator.render import render_board, render_side
    from generator.scoring.tables import check_size

    out = check_folder(args.out)  # before any work
    style = load_style_option(args.style, "render")
    with flag_value("--board"):
        board = load_board(args.board)
    tileset = read_tileset(args.tileset)
    check_size(tileset, board, args.tileset)
    warn_strangers(style, board, "render")
    style = drawn_style(style, board, args.settings)
    width = id_width(t.id for t in tileset)
    label = False if args.no_labels else None
    files = {
        side_file_name(t.id, f, width): render_side(t, f, style, bleed_mm=args.bleed, label=label)
        for t in tileset
        for f in FACES[: tileset.geometry.faces]
    }
    files["board.svg"] = render_board(board, style, clearance_mm=args.clearance)
    write_folder(out, files, owns=lambda name: bool(RENDERED.fullmatch(name)))  # old or new, never a mix
    print(f"wrote {len(files) - 1} tile sides ({tileset.crossings} bridges) and board.svg to {args.out}/")
    return 0
