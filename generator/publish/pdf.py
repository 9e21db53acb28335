"""Reportlab helpers shared by every PDF: reproducible canvases, embedded fonts, footers, rulers.

Lengths are millimetres until the one conversion to points, ``pt``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color
from reportlab.pdfbase.pdfdoc import PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfgen.canvas import Canvas

from generator import __version__
from generator.publish.fontchain import chain, draw, register_fonts, set_font
from generator.publish.settings import Paper
from generator.units import MM_PER_IN, PT_PER_MM

INK = Color(0.16, 0.16, 0.18)
SOFT = Color(0.45, 0.45, 0.48)
MARK = Color(0, 0, 0)
MARK_CMYK = CMYKColor(0, 0, 0, 1)  # factory trim marks: black ink alone
CUT = Color(0.85, 0.1, 0.45)
DIELINE = CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1)


def pt(mm: float) -> float:
    """Millimetres to PDF points: the one unit conversion."""
    return mm * PT_PER_MM


class _DatelessInfo(PDFInfo):
    """reportlab's document info without /CreationDate and /ModDate (invariant mode still writes 2000-01-01)."""

    def format(self, document):
        entries = {
            "Title": self.title,
            "Author": self.author,
            "Producer": self.producer,
            "Creator": self.creator,
            "Subject": self.subject,
            "Keywords": self.keywords,
        }
        d = {key: PDFString(value) for key, value in entries.items()}
        d["Trapped"] = PDFName(self.trapped)
        return PDFDictionary(d).format(document)


def without_dates(c: Canvas) -> Canvas:
    """``c`` set to write no dates into its document info."""
    c._doc.info.__class__ = _DatelessInfo
    return c


@dataclass(frozen=True)
class DocInfo:
    """What a PDF records about itself: title, subject and how it was made."""

    title: str
    subject: str
    made_with: str = ""
    title_font: str = "Sans-Bold"  # the face the game's name is drawn in on the pages (a theme's title font)
    words: tuple[tuple[str, str], ...] = ()  # the sheets' words (``SHEET_WORDS``' keys) where not English

    def say(self, key: str, **fields) -> str:
        """The sheets' phrase ``key`` in the kit's language, its fields filled in."""
        return dict(self.words).get(key, SHEET_WORDS[key]).format(**fields)


SHEET_WORDS = {  # the print sheets' words in English; a booklet's language.toml words them again ([phrases.sheets])
    "page": "page {page} of {pages}",
    "actual": "Print at 100% / Actual size",
    "rulers": "no “fit to page”: the rulers must measure true",
    "duplex": "{paper} duplex · {side} · flip on the long edge",
    "fronts": "fronts",
    "backs": "backs",
    "foldover": "{paper} fold-over · fold, glue, then cut",
    "fold": "fold here, glue, then cut",
    "single": "{paper} · single-sided tiles · print one side, then cut",
    "board": "the board on {paper} · cut along the trim marks",
    "tiled": "the board on {columns} × {rows} {paper} sheets",
    "join": "cut along the solid edge lines; lay each cut edge on its neighbour's dashed line; tape",
    "which": "row {row} of {rows}, column {column} of {columns}",
}


def new_canvas(buffer: io.BytesIO, paper: Paper, info: DocInfo, *, duplex: str | None = None) -> Canvas:
    """A reproducible canvas (invariant mode, fixed ids) with viewer hints for printing at 100%."""
    register_fonts()
    rl_config.useA85 = 0  # binary streams: smaller, and reportlab's pure-Python ASCII85 is slow
    c = Canvas(
        buffer,
        pagesize=(pt(paper.width_mm), pt(paper.height_mm)),
        invariant=1,
        pageCompression=1,
        pdfVersion=(1, 7),
        initialFontName="Sans",
        initialFontSize=8,
    )
    without_dates(c)
    c.setTitle(info.title)
    c.setAuthor("Trailwright")
    c.setSubject(info.subject)
    c.setCreator(f"trailwright {__version__}")
    c.setProducer(f"trailwright {__version__} (reportlab)")
    if info.made_with:
        c.setKeywords(info.made_with)
    c.setViewerPreference("PrintScaling", "None")
    if duplex:
        c.setViewerPreference("Duplex", duplex)
    return c


def ruler(c: Canvas, x: float, y: float, unit: str) -> float:
    """A 50 mm or 2 in check ruler with its left end at (x, y) mm; returns its length in mm."""
    if unit == "mm":
        length, ticks, per = 50.0, 50, 1.0
        label = "50 mm"
    else:
        length, ticks, per = 2 * MM_PER_IN, 16, MM_PER_IN / 8
        label = "2 in"
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.line(pt(x), pt(y), pt(x + length), pt(y))
    for i in range(ticks + 1):
        major = (i % 10 == 0) if unit == "mm" else (i % 8 == 0)
        mid = (i % 5 == 0) if unit == "mm" else (i % 4 == 0)
        h = 2.6 if major else 1.8 if mid else 1.0
        c.setLineWidth(0.4 if major else 0.3)
        c.line(pt(x + i * per), pt(y), pt(x + i * per), pt(y + h))
    c.setFillColor(INK)
    c.setFont("Sans", 5.5)
    c.drawString(pt(x + length + 1.2), pt(y), label)
    c.restoreState()
    return length


def footer(
    c: Canvas,
    paper: Paper,
    margin: float,
    game: str,
    page: int,
    pages: int,
    what: str,
    game_font: str = "Sans-Bold",
    info: DocInfo | None = None,
) -> None:
    """Game name (in ``game_font``'s chain) and page number, "Print at 100% / Actual size" and both check rulers,
    in the words of ``info``'s language."""

    say = (info or DocInfo("", "")).say
    bold, plain, name = chain("Sans-Bold"), chain("Sans"), chain(game_font, "Sans-Bold")
    number, what, actual, rulers = "  ·  " + say("page", page=page, pages=pages), what, say("actual"), say("rulers")
    c.saveState()
    y = margin + 1.0
    c.setFillColor(INK)
    set_font(c, game, name, 7.5)
    width = draw(c, pt(margin), pt(y + 5.0), game, name, 7.5)
    set_font(c, number, bold, 7.5)
    draw(c, pt(margin) + width, pt(y + 5.0), number, bold, 7.5)
    set_font(c, what, plain, 6.5)
    c.setFillColor(SOFT)
    draw(c, pt(margin), pt(y + 1.0), what, plain, 6.5)
    c.setFillColor(INK)
    set_font(c, actual, bold, 7.5)
    middle = margin + (paper.width_mm - 2 * margin) * 0.54
    draw(c, pt(middle), pt(y + 5.0), actual, bold, 7.5, "middle")
    set_font(c, rulers, plain, 6)
    c.setFillColor(SOFT)
    draw(c, pt(middle), pt(y + 1.0), rulers, plain, 6, "middle")
    first, second = ("mm", "in") if paper.ruler == "mm" else ("in", "mm")
    x = paper.width_mm - margin - 9.0 - 2 * MM_PER_IN
    ruler(c, x, y + 4.4, first)
    ruler(c, x, y + 0.2, second)
    c.restoreState()
