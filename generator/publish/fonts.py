"""A theme's font made embeddable: reportlab embeds TrueType outlines only, so an OpenType font with PostScript
(CFF) outlines is converted first, its cubic curves approximated by quadratic ones (fontTools' cu2qu, within a
unit of the font's em) and stored as TrueType glyphs. Nothing else about the font changes."""

from __future__ import annotations

import io

MAX_ERROR = 1.0  # the furthest a converted curve may stray from the original, in font units (1/1000 em or finer)


def truetype(data: bytes) -> bytes:
    """``data`` (a TTF or OTF file) with TrueType outlines: a CFF-flavoured OpenType font converted, any other
    font as it is. A font fontTools cannot read, or a CFF2 (variable) font, raises ``ValueError``."""
    if not data.startswith(b"OTTO"):
        return data
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    try:
        font = TTFont(io.BytesIO(data))
        if "CFF " not in font:
            raise ValueError("an OpenType font without a CFF table (CFF2, variable fonts, are not supported)")
        order = font.getGlyphOrder()
        glyphs = font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder, glyf.glyphs = order, {}
        for name in order:
            pen = TTGlyphPen(glyphs)
            glyphs[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
    except ValueError:
        raise
    except Exception as err:  # fontTools raises many kinds on a broken file
        raise ValueError(f"fontTools cannot read it ({type(err).__name__})") from None
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    font["glyf"], font["loca"] = glyf, newTable("loca")
    metrics = font["hmtx"].metrics
    for name in order:  # TrueType places a glyph by its left side bearing: make it the new outline's own
        glyph = glyf.glyphs[name]
        glyph.recalcBounds(glyf)
        metrics[name] = (metrics[name][0], getattr(glyph, "xMin", 0))
    font["maxp"] = _maxp()
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _maxp():
    """A TrueType ``maxp`` table (version 1.0: no hinting programs); the counts are filled in when saved."""
    from fontTools.ttLib import newTable

    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxComponentDepth",
        "numGlyphs",
    ):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    return maxp
