"""The board in print, measured: true size on one large sheet, and tiled sheets whose overlap
strips and registration marks agree in board coordinates."""

import io

import pdfplumber
import pytest

from generator.publish.boardsheets import BoardArt, board_large_pdf, board_tiled_pdf, large_paper, svg_size_mm
from generator.publish.pdf import DocInfo
from generator.publish.settings import load_paper, load_settings
from tests.test_publish_standin import standin_board

MM = 72 / 25.4
SETTINGS = load_settings()
ART = BoardArt.of(standin_board(360.0, 380.0), 100)


def test_svg_sizes_are_read_in_mm():
    assert svg_size_mm(standin_board(360.0, 380.0)) == (360.0, 380.0)
    assert svg_size_mm('<svg width="2in" height="96px"/>') == pytest.approx((50.8, 25.4))


@pytest.mark.parametrize("paper,large", [("a4", "a2"), ("letter", "arch-c")])
def test_the_board_prints_at_true_size_on_the_smallest_large_sheet(paper, large):
    sheet, pdf = board_large_pdf(ART, load_paper(paper), SETTINGS, DocInfo("board", "test"))
    assert sheet.name == large
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        (page,) = doc.pages
        assert (page.width / MM, page.height / MM) == pytest.approx((sheet.width_mm, sheet.height_mm), abs=0.05)
        (image,) = page.images
        assert (image["x1"] - image["x0"]) / MM == pytest.approx(360.0, abs=0.1)
        assert (image["bottom"] - image["top"]) / MM == pytest.approx(380.0, abs=0.1)
        assert "Print at 100% / Actual size" in page.extract_text()


def test_a_board_larger_than_every_large_sheet_gets_a_sheet_cut_to_size():
    huge = BoardArt(None, 900.0, 1000.0)
    sheet = large_paper(load_paper("a4"), huge, SETTINGS)
    assert sheet.width_mm >= 920 and sheet.height_mm >= 1020 + SETTINGS.footer_mm


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_sheets_overlap_and_their_marks_meet_in_board_coordinates(paper):
    tiling, pdf = board_tiled_pdf(ART, load_paper(paper), SETTINGS, DocInfo("board", "test"))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == tiling.columns * tiling.rows >= 4
        marks = []  # per page: registration mark centres in board mm (from the board image's corner)
        for page in doc.pages:
            assert (page.width / MM, page.height / MM) == pytest.approx(
                (tiling.paper.width_mm, tiling.paper.height_mm), abs=0.05)
            (image,) = page.images
            circles = [c for c in page.curves if abs((c["x1"] - c["x0"]) / MM - 4.4) < 0.1]
            marks.append({(round((c["x0"] + c["x1"]) / 2 / MM - image["x0"] / MM, 2),
                           round(image["bottom"] / MM - (c["top"] + c["bottom"]) / 2 / MM, 2)) for c in circles})
    cols = tiling.columns
    for r in range(tiling.rows):
        for c in range(cols):
            here = marks[r * cols + c]
            if c + 1 < cols:
                assert len(here & marks[r * cols + c + 1]) >= 2  # the same marks on both sheets
            if r + 1 < tiling.rows:
                assert len(here & marks[(r + 1) * cols + c]) >= 2
