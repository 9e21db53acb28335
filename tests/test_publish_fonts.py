"""Fonts that never lose a glyph: every text is set with a fallback chain (the theme's font, DejaVu, a CJK font), run
by run, so a CJK-only title font never blanks a Latin heading, a mixed title prints whole and centred, and bold and
italic survive a theme's text font that has no such faces."""

import io
import shutil
from dataclasses import replace
from pathlib import Path

import pdfplumber
import pytest
from reportlab.platypus import Paragraph

from generator.publish.art import ArtCache
from generator.publish.booklet.styles import chains, load_look, missing_faces, paragraph_styles, themed_look
from generator.publish.bookletkit import make_booklet
from generator.publish.fontchain import CJK, NBSP, NNBSP, chain, glyph_warning, set_markup
from generator.publish.kit import font_warnings
from generator.publish.settings import load_settings
from generator.render import load_style
from tests.test_publish_standin import TILE_MM, standin_sources

DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
NO_CJK = pytest.mark.skipif(not DROID.exists(), reason="no CJK font: make sysdeps installs fonts-droid-fallback")
HEADINGS = ("What is in the box", "Setting up", "Playing", "Bridges", "Tile catalogue", "For the designer")


def _theme(tmp_path: Path, **fonts: Path) -> Path:
    folder = tmp_path / "theme"
    folder.mkdir(parents=True, exist_ok=True)
    for role, path in fonts.items():
        shutil.copy(path, folder / f"{role}.ttf")
    table = "".join(f'{role} = "{role}.ttf"\n' for role in fonts)
    (folder / "theme.toml").write_text(f'[theme]\nname = "Fonts"\n[fonts]\n{table}')
    return folder


def _booklet(folder: Path, title: str) -> list:
    """The booklet's pages (pdfplumber) for the stand-in kit drawn in the theme at ``folder``."""
    src = replace(standin_sources(), style=load_style(folder))
    settings = replace(load_settings(), title=title)
    art = ArtCache.covering(src.art_for_width(TILE_MM), TILE_MM, settings.dpi, settings.bleed_mm)
    reading, _ = make_booklet(src, settings, art, src.board_svg)
    doc = pdfplumber.open(io.BytesIO(reading))
    return doc.pages


@NO_CJK
def test_a_cjk_title_font_prints_the_latin_headings_and_a_mixed_title_whole_and_centred(tmp_path):
    pages = _booklet(_theme(tmp_path, title=DROID), "Trails of 迷路")
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in pages)
    assert all(heading in text for heading in HEADINGS), text[:400]  # set in DejaVu where the CJK font has no Latin
    cover = pages[0]
    big = [c for c in cover.chars if c["size"] > 20]
    assert "".join(c["text"] for c in big) == "Trails of 迷路"  # every character printed
    assert {c["fontname"].split("+")[-1] for c in big} == {"DejaVuSans", "DroidSansFallback"}
    left, right = min(c["x0"] for c in big), max(c["x1"] for c in big)
    assert (left + right) / 2 == pytest.approx(float(cover.width) / 2, abs=1.5)  # centred as a whole
    footer = " ".join((pages[1].extract_text() or "").split())
    assert "Trails of 迷路" in footer


def test_a_text_font_without_bold_keeps_bold_by_falling_back_and_says_so_once(tmp_path):
    folder = _theme(tmp_path, text=DEJAVU / "DejaVuSansMono.ttf")
    src = replace(standin_sources(), style=load_style(folder))
    lines = [line for line in font_warnings(src, load_settings(), True) if "fonts.text" in line]
    assert len(lines) == 1 and "fonts.text_bold" in lines[0] and "theme.toml" in lines[0]
    pages = _booklet(folder, "Trailwright")
    words = pages[1].extract_words(extra_attrs=["fontname"])
    body = {w["fontname"].split("+")[-1] for w in words if w["text"] in ("Explorers", "forest")}
    bold = {w["fontname"].split("+")[-1] for w in words if w["text"] in ("bridge.", "bridge", "dead")}
    assert body == {"DejaVuSansMono"}  # the theme's text font sets the text
    assert bold and all("Bold" in face for face in bold), bold  # its bold, from the chain: DejaVu's
    assert any("DejaVuSansMono" in w["fontname"] for w in words if w["text"].isdigit())  # the page number too


def test_a_text_font_with_its_own_faces_sets_bold_and_italic_in_them(tmp_path):
    folder = _theme(
        tmp_path,
        text=DEJAVU / "DejaVuSansMono.ttf",
        text_bold=DEJAVU / "DejaVuSansMono-Bold.ttf",
        text_italic=DEJAVU / "DejaVuSansMono-Oblique.ttf",
        text_bold_italic=DEJAVU / "DejaVuSansMono-BoldOblique.ttf",
    )
    style = load_style(folder)
    assert missing_faces(style) is None
    look = themed_look(style)
    body = paragraph_styles(look)["body"]
    markup = set_markup("a <b>b</b> <i>c</i> <b><i>d</i></b>", chains(look)["body"], body.fontName)
    faces = [f.fontName for f in Paragraph(markup, body).frags]
    assert [f.split("-")[1] for f in faces[1::2]] == ["text_bold", "text_italic", "text_bold_italic"]
    without = themed_look(load_style(_theme(tmp_path / "plain", text=DEJAVU / "DejaVuSansMono.ttf")))
    markup = set_markup("a <i>c</i>", chains(without)["body"], dict(without.styles)["body"].font)
    assert '<font face="Serif-Italic">c</font>' in markup  # the packaged body font's italic, the next in the chain


def test_text_in_the_built_in_fonts_is_passed_through_unchanged():
    look = load_look()
    fonts = chains(look)
    markups = (("body", "A <b>bold</b> &amp; <font color='#8c4521'><b>x</b></font> y"), ("h1", "Setting up"))
    for style, markup in markups:
        assert set_markup(markup, fonts[style], dict(look.styles)[style].font) == markup


def test_a_group_separator_never_breaks_a_line():
    body = paragraph_styles(load_look())["body"]
    markup = set_markup(f"from 4{NNBSP}000{NNBSP}000 layouts", chains(load_look())["body"], body.fontName)
    assert NNBSP not in markup and f"4{NBSP}000{NBSP}000" in markup
    lines = Paragraph(markup, body).breakLines([50]).lines  # narrow: a line a word
    assert [words for _, words in lines] == [["from"], [f"4{NBSP}000{NBSP}000"], ["layouts"]]
    raw = Paragraph(f"from 4{NNBSP}000{NNBSP}000 layouts", body).breakLines([50]).lines  # reportlab breaks at U+202F
    assert [words for _, words in raw][:2] == [["from", "4", "000"], ["000"]]


@NO_CJK
def test_each_run_takes_the_first_font_that_has_it_and_only_a_lost_glyph_warns():
    fonts = chain("Sans-Bold")
    assert fonts.runs("Trails of 迷路", (True, False)) == [("Sans-Bold", "Trails of "), (CJK, "迷路")]
    assert glyph_warning("Trails of 迷路", "title", fonts) is None
    line = glyph_warning("Trails \U00013000 of 迷路", "title 'Trails'", fonts)  # a hieroglyph: in no font here
    assert line is not None and "U+13000" in line and "title 'Trails'" in line and line.count("\n") == 0


@NO_CJK
def test_a_label_in_a_cjk_only_font_draws_its_digits_from_the_fallback():
    from generator.render.outlines import outline

    digits, (x0, _, x1, _) = outline(str(DROID), "17", 10)  # the CJK font has no digits
    lost, _ = outline(str(DROID), "\U00013000\U00013000", 10)  # no font has these: the CJK font's empty boxes
    assert digits and x1 - x0 > 8 and digits != lost  # both drawn, from DejaVu
    mixed, _ = outline(str(DROID), "17 前", 10)
    assert mixed.count("M") > digits.count("M") + 2  # the ideograph too, from the theme font


def test_the_histogram_takes_the_booklets_accent_colour():
    from generator.play.pictures import BAR_COLOUR
    from generator.publish.bookletkit import accented

    colours = tuple((n, (0.0, 0.5, 0.0) if n == "accent" else c) for n, c in load_look().colours)
    bars = f'<rect fill="{BAR_COLOUR}"/><rect fill="#999999"/>'  # a bar, and the grey one of unfinished games
    assert accented(bars, replace(load_look(), colours=colours)) == '<rect fill="#008000"/><rect fill="#999999"/>'


@NO_CJK
def test_a_chart_label_in_two_scripts_is_drawn_run_by_run():
    from reportlab.graphics.shapes import String

    from generator.publish.booklet.flowables import pair_chart

    look = load_look()
    drawing = pair_chart([("井戸-Hut", 0.5), ("Hut-Well", 0.9)], 100, look, chains=chains(look))

    def strings(node):
        for child in getattr(node, "contents", []):
            yield from strings(child)
        if isinstance(node, String):
            yield node

    faces = {(s.text, s.fontName) for s in strings(drawing)}
    assert {("井戸 ", CJK), ("– Hut", "Sans"), ("Hut – Well", "Sans")} <= faces, faces
