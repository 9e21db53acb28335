"""The board in print: one large sheet sized to it, or tiled over small sheets to tape together.

Glossary
--------
board art   the layout stage's board SVG; its root width and height are in mm.
window      the part of the board one small sheet shows: the sheet's printable area.
overlap     a strip both neighbouring sheets print: the upper sheet is trimmed at its window edge
            and laid over the lower one, its cut edge on the lower's dashed line. The lower
            sheet's strip carries the registration marks, so they are hidden once taped; the
            upper sheet's strip, which stays in sight, carries none.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from generator.publish.layout import Area, DoesNotFit, printable_area
from generator.publish.pdf import INK, MARK, SOFT, DocInfo, footer, new_canvas, pt
from generator.publish.placement import PackedImage, Placement, place_images
from generator.publish.settings import Paper, PublishSettings, load_paper
from generator.render.raster import MAX_PIXELS, px, render_pixels, svg_size_mm


@dataclass(frozen=True)
class BoardArt:
    """The board's pixels and its size on paper."""

    image: PackedImage
    width_mm: float
    height_mm: float

    @classmethod
    def of(cls, svg: str, dpi: int) -> BoardArt:
        """Rasterise the board SVG at ``dpi``."""
        w, h = svg_size_mm(svg)
        return cls(PackedImage.of("Board", render_pixels(svg, px(w, dpi), px(h, dpi))), w, h)


def fitting_dpi(svg: str, dpi: int) -> int:
    """``dpi``, or the highest lower one at which the board's picture stays within ``MAX_PIXELS`` (a board of
    hundreds of tiles is over a metre across)."""
    w, h = svg_size_mm(svg)
    while dpi > 1 and px(w, dpi) * px(h, dpi) > MAX_PIXELS:
        dpi -= 1
    return dpi


def slug_mm(settings: PublishSettings) -> float:
    """How far the board's bleed and trim marks reach past its trim on every side."""
    return settings.bleed_mm + settings.mark_offset_mm + settings.mark_length_mm


def large_paper(paper: Paper, width_mm: float, height_mm: float, settings: PublishSettings) -> Paper:
    """The smallest of ``paper``'s large sheets that holds the board with its bleed and trim marks, either way up;
    else one cut to size."""
    m, s = settings.margin_mm, slug_mm(settings)
    need_w, need_h = width_mm + 2 * (m + s), height_mm + 2 * (m + s) + settings.footer_mm
    for name in paper.large:
        big = load_paper(name)
        for option in (big, big.landscape()):
            if option.width_mm >= need_w and option.height_mm >= need_h:
                return option
    w, h = math.ceil(need_w), math.ceil(need_h)
    return Paper(f"{w}x{h}mm", f"{w} × {h} mm", float(w), float(h), paper.ruler)


def _place(art: BoardArt, x: float, y: float, clip: Area | None = None) -> Placement:
    """The board with its lower-left corner at (x, y) mm, clipped to ``clip`` (else to itself)."""
    c = clip or Area(x, y, art.width_mm, art.height_mm)
    box = ((c.x, c.y), (c.x + c.width, c.y), (c.x + c.width, c.y + c.height), (c.x, c.y + c.height))
    return Placement(art.image, x, y, art.width_mm, art.height_mm, box)


def board_large_pdf(board_svg: str, paper: Paper, settings: PublishSettings, info: DocInfo) -> tuple[Paper, bytes]:
    """The whole board in vector, centred on one large sheet, its art run past the trim by the bleed, trim
    marks outside it, TrimBox and BleedBox set; returns the sheet chosen and the PDF."""
    from generator.publish.vector import bled_svg, draw_trim_marks, pdf_meta, svg_pdf, underlay

    w, h = svg_size_mm(board_svg)
    b = settings.bleed_mm
    sheet = large_paper(paper, w, h, settings)
    area = printable_area(sheet, settings)
    x, y = area.x + (area.width - w) / 2, area.y + (area.height - h) / 2
    buffer = io.BytesIO()
    c = new_canvas(buffer, sheet, info)
    c.setTrimBox([pt(x), pt(y), pt(x + w), pt(y + h)])
    c.setBleedBox([pt(x - b), pt(y - b), pt(x + w + b), pt(y + h + b)])
    draw_trim_marks(c, x, y, w, h, settings, MARK)
    what = info.say("board", paper=sheet.title)
    footer(c, sheet, settings.margin_mm, settings.title, 1, 1, what, info.title_font, info)
    c.showPage()
    c.save()
    art = svg_pdf(bled_svg(board_svg, w, h, b))
    return sheet, underlay(buffer.getvalue(), {0: [(art, x - b, y - b)]}, pdf_meta(info))


@dataclass(frozen=True)
class Tiling:
    """How the board is split over small sheets: the sheet, grid size and board offset (mm)."""

    paper: Paper
    columns: int
    rows: int
    area: Area
    step_x: float
    step_y: float
    offset_x: float
    offset_y: float


HEADER_MM = 4.5  # the band above each tiled sheet's window for its note and its row and column


def plan_tiling(art: BoardArt, paper: Paper, settings: PublishSettings) -> Tiling:
    """The sheet orientation needing fewest sheets, and the board centred on the joined sheets."""
    ov = settings.board_overlap_mm
    best = None
    for sheet in (paper, paper.landscape()):
        full = printable_area(sheet, settings)
        area = Area(full.x, full.y, full.width, full.height - HEADER_MM)  # the header sits inside the margin
        if area.width <= 2 * ov or area.height <= 2 * ov:
            continue
        sx, sy = area.width - ov, area.height - ov
        cols = max(1, math.ceil((art.width_mm - ov) / sx))
        rows = max(1, math.ceil((art.height_mm - ov) / sy))
        span_x, span_y = cols * sx + ov, rows * sy + ov
        tiling = Tiling(sheet, cols, rows, area, sx, sy, (span_x - art.width_mm) / 2, (span_y - art.height_mm) / 2)
        if best is None or cols * rows < best.columns * best.rows:
            best = tiling
    if best is None:
        raise DoesNotFit(f"board_overlap_mm = {ov:g} leaves no room on {paper.title}")
    return best


def _register(c, x: float, y: float) -> None:
    c.circle(pt(x), pt(y), pt(2.2), stroke=1, fill=0)
    c.line(pt(x - 3.5), pt(y), pt(x + 3.5), pt(y))
    c.line(pt(x), pt(y - 3.5), pt(x), pt(y + 3.5))


def board_tiled_pdf(art: BoardArt, paper: Paper, settings: PublishSettings, info: DocInfo) -> tuple[Tiling, bytes]:
    """The board over several small sheets with overlap strips, trim lines and registration marks."""
    t = plan_tiling(art, paper, settings)
    ov, a = settings.board_overlap_mm, t.area
    buffer = io.BytesIO()
    c = new_canvas(buffer, t.paper, info)
    pages = t.columns * t.rows
    placements: list[list[Placement]] = []
    for row in range(t.rows):
        for col in range(t.columns):
            # Board point (bx, by) from the board's lower-left corner lands at page point (x0 + bx, y0 + by).
            x0 = a.x + t.offset_x - col * t.step_x
            top_of_span = t.rows * t.step_y + ov
            y0 = a.y + a.height - top_of_span + t.offset_y + row * t.step_y
            placements.append([_place(art, x0, y0, a)])  # drawn beneath, the board compressed once
            c.saveState()
            c.setLineWidth(0.3)
            c.setStrokeColor(MARK)
            c.setFont("Sans", 6)
            c.setFillColor(INK)
            for strip in _strips(t, ov, row, col):
                _draw_strip(c, strip, ov)
            _sheet_labels(c, t, row, col, info)
            c.restoreState()
            what = info.say("tiled", columns=t.columns, rows=t.rows, paper=t.paper.title)
            page = row * t.columns + col + 1
            footer(c, t.paper, settings.margin_mm, settings.title, page, pages, what, info.title_font, info)
            c.showPage()
    c.save()
    return t, place_images(buffer.getvalue(), placements)


def _strips(t: Tiling, ov: float, row: int, col: int) -> list[tuple[bool, float, float, float, float]]:
    """(is_upper_sheet, x_lo, y_lo, x_hi, y_hi) of each overlap on the sheet at ``row``, ``col``."""
    a = t.area
    strips = []
    if col > 0:
        strips.append((True, a.x, a.y, a.x + ov, a.y + a.height))
    if col < t.columns - 1:
        strips.append((False, a.x + a.width - ov, a.y, a.x + a.width, a.y + a.height))
    if row > 0:
        strips.append((True, a.x, a.y + a.height - ov, a.x + a.width, a.y + a.height))
    if row < t.rows - 1:
        strips.append((False, a.x, a.y, a.x + a.width, a.y + ov))
    return strips


def _draw_strip(c, strip: tuple[bool, float, float, float, float], ov: float) -> None:
    """An overlap's edge: solid where this sheet is trimmed, dashed where the next sheet's trimmed edge lies, and
    registration marks on the part the next sheet covers (hidden once taped)."""
    upper, xl, yl, xh, yh = strip
    vertical = (xh - xl) <= ov + 1e-6
    if upper:
        c.setDash()
    else:
        c.setDash(3, 2)
    if vertical:
        c.line(pt(xl), pt(yl), pt(xl), pt(yh))
    else:
        c.line(pt(xl), pt(yh), pt(xh), pt(yh))
    c.setDash()
    if upper:
        return  # this strip stays in sight: no marks over the art
    for f in (0.25, 0.75):
        if vertical:
            _register(c, (xl + xh) / 2, yl + f * (yh - yl))
        else:
            _register(c, xl + f * (xh - xl), (yl + yh) / 2)


def _sheet_labels(c, t: Tiling, row: int, col: int, info: DocInfo) -> None:
    """How to join the sheets, and which sheet this is, above the board area (in the kit's language)."""
    from generator.publish.fontchain import chain, draw, set_font

    a = t.area
    c.setFillColor(SOFT)
    note, which = info.say("join"), info.say("which", row=row + 1, rows=t.rows, column=col + 1, columns=t.columns)
    set_font(c, note, chain("Sans"), 6.5)
    draw(c, pt(a.x), pt(a.y + a.height + 1.5), note, chain("Sans"), 6.5)
    set_font(c, which, chain("Sans-Bold"), 8)
    c.setFillColor(INK)
    draw(c, pt(a.x + a.width), pt(a.y + a.height + 1.5), which, chain("Sans-Bold"), 8, "end")
