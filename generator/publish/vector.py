"""Vector art under reportlab pages: SVG drawn by cairosvg as PDF, laid beneath a page's own marks.

Glossary
--------
underlay   a one-page PDF (the art) merged beneath a page of another PDF at a point, in mm.
bled art   an SVG whose view is grown by the bleed on every side, its ground colour filling
           the new margin, so the art runs past the trim.
trim marks two short lines at each corner of a rectangle, on the lines of its edges, outside
           the bleed.
"""

from __future__ import annotations

import io
import re

import cairosvg
from pypdf import PdfReader, PdfWriter, Transformation

from generator import __version__
from generator.publish.impose import reproducible
from generator.publish.pdf import DocInfo, pt
from generator.render.artlimits import CAIRO_LOCK, drawing

Segment = tuple[tuple[float, float], tuple[float, float]]


def svg_pdf(svg: str) -> bytes:
    """SVG text as a one-page vector PDF (cairosvg; sizes in mm kept exactly)."""
    with CAIRO_LOCK, drawing("a vector page"):
        return cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))


def underlay(pdf: bytes, art: dict[int, list[tuple[bytes, float, float]]], info: dict[str, str]) -> bytes:
    """``pdf`` with, beneath page ``i``, each one-page ``art`` PDF whose lower-left corner goes at (x, y) mm."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    for index, items in art.items():
        page = writer.pages[index]
        for data, x, y in items:
            under = PdfReader(io.BytesIO(data)).pages[0]
            page.merge_transformed_page(under, Transformation().translate(pt(x), pt(y)), over=False)
    return reproducible(writer, info)


def ground_colour(svg: str) -> str:
    """The fill of the SVG's first ``<rect>`` (the ground the layout stage lays first), else white."""
    match = re.search(r'<rect\b[^>]*\bfill="([^"]+)"', svg)
    return match.group(1) if match else "white"


def bled_svg(svg: str, width_mm: float, height_mm: float, bleed_mm: float) -> str:
    """An SVG drawn in a ``0 0 width height`` mm view, grown by ``bleed_mm`` on every side over its ground."""
    b = bleed_mm
    w, h = width_mm + 2 * b, height_mm + 2 * b
    start = svg.find("<svg")
    end = svg.find(">", start)
    head = svg[start:end]
    for key, value in (
        ("width", f"{w:.4f}mm"),
        ("height", f"{h:.4f}mm"),
        ("viewBox", f"{-b:.4f} {-b:.4f} {w:.4f} {h:.4f}"),
    ):
        head = re.sub(rf'(\s){key}="[^"]*"', rf'\g<1>{key}="{value}"', head, count=1)
    ground = f'<rect x="{-b:.4f}" y="{-b:.4f}" width="{w:.4f}" height="{h:.4f}" fill="{ground_colour(svg)}"/>'
    return svg[:start] + head + ">" + ground + svg[end + 1 :]


def trim_marks(
    x: float, y: float, w: float, h: float, bleed: float, offset: float, length: float
) -> tuple[Segment, ...]:
    """Two marks at each corner of the trim rectangle (x, y, w, h) on its edges' lines, outside the bleed."""
    start, stop = bleed + offset, bleed + offset + length
    marks = []
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            marks.append(((cx + sx * start, cy), (cx + sx * stop, cy)))  # on the horizontal edge's line
            marks.append(((cx, cy + sy * start), (cx, cy + sy * stop)))  # on the vertical edge's line
    return tuple(marks)


def draw_trim_marks(c, x: float, y: float, w: float, h: float, settings, colour) -> None:
    """Trim marks around the rectangle (x, y, w, h) mm, outside its bleed, as the settings draw crop marks."""
    c.saveState()
    c.setStrokeColor(colour)
    c.setLineWidth(settings.mark_width_pt)
    for (x0, y0), (x1, y1) in trim_marks(
        x, y, w, h, settings.bleed_mm, settings.mark_offset_mm, settings.mark_length_mm
    ):
        c.line(pt(x0), pt(y0), pt(x1), pt(y1))
    c.restoreState()


def pdf_meta(info: DocInfo) -> dict[str, str]:
    """A PDF's document info from ``info`` (for ``underlay``, which rewrites it)."""
    return {
        "/Title": info.title,
        "/Subject": info.subject,
        "/Creator": f"trailwright {__version__}",
        "/Producer": "trailwright (reportlab, cairosvg, pypdf)",
        **({"/Keywords": info.made_with} if info.made_with else {}),
    }
