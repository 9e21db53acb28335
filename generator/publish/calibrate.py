"""Duplex calibration: a one-sheet test print that measures how far a printer shifts the back, and
the correction that moves every back page of a duplex PDF by the measured amount.

Glossary
--------
target        a point of the sheet: a crosshair and two scales on the front; on the back, at the
              same spot of paper, a long vertical and a long horizontal line.
reading       held against a window, front towards you, the back's vertical line crosses the
              front's X scale at X and its horizontal line crosses the Y scale at Y. The scales
              are numbered with the correction itself: X grows to the right, Y grows downwards.
back offset   ``(X, Y)``: every back page is drawn X mm right and Y mm up on the back page. A
              long-edge flip mirrors x, so a back that landed d mm right (seen from the front) is
              read as X = d and moved d mm right on the back page, that is d mm left seen from
              the front; y is not mirrored, so a back that landed d mm high reads Y = -d.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation

from generator.publish.pdf import INK, MARK, SOFT, DocInfo, footer, new_canvas, pt
from generator.publish.settings import Paper, PublishSettings

SCALE_MM = 8  # each scale runs from -8 to +8 mm
SCALE_GAP_MM = 12.0  # from the crosshair to its scales
BACK_LINE_MM = 22.0  # half the length of the back's lines
LINE_PT = 0.3


def targets(paper: Paper, settings: PublishSettings) -> tuple[tuple[float, float], ...]:
    """The front's target points (mm): the centre of the sheet, and one near its top and bottom."""
    cx = paper.width_mm / 2
    top = paper.height_mm - settings.margin_mm - 75.0
    bottom = settings.margin_mm + settings.footer_mm + 30.0
    return ((cx, paper.height_mm / 2), (cx, top), (cx, bottom))


def _scale(c, x: float, y: float, vertical: bool) -> None:
    """A scale from -8 to +8 mm centred on (x, y): ticks every 0.5 mm, numbers every 4 mm."""
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setFont("Sans", 4.5)
    for half in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        value = half / 2
        length = 3.0 if half % 4 == 0 else 2.0 if half % 2 == 0 else 1.2
        c.setLineWidth(0.35 if half % 2 == 0 else 0.25)
        if vertical:  # Y: the correction grows downwards
            ty = y - value
            c.line(pt(x - length / 2), pt(ty), pt(x + length / 2), pt(ty))
            if half % 8 == 0:
                c.drawString(pt(x + 2.2), pt(ty - 0.6), f"{value:+g}" if value else "0")
        else:  # X: the correction grows to the right
            tx = x + value
            c.line(pt(tx), pt(y - length / 2), pt(tx), pt(y + length / 2))
            if half % 8 == 0:
                c.drawCentredString(pt(tx), pt(y + 2.0), f"{value:+g}" if value else "0")


def _front(c, paper: Paper, settings: PublishSettings, points) -> None:
    for n, (x, y) in enumerate(points):
        c.setStrokeColor(MARK)
        c.setLineWidth(LINE_PT)
        c.line(pt(x - 4), pt(y), pt(x + 4), pt(y))
        c.line(pt(x), pt(y - 4), pt(x), pt(y + 4))
        c.circle(pt(x), pt(y), pt(2.0), stroke=1, fill=0)
        _scale(c, x, y + SCALE_GAP_MM, vertical=False)
        _scale(c, x + SCALE_GAP_MM, y, vertical=True)
        c.setFont("Sans-Bold", 6)
        c.setFillColor(INK)
        c.drawString(pt(x - SCALE_GAP_MM - 14), pt(y + SCALE_GAP_MM + 2), "X" if n else "X (read here)")
        c.drawString(pt(x + SCALE_GAP_MM + 7), pt(y - 1), "Y")
    steps = [
        "1. Print this sheet double-sided, flip on the long edge, at 100% / actual size.",
        "2. Hold it against a window or a lamp, this side towards you: the back's lines show through.",
        "3. At the centre target, X is where the back's vertical line crosses the X scale and Y is where",
        "    its horizontal line crosses the Y scale, in mm (0 and 0: the printer does not shift the back).",
        "4. Set [printer] back_offset_mm = [X, Y] in your publish settings, or pass --back-offset X,Y.",
        "5. Check: print `trailwright calibrate --back-offset X,Y`; both scales should now read 0.",
    ]
    top = paper.height_mm - settings.margin_mm - 6
    c.setFont("Sans-Bold", 11)
    c.setFillColor(INK)
    c.drawString(pt(settings.margin_mm), pt(top), "Duplex calibration: front")
    c.setFont("Sans", 7.5)
    for i, line in enumerate(steps):
        c.drawString(pt(settings.margin_mm), pt(top - 7 - 4 * i), line)


def _back(c, paper: Paper, points) -> None:
    for x, y in points:
        bx = paper.width_mm - x  # the same spot of paper, seen from the back after a long-edge flip
        c.setStrokeColor(MARK)
        c.setLineWidth(0.4)
        c.line(pt(bx), pt(y - BACK_LINE_MM), pt(bx), pt(y + BACK_LINE_MM))
        c.line(pt(bx - BACK_LINE_MM), pt(y), pt(bx + BACK_LINE_MM), pt(y))
    c.setFont("Sans-Bold", 11)
    c.setFillColor(SOFT)
    c.drawCentredString(pt(paper.width_mm / 2), pt(paper.height_mm - 22), "Duplex calibration: back")


def calibration_pdf(paper: Paper, settings: PublishSettings, info: DocInfo) -> bytes:
    """The two-page calibration sheet (front, then back for a long-edge flip), backs shifted by the settings."""
    buffer = io.BytesIO()
    c = new_canvas(buffer, paper, info, duplex="DuplexFlipLongEdge")
    points = targets(paper, settings)
    _front(c, paper, settings, points)
    footer(c, paper, settings.margin_mm, settings.title, 1, 2, "duplex calibration · front", info.title_font)
    c.showPage()
    _back(c, paper, points)
    footer(c, paper, settings.margin_mm, settings.title, 2, 2, "duplex calibration · back", info.title_font)
    c.showPage()
    c.save()
    return shift_backs(buffer.getvalue(), settings.back_offset_mm)


def shift_backs(pdf: bytes, offset_mm: tuple[float, float]) -> bytes:
    """A duplex PDF (fronts on odd pages) with every back page's content moved by ``offset_mm`` (x right, y up)."""
    dx, dy = offset_mm
    if not dx and not dy:
        return pdf
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    writer.pdf_header = reader.pdf_header
    for number, page in enumerate(writer.pages):
        if number % 2 == 1:
            page.add_transformation(Transformation().translate(pt(dx), pt(dy)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
