"""Factory files: CMYK PDF/X through ghostscript, measured in the files (one build per module)."""

import io
import re
import shutil
import subprocess
from dataclasses import replace

import pytest
from pypdf import PdfReader

from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.publish import pdfx
from generator.publish.kit import publish_kit
from generator.publish.pdf import PT_PER_MM
from generator.publish.settings import load_profile, load_settings
from tests.test_publish_standin import standin_sources

GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="ghostscript (gs) is not installed: run `make sysdeps`")
PROCESS = {"Cyan", "Magenta", "Yellow", "Black"}


@pytest.fixture(scope="module")
def factory():
    if GS is None:
        pytest.skip("ghostscript (gs) is not installed: run `make sysdeps`")
    src = standin_sources()
    src = replace(src, tileset=TileSet(src.tileset.tiles[:2]))
    return publish_kit(src, replace(load_settings(), documents=("factory",)))


def _reader(files, name):
    return PdfReader(io.BytesIO(files[f"factory/{name}"]))


def plates(pdf: bytes, tmp_path, page: int) -> dict[str, int]:
    """Each plate ghostscript's tiffsep device writes for ``page``, with its count of inked pixels."""
    from PIL import Image

    source = tmp_path / "in.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        [
            GS,
            "-q",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=tiffsep",
            "-r36",
            f"-dFirstPage={page}",
            f"-dLastPage={page}",
            "-o",
            str(tmp_path / "sep.tif"),
            str(source),
        ],
        check=True,
    )
    found = {}
    for path in tmp_path.glob("sep(*).tif"):
        image = Image.open(path).convert("L")
        found[path.name[4:-5]] = sum(image.histogram()[:250])  # tiffsep plates: 255 is no ink
        path.unlink()
    return found


@needs_gs
@pytest.mark.parametrize("name", ["tiles.pdf", "board.pdf"])
def test_pdfx_keys_output_intent_and_version(factory, name):
    reader = _reader(factory, name)
    assert factory[f"factory/{name}"].startswith(b"%PDF-1.3")
    assert reader.metadata["/GTS_PDFXVersion"] == pdfx.PDFX_VERSION
    assert reader.metadata["/Trapped"] == "/False"
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 001"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data()[36:40] == b"acsp" and profile.get_data()[16:20] == b"CMYK"


@needs_gs
def test_inks_are_cmyk_and_the_cutcontour_spot_only(factory, tmp_path):
    tiles = plates(factory["factory/tiles.pdf"], tmp_path, 1)
    assert set(tiles) == PROCESS | {"CutContour"}
    assert tiles["CutContour"] > 0 and tiles["Black"] > 0
    board = plates(factory["factory/board.pdf"], tmp_path, 1)
    assert set(board) == PROCESS and board["Black"] > 0  # no die line on the board


@needs_gs
@pytest.mark.parametrize("name", ["tiles.pdf", "board.pdf"])
def test_no_rgb_left_fonts_embedded_and_qpdf_clean(factory, name, tmp_path):
    data = factory[f"factory/{name}"]
    reader = _reader(factory, name)
    for page in reader.pages:
        text = page.get_contents().get_data() if page.get_contents() else b""
        assert b"/DeviceRGB" not in text and b" rg" not in text and b" RG" not in text
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert any(k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert not re.search(rb"/ColorSpace\s*/DeviceRGB|/ICCBased|/SMask|/CA\s+0?\.\d", data)
    if shutil.which("qpdf"):
        path = tmp_path / name
        path.write_bytes(data)
        done = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert done.returncode == 0 and "No syntax or stream encoding errors" in done.stdout


@needs_gs
def test_boxes_are_the_profile_cut_and_bleed(factory):
    profile = load_profile(load_settings().profile)
    reader = _reader(factory, "tiles.pdf")
    assert len(reader.pages) == 4  # two tiles, two faces
    page = reader.pages[0]
    trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
    assert trim[2] - trim[0] == pytest.approx(profile.trim_width_mm * PT_PER_MM, abs=0.01)
    assert trim[0] - bleed[0] == pytest.approx(profile.bleed_mm * PT_PER_MM, abs=0.01)
    board = _reader(factory, "board.pdf").pages[0]
    trim, bleed = [float(v) for v in board.trimbox], [float(v) for v in board.bleedbox]
    assert trim[2] - trim[0] == pytest.approx(360.0 * PT_PER_MM, abs=0.01)  # the stand-in board, 360 x 380 mm
    assert trim[3] - trim[1] == pytest.approx(380.0 * PT_PER_MM, abs=0.01)
    assert trim[0] - bleed[0] == pytest.approx(3.0 * PT_PER_MM, abs=0.01)
    assert "PDF/X-3:2002" in factory["factory/README.txt"].decode()


@needs_gs
def test_the_same_input_gives_the_same_bytes():
    from generator.publish.factory import board_source
    from generator.publish.pdf import DocInfo
    from tests.test_publish_standin import standin_board

    source = board_source(standin_board(100, 80), load_settings(), DocInfo("board", "test"))
    assert pdfx.to_pdfx(source, "board") == pdfx.to_pdfx(source, "board")


def test_missing_ghostscript_is_one_clear_error(monkeypatch):
    monkeypatch.setattr(pdfx.shutil, "which", lambda name: None)
    with pytest.raises(
        TrailwrightError, match=r"ghostscript \(gs\), which is not installed: install it with `make sysdeps`"
    ):
        pdfx.to_pdfx(b"%PDF-1.4", "x")
