"""The booklet's images are compressed once per build, however many trial layouts draw them, and every PDF keeps
the bytes reportlab's own drawImage gives it."""

import io

import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDFImageXObject

from generator.publish import booklet as bk
from generator.publish.booklet import document
from generator.publish.pdf import DocInfo
from generator.publish.settings import load_paper

MARKUP = (
    "<booklet><h1>Tiles</h1><thumbs><thumb tile='a'>A</thumb><thumb tile='b'>B</thumb><thumb tile='a'>A again</thumb>"
    "</thumbs><board/><h1>More</h1><thumbs size='30'><thumb tile='b'>B</thumb></thumbs></booklet>"
)


def _resources() -> bk.Resources:
    tiles = {
        name: ImageReader(Image.new("RGB", (64, 56), colour))
        for name, colour in (("a", (200, 40, 40)), ("b", (40, 90, 200)))
    }
    board = ImageReader(Image.linear_gradient("L").convert("RGB").resize((80, 60)))
    return bk.Resources(lambda tile, face: tiles[tile], board, (100.0, 75.0), (), ())


def _pdfs(res: bk.Resources, images: bk.EncodedImages | None) -> list[bytes]:
    """Two layouts of one build (the second tighter), sharing ``images``."""
    root = bk.parse_markup(MARKUP, None)
    look = bk.load_look()
    made = []
    for flow in (False, True):
        pieces = bk.build_story(root, res, 120, look=look, flow=flow)
        made.append(bk.booklet_pdf(pieces, load_paper("a5"), DocInfo("t", "s", "m"), "t", look=look, images=images))
    return made


def test_each_image_is_compressed_once_per_build_and_the_pdfs_keep_reportlabs_bytes(monkeypatch):
    res = _resources()
    compressed: list[int] = []
    load = PDFImageXObject.loadImageFromSRC
    monkeypatch.setattr(PDFImageXObject, "loadImageFromSRC", lambda self, im: compressed.append(1) or load(self, im))

    images = bk.EncodedImages()
    shared = _pdfs(res, images)
    assert images.encoded == 3 and len(compressed) == 3  # two tiles and the board, for both layouts together
    assert shared[0] != shared[1] and b"/Subtype /Image" in shared[1]  # the second layout draws them too

    compressed.clear()
    monkeypatch.setattr(document, "encoding_canvas", lambda base, images: base)  # reportlab's own drawImage
    assert _pdfs(res, None) == shared
    assert len(compressed) == 6  # three images in each PDF


def test_a_layout_past_its_page_limit_stops_and_one_within_it_keeps_its_bytes():
    """The trial layouts of ``fewest_sheets`` stop as soon as they cannot save a sheet."""
    from pypdf import PdfReader

    root = bk.parse_markup("<booklet><h1>One</h1><p>a</p><h1>Two</h1><p>b</p><h1>Three</h1><p>c</p></booklet>", None)
    pieces = bk.build_story(root, None, 120)

    def pdf(max_pages):
        return bk.booklet_pdf(pieces, load_paper("a5"), DocInfo("t", "s", "m"), "t", max_pages=max_pages)

    whole = pdf(None)
    assert len(PdfReader(io.BytesIO(whole)).pages) == 3 and pdf(3) == whole
    with pytest.raises(bk.TooManyPages):
        pdf(2)


def test_fewest_sheets_gives_each_try_the_pages_that_save_a_sheet_and_skips_a_try_that_ran_past_them():
    from pypdf import PdfWriter

    from generator.publish.bookletkit import fewest_sheets

    def blank(pages: int) -> bytes:
        writer, out = PdfWriter(), io.BytesIO()
        for _ in range(pages):
            writer.add_blank_page(100, 100)
        writer.write(out)
        return out.getvalue()

    asked = []

    def reading_pdf(tight, flow=False, max_pages=None):
        asked.append((tight, flow, max_pages))
        if not flow:
            return blank(9)  # three sheets
        if tight > 0.9:
            raise bk.TooManyPages("more than 8 pages")
        return blank(8)

    assert fewest_sheets(reading_pdf) == blank(8)
    assert asked == [(1.0, False, None), (1.0, True, 8), (0.94, True, 8), (0.88, True, 8)]
