"""``trailwright check``: every rule fires on a deliberately bad PDF or PNG, and a good kit passes."""

import io
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color
from reportlab.pdfgen.canvas import Canvas

from generator.cli import main
from generator.preflight import preflight
from generator.publish.fontchain import register_fonts
from generator.publish.pdf import PT_PER_MM
from generator.publish.placement import PackedImage, Placement, place_images
from generator.publish.settings import load_profile

MEDIUM = load_profile("thegamecrafter-medium-hex")
MAKER = "manufacturer/thegamecrafter-medium-hex"


def pdf(draw, size_mm=(210.0, 297.0), trim=None, bleed=None) -> bytes:
    """A one-page PDF: ``draw(canvas)`` in points, boxes in mm."""
    register_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=(size_mm[0] * PT_PER_MM, size_mm[1] * PT_PER_MM), invariant=1)
    if trim:
        c.setTrimBox([v * PT_PER_MM for v in trim])
    if bleed:
        c.setBleedBox([v * PT_PER_MM for v in bleed])
    c.setFont("Sans", 8)
    draw(c)
    c.showPage()
    c.save()
    return out.getvalue()


def write(tmp_path, name, data) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def failures(*paths, **kw):
    return {(Path(f.file).name, f.what) for f in preflight(paths, **kw) if not f.ok}


def tile_page(draw=lambda c: None, trim_w=MEDIUM.trim_width_mm, bleed=MEDIUM.bleed_mm, canvas=None, height=None):
    """A manufacturer-style tile page: the canvas, TrimBox the cut hexagon's box (or ``height`` high), BleedBox
    around it."""
    cw, ch = canvas or MEDIUM.canvas_mm
    th = height or trim_w * 3**0.5 / 2
    trim = ((cw - trim_w) / 2, (ch - th) / 2, (cw + trim_w) / 2, (ch + th) / 2)
    return pdf(draw, (cw, ch), trim, (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed))


CUT_CONTOUR = CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1)


def die(c, colour=CUT_CONTOUR, width=0.25, profile=MEDIUM, trim_w=None):
    """The profile's die line (its outline ``trim_w`` mm wide, by default its own) at the canvas's centre."""
    cw, ch = profile.canvas_mm
    corners = profile.outline.corners(cw / 2, ch / 2, trim_w or profile.trim_width_mm)
    c.setStrokeColor(colour)
    c.setLineWidth(width)
    path = c.beginPath()
    path.moveTo(corners[0][0] * PT_PER_MM, corners[0][1] * PT_PER_MM)
    for x, y in corners[1:]:
        path.lineTo(x * PT_PER_MM, y * PT_PER_MM)
    path.close()
    c.drawPath(path, stroke=1, fill=0)


def test_a_good_manufacturer_page_passes(tmp_path):
    assert failures(write(tmp_path, f"{MAKER}/tile-01-front.pdf", tile_page())) == set()


def test_page_size_against_the_profile(tmp_path):
    path = write(tmp_path, f"{MAKER}/tile-01-front.pdf", tile_page(canvas=(80.0, 70.0)))
    assert ("tile-01-front.pdf", "page size") in failures(path)


def test_tile_size_against_the_profile(tmp_path):
    path = write(tmp_path, f"{MAKER}/tile-01-front.pdf", tile_page(trim_w=60.0))
    assert ("tile-01-front.pdf", "tile size") in failures(path)


def test_bleed_under_an_eighth_of_an_inch_for_the_game_crafter(tmp_path):
    path = write(tmp_path, f"{MAKER}/tile-01-front.pdf", tile_page(bleed=3.0))  # 3 mm < 1/8 in = 3.175 mm
    assert ("tile-01-front.pdf", "bleed") in failures(path)
    loose = write(tmp_path, "loose.pdf", pdf(lambda c: None, trim=(10, 10, 100, 100), bleed=(8, 8, 102, 102)))
    assert ("loose.pdf", "bleed") in failures(loose)  # 2 mm < 3 mm anywhere


def test_crop_marks_inside_the_bleed(tmp_path):
    def mark_into_bleed(c):
        c.setLineWidth(0.3)
        c.line(2 * PT_PER_MM, 9 * PT_PER_MM, 12 * PT_PER_MM, 9 * PT_PER_MM)  # from the slug into the bleed box

    path = write(tmp_path, "marks.pdf", pdf(mark_into_bleed, trim=(10, 10, 100, 100), bleed=(7, 7, 103, 103)))
    assert ("marks.pdf", "crop marks outside the bleed") in failures(path)


def test_crop_marks_over_hexagon_clipped_art_on_a_sheet(tmp_path):
    def mark(c):
        c.setLineWidth(0.3)
        c.line(95 * PT_PER_MM, 100 * PT_PER_MM, 105 * PT_PER_MM, 100 * PT_PER_MM)  # across the art's middle

    hexagon = tuple(
        (100 + 20 * x, 100 + 20 * y)
        for x, y in ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))
    )
    image = PackedImage.of("A", Image.new("RGB", (40, 40), (200, 100, 50)))
    data = place_images(pdf(mark), [[Placement(image, 80, 80, 40, 40, hexagon)]])
    assert ("sheet.pdf", "crop marks outside the bleed") in failures(write(tmp_path, "sheet.pdf", data))


def test_lines_under_a_quarter_point(tmp_path):
    def thin(c):
        c.setLineWidth(0.1)
        c.line(50, 50, 200, 200)

    assert ("thin.pdf", "line width") in failures(write(tmp_path, "thin.pdf", pdf(thin)))


def test_fonts_not_embedded(tmp_path):
    def helvetica(c):
        c.setFont("Helvetica", 10)  # one of the standard 14: reportlab does not embed it
        c.drawString(50, 50, "not embedded")

    assert ("fonts.pdf", "fonts embedded") in failures(write(tmp_path, "fonts.pdf", pdf(helvetica)))


def test_cmyk_for_home_and_rgb_for_a_factory(tmp_path):
    def cmyk(c):
        c.setFillColor(CMYKColor(0, 1, 1, 0))
        c.rect(50, 50, 100, 100, fill=1, stroke=0)

    def rgb(c):
        c.setFillColor(Color(1, 0, 0))
        c.rect(50, 50, 100, 100, fill=1, stroke=0)

    assert ("cmyk.pdf", "colour space") in failures(write(tmp_path, "print/cmyk.pdf", pdf(cmyk)))
    assert ("rgb.pdf", "colour space") not in failures(write(tmp_path, "print/rgb.pdf", pdf(rgb)))
    found = failures(write(tmp_path, "factory/board.pdf", pdf(rgb, trim=(10, 10, 100, 100), bleed=(7, 7, 103, 103))))
    assert {("board.pdf", "colour space"), ("board.pdf", "PDF/X version key"), ("board.pdf", "OutputIntent")} <= found


def test_the_die_line_must_be_the_cutcontour_spot(tmp_path):
    good = write(tmp_path, f"{MAKER}/dieline.pdf", tile_page(die))
    assert failures(good) == set()
    process = write(tmp_path, "x/dieline.pdf", tile_page(lambda c: die(c, CMYKColor(0, 1, 0, 0))))
    assert ("dieline.pdf", "die line as spot colour") in failures(process, target="manufacturer")
    factory = write(tmp_path, "factory/tiles.pdf", tile_page())
    assert ("tiles.pdf", "die line as spot colour") in failures(factory)


def test_the_die_line_is_the_profiles_outline_at_its_size(tmp_path):
    square = load_profile("square-50mm")
    folder = "manufacturer/square-50mm"

    def page(draw):
        return tile_page(draw, trim_w=50.0, bleed=square.bleed_mm, canvas=square.canvas_mm, height=50.0)

    good = write(tmp_path, f"{folder}/dieline.pdf", page(lambda c: die(c, profile=square)))
    assert failures(good) == set()
    small = write(tmp_path, f"{folder}/a/dieline.pdf", page(lambda c: die(c, profile=square, trim_w=49.5)))
    hexagon = write(tmp_path, f"{folder}/b/dieline.pdf", page(lambda c: die(c, profile=MEDIUM, trim_w=50.0)))
    for path in (small, hexagon):
        assert ("dieline.pdf", "die line's shape and size") in failures(path, profile="square-50mm")


def png(size, dpi=300, mode="RGB", srgb=True) -> bytes:
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    if srgb:
        info.add(b"sRGB", b"\x00")
    out = io.BytesIO()
    Image.new(mode, size, 0).save(out, "PNG", dpi=(dpi, dpi), pnginfo=info)
    return out.getvalue()


def test_png_pixels_dpi_colour_and_srgb_against_the_profile(tmp_path):
    good = write(tmp_path, f"{MAKER}/tile-01-front.png", png((825, 750)))
    assert failures(good) == set()
    assert ("a.png", "pixel size") in failures(write(tmp_path, f"{MAKER}/a.png", png((824, 750))))
    assert ("b.png", "resolution") in failures(write(tmp_path, f"{MAKER}/b.png", png((825, 750), dpi=72)))
    assert ("c.png", "sRGB tag") in failures(write(tmp_path, f"{MAKER}/c.png", png((825, 750), srgb=False)))
    assert ("d.png", "colour space") in failures(write(tmp_path, f"{MAKER}/d.png", png((825, 750), mode="L")))
    assert ("e.png", "pixel size") in failures(write(tmp_path, "tabletop/e.png", png((5000, 100))))


def test_the_sheets_tile_size_against_the_manufacturer_profile(tmp_path):
    subject = "trailwright 0.1.0; tile set x (sha256 0); board classic; tile 95.25 mm; settings {}"
    write(tmp_path, "print/tiles-a4-duplex.pdf", pdf(lambda c: c.setSubject(subject)))
    write(tmp_path, f"{MAKER}/tile-01-front.png", png((825, 750)))
    assert ("tiles-a4-duplex.pdf", "tile size vs manufacturer profile") in failures(tmp_path)


def test_the_cli_prints_one_line_per_failure_and_exits_1(tmp_path, capsys):
    def thin(c):
        c.setLineWidth(0.1)
        c.line(50, 50, 200, 200)

    path = write(tmp_path, "thin.pdf", pdf(thin))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (f"FAIL {path}, page 1: line width: measured thinnest 0.100 pt, expected at least 0.25 pt")
    assert out[-1] == "check: 1 PDF or PNG file, 4 checks, 1 failed"
    assert main(["check", str(tmp_path / "nothing.pdf")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


@pytest.mark.slow
def test_a_published_kit_passes(tmp_path):
    from tests.test_publish_standin import standin_kit

    for name, data in standin_kit().items():
        write(tmp_path, name, data)
    found = preflight([tmp_path])
    assert [f.line() for f in found if not f.ok] == []
    assert {f.what for f in found} >= {
        "line width",
        "fonts embedded",
        "colour space",
        "page size",
        "bleed",
        "crop marks outside the bleed",
        "die line as spot colour",
        "pixel size",
        "resolution",
        "sRGB tag",
        "tile size vs manufacturer profile",
        "tile size",
    }


def test_unreadable_files_are_findings_not_tracebacks(tmp_path, capsys):
    broken = write(tmp_path, "broken.pdf", b"%PDF-1.7\nnot really a pdf")
    garbled = write(tmp_path, "garbled.png", b"\x89PNG\r\n\x1a\nnonsense")
    found = failures(broken, garbled)
    assert ("broken.pdf", "readable PDF") in found and ("garbled.png", "readable PNG") in found
    assert main(["check", str(tmp_path)]) == 1
    assert "Traceback" not in capsys.readouterr().err
