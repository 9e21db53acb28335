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

import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image

from generator.errors import TrailwrightError
from generator.model import FACES, Tile
from generator.publish.outline import HEX, Outline
from generator.render.artlimits import CAIRO_LOCK, drawing
from generator.units import MM_PER_IN

SideArt = Callable[[Tile, str, float], str]


def printed_faces(tileset) -> tuple[str, ...]:
    """The faces a kit prints: front and back, or only the front of single-sided tiles."""
    return FACES[: tileset.geometry.faces]


def layout_art(style, labels: bool = True) -> SideArt:
    """The layout stage's tile art in ``style``: its labels as the style says, or none (``labels=False``); the
    classic game's tiles by ``render_side``, every other geometry's by ``render_side_any``."""
    from generator.render.anytiles import render_side_any
    from generator.render.tiles import render_side

    def art(tile: Tile, face: str, bleed_mm: float) -> str:
        draw = render_side if tile.geometry.is_classic else render_side_any
        return draw(tile, face, style, bleed_mm=bleed_mm, label=None if labels else False)

    return art


# cairo draws text through FreeType faces it shares between surfaces; two threads drawing at once
# crashed the publish stage now and then (a segfault), so every cairosvg call takes this lock (defined where
# theme art is drawn in a child process, which forks holding it, so no child starts inside another's drawing)
MAX_PIXELS = 60_000_000  # the largest picture drawn: about 1 GB while cairo, PIL and the bytes hold it


def render_pixels(svg: str, width_px: int, height_px: int, background: str | None = "white") -> Image.Image:
    """SVG text drawn at exactly ``width_px`` × ``height_px``: RGB on ``background``, or RGBA when None."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    if width_px * height_px > MAX_PIXELS:  # a huge dpi or board: one line, not a MemoryError
        raise TrailwrightError(
            f"a picture of {width_px:,} × {height_px:,} px is too large to draw (at most "
            f"{MAX_PIXELS:,} pixels): lower dpi or board_dpi, or draw a smaller tile or board"
        )

    with CAIRO_LOCK, drawing(f"a picture of {width_px:,} × {height_px:,} px"):
        surface = PNGSurface(
            Tree(bytestring=svg.encode("utf-8")), io.BytesIO(), 96, output_width=width_px, output_height=height_px
        )
        surface.cairo.flush()
        stride = surface.cairo.get_stride()
        size = (surface.cairo.get_width(), surface.cairo.get_height())
        # decoded straight from cairo's memory (the raw decoder copies), never through a copy of its bytes
        image = Image.frombuffer("RGBA", size, surface.cairo.get_data(), "raw", "BGRa", stride, 1)
        surface.cairo.finish()
    if image.size != (width_px, height_px):
        image = image.resize((width_px, height_px), Image.Resampling.LANCZOS)
    if background is None:
        return image
    flat = Image.new("RGB", image.size, background)
    flat.paste(image, mask=image.getchannel("A"))
    return flat


def png_bytes(image: Image.Image, dpi: int, text: dict[str, str] | None = None) -> bytes:
    """PNG bytes tagged sRGB (an sRGB chunk), the dpi recorded (pHYs) and optional text chunks, reproducibly
    (no time stamp)."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add(b"sRGB", b"\x00")  # the pixels are sRGB (cairo draws sRGB), rendering intent perceptual
    for key, value in (text or {}).items():
        info.add_text(key, value)
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi), compress_level=3, pnginfo=info)  # level 3: 2× faster than 6
    return out.getvalue()


def px(mm: float, dpi: int) -> int:
    """Millimetres at ``dpi`` to whole pixels."""
    return max(1, round(mm / MM_PER_IN * dpi))


def reframe(svg: str, width_mm: float, height_mm: float) -> str:
    """The same art seen through a ``width_mm`` × ``height_mm`` window centred on the tile."""
    start = svg.find("<svg")
    end = svg.find(">", start)
    head = svg[start:end]
    for key, value in (
        ("width", f"{width_mm:.4f}mm"),
        ("height", f"{height_mm:.4f}mm"),
        ("viewBox", f"{-width_mm / 2:.4f} {-height_mm / 2:.4f} {width_mm:.4f} {height_mm:.4f}"),
    ):
        head, found = re.subn(rf'(\s){key}="[^"]*"', rf'\g<1>{key}="{value}"', head, count=1)
        if not found:
            head += f' {key}="{value}"'
    return svg[:start] + head + svg[end:]


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
