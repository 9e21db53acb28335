"""What every PDF of the kit says about itself: no dates, and how it was made; fonts fall back face by face."""

import io

import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from generator import __version__
from generator.publish import fontchain
from tests.test_publish_standin import standin_kit


def test_no_pdf_of_the_kit_carries_a_date():
    kit = standin_kit()
    pdfs = [name for name in kit if name.endswith(".pdf")]
    assert any("dieline" in n for n in pdfs) and any("board" in n for n in pdfs) and "print/rules.pdf" in pdfs
    for name in pdfs:
        info = PdfReader(io.BytesIO(kit[name])).metadata
        assert "/CreationDate" not in info and "/ModDate" not in info, name
        assert b"CreationDate" not in kit[name] and b"ModDate" not in kit[name], name


def test_rules_record_version_and_settings_like_the_other_pdfs():
    kit = standin_kit()
    rules = PdfReader(io.BytesIO(kit["print/rules.pdf"])).metadata
    sheet = PdfReader(io.BytesIO(kit["print/tiles-a4-duplex.pdf"])).metadata
    assert rules["/Producer"] == sheet["/Producer"] == f"trailwright {__version__} (reportlab)"
    assert rules["/Keywords"] == sheet["/Keywords"] == f"trailwright {__version__}"
    assert "settings" in rules["/Subject"] and rules["/Subject"] == sheet["/Subject"]


def test_a_missing_face_falls_back_to_the_nearest_face_not_all_to_vera(tmp_path):
    if not (fontchain.DEJAVU / "DejaVuSerif-Italic.ttf").exists():
        pytest.skip("DejaVu fonts are not installed")
    for f in fontchain.DEJAVU.glob("*.ttf"):
        if f.name not in ("DejaVuSerif-Italic.ttf", "DejaVuSansCondensed.ttf"):
            (tmp_path / f.name).symlink_to(f)
    files = fontchain.font_files(tmp_path)
    assert files["Serif-Italic"] == tmp_path / "DejaVuSans-Oblique.ttf"  # the nearest italic there is
    assert files["Condensed"] == tmp_path / "DejaVuSans.ttf"
    assert files["Serif"] == tmp_path / "DejaVuSerif.ttf" and files["Condensed-Bold"].parent == tmp_path
    assert all(path.parent == tmp_path for path in files.values())  # nothing switched to Vera


def test_with_no_dejavu_at_all_every_face_is_vera(tmp_path):
    files = fontchain.font_files(tmp_path)
    assert {p.name for p in files.values()} <= {"Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "VeraBI.ttf"}
    assert all(p.exists() for p in files.values())


def test_registered_faces_use_the_files_chosen():
    files = fontchain.register_fonts()
    for face, path in files.items():
        assert pdfmetrics.getFont(face).face.filename == str(path)
