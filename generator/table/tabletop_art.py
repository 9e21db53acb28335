"""What Tabletop Simulator shows of a kit: each tile's shape as TTS is told of it, each side's picture, and the board
mat's picture with where board mm fall on it (see ``tabletop``'s glossary: the height rule, the tile shape).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from generator.model import FACES
from generator.render.board import render_board
from generator.render.raster import px, reframe, render_pixels, svg_size_mm
from generator.table.scene import TableArt
from generator.units import MM_PER_IN

MAX_PX = 4096  # TTS's texture limit, a side
TILE_UNITS_AT_SCALE_1 = 1.318  # see "height rule": measured on a published mod, not documented by TTS
TILE_BLEED_MM = 1.0  # art past the cut, so the hex's edge never shows paper


@dataclass(frozen=True)
class TileShape:
    """What TTS is told of a tile: its box (mm, width by height), the box's aspect, ``CustomTile`` type, its faces
    and its turns (edges)."""

    width_mm: float
    height_mm: float
    aspect: float
    tts_type: int  # TTS's CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded box
    faces: tuple[str, ...]
    turns: int

    @property
    def classic(self) -> bool:
        return self.tts_type == 1 and len(self.faces) == 2 and self.turns == 6


@lru_cache(maxsize=16)
def _shape(geometry, width_mm: float) -> TileShape:
    xs, ys = zip(*geometry.corners(), strict=True)
    height = width_mm * (max(ys) - min(ys)) / (max(xs) - min(xs))
    kind = 1 if geometry.shape == "hex" else 0
    return TileShape(width_mm, height, width_mm / height, kind, FACES[: geometry.faces], geometry.rotations)


def tile_shape(table: TableArt) -> TileShape:
    """The table's tiles as TTS is told of them."""
    return _shape(table.board.geometry, table.style.tile_width_mm)


def tile_image(table: TableArt, tile, face: str, dpi: int) -> Image.Image:
    """A side's art through the cut tile's box: RGB, ``2 : sqrt(3)`` like a flat-topped hex (square tiles: 1 : 1)."""
    shape = tile_shape(table)
    w = min(px(shape.width_mm, dpi), MAX_PX)
    svg = reframe(table.art(tile, face, TILE_BLEED_MM), shape.width_mm, shape.height_mm)
    return render_pixels(svg, w, round(w / shape.aspect))


@dataclass(frozen=True, eq=False)
class Mat:
    """The board mat's picture (the board padded to a hexagon's aspect) and where board mm fall on it."""

    image: Image.Image
    dpi: float
    left: int  # where the board's top-left corner lies on the picture, px
    top: int
    px_per_mm: float

    @property
    def size_in(self) -> tuple[float, float]:
        """The mat's width and height in inches (TTS units)."""
        return (self.image.width / self.dpi, self.image.height / self.dpi)

    def world(self, p: tuple[float, float]) -> tuple[float, float]:
        """A point in board mm as world (x, z) in units, with the mat's centre at the origin."""
        u = self.left + p[0] * self.px_per_mm - self.image.width / 2
        v = self.top + p[1] * self.px_per_mm - self.image.height / 2
        return (u / self.dpi, -v / self.dpi)


def mat_image(table: TableArt, dpi: int) -> Mat:
    """The board on a canvas of the tiles' aspect, at ``dpi`` or less (within TTS's limit)."""
    aspect = tile_shape(table).aspect
    board_svg = render_board(table.board, table.style)  # on the table's own frame: every snap point on its slot
    bw, bh = svg_size_mm(board_svg)
    cw, ch = (bh * aspect, bh) if bw / bh < aspect else (bw, bw / aspect)
    scale = min(float(dpi), (MAX_PX - 1) / (cw / MM_PER_IN))  # dots per inch, within TTS's limit
    canvas_w = math.floor(cw / MM_PER_IN * scale)
    canvas_h = round(canvas_w / aspect)
    per_mm = canvas_w / cw
    board = render_pixels(board_svg, round(bw * per_mm), round(bh * per_mm))
    canvas = Image.new("RGB", (canvas_w, canvas_h), table.style.board_ground)
    left, top = (canvas_w - board.width) // 2, (canvas_h - board.height) // 2
    canvas.paste(board, (left, top))
    return Mat(canvas, per_mm * MM_PER_IN, left, top, per_mm)
