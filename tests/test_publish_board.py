"""The board in print, measured: true size on one large sheet, and tiled sheets whose overlap
strips and registration marks agree in board coordinates."""

import io

import pdfplumber
import pytest

from generator.publish.boardsheets import BoardArt, board_large_pdf, board_tiled_pdf, large_paper
from generator.publish.pdf import DocInfo
from generator.publish.settings import load_paper, load_settings
from generator.render.raster import svg_size_mm
from tests.test_publish_standin import standin_board

MM = 72 / 25.4
SETTINGS = load_settings()
BOARD_SVG = standin_board(360.0, 380.0)
ART = BoardArt.of(BOARD_SVG, 100)


def test_svg_sizes_are_read_in_mm():
    assert svg_size_mm(standin_board(360.0, 380.0)) == (360.0, 380.0)
    assert svg_size_mm('<svg width="2in" height="96px"/>') == pytest.approx((50.8, 25.4))


@pytest.mark.parametrize("paper,large", [("a4", "a2"), ("letter", "arch-c")])
def test_the_board_prints_at_true_size_in_vector_with_bleed_and_trim_marks(paper, large):
    """Defect 6: the one-sheet board is vector, its art runs 3 mm past the trim, trim marks sit outside that."""
    from pypdf import PdfReader

    sheet, pdf = board_large_pdf(BOARD_SVG, load_paper(paper), SETTINGS, DocInfo("board", "test"))
    assert sheet.name == large
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    trim = [float(v) / MM for v in page.trimbox]
    bleed = [float(v) / MM for v in page.bleedbox]
    assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((360.0, 380.0), abs=0.01)
    assert trim[0] - bleed[0] == pytest.approx(SETTINGS.bleed_mm, abs=0.01)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        (page,) = doc.pages
        assert (page.width / MM, page.height / MM) == pytest.approx((sheet.width_mm, sheet.height_mm), abs=0.05)
        assert page.images == []  # vector
        ground = [r for r in page.rects if abs(r["width"] / MM - 366.0) < 0.01]  # the ground, grown by the bleed
        assert ground and abs(ground[0]["height"] / MM - 386.0) < 0.01
        marks = [ln for ln in page.lines if abs(max(ln["width"], ln["height"]) / MM - SETTINGS.mark_length_mm) < 0.01]
        assert len(marks) == 8
        for ln in marks:  # every mark outside the bleed box
            x0, x1 = ln["x0"] / MM, ln["x1"] / MM
            y0, y1 = (page.height - ln["bottom"]) / MM, (page.height - ln["top"]) / MM
            assert x1 <= bleed[0] + 1e-6 or x0 >= bleed[2] - 1e-6 or y1 <= bleed[1] + 1e-6 or y0 >= bleed[3] - 1e-6
        assert "Print at 100% / Actual size" in page.extract_text()


def test_a_board_larger_than_every_large_sheet_gets_a_sheet_cut_to_size():
    sheet = large_paper(load_paper("a4"), 900.0, 1000.0, SETTINGS)
    slug = SETTINGS.bleed_mm + SETTINGS.mark_offset_mm + SETTINGS.mark_length_mm
    assert sheet.width_mm >= 920 + 2 * slug and sheet.height_mm >= 1020 + 2 * slug + SETTINGS.footer_mm


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_sheets_overlap_and_mark_only_the_strips_a_neighbour_covers(paper):
    tiling, pdf = board_tiled_pdf(ART, load_paper(paper), SETTINGS, DocInfo("board", "test"))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == tiling.columns * tiling.rows >= 4
        marks = []  # per page: registration mark centres in board mm (from the board image's corner)
        for page in doc.pages:
            assert (page.width / MM, page.height / MM) == pytest.approx(
                (tiling.paper.width_mm, tiling.paper.height_mm), abs=0.05
            )
            (image,) = page.images
            circles = [c for c in page.curves if abs((c["x1"] - c["x0"]) / MM - 4.4) < 0.1]
            marks.append(
                {
                    (
                        round((c["x0"] + c["x1"]) / 2 / MM - image["x0"] / MM, 2),
                        round(image["bottom"] / MM - (c["top"] + c["bottom"]) / 2 / MM, 2),
                    )
                    for c in circles
                }
            )
    cols = tiling.columns
    for r in range(tiling.rows):
        for c in range(cols):
            here = marks[r * cols + c]
            right = c + 1 < cols
            below = r + 1 < tiling.rows
            assert len(here) == 2 * (right + below)  # two marks on each strip a neighbour covers, none elsewhere


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_marks_sit_only_where_the_next_sheet_covers_them(paper):
    """Defect 7: no mark is printed over art that stays in sight once the sheets are taped."""
    tiling, pdf = board_tiled_pdf(ART, load_paper(paper), SETTINGS, DocInfo("board", "test"))
    a, ov = tiling.area, SETTINGS.board_overlap_mm
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for number, page in enumerate(doc.pages):
            row, col = divmod(number, tiling.columns)
            for circle in (c for c in page.curves if abs((c["x1"] - c["x0"]) / MM - 4.4) < 0.1):
                x = (circle["x0"] + circle["x1"]) / 2 / MM
                y = page.height / MM - (circle["top"] + circle["bottom"]) / 2 / MM
                on_right = col + 1 < tiling.columns and a.x + a.width - ov <= x <= a.x + a.width
                on_bottom = row + 1 < tiling.rows and a.y <= y <= a.y + ov
                assert on_right or on_bottom


def test_a_board_too_large_for_its_dpi_is_drawn_at_the_highest_dpi_that_fits():
    """A 217-slot board (about 950 x 1080 mm) at board_dpi 200 would be 63 million pixels."""
    from generator.publish.boardsheets import fitting_dpi
    from generator.render.raster import MAX_PIXELS, px

    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="950mm" height="1080mm" viewBox="0 0 950 1080"></svg>'
    dpi = fitting_dpi(svg, 200)
    assert dpi < 200 and px(950, dpi) * px(1080, dpi) <= MAX_PIXELS < px(950, dpi + 1) * px(1080, dpi + 1)
    assert fitting_dpi(svg.replace("950mm", "95mm").replace("1080mm", "108mm"), 200) == 200
