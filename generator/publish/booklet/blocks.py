"""Markup blocks -> reportlab flowables: one small builder per element, looked up in ``BUILDERS``.

A builder takes the block and the ``Kit`` it draws with and returns its flowables. ``build_story``
returns ``Piece``s: each block's flowables with the block's template location and section, so a
layout error later can name where the block was written without asking reportlab.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    NotAtTopPageBreak,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from generator.publish.booklet.flowables import CHART_CAPTION, HexImage, Mosaic, Picture, pair_chart
from generator.publish.booklet.markup import At, Block, MarkupError, source_error
from generator.publish.booklet.styles import Look, chains, load_look, paragraph_styles
from generator.publish.fontchain import Chain, set_markup, style_of
from generator.publish.outline import HEX, Outline
from generator.publish.pdf import pt
from generator.units import ENGLISH, Numbers

Thumb = Callable[[str, str], Any]  # (tile id, face) -> a reportlab ImageReader of the side's art
INLINE = ("b", "i", "u", "sup", "sub")  # passed through to reportlab as they are


@dataclass(frozen=True)
class Resources:
    """What the markup's figures draw from: side art, the board, the pair figures."""

    thumb: Thumb
    board_image: Any
    board_size_mm: tuple[float, float]
    pairs: tuple[tuple[str, float], ...]
    cover_images: tuple
    pictures: tuple[tuple[str, Any, float], ...] = ()  # (name, image, height / width) for <picture name="">
    numbers: Numbers = ENGLISH  # how the figures write numbers (the booklet's language)
    cover_art: tuple[Any, float] | None = None  # a theme's cover picture and its height / width, for the mosaic
    outline: Outline = HEX  # the tiles' outline, the thumbnails' and the mosaic's


@dataclass(frozen=True)
class Kit:
    """What a builder draws with: styles and their font chains, colours, the resources and the frame's width (mm)."""

    look: Look
    styles: dict[str, ParagraphStyle]
    res: Resources | None
    width: float
    chains: dict[str, Chain]
    flow: bool = False  # every <h1> runs on where there is room (a booklet that would waste a sheet otherwise)

    def para(self, markup: str, style: str, fitted: ParagraphStyle | None = None) -> Paragraph:
        """A paragraph of ``markup`` in the style ``style`` (or its ``fitted`` copy), each run of its text in the
        first font of the style's chain that has it."""
        chosen = fitted or self.styles[style]
        return Paragraph(set_markup(markup, self.chains[style], chosen.fontName), chosen)

    @property
    def art(self) -> Resources:
        """The kit's art; only a story built without it (markup checks) lacks it, and draws none."""
        if self.res is None:
            raise RuntimeError("this block draws the kit's art, and the story was built without it")
        return self.res


@dataclass(frozen=True)
class Piece:
    """One block's flowables, where the block was written, its section, and a <keep>'s inner pieces."""

    flowables: tuple
    at: At | None
    section: str
    inner: tuple[Piece, ...] = ()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def inline(block: Block, kit: Kit) -> str:
    """A block's content as reportlab paragraph markup (b, i, u, sup, sub, em and br)."""
    parts = [_escape(block.text)]
    for child in block:
        inner = inline(child, kit)
        if child.tag == "br":
            parts.append("<br/>")
        elif child.tag in INLINE:
            parts.append(f"<{child.tag}>{inner}</{child.tag}>")
        elif child.tag == "em":
            parts.append(f"<font color='{kit.look.hex('accent')}'><b>{inner}</b></font>")
        else:
            raise MarkupError(child, f"<{child.tag}> is not allowed inside <{block.tag}>")
        parts.append(_escape(child.tail))
    return " ".join(w for w in _ASCII_SPACE.split("".join(parts)) if w)  # a no-break space (U+00A0, U+202F) stays


def number(block: Block, key: str, default: float) -> float:
    """A numeric attribute (``default`` when absent); anything else is a markup error."""
    value = block.get(key)
    if value is None:
        return default
    try:
        result = float(value)
    except ValueError:
        result = float("nan")
    if not 0 <= result < 10_000:
        raise MarkupError(block, f"<{block.tag} {key}={value!r}> is not a number from 0 to 10000")
    return result


def _para(style: str) -> Callable[[Block, Kit], list]:
    return lambda b, kit: [kit.para(inline(b, kit), style)]


MIN_TITLE_SCALE = 0.4  # a cover title shrinks to fit one line down to this share of its size, then wraps
MOSAIC_MM = 118.0


def title_style(title: str, style: ParagraphStyle, width_mm: float, fonts: Chain) -> tuple[ParagraphStyle, int]:
    """The cover title's style, shrunk to fit one line of ``width_mm`` if it can, and the lines it will take
    (measured run by run in the font ``fonts`` sets each in)."""
    wide = fonts.width(title, style.fontSize, style_of(style.fontName)) / pt(1)
    scale = max(MIN_TITLE_SCALE, min(1.0, width_mm / wide)) if wide else 1.0
    size = style.fontSize * scale
    fitted = ParagraphStyle(f"{style.name}-fitted", parent=style, fontSize=size, leading=style.leading * scale)
    para = Paragraph(set_markup(_escape(title), fonts, fitted.fontName), fitted)
    lines = len(para.breakLines([pt(width_mm)]).lines) if title else 1
    return fitted, max(1, lines)


def _cover(b: Block, kit: Kit) -> list:
    """The cover: the title (shrunk to one line if need be), subtitle, mosaic and lines, always on one page."""
    st = kit.styles
    title = b.get("title") or ""
    style, lines = title_style(title, st["title"], kit.width, kit.chains["title"])
    mosaic = MOSAIC_MM - (lines - 1) * style.leading / pt(1)  # a title that still wraps takes from the mosaic
    out = [NextPageTemplate("cover"), Spacer(1, pt(8)), kit.para(_escape(title), "title", style), Spacer(1, pt(3))]
    subtitle = b.get("subtitle")
    if subtitle:
        out.append(kit.para(_escape(subtitle), "subtitle"))
    if kit.art.cover_art is not None:  # the theme's picture, as large as the mosaic's box allows
        image, aspect = kit.art.cover_art
        width = min(kit.width, mosaic / aspect)
        picture: Flowable = Picture(image, width, width * aspect)
    else:
        picture = Mosaic(list(kit.art.cover_images), kit.width, mosaic, 30, kit.art.outline)
    out += [Spacer(1, pt(8)), picture, Spacer(1, pt(8))]
    out += [kit.para(inline(line, kit), "centred") for line in b]
    return out + [NextPageTemplate("body"), PageBreak()]


def _h1(b: Block, kit: Kit) -> list:
    """A new page unless already at the top of one, or asked to run on."""
    brk = CondPageBreak(pt(40)) if b.get("flow") == "yes" or kit.flow else NotAtTopPageBreak()
    return [brk, kit.para(inline(b, kit), "h1")]


def _h2(b: Block, kit: Kit) -> list:
    return [CondPageBreak(pt(22)), kit.para(inline(b, kit), "h2")]


def _list(b: Block, kit: Kit) -> list:
    items = [ListItem(kit.para(inline(li, kit), "body"), leftIndent=pt(5)) for li in b if li.tag == "item"]
    kind = (
        dict(bulletType="1", bulletFontName="Sans-Bold")
        if b.tag == "steps"
        else dict(bulletType="bullet", start="•", bulletFontName="Sans")
    )
    return [ListFlowable(items, leftIndent=pt(5), bulletFontSize=8, bulletColor=kit.look.colour("accent"), **kind)]


def _note(b: Block, kit: Kit) -> list:
    t = Table([[[kit.para(inline(b, kit), "note")]]], colWidths=[pt(kit.width)])
    t.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), "Sans"),
                ("BACKGROUND", (0, 0), (-1, -1), kit.look.colour("tint")),
                ("LINEBEFORE", (0, 0), (0, -1), 1.6, kit.look.colour("accent")),
                ("LEFTPADDING", (0, 0), (-1, -1), 7),
                ("TOPPADDING", (0, 0), (-1, -1), 5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ]
        )
    )
    return [Spacer(1, pt(1)), t, Spacer(1, pt(3))]


def _table(b: Block, kit: Kit) -> list:
    rows = [r for r in b if r.tag == "row"]
    data = [
        [kit.para(inline(c, kit), "cellhead" if r.get("head") else "cell") for c in r if c.tag == "cell"] for r in rows
    ]
    if not data:
        raise MarkupError(b, "<table> needs <row> elements")
    ncols = max(len(r) for r in data)
    widths = (b.get("widths") or " ".join(["1"] * ncols)).split()
    try:
        fractions = [float(x) for x in widths]
    except ValueError:
        fractions = []
    if len(fractions) != ncols or not all(0 < f < 1000 for f in fractions):
        raise MarkupError(b, f"<table widths={b.get('widths')!r}> needs {ncols} positive numbers")
    total = sum(fractions)
    t = Table(data, colWidths=[pt(kit.width * f / total) for f in fractions], hAlign="LEFT")
    rule, accent = kit.look.colour("rule"), kit.look.colour("accent")
    style = [
        ("FONTNAME", (0, 0), (-1, -1), "Sans"),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.3, rule),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    style += [("LINEBELOW", (0, i), (-1, i), 0.8, accent) for i, r in enumerate(rows) if r.get("head")]
    t.setStyle(TableStyle(style))
    return [t]


def _thumb_entries(b: Block) -> list[tuple[int, str | None, Block]]:
    """(group number, the group's label over its first side or None outside groups, the <thumb>)."""
    entries = []
    for n, child in enumerate(b):
        if child.tag == "group":
            if not child.children:
                raise MarkupError(child, "<group> holds no <thumb>")
            entries += [(n, child.get("label", "") if k == 0 else "", th) for k, th in enumerate(child)]
        else:
            entries.append((n, None, child))
    return entries


def _thumbs(b: Block, kit: Kit) -> list:
    """Tile sides in a grid; a <group>'s sides sit together on one tint, its label over the first."""
    size = number(b, "size", 22)
    if not 4 <= size <= kit.width:
        raise MarkupError(b, f"<thumbs size={b.get('size')!r}> must be from 4 to {kit.width:g} mm")
    per_row = max(1, int(kit.width // (size + 3)))
    entries = _thumb_entries(b)
    grouped = any(label is not None for _, label, _ in entries)
    cells, tints = [], []
    for i, (_group, label, th) in enumerate(entries):
        if th.tag != "thumb":
            raise MarkupError(th, f"<thumbs> holds <thumb> and <group> elements, not <{th.tag}>")
        tile, face = th.get("tile") or "", th.get("face") or "front"
        try:
            image = kit.art.thumb(tile, face)
        except KeyError:
            raise MarkupError(th, f"<thumb tile={tile!r} face={face!r}> names no tile side") from None
        cell = [HexImage(image, size, kit.look.colour("rule"), kit.art.outline), kit.para(inline(th, kit), "caption")]
        if grouped:
            cell.insert(0, kit.para(_escape(label or "") or "&nbsp;", "grouplabel"))
        cells.append(cell)
        if grouped and len({g for g, _, _ in entries[: i + 1]}) % 2 == 0:
            tints.append((i % per_row, i // per_row))
    rows: list[list[Any]] = [cells[i : i + per_row] for i in range(0, len(cells), per_row)] or [[""]]
    rows[-1] += [""] * (per_row - len(rows[-1]))
    t = Table(rows, colWidths=[pt(kit.width / per_row)] * per_row, hAlign="LEFT")
    style = [
        ("FONTNAME", (0, 0), (-1, -1), "Sans"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
    ]
    style += [("BACKGROUND", cell, cell, kit.look.colour("tint")) for cell in tints]
    t.setStyle(TableStyle(style))
    return [t]


def _chart(b: Block, kit: Kit) -> list:
    return [
        pair_chart(
            list(kit.art.pairs), kit.width, kit.look, b.get("caption") or CHART_CAPTION, kit.art.numbers, kit.chains
        )
    ]


def _board(b: Block, kit: Kit) -> list:
    """The board, fitted inside width × height mm."""
    bw, bh = kit.art.board_size_mm
    scale = min(number(b, "width", kit.width), kit.width) / bw
    scale = min(scale, number(b, "height", scale * bh) / bh)
    return [Picture(kit.art.board_image, bw * scale, bh * scale)]


def _picture(b: Block, kit: Kit) -> list:
    """A named picture (the play histogram), ``width`` mm wide at most the frame."""
    found = {name: (image, aspect) for name, image, aspect in kit.art.pictures}
    name = b.get("name", "")
    if name not in found:
        known = ", ".join(sorted(found)) or "none in this kit"
        raise MarkupError(b, f"<picture name={name!r}> names no picture (known: {known})")
    image, aspect = found[name]
    width = min(number(b, "width", kit.width), kit.width)
    return [Picture(image, width, width * aspect)]


BUILDERS: dict[str, Callable[[Block, Kit], list]] = {
    "cover": _cover,
    "h1": _h1,
    "h2": _h2,
    "p": _para("body"),
    "small": _para("small"),
    "centred": _para("centred"),
    "list": _list,
    "steps": _list,
    "note": _note,
    "table": _table,
    "thumbs": _thumbs,
    "chart": _chart,
    "board": _board,
    "picture": _picture,
    "spacer": lambda b, kit: [Spacer(1, pt(number(b, "mm", 4)))],
    "pagebreak": lambda b, kit: [PageBreak()],
    # "keep" is built by _piece: its children are pieces of their own
}


def _piece(b: Block, kit: Kit, section: str) -> Piece:
    if b.tag == "keep":
        inner = tuple(_piece(child, kit, section) for child in b)
        return Piece((KeepTogether([f for p in inner for f in p.flowables]),), b.at, section, inner)
    build = BUILDERS.get(b.tag)
    if build is None:
        raise MarkupError(b, f"unknown markup element <{b.tag}> (booklet.xml.j2 in templates/ lists them)")
    return Piece(tuple(build(b, kit)), b.at, section)


def build_story(
    root: Block,
    res: Resources | None,
    frame_width_mm: float,
    folder: Path | None = None,
    look: Look | None = None,
    flow: bool = False,
) -> tuple[Piece, ...]:
    """The markup as pieces of flowables, each with its template location and section (with ``flow``, every
    section runs on where there is room); errors name the template (in ``folder``) and line."""
    if root.tag != "booklet":
        raise source_error(f"the markup's root must be <booklet>, not <{root.tag}>", root.at, folder)
    look = look or load_look()
    kit = Kit(look, paragraph_styles(look), res, frame_width_mm, chains(look), flow)
    pieces, section = [], ""
    for b in root:
        if b.tag in ("h1", "cover"):
            section = b.words() or b.get("title", "")
        try:
            pieces.append(_piece(b, kit, section))
        except MarkupError as err:
            raise source_error(str(err), err.at, folder) from None
    return tuple(pieces)
