"""The rules booklet: jinja2 templates → a small page markup → reportlab pages (A5, reading order).

Glossary
--------
template   a jinja2 file in the templates folder (``booklet.xml.j2`` includes the others);
           it sees the booklet context (game, counts, landmarks, figures) as data.
markup     what the templates render to: a small XML vocabulary, one element per block
           (see ``templates/booklet.xml.j2`` for the list).
thumb      a tile side's art, shown small (the catalogue, the figures).
story      the reportlab flowables the markup becomes.
"""

from __future__ import annotations

import io
import math
import re
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import jinja2
from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib.colors import Color, white
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.doctemplate import LayoutError
from reportlab.platypus import (
    BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, ListFlowable, ListItem, NextPageTemplate,
    NotAtTopPageBreak, PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle,
)

from generator.errors import TrailwrightError
from generator.publish.layout import hex_corners
from generator.publish.pdf import INK, SOFT, DocInfo, pt, register_fonts, without_dates
from generator.publish.settings import Paper

MAIN_TEMPLATE = "booklet.xml.j2"
AT = "tw-at"  # the attribute the loader adds to every start tag: "template.xml.j2:line"
ACCENT = Color(0.55, 0.27, 0.13)
PAPER_TINT = Color(0.97, 0.95, 0.90)
RULE = Color(0.80, 0.74, 0.64)

Thumb = Callable[[str, str], Any]  # (tile id, face) -> a reportlab ImageReader of the side's art


# --- templates ------------------------------------------------------------------------------


def _template_line(tb, folder: Path) -> tuple[str, int] | None:
    """The innermost template file and line in a traceback (jinja2 maps frames back to templates)."""
    found = None
    for frame, lineno in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        if name.endswith(".j2") or Path(name).parent == folder:
            found = (Path(name).name, lineno)
    return found


_JINJA = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\})", re.S)
_START_TAG = re.compile(r"<([A-Za-z_][\w.-]*)")


def tag_sources(source: str, name: str) -> str:
    """``source`` with ``tw-at="name:line"`` added to each start tag outside jinja's own blocks (lines kept)."""
    parts = _JINJA.split(source)
    line = 1
    for i, part in enumerate(parts):
        if i % 2 == 0:
            pieces, last = [], 0
            for m in _START_TAG.finditer(part):
                pieces.append(part[last:m.end()])
                pieces.append(f' {AT}="{name}:{line + part.count(chr(10), 0, m.start())}"')
                last = m.end()
            parts[i] = "".join(pieces) + part[last:]
        line += part.count("\n")
    return "".join(parts)


class _TaggingLoader(jinja2.FileSystemLoader):
    """Templates from a folder, each start tag marked with its template and line (see ``tag_sources``)."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        return tag_sources(source, template), filename, uptodate


def render_markup(folder: Path, context: dict) -> str:
    """Render the booklet's templates from ``folder``; template errors name the template and line."""
    env = jinja2.Environment(
        loader=_TaggingLoader(str(folder)), undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["xml.j2", "xml"], default_for_string=True), keep_trailing_newline=True,
        trim_blocks=True, lstrip_blocks=True,
    )
    try:
        return env.get_template(MAIN_TEMPLATE).render(**context)
    except jinja2.TemplateNotFound as err:
        raise TrailwrightError(f"missing template {err.name!r}", str(folder)) from None
    except jinja2.TemplateSyntaxError as err:
        name = err.name or (Path(err.filename).name if err.filename else MAIN_TEMPLATE)
        raise TrailwrightError(f"template error at line {err.lineno}: {err.message}", str(folder / name)) from None
    except Exception as err:  # an error while rendering: undefined names, bad filters, ...
        where = _template_line(err.__traceback__, folder)
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        if where:
            raise TrailwrightError(f"template error at line {where[1]}: {message}", str(folder / where[0])) from None
        raise TrailwrightError(f"template error: {message}", str(folder / MAIN_TEMPLATE)) from None


def _at(text: str | None) -> tuple[str, int] | None:
    """A ``tw-at`` value as (template, line)."""
    if not text or ":" not in text:
        return None
    name, _, line = text.rpartition(":")
    return (name, int(line)) if line.isdigit() else None


def _source_error(message: str, at: tuple[str, int] | None, folder: Path | None) -> TrailwrightError:
    """A template error at ``at`` (template, line), naming the file in ``folder`` when known."""
    if at is None:
        return TrailwrightError(f"template error: {message}", str(folder / MAIN_TEMPLATE) if folder else None)
    name, line = at
    return TrailwrightError(f"template error at line {line}: {message}", str(folder / name) if folder else name)


def parse_markup(markup: str, folder: Path) -> ET.Element:
    """Parse the rendered markup; errors name the template and line the faulty markup came from."""
    parser = ET.XMLPullParser(events=("start", "end"))
    stack: list[ET.Element] = []
    root = last_at = None
    try:
        for number, line in enumerate(markup.splitlines(keepends=True), start=1):
            parser.feed(line)
            for event, el in parser.read_events():
                if event == "start":
                    root = el if not stack and root is None else root
                    stack.append(el)
                    last_at = _at(el.get(AT)) or last_at
                else:
                    stack.pop()
        parser.close()
    except ET.ParseError as err:
        reason = str(err).split(":")[0]
        if reason.startswith("mismatched tag") and stack:  # name the element left open, where it was opened
            open_el = stack[-1]
            raise _source_error(f"<{open_el.tag}> is not closed properly (markup not well formed: {reason})",
                                _at(open_el.get(AT)), folder) from None
        text = markup.splitlines()[err.position[0] - 1].strip() if 0 < err.position[0] <= len(markup.splitlines()) \
            else ""
        where = None
        if last_at:  # the nearest start tag before the error: its template, and the line counted on from it
            tagged = [i for i, l in enumerate(markup.splitlines()[:err.position[0]], start=1)
                      if f'{AT}="{last_at[0]}:{last_at[1]}"' in l]
            where = (last_at[0], last_at[1] + err.position[0] - tagged[-1]) if tagged else last_at
        message = f"markup not well formed ({reason}): {_AT_ATTR.sub('', text)[:60]}"
        raise _source_error(message, where, folder) from None
    return root


_AT_ATTR = re.compile(rf' {AT}="[^"]*"')


# --- styles ---------------------------------------------------------------------------------


def _styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    body = ParagraphStyle("body", fontName="Serif", fontSize=8.8, leading=11.8, textColor=INK, spaceAfter=4)
    return {
        "body": body,
        "h1": ParagraphStyle("h1", body, fontName="Sans-Bold", fontSize=15, leading=18, textColor=ACCENT,
                             spaceBefore=2, spaceAfter=8),
        "h2": ParagraphStyle("h2", body, fontName="Sans-Bold", fontSize=10.5, leading=13, spaceBefore=7,
                             spaceAfter=3),
        "small": ParagraphStyle("small", body, fontName="Sans", fontSize=7, leading=9, textColor=SOFT),
        "caption": ParagraphStyle("caption", body, fontName="Sans", fontSize=7, leading=8.4, alignment=TA_CENTER,
                                  spaceAfter=0),
        "grouplabel": ParagraphStyle("grouplabel", body, fontName="Sans-Bold", fontSize=7, leading=8.4,
                                     alignment=TA_CENTER, textColor=ACCENT, spaceAfter=1),
        "cell": ParagraphStyle("cell", body, fontName="Sans", fontSize=7.8, leading=9.6, spaceAfter=0),
        "cellhead": ParagraphStyle("cellhead", body, fontName="Sans-Bold", fontSize=7.8, leading=9.6, spaceAfter=0),
        "note": ParagraphStyle("note", body, fontName="Serif-Italic", fontSize=8.6, leading=11.5, spaceAfter=0),
        "title": ParagraphStyle("title", body, fontName="Sans-Bold", fontSize=30, leading=34, alignment=TA_CENTER,
                                textColor=ACCENT),
        "subtitle": ParagraphStyle("subtitle", body, fontName="Serif-Italic", fontSize=12, leading=15,
                                   alignment=TA_CENTER),
        "centred": ParagraphStyle("centred", body, fontName="Sans", fontSize=8, leading=10.5, alignment=TA_CENTER,
                                  textColor=SOFT),
    }


def _inline(element: ET.Element) -> str:
    """An element's content as reportlab paragraph markup (b, i, br, font and span pass through)."""
    parts = [_escape(element.text or "")]
    for child in element:
        inner = _inline(child)
        if child.tag == "br":
            parts.append("<br/>")
        elif child.tag in ("b", "i", "u", "sup", "sub"):
            parts.append(f"<{child.tag}>{inner}</{child.tag}>")
        elif child.tag == "em":
            parts.append(f"<font color='#8c4521'><b>{inner}</b></font>")
        else:
            raise MarkupError(child if child.get(AT) else element, f"<{child.tag}> is not allowed inside <{element.tag}>")
        parts.append(_escape(child.tail or ""))
    return " ".join("".join(parts).split())


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- flowables ------------------------------------------------------------------------------


class HexImage(Flowable):
    """A tile side's art clipped to its hexagon, ``width`` mm corner to corner."""

    def __init__(self, image, width_mm: float):
        super().__init__()
        self.image, self.w = image, width_mm
        self.width, self.height = pt(width_mm), pt(width_mm * math.sqrt(3) / 2)

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        c = self.canv
        corners = hex_corners(self.w / 2, self.w * math.sqrt(3) / 4, self.w)
        path = c.beginPath()
        path.moveTo(pt(corners[0][0]), pt(corners[0][1]))
        for x, y in corners[1:]:
            path.lineTo(pt(x), pt(y))
        path.close()
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        c.drawImage(self.image, 0, 0, self.width, self.height)
        c.restoreState()
        c.setStrokeColor(RULE)
        c.setLineWidth(0.3)
        c.drawPath(path, stroke=1, fill=0)


class Picture(Flowable):
    """An image ``width_mm`` × ``height_mm``, centred in the frame."""

    def __init__(self, image, width_mm: float, height_mm: float):
        super().__init__()
        self.image = image
        self.width, self.height = pt(width_mm), pt(height_mm)
        self.hAlign = "CENTER"

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        self.canv.drawImage(self.image, 0, 0, self.width, self.height)


class Mosaic(Flowable):
    """A honeycomb of tile sides for the cover, faded at the edges of the frame."""

    def __init__(self, images: list, width_mm: float, height_mm: float, tile_mm: float):
        super().__init__()
        self.images, self.tile = images, tile_mm
        self.width, self.height = pt(width_mm), pt(height_mm)
        self.w_mm, self.h_mm = width_mm, height_mm

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        c = self.canv
        w, h = self.tile, self.tile * math.sqrt(3) / 2
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, 0, self.width, self.height)
        c.clipPath(clip, stroke=0, fill=0)
        k = 0
        cols = int(self.w_mm / (0.75 * w)) + 2
        rows = int(self.h_mm / h) + 2
        for i in range(cols):
            for j in range(rows):
                cx = self.w_mm / 2 + (i - cols // 2) * 0.75 * w
                cy = j * h + (h / 2 if i % 2 else 0) - h / 2
                image = self.images[k % len(self.images)]
                k += 7
                corners = hex_corners(cx, cy, w - 0.8)
                path = c.beginPath()
                path.moveTo(pt(corners[0][0]), pt(corners[0][1]))
                for x, y in corners[1:]:
                    path.lineTo(pt(x), pt(y))
                path.close()
                c.saveState()
                c.clipPath(path, stroke=0, fill=0)
                c.drawImage(image, pt(cx - w / 2), pt(cy - h / 2), pt(w), pt(h))
                c.restoreState()
        c.restoreState()


def pair_chart(pairs: list[tuple[str, float]], width_mm: float) -> Drawing:
    """Connectivity per landmark pair as horizontal bars, weakest at the top."""
    rows = len(pairs)
    height_mm = 11 + rows * 4.2
    d = Drawing(pt(width_mm), pt(height_mm))
    chart = HorizontalBarChart()
    chart.x, chart.y = pt(26), pt(9)
    chart.width, chart.height = pt(width_mm - 32), pt(height_mm - 11)
    ordered = sorted(pairs, key=lambda p: -p[1])  # reportlab draws the first category at the bottom
    chart.data = [[100 * v for _, v in ordered]]
    chart.categoryAxis.categoryNames = [name.replace("-", " – ") for name, _ in ordered]
    chart.categoryAxis.labels.fontName = "Sans"
    chart.categoryAxis.labels.fontSize = 6
    chart.categoryAxis.labels.dx = -2
    chart.categoryAxis.strokeColor = SOFT
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = 100
    chart.valueAxis.valueStep = 25
    chart.valueAxis.labels.fontName = "Sans"
    chart.valueAxis.labels.fontSize = 6
    chart.valueAxis.labelTextFormat = "%d%%"
    chart.valueAxis.strokeColor = SOFT
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = RULE
    chart.valueAxis.gridStrokeWidth = 0.25
    chart.bars[0].fillColor = ACCENT
    chart.bars[0].strokeColor = None
    chart.barWidth = pt(2.6)
    chart.barLabelFormat = "%.0f%%"
    chart.barLabels.fontName = "Sans"
    chart.barLabels.fontSize = 5.5
    chart.barLabels.fillColor = white
    chart.barLabels.boxAnchor = "e"
    chart.barLabels.dx = -1.5
    d.add(chart)
    d.add(String(pt(width_mm), pt(0), "share of random layouts in which the pair is joined", fontName="Sans",
                 fontSize=5.5, fillColor=SOFT, textAnchor="end"))
    return d


# --- markup → story ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Resources:
    """What the markup's figures draw from: side art, the board, the pair figures."""

    thumb: Thumb
    board_image: Any
    board_size_mm: tuple[float, float]
    pairs: tuple[tuple[str, float], ...]
    cover_images: tuple


def _number(element: ET.Element, key: str, default: float) -> float:
    value = element.get(key)
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise MarkupError(element, f"<{element.tag} {key}={value!r}> is not a number") from None


class MarkupError(Exception):
    """A fault in one element of the markup; ``build_story`` names its template and line."""

    def __init__(self, element: ET.Element, message: str):
        super().__init__(message)
        self.at = _at(element.get(AT))


def build_story(root: ET.Element, res: Resources, frame_width_mm: float, folder: Path | None = None) -> list:
    """Turn the markup into reportlab flowables, each tagged with the template, line and section it came
    from; errors name the template (in ``folder``) and line."""
    if root.tag != "booklet":
        raise _source_error(f"the markup's root must be <booklet>, not <{root.tag}>", _at(root.get(AT)), folder)
    st = _styles()
    story: list = []
    section = ""
    for el in root:
        if el.tag in ("h1", "cover"):
            section = " ".join("".join(el.itertext()).split()) or el.get("title", "")
        try:
            story += _tagged(el, st, res, frame_width_mm, section)
        except MarkupError as err:
            raise _source_error(str(err), err.at, folder) from None
    return story


def _tagged(el: ET.Element, st: dict, res: Resources, width: float, section: str) -> list:
    """``_block``'s flowables, each marked with where it came from (for layout errors)."""
    flowables = _block(el, st, res, width)
    for f in flowables:
        f._tw_at = getattr(f, "_tw_at", None) or _at(el.get(AT))
        f._tw_section = section
        for inner in getattr(f, "_content", None) or []:  # a <keep>'s blocks
            inner._tw_section = section
    return flowables


def _block(el: ET.Element, st: dict, res: Resources, width: float) -> list:
    tag = el.tag
    if tag == "cover":
        return [NextPageTemplate("cover"), *_cover(el, st, res, width), NextPageTemplate("body"), PageBreak()]
    if tag == "h1":  # a new page unless already at the top of one, or asked to run on
        brk = CondPageBreak(pt(40)) if el.get("flow") == "yes" else NotAtTopPageBreak()
        return [brk, Paragraph(_inline(el), st["h1"])]
    if tag == "h2":
        return [CondPageBreak(pt(22)), Paragraph(_inline(el), st["h2"])]
    if tag in ("p", "small", "centred"):
        return [Paragraph(_inline(el), st["body" if tag == "p" else tag])]
    if tag in ("list", "steps"):
        items = [ListItem(Paragraph(_inline(li), st["body"]), leftIndent=pt(5)) for li in el if li.tag == "item"]
        kind = dict(bulletType="1", bulletFontName="Sans-Bold") if tag == "steps" else \
            dict(bulletType="bullet", start="•", bulletFontName="Sans")
        return [ListFlowable(items, leftIndent=pt(5), bulletFontSize=8, bulletColor=ACCENT, **kind)]
    if tag == "note":
        cell = [Paragraph(_inline(el), st["note"])]
        t = Table([[cell]], colWidths=[pt(width)])
        t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "Sans"), ("BACKGROUND", (0, 0), (-1, -1), PAPER_TINT), ("LINEBEFORE", (0, 0), (0, -1), 1.6, ACCENT),
                               ("LEFTPADDING", (0, 0), (-1, -1), 7), ("TOPPADDING", (0, 0), (-1, -1), 5),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
        return [Spacer(1, pt(1)), t, Spacer(1, pt(3))]
    if tag == "table":
        return [_table(el, st, width)]
    if tag == "thumbs":
        return [_thumbs(el, st, res, width)]
    if tag == "chart":
        return [pair_chart(list(res.pairs), width)]
    if tag == "board":
        bw, bh = res.board_size_mm
        scale = min(_number(el, "width", width), width) / bw
        scale = min(scale, _number(el, "height", scale * bh) / bh)  # fit inside width × height
        return [Picture(res.board_image, bw * scale, bh * scale)]
    if tag == "spacer":
        return [Spacer(1, pt(_number(el, "mm", 4)))]
    if tag == "pagebreak":
        return [PageBreak()]
    if tag == "keep":
        inner = []
        for child in el:
            blocks = _block(child, st, res, width)
            for f in blocks:
                f._tw_at = _at(child.get(AT))
            inner += blocks
        return [KeepTogether(inner)]
    raise MarkupError(el, f"unknown markup element <{tag}> (see templates/booklet.xml.j2 for the list)")


def _cover(el: ET.Element, st: dict, res: Resources, width: float) -> list:
    out = [Spacer(1, pt(8)), Paragraph(_escape(el.get("title", "")), st["title"]), Spacer(1, pt(3))]
    if el.get("subtitle"):
        out.append(Paragraph(_escape(el.get("subtitle")), st["subtitle"]))
    out.append(Spacer(1, pt(8)))
    out.append(Mosaic(list(res.cover_images), width, 118, 30))
    out.append(Spacer(1, pt(8)))
    for line in el:
        out.append(Paragraph(_inline(line), st["centred"]))
    return out


def _table(el: ET.Element, st: dict, width: float) -> Table:
    rows = [r for r in el if r.tag == "row"]
    data = [[Paragraph(_inline(c), st["cellhead" if r.get("head") else "cell"]) for c in r if c.tag == "cell"]
            for r in rows]
    if not data:
        raise MarkupError(el, "<table> needs <row> elements")
    ncols = max(len(r) for r in data)
    fractions = [float(x) for x in el.get("widths", " ".join(["1"] * ncols)).split()]
    total = sum(fractions)
    t = Table(data, colWidths=[pt(width * f / total) for f in fractions], hAlign="LEFT")
    style = [("FONTNAME", (0, 0), (-1, -1), "Sans"), ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LINEBELOW", (0, 0), (-1, -1), 0.3, RULE),
             ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
             ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    for i, r in enumerate(rows):
        if r.get("head"):
            style += [("LINEBELOW", (0, i), (-1, i), 0.8, ACCENT)]
    t.setStyle(TableStyle(style))
    return t


def _thumbs(el: ET.Element, st: dict, res: Resources, width: float) -> Table:
    """Tile sides in a grid; a <group>'s sides sit together on one tint, its label over the first."""
    size = _number(el, "size", 22)
    per_row = max(1, int(width // (size + 3)))
    entries = []  # (group number, label or None, thumb)
    for number, child in enumerate(el):
        if child.tag == "group":
            members = list(child)
            if not members:
                raise MarkupError(child, "<group> holds no <thumb>")
            for k, th in enumerate(members):
                entries.append((number, child.get("label", "") if k == 0 else "", th))
        else:
            entries.append((number, None, child))
    grouped = any(label is not None for _, label, _ in entries)
    cells, tints = [], []
    for i, (group, label, th) in enumerate(entries):
        if th.tag != "thumb":
            raise MarkupError(th, f"<thumbs> holds <thumb> and <group> elements, not <{th.tag}>")
        tile, face = th.get("tile"), th.get("face", "front")
        try:
            image = res.thumb(tile, face)
        except KeyError:
            raise MarkupError(th, f"<thumb tile={tile!r} face={face!r}> names no tile side") from None
        cell = [HexImage(image, size), Paragraph(_inline(th), st["caption"])]
        if grouped:
            cell.insert(0, Paragraph(_escape(label or "") or "&nbsp;", st["grouplabel"]))
        cells.append(cell)
        if grouped and len({g for g, _, _ in entries[:i + 1]}) % 2 == 0:
            tints.append((i % per_row, i // per_row))
    rows = [cells[i:i + per_row] for i in range(0, len(cells), per_row)] or [[""]]
    rows[-1] += [""] * (per_row - len(rows[-1]))
    t = Table(rows, colWidths=[pt(width / per_row)] * per_row, hAlign="LEFT")
    style = [("FONTNAME", (0, 0), (-1, -1), "Sans"), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 3),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 3), ("LEFTPADDING", (0, 0), (-1, -1), 0),
             ("RIGHTPADDING", (0, 0), (-1, -1), 0)]
    style += [("BACKGROUND", cell, cell, PAPER_TINT) for cell in tints]
    t.setStyle(TableStyle(style))
    return t


# --- the document ---------------------------------------------------------------------------


class _Doc(BaseDocTemplate):
    """A doc template that remembers the last flowable it placed that came from the markup."""

    last = None

    def handle_flowable(self, flowables):
        if flowables and getattr(flowables[0], "_tw_section", None) is not None:
            self.last = flowables[0]
        super().handle_flowable(flowables)


def booklet_pdf(story: list, paper: Paper, info: DocInfo, title: str, folder: Path | None = None) -> bytes:
    """The story on ``paper`` pages with a running footer (the cover has none); a block too big for a page
    is an error naming its template (in ``folder``), line and section."""
    register_fonts()
    margin_x, margin_top, margin_bottom = 13.0, 13.0, 15.0
    buffer = io.BytesIO()
    from reportlab import rl_config

    rl_config.useA85 = 0
    doc = _Doc(
        buffer, pagesize=(pt(paper.width_mm), pt(paper.height_mm)), invariant=1, title=info.title,
        author="Trailwright", subject=info.subject, creator=info.made_with or "trailwright",
        producer=f"{info.made_with or 'trailwright'} (reportlab)", keywords=info.made_with,
        leftMargin=pt(margin_x), rightMargin=pt(margin_x), topMargin=pt(margin_top), bottomMargin=pt(margin_bottom),
    )
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body", leftPadding=0,
                  rightPadding=0, topPadding=0, bottomPadding=0)

    def cover(c, d):
        c.saveState()
        c.setFillColor(PAPER_TINT)
        c.rect(0, 0, pt(paper.width_mm), pt(paper.height_mm), stroke=0, fill=1)
        c.restoreState()

    def body(c, d):
        c.saveState()
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        y = pt(margin_bottom - 6)
        c.line(pt(margin_x), y + pt(3.6), pt(paper.width_mm - margin_x), y + pt(3.6))
        c.setFont("Sans", 7)
        c.setFillColor(SOFT)
        page = c.getPageNumber()
        if page % 2 == 0:
            c.drawString(pt(margin_x), y, str(page))
            c.drawRightString(pt(paper.width_mm - margin_x), y, title)
        else:
            c.drawString(pt(margin_x), y, title)
            c.drawRightString(pt(paper.width_mm - margin_x), y, str(page))
        c.restoreState()

    doc.addPageTemplates([PageTemplate("body", [frame], onPage=body), PageTemplate("cover", [frame], onPage=cover)])
    first = story and isinstance(story[0], NextPageTemplate) and story[0].action[1] == "cover"
    if first:  # the first page is the cover: start on that template
        doc.pageTemplates.reverse()
        story = story[1:]
    doc.setProgressCallBack(None)
    canvasmaker = _canvas_maker(info)
    try:
        doc.build(story, canvasmaker=canvasmaker)
    except LayoutError as err:
        block = doc.last
        at = getattr(block, "_tw_at", None)
        section = getattr(block, "_tw_section", "")
        kind = type(block).__name__ if block is not None else "a block"
        what = f"{kind} in section {section!r}" if section else kind
        size = re.search(r"\(([\d.]+) x ([\d.]+)\)", str(err))
        tall = f", {float(size[2]) / pt(1):.0f} mm tall" if size else ""
        raise _source_error(f"{what} does not fit on a {paper.title} page{tall} (the frame is "
                            f"{paper.height_mm - margin_top - margin_bottom:g} mm tall)", at, folder) from None
    return buffer.getvalue()


def _canvas_maker(info: DocInfo):
    from reportlab.pdfgen.canvas import Canvas

    class BookletCanvas(Canvas):
        def __init__(self, *args, **kw):
            kw["invariant"] = 1
            kw["initialFontName"] = "Serif"
            super().__init__(*args, **kw)
            without_dates(self)
            self.setViewerPreference("PrintScaling", "None")

    return BookletCanvas
