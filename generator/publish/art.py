"""Tile art for publishing: the layout stage's SVG, rasterised once per side and resolution.

Glossary
--------
side art   a function ``(tile, face, bleed_mm) -> SVG text`` whose root is the cut outline's box
           grown by the bleed, in mm, the tile's centre at the origin (the layout stage's ``render_side``).
frame      the window the art is rasterised through: centred on the tile, a whole number of
           pixels each way, covering the cut outline and its bleed.
pixels     a side's art through the frame at the cache's dpi, on white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import Image

from generator.model import FACES, Tile
from generator.publish.outline import HEX, Outline
from generator.render.raster import SideArt, reframe, render_pixels
from generator.units import MM_PER_IN


def printed_faces(tileset) -> tuple[str, ...]:
    """The faces a kit prints: front and back, or only the front of single-sided tiles."""
    return FACES[: tileset.geometry.faces]


@dataclass
class ArtCache:
    """Side art through one frame (a whole number of pixels at ``dpi``), each side made once.

    The frame is centred on the tile; the art is asked for ``bleed_mm`` of bleed, enough to
    cover the frame. Sheets, thumbnails and manufacturer files all cut from the same pixels.
    """

    art: SideArt
    tile_width_mm: float
    dpi: int
    frame_px: tuple[int, int]
    bleed_mm: float
    outline: Outline = HEX  # the cut's shape
    _cache: dict = field(default_factory=dict)

    @classmethod
    def covering(
        cls, art: SideArt, tile_width_mm: float, dpi: int, bleed_mm: float, outline: Outline = HEX
    ) -> ArtCache:
        """A frame just big enough for the cut outline grown by ``bleed_mm`` on every side."""
        w, h = tile_width_mm + 2 * bleed_mm, outline.height(tile_width_mm) + 2 * bleed_mm
        frame = (math.ceil(w / MM_PER_IN * dpi), math.ceil(h / MM_PER_IN * dpi))
        return cls(art, tile_width_mm, dpi, frame, round(bleed_mm + 2 * MM_PER_IN / dpi, 4), outline)

    @property
    def frame_mm(self) -> tuple[float, float]:
        """The frame's exact size on paper."""
        return (self.frame_px[0] / self.dpi * MM_PER_IN, self.frame_px[1] / self.dpi * MM_PER_IN)

    def svg(self, tile: Tile, face: str) -> str:
        """The side's SVG, reframed to the frame."""
        key = ("svg", tile.id, face)
        if key not in self._cache:
            self._cache[key] = reframe(self.art(tile, face, self.bleed_mm), *self.frame_mm)
        return self._cache[key]

    def pixels(self, tile: Tile, face: str) -> Image.Image:
        """The side's art through the frame, on white: decoded from ``packed`` each time, so the cache holds
        every side compressed (the 434 sides of a 217-slot board are 735 MiB as raw pixels at 300 dpi)."""
        return self.packed(tile, face).image()

    def packed(self, tile: Tile, face: str):
        """The side's pixels, drawn and compressed once for every PDF that places them."""
        from generator.publish.placement import PackedImage

        key = ("packed", tile.id, face)
        if key not in self._cache:
            self._cache[key] = PackedImage.of(f"{face} {tile.id}", render_pixels(self.svg(tile, face), *self.frame_px))
        return self._cache[key]

    def thumb(self, tile: Tile, face: str, width_px: int):
        """The cut outline's box cropped from the pixels and scaled to ``width_px`` wide (ImageReader)."""
        from reportlab.lib.utils import ImageReader

        key = ("thumb", tile.id, face, width_px)
        if key not in self._cache:
            fw, fh = self.frame_px
            w = self.tile_width_mm / MM_PER_IN * self.dpi
            h = self.outline.height(w)
            box = (round((fw - w) / 2), round((fh - h) / 2), round((fw + w) / 2), round((fh + h) / 2))
            small = (
                self.pixels(tile, face)
                .crop(box)
                .resize((width_px, round(self.outline.height(width_px))), Image.Resampling.LANCZOS, reducing_gap=2.0)
            )
            self._cache[key] = ImageReader(small)
        return self._cache[key]
