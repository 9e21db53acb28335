"""Text as glyph outlines: a theme's font drawn into the SVG as paths, so a tile's label prints in the designer's
font wherever the SVG goes (the sheets' raster art, the manufacturer's PNGs, a browser) without the font being
installed anywhere.

Glossary
--------
run      the text's glyphs side by side at their advance widths (no kerning or shaping: labels are short ids);
         a character the font lacks is its ``.notdef`` glyph.
fitted   the run scaled, about its centre on the baseline, to lie inside the box the label was placed by
         (``tiles.label_box``: 0.6 em a character, 0.75 em above the baseline, 0.075 em below), so the
         clearance the placement proved still holds.
"""

from __future__ import annotations

import functools
import io

from generator.errors import TrailwrightError
from generator.render.svg import num

MAX_FONT_BYTES = 64_000_000  # a full CJK font is 5-25 MB; a theme's font larger than this is refused unread


def _font(path: str):
    """The font at ``path``, parsed (once for the same bytes: a file edited since is read again)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FONT_BYTES + 1)
    except OSError as err:
        raise TrailwrightError(f"cannot read the font ({err.strerror})", str(path)) from None
    if len(data) > MAX_FONT_BYTES:
        raise TrailwrightError(f"a font file over {MAX_FONT_BYTES:,} bytes", str(path))
    try:
        return _parsed(data)
    except Exception as err:  # fontTools raises many kinds on a broken file
        raise TrailwrightError(f"not a font with glyph outlines ({type(err).__name__})", str(path)) from None


@functools.lru_cache(maxsize=8)
def _parsed(data: bytes):
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(data))
    font.getGlyphSet(), font.getBestCmap(), font["hmtx"], font["head"]  # every table a run needs, read now
    return font


def check_font(path: str) -> None:
    """A one-line error naming ``path`` unless it is a font whose outlines can be drawn."""
    _font(path)


FALLBACKS = (  # the fonts a character the theme's font lacks is drawn in, first that has it (as the PDFs' chain)
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
)


def _font_for(path: str, ch: str):
    """The font that draws ``ch``: the one at ``path`` where it has the glyph, else the first of ``FALLBACKS``
    present that has it, else the one at ``path`` (its ``.notdef``)."""
    from pathlib import Path

    font = _font(path)
    if ord(ch) in (font.getBestCmap() or {}):
        return font
    for fallback in FALLBACKS:
        if Path(fallback).is_file() and ord(ch) in ((other := _font(fallback)).getBestCmap() or {}):
            return other
    return font


def outline(path: str, text: str, size: float) -> tuple[str, tuple[float, float, float, float]]:
    """``text`` in the font at ``path``, ``size`` units to the em, as SVG path data with its baseline's centre at
    the origin (y down), and its bounds (x0, y0, x1, y1). A character the font lacks is drawn in the first of
    ``FALLBACKS`` that has it."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    glyphs = []  # (font, glyph name, scale) for each character
    for ch in text:
        font = _font_for(path, ch)
        glyphs.append((font, (font.getBestCmap() or {}).get(ord(ch), ".notdef"), size / font["head"].unitsPerEm))
    width = sum(f["hmtx"].metrics[n][0] * k for f, n, k in glyphs if n in f["hmtx"].metrics)
    pen, bounds = SVGPathPen(None, ntos=num), BoundsPen(None)
    x = -width / 2
    for font, name, scale in glyphs:
        glyph_set = font.getGlyphSet()
        if name not in glyph_set:
            continue
        pen.glyphSet = bounds.glyphSet = glyph_set
        for target in (pen, bounds):
            glyph_set[name].draw(TransformPen(target, (scale, 0, 0, -scale, x, 0)))
        x += font["hmtx"].metrics[name][0] * scale
    return pen.getCommands(), bounds.bounds or (0.0, 0.0, 0.0, 0.0)


def fitted(path: str, text: str, size: float) -> tuple[str, float]:
    """``text`` as outlines (see ``outline``), and the factor (at most 1) that scales them about the origin into
    the label box of ``size``."""
    d, (x0, y0, x1, y1) = outline(path, text, size)
    half, above, below = 0.3 * size * len(text), 0.75 * size, 0.075 * size
    limits = [half / max(-x0, 1e-9), half / max(x1, 1e-9), above / max(-y0, 1e-9), below / max(y1, 1e-9)]
    return d, min(1.0, *limits)
