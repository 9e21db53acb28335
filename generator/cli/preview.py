"""``trailwright preview``: random layouts of a tile set on the board, as SVG and PNG."""

from __future__ import annotations

import argparse
from pathlib import Path

from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_style_option,
    add_tileset_argument,
    bounded_int,
    drawn_style,
    flag_value,
    load_style_option,
    positive_int,
    seed_int,
    warn_strangers,
)


def register(sub) -> None:
    """Add the ``preview`` subcommand."""
    p = sub.add_parser(
        "preview",
        help="draw random layouts of the tiles on the board (SVG and PNG)",
        description="Draw the layouts the scorer samples from SEED on the board, painting what each landmark "
        "reaches in its own colour; writes OUT (SVG) and the same name with .png.",
        formatter_class=HelpFormatter,
    )
    add_tileset_argument(p)
    add_board_option(p)
    p.add_argument("--seed", type=seed_int, default=0, help="the scorer's layout seed")
    p.add_argument("--count", type=positive_int, default=1, help="layouts on one sheet")
    add_style_option(p)
    p.add_argument("--out", metavar="FILE.svg", default="output/preview.svg", help="the SVG to write")
    p.add_argument("--no-highlight", action="store_true", help="do not colour what each landmark reaches")
    p.add_argument("--tiles", action="store_true", help="draw every tile side (fronts, then backs) instead of layouts")
    p.add_argument("--dpi", type=bounded_int(10, 600), default=60, help="resolution of the PNG (10 to 600)")
    p.set_defaults(run=run, settings=None)  # a project's settings.toml: the size its kit prints tiles at


def _png(data: bytes, made_by: str) -> bytes:
    """The PNG with a text chunk saying what made it (no time stamp, so the bytes repeat)."""
    import io

    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Software", made_by)
    out = io.BytesIO()
    with Image.open(io.BytesIO(data)) as image:
        image.save(out, format="PNG", pnginfo=info, compress_level=6)
    return out.getvalue()


def run(args: argparse.Namespace) -> int:
    """Draw the preview sheet and write it as SVG and PNG."""
    import cairosvg

    from generator import __version__
    from generator.board import load_board
    from generator.errors import TrailwrightError
    from generator.fileio import check_out, write_together
    from generator.model import read_tileset
    from generator.render import render_sheet
    from generator.render.preview import render_contact_sheet
    from generator.scoring.tables import check_size

    out = Path(args.out)
    png = out.with_suffix(".png")
    check_out(out, "file")  # before any work
    check_out(png, "file")
    if args.count > 64:
        raise TrailwrightError(f"--count {args.count}: at most 64 layouts fit a sheet")
    style = load_style_option(args.style, "preview")
    with flag_value("--board"):
        board = load_board(args.board)
    tileset = read_tileset(args.tileset)
    check_size(tileset, board, args.tileset)
    warn_strangers(style, board, "preview")
    style = drawn_style(style, board, args.settings)
    if args.tiles:
        svg = render_contact_sheet(tileset, style)
    else:
        svg = render_sheet(tileset, board, style, args.seed, args.count, highlight=not args.no_highlight)
    image = _png(
        cairosvg.svg2png(bytestring=svg.encode("utf-8"), dpi=args.dpi),
        f"trailwright {__version__} preview {args.tileset} --board {args.board} --seed {args.seed} "
        f"--count {args.count}{' --tiles' if args.tiles else ''}",
    )
    write_together({out: svg, png: image})  # beside whatever else the folder holds, which it never touches
    what = "every tile side" if args.tiles else f"{args.count} layout{'s' if args.count > 1 else ''}, seed {args.seed}"
    print(f"wrote {out} and {png} ({what})")
    return 0
