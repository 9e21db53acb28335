"""Duplex calibration: the sheet's geometry, its scales' numbering, and the back-page shift measured in PDFs."""

import io
from dataclasses import replace

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.cli import main
from generator.publish.calibrate import BACK_LINE_MM, calibration_pdf, targets
from generator.publish.kit import publish_kit
from generator.publish.pdf import PT_PER_MM, DocInfo
from generator.publish.settings import load_paper, load_settings
from tests.test_publish_standin import standin_sources

INFO = DocInfo("calibration", "test")


def _mm(v):
    return v / PT_PER_MM


def back_lines(pdf: bytes):
    """The back page's long lines as ((x0, y0), (x1, y1)) in mm from the lower-left corner."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[1]
        h = page.height
        return sorted(
            (
                (round(_mm(ln["x0"]), 3), round(_mm(h - ln["top"]), 3)),
                (round(_mm(ln["x1"]), 3), round(_mm(h - ln["bottom"]), 3)),
            )
            for ln in page.lines
            if abs(_mm(max(ln["width"], ln["height"])) - 2 * BACK_LINE_MM) < 1e-3
        )


@pytest.mark.parametrize("name", ["a4", "letter"])
def test_the_back_lines_sit_behind_the_front_targets(name):
    paper, settings = load_paper(name), load_settings()
    pdf = calibration_pdf(paper, settings, INFO)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    lines = back_lines(pdf)
    assert len(lines) == 2 * len(targets(paper, settings))
    for x, y in targets(paper, settings):
        bx = paper.width_mm - x  # a long-edge flip mirrors x
        assert any(
            abs(a[0] - bx) < 1e-3 and abs(b[0] - bx) < 1e-3 and abs((a[1] + b[1]) / 2 - y) < 1e-3 for a, b in lines
        )
        assert any(
            abs(a[1] - y) < 1e-3 and abs(b[1] - y) < 1e-3 and abs((a[0] + b[0]) / 2 - bx) < 1e-3 for a, b in lines
        )


def test_the_scales_are_numbered_with_the_correction():
    """X grows to the right; Y grows downwards (a back seen high needs moving down)."""
    paper, settings = load_paper("a4"), load_settings()
    x, y = targets(paper, settings)[0]
    with pdfplumber.open(io.BytesIO(calibration_pdf(paper, settings, INFO))) as doc:
        page = doc.pages[0]
        words = page.extract_words()
        h = page.height

    def centre(text, near):
        found = [w for w in words if w["text"] == text]
        return min(
            ((_mm((w["x0"] + w["x1"]) / 2), _mm(h - (w["top"] + w["bottom"]) / 2)) for w in found),
            key=lambda p: (p[0] - near[0]) ** 2 + (p[1] - near[1]) ** 2,
        )

    plus_x = centre("+4", (x + 4, y + 14))
    assert plus_x[0] == pytest.approx(x + 4, abs=0.05) and plus_x[1] > y + 12
    plus_y = centre("+4", (x + 14, y - 4))
    assert plus_y[1] == pytest.approx(y - 4, abs=0.6) and plus_y[0] > x + 12


def test_back_offset_moves_the_calibration_backs_exactly():
    paper = load_paper("a4")
    plain = back_lines(calibration_pdf(paper, load_settings(), INFO))
    moved = back_lines(calibration_pdf(paper, replace(load_settings(), back_offset_mm=(1.5, -2.0)), INFO))
    assert len(plain) == len(moved)
    for (a, b), (c, d) in zip(plain, moved, strict=True):
        assert (c[0] - a[0], c[1] - a[1]) == pytest.approx((1.5, -2.0), abs=1e-3)
        assert (d[0] - b[0], d[1] - b[1]) == pytest.approx((1.5, -2.0), abs=1e-3)


def _geometry(pdf: bytes):
    """Per page: every line's and image's box, in mm, rounded."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            items = [(o["x0"], o["top"]) for o in page.lines] + [(o["x0"], o["top"]) for o in page.images]
            out.append(sorted((round(_mm(x), 3), round(_mm(t), 3)) for x, t in items))
    return out


@pytest.mark.slow
def test_back_offset_moves_every_back_page_of_the_duplex_sheets_and_no_front():
    settings = replace(load_settings(), papers=("a4",), documents=("sheets",))
    name = "print/tiles-a4-duplex.pdf"
    plain = _geometry(publish_kit(standin_sources(), settings)[name])
    moved = _geometry(publish_kit(standin_sources(), replace(settings, back_offset_mm=(-0.8, 1.25)))[name])
    assert len(plain) == len(moved) >= 6
    for number, (a, b) in enumerate(zip(plain, moved, strict=True)):
        assert len(a) == len(b) > 10
        dx, dy = (-0.8, -1.25) if number % 2 else (0.0, 0.0)  # pdfplumber's top grows downwards
        for (x0, t0), (x1, t1) in zip(a, b, strict=True):
            assert (x1 - x0, t1 - t0) == pytest.approx((dx, dy), abs=2e-3)


def test_calibrate_cli_writes_the_sheet_and_rejects_a_bad_offset(tmp_path, capsys):
    assert main(["calibrate", "--out", str(tmp_path), "--paper", "letter", "--back-offset", "0.5,-1"]) == 0
    assert (tmp_path / "calibration-letter.pdf").is_file()
    assert "0.5, -1 mm" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["calibrate", "--out", str(tmp_path), "--back-offset", "40,0"])
    assert exit_.value.code == 2 and "back_offset_mm" in capsys.readouterr().err
