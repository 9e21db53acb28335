"""Print-and-play tile sheets: a sheet plan drawn as PDF bytes (duplex or fold-over)."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from generator.model import TileSet
from generator.publish.art import ArtCache
from generator.publish.calibrate import shift_backs
from generator.publish.layout import SheetPlan, block_marks, clip
from generator.publish.pdf import CUT, MARK, SOFT, DocInfo, footer, new_canvas, pt
from generator.publish.placement import Placement, place_images
from generator.publish.settings import PublishSettings


def _path(c: Canvas, points, close: bool = True):
    p = c.beginPath()
    p.moveTo(pt(points[0][0]), pt(points[0][1]))
    for x, y in points[1:]:
        p.lineTo(pt(x), pt(y))
    if close:
        p.close()
    return p


def draw_marks(c: Canvas, page, plan: SheetPlan, settings: PublishSettings) -> None:
    """A page's crop marks and, optionally, the tiles' cut lines: each tile's own, or with shared cuts each block's
    (a block a face: fronts and backs lie apart on a fold-over sheet) at the ends of its cut lines."""
    m = plan.marks
    if m.outline.shares_cuts:
        ticks = [t for face in sorted({f for _, f, _ in page}) for t in block_marks(m, _centres(page, face))]
        _strokes(c, ticks, [m.cut(cx, cy) for _, _, (cx, cy) in page], settings)
        return
    for _, _, (cx, cy) in page:
        _strokes(c, m.marks(cx, cy), [m.cut(cx, cy)], settings)


def _strokes(c: Canvas, ticks, cuts, settings: PublishSettings) -> None:
    c.saveState()
    c.setStrokeColor(MARK)
    c.setLineWidth(settings.mark_width_pt)
    c.setLineCap(0)
    for (x0, y0), (x1, y1) in ticks:
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))
    if settings.cut_lines:
        c.setStrokeColor(CUT)
        for cut in cuts:
            c.drawPath(_path(c, cut), stroke=1, fill=0)
    c.restoreState()


def _centres(page, face: str) -> list:
    return [centre for _, f, centre in page if f == face]


def art_placement(art: ArtCache, tile, face: str, centre, plan: SheetPlan, page) -> Placement:
    """A side's art centred on its slot, clipped to its bleed (``layout.clip``)."""
    (fw, fh), (cx, cy) = art.frame_mm, centre
    cut = clip(plan.marks, centre, frozenset(_centres(page, face)))
    return Placement(art.packed(tile, face), cx - fw / 2, cy - fh / 2, fw, fh, cut)


def _fold_line(c: Canvas, plan: SheetPlan, settings: PublishSettings, label: str) -> None:
    x = plan.fold_x
    if x is None:  # not a fold-over sheet
        return
    top = plan.paper.height_mm - settings.margin_mm
    bottom = settings.margin_mm + settings.footer_mm
    c.saveState()
    c.setFont("Sans", 6)
    length = c.stringWidth(label, "Sans", 6) / pt(1)
    c.setStrokeColor(SOFT)
    c.setLineWidth(0.5)
    c.setDash(4, 2.5)
    c.line(pt(x), pt(bottom), pt(x), pt(top - length - 2))  # the label, inside the margin, runs down the line
    c.setFillColor(SOFT)
    c.translate(pt(x), pt(top))
    c.rotate(-90)
    c.drawString(0, -pt(0.75), label)
    c.restoreState()


def sheets_pdf(plan: SheetPlan, tileset: TileSet, art: ArtCache, settings: PublishSettings, info: DocInfo) -> bytes:
    """The plan drawn as a PDF: art (placed beneath), crop marks, fold line and a footer on every page."""
    buffer = io.BytesIO()
    duplex = "DuplexFlipLongEdge" if plan.kind == "duplex" else None
    c = new_canvas(buffer, plan.paper, info, duplex=duplex)
    pages = len(plan.pages)
    placements: list[list[Placement]] = []  # the art goes in beneath, each side compressed only once
    for number, page in enumerate(plan.pages, start=1):
        faces = {face for _, face, _ in page}
        if plan.kind == "duplex":
            what = info.say(
                "duplex", paper=plan.paper.title, side=info.say("fronts" if faces == {"front"} else "backs")
            )
        else:
            what = info.say(plan.kind, paper=plan.paper.title)
        placements.append([])
        for index, face, centre in page:
            placements[-1].append(art_placement(art, tileset.tiles[index], face, centre, plan, page))
        draw_marks(c, page, plan, settings)
        if plan.fold_x is not None:
            _fold_line(c, plan, settings, info.say("fold"))
        footer(c, plan.paper, settings.margin_mm, settings.title, number, pages, what, info.title_font, info)
        c.showPage()
    c.save()
    made = place_images(buffer.getvalue(), placements)
    return shift_backs(made, settings.back_offset_mm) if plan.kind == "duplex" else made
