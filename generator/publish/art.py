"""Tile art for publishing: the layout stage's SVG, rasterised once per side and resolution.

Glossary
--------
side art   a function ``(tile, face, bleed_mm) -> SVG text`` whose root is the cut hex's box
           grown by the bleed, in mm (the layout stage's ``render_side``).
raster     a side's art as pixels at a given dpi, on white.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Callable

from PIL import Image

from generator.model import Tile
from generator.publish.settings import MM_PER_IN

SideArt = Callable[[Tile, str, float], str]


def layout_art(style) -> SideArt:
    """The layout stage's tile art in ``style``, without labels turned on or off here."""
    from generator.render.tiles import render_side

    def art(tile: Tile, face: str, bleed_mm: float) -> str:
        return render_side(tile, face, style, bleed_mm=bleed_mm)

    return art


def render_pixels(svg: str, width_px: int, height_px: int, background: str | None = "white") -> Image.Image:
    """SVG text drawn at exactly ``width_px`` × ``height_px``: RGB on ``background``, or RGBA when None."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    surface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), io.BytesIO(), 96, output_width=width_px,
                         output_height=height_px)
    surface.cairo.flush()
    stride = surface.cairo.get_stride()
    image = Image.frombuffer("RGBA", (surface.cairo.get_width(), surface.cairo.get_height()),
                             bytes(surface.cairo.get_data()), "raw", "BGRa", stride, 1)
    if image.size != (width_px, height_px):
        image = image.resize((width_px, height_px), Image.LANCZOS)
    if background is None:
        return image
    flat = Image.new("RGB", image.size, background)
    flat.paste(image, mask=image.getchannel("A"))
    return flat


def png_bytes(image: Image.Image, dpi: int) -> bytes:
    """PNG bytes with the dpi recorded (pHYs), reproducibly (no time stamp)."""
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=6)
    return out.getvalue()


def px(mm: float, dpi: int) -> int:
    """Millimetres at ``dpi`` to whole pixels."""
    return max(1, round(mm / MM_PER_IN * dpi))


@dataclass
class ArtCache:
    """Rasters of side art, each made once: keyed by tile id, face, bleed and dpi."""

    art: SideArt
    tile_width_mm: float
    _cache: dict = field(default_factory=dict)

    def pixels(self, tile: Tile, face: str, bleed_mm: float, dpi: int) -> Image.Image:
        """The side's art with ``bleed_mm`` of bleed, on white, at ``dpi``."""
        key = (tile.id, face, bleed_mm, dpi)
        if key not in self._cache:
            w = self.tile_width_mm + 2 * bleed_mm
            h = self.tile_width_mm * 3**0.5 / 2 + 2 * bleed_mm
            self._cache[key] = render_pixels(self.art(tile, face, bleed_mm), px(w, dpi), px(h, dpi))
        return self._cache[key]

    def image(self, tile: Tile, face: str, bleed_mm: float, dpi: int):
        """The same raster as a reportlab ImageReader (one per key, so a PDF embeds it once)."""
        from reportlab.lib.utils import ImageReader

        key = ("reader", tile.id, face, bleed_mm, dpi)
        if key not in self._cache:
            self._cache[key] = ImageReader(self.pixels(tile, face, bleed_mm, dpi))
        return self._cache[key]
