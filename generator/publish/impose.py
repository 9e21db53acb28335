"""Saddle-stitch imposition: booklet pages 2-up on landscape sheets, in folding order.

Glossary
--------
reading page  a page of the booklet in reading order, numbered from 0.
sheet side    one landscape page of the imposed PDF: two reading pages side by side.
padding       blank pages added at the end so the count is a multiple of four.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.generic import DictionaryObject, NameObject

from generator.publish.pdf import pt
from generator.publish.settings import Paper


def saddle_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) reading pages for each sheet side; pages is padded up to a multiple of 4."""
    n = -(-pages // 4) * 4
    order = []
    for s in range(n // 4):
        order.append((n - 1 - 2 * s, 2 * s))  # outside of sheet s
        order.append((2 * s + 1, n - 2 - 2 * s))  # inside of sheet s
    return order


def reproducible(writer: PdfWriter, info: dict[str, str]) -> bytes:
    """The writer's bytes with our metadata only (pypdf writes no dates and no file id), as PDF 1.7: the
    version that defines the /Duplex viewer preference."""
    writer.pdf_header = b"%PDF-1.7"
    writer.metadata = None
    writer.add_metadata(info)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def impose_booklet(reading_pdf: bytes, sheet: Paper, info: dict[str, str]) -> bytes:
    """``reading_pdf`` imposed 2-up on landscape ``sheet`` for saddle stitching (flip on short edge)."""
    reader = PdfReader(io.BytesIO(reading_pdf))
    pages = list(reader.pages)
    land = sheet.landscape()
    sw, sh = pt(land.width_mm), pt(land.height_mm)
    writer = PdfWriter()
    for left, right in saddle_order(len(pages)):
        side = writer.add_blank_page(sw, sh)
        for slot, index in ((0, left), (1, right)):
            if index >= len(pages):
                continue  # padding: a blank page
            page = pages[index]
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            scale = min(1.0, (sw / 2) / w, sh / h)
            scale = 1.0 if scale > 1 - 1e-6 else scale  # 100% whenever the page fits half the sheet
            x = slot * sw / 2 + (sw / 2 - w * scale) / 2
            y = (sh - h * scale) / 2
            side.merge_transformed_page(page, Transformation().scale(scale, scale).translate(x, y))
    prefs = DictionaryObject(
        {NameObject("/Duplex"): NameObject("/DuplexFlipShortEdge"), NameObject("/PrintScaling"): NameObject("/None")}
    )
    writer._root_object[NameObject("/ViewerPreferences")] = prefs  # noqa: SLF001
    return reproducible(writer, info)
