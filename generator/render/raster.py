"""SVG drawn to pixels: the layout stage's side art in a style, rasterised at an exact size, and saved as PNG.

Glossary
--------
side art   a function ``(tile, face, bleed_mm) -> SVG text`` whose root is the cut outline's box grown by the
           bleed, in mm, the tile's centre at the origin (the layout stage's ``render_side``).
pixels     SVG text drawn at a whole number of pixels each way (``render_pixels``), at most ``MAX_PIXELS``.

The print kit (``generator.publish``) and the virtual tables (``generator.table``) both draw from here.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable

from PIL import Image

from generator.errors import TrailwrightError
from generator.model import Tile
from generator.render.artlimits import CAIRO_LOCK, drawing
from generator.units import MM_PER_IN, MM_PER_PT, MM_PER_PX

SideArt = Callable[[Tile, str, float], str]


def layout_art(style, labels: bool = True) -> SideArt:
    """The layout stage's tile art in ``style`` (``tiles.render_side``, every geometry): its labels as the style
    says, or none (``labels=False``)."""
    from generator.render.tiles import render_side

    def art(tile: Tile, face: str, bleed_mm: float) -> str:
        return render_side(tile, face, style, bleed_mm=bleed_mm, label=None if labels else False)

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


_LENGTH = re.compile(r"^\s*([0-9.]+)\s*(mm|cm|in|pt|px)?\s*$")
_TO_MM = {"mm": 1.0, "cm": 10.0, "in": MM_PER_IN, "pt": MM_PER_PT, "px": MM_PER_PX, None: MM_PER_PX}


def svg_size_mm(svg: str) -> tuple[float, float]:
    """The width and height of an SVG's root element, in mm."""
    head = svg[: svg.find(">", svg.find("<svg")) + 1]
    sizes = []
    for key in ("width", "height"):
        match = re.search(rf'\s{key}="([^"]+)"', head)
        value = _LENGTH.match(match.group(1)) if match else None
        if not value:
            raise TrailwrightError(f"board art has no usable {key} on its <svg> root")
        sizes.append(float(value.group(1)) * _TO_MM[value.group(2)])
    return sizes[0], sizes[1]
