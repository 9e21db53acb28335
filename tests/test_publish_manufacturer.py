"""Manufacturer files measured: PNG pixels and dpi, PDF trim and bleed boxes, the die line in its
spot colour, the manifest and a reproducible zip."""

import csv
import io
import math
import zipfile

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.publish.manufacturer import zip_bytes
from generator.publish.settings import load_profile, profile_names
from generator.units import MM_PER_IN
from tests.test_publish_standin import standin_kit

FOLDER = "manufacturer/thegamecrafter-medium-hex"


def test_every_face_has_a_png_of_the_profiles_exact_pixels_at_300_dpi():
    kit = standin_kit()
    pngs = [name for name in kit if name.startswith(FOLDER) and name.endswith(".png")]
    assert len(pngs) == 40
    for name in pngs:
        image = Image.open(io.BytesIO(kit[name]))
        assert image.size == (825, 750)
        assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)
        assert image.info["Software"].startswith("trailwright") and "sha256" in image.info["Comment"]


def test_the_art_fills_the_canvas_around_the_hexagon():
    image = Image.open(io.BytesIO(standin_kit()[f"{FOLDER}/tile-07-front.png"])).convert("RGB")
    w, h = image.size
    # the stand-in's tint reaches the canvas edge at the middle of each flat side (bleed)
    assert image.getpixel((w // 2, 1)) != (255, 255, 255)
    assert image.getpixel((w // 2, h - 2)) != (255, 255, 255)
    assert image.getpixel((3, h // 2)) != (255, 255, 255)


def test_vector_pdfs_set_trim_and_bleed_boxes():
    kit = standin_kit()
    pdfs = [n for n in kit if n.startswith(FOLDER + "/tile-") and n.endswith(".pdf")]
    assert len(pdfs) == 40
    for name in pdfs[:4]:
        page = PdfReader(io.BytesIO(kit[name])).pages[0]
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        assert (float(media.width), float(media.height)) == pytest.approx((825 / 300 * 72, 750 / 300 * 72), abs=0.01)
        assert float(trim.width) / 72 == pytest.approx(2.5, abs=0.1 / 25.4)
        assert float(trim.height) / 72 == pytest.approx(2.5 * math.sqrt(3) / 2, abs=0.1 / 25.4)
        assert float(trim.left) - float(bleed.left) == pytest.approx(0.125 * 72, abs=0.01)
        assert float(bleed.top) - float(trim.top) == pytest.approx(0.125 * 72, abs=0.01)
        # vector: the art is drawn with paths, not one big image
        assert b"/Image" not in page.get_contents().get_data()


def test_the_die_line_is_a_thin_spot_colour_hexagon_on_its_own():
    data = standin_kit()[f"{FOLDER}/dieline.pdf"]
    page = PdfReader(io.BytesIO(data)).pages[0]
    colour_spaces = page["/Resources"]["/ColorSpace"]
    names = [cs.get_object()[1] for cs in colour_spaces.values()]
    assert "/CutContour" in names
    content = page.get_contents().get_data().decode("latin-1")
    assert ".25 w" in content and content.count(" l") >= 5 and "/Image" not in content
    assert float(page.trimbox.width) / 72 == pytest.approx(2.5, abs=0.1 / 25.4)


def test_manifest_lists_every_file_with_tile_face_and_quantity():
    kit = standin_kit()
    rows = list(csv.DictReader(io.StringIO(kit[f"{FOLDER}/manifest.csv"].decode())))
    assert len(rows) == 80
    assert {r["face"] for r in rows} == {"front", "back"}
    assert {r["quantity"] for r in rows} == {"1"}
    for r in rows:
        assert f"{FOLDER}/{r['file']}" in kit
    assert len({r["tile"] for r in rows}) == 20


def test_the_zip_holds_the_whole_folder_reproducibly():
    kit = standin_kit()
    archive = zipfile.ZipFile(io.BytesIO(kit["manufacturer/thegamecrafter-medium-hex.zip"]))
    inside = {n.split("/", 1)[1]: archive.read(n) for n in archive.namelist()}
    folder = {n[len(FOLDER) + 1 :]: v for n, v in kit.items() if n.startswith(FOLDER + "/")}
    assert inside == folder
    assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert zip_bytes(folder, "thegamecrafter-medium-hex") == kit["manufacturer/thegamecrafter-medium-hex.zip"]


@pytest.mark.parametrize("name", profile_names())
def test_every_profile_canvas_holds_its_hexagon_and_bleed(name):
    p = load_profile(name)
    w_mm, h_mm = p.canvas_mm
    assert p.trim_width_mm + 2 * p.bleed_mm <= w_mm + 0.5
    assert p.trim_width_mm * math.sqrt(3) / 2 + 2 * p.bleed_mm <= h_mm + 0.01
    assert p.pixel_width == round(w_mm / MM_PER_IN * p.dpi)


def test_the_canvas_corners_beyond_the_bleed_hexagon_are_white():
    image = Image.open(io.BytesIO(standin_kit()[f"{FOLDER}/tile-07-front.png"])).convert("RGB")
    w, h = image.size
    for corner in ((1, 1), (w - 2, 1), (1, h - 2), (w - 2, h - 2)):
        assert image.getpixel(corner) == (255, 255, 255)  # as profiles.toml and manufacturer.py now say
