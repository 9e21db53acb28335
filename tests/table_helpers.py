"""Shared by the virtual-table tests: the best-known set drawn in the built-in style, and hostile ids."""

from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from generator.board import load_board
from generator.model import Tile, TileSet, read_tileset
from generator.render.board import board_frame, render_board
from generator.render.raster import layout_art
from generator.render.style import load_style
from generator.table import TableArt
from tests.test_publish_standin import standin_art_for_width

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_IDS = [
    "../../etc/passwd",
    "<script>alert(1)</script>",
    'a"b\\c',
    "тайл ✓",
    "CON",
    " ",
    ".",
    "..",
    "&amp;",
    "x/y",
    "</svg>",
    "-",
    "_",
    "a b",
    "\u202eevil",
    "{{7*7}}",
    "'",
    "NUL",
    "${x}",
    "\t",
]


BOARDS = ("classic", "hexagon37", str(ROOT / "tests" / "data" / "camp-board.toml"))


@lru_cache(maxsize=8)
def table_art(hostile: bool = False, real_art: bool = False, board: str = "classic") -> TableArt:
    """The best-known set (its tiles repeated to fill a larger board) in the built-in style and its real board.

    The sides are the publish tests' quick stand-in art unless ``real_art`` (the layout stage's, 3 s);
    with ``hostile`` the tiles have odd ids, drawn by the layout stage without labels (the stand-in
    does not escape ids)."""
    b = load_board(board)
    best = read_tileset(ROOT / "examples" / "best-known.json").tiles
    tileset = TileSet(
        tuple(Tile(str(i + 1), best[i % len(best)].front, best[i % len(best)].back) for i in range(len(b.slots)))
    )
    style = load_style(None)
    if hostile:
        tileset = TileSet(tuple(Tile(i, t.front, t.back) for i, t in zip(HOSTILE_IDS, tileset, strict=True)))
        style = replace(style, label_show=False)
    art = layout_art(style) if real_art or hostile else standin_art_for_width(style.tile_width_mm)
    return TableArt(tileset, b, style, art, render_board(b, style), "Trailwright", "tests")


@lru_cache(maxsize=4)
def any_table_art(board: str = "square-pathways", real_art: bool = False) -> TableArt:
    """An example board of another geometry with its example set (``examples/optimized-<board>.json``), in the
    built-in style; its sides are a plain outline (quick) unless ``real_art`` (the kit's own, ``layout_art``)."""
    b = load_board(board)
    tiles = read_tileset(ROOT / "examples" / f"optimized-{board}.json")
    style = load_style(None)
    frame = board_frame(b, style)
    if real_art:
        art = layout_art(style)
    else:
        r = frame.tile_radius_mm
        outline = " ".join(f"{r * x:.3f},{r * y:.3f}" for x, y in b.geometry.corners())
        art = lambda tile, face, bleed: (  # noqa: E731
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * (r + bleed)}mm" height="{2 * (r + bleed)}mm" '
            f'viewBox="{-r - bleed} {-r - bleed} {2 * (r + bleed)} {2 * (r + bleed)}">'
            f'<polygon points="{outline}" fill="#e9dfc7"/></svg>'
        )
    return TableArt(tiles, b, style, art, render_board(b, style), "Trailwright", "tests")
