"""The rules booklet: A5 pages in reading order, the saddle-stitch imposition measured page by page,
numbers from data, and template errors that name the template and line."""

import io
import re
import shutil
from dataclasses import replace

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.errors import TrailwrightError
from generator.publish import booklet as bk
from generator.publish.booklet import TEMPLATES
from generator.publish.bookletkit import booklet_context
from generator.publish.impose import saddle_order
from generator.publish.settings import load_settings
from tests.test_publish_standin import standin_kit, standin_sources

MM = 72 / 25.4


@pytest.mark.parametrize("pages", range(1, 21))
def test_saddle_order_uses_every_page_once_and_pairs_sum_to_n_minus_1(pages):
    order = saddle_order(pages)
    n = -(-pages // 4) * 4
    assert len(order) == n // 2
    assert sorted(p for pair in order for p in pair) == list(range(n))
    assert all(left + right == n - 1 for left, right in order)
    # the outside of the first sheet carries the last page and the cover
    assert order[0] == (n - 1, 0)


def test_rules_are_a5_pages_in_reading_order():
    with pdfplumber.open(io.BytesIO(standin_kit()["print/rules.pdf"])) as doc:
        assert len(doc.pages) >= 6
        for n, page in enumerate(doc.pages, start=1):
            assert page.width / MM == pytest.approx(148, abs=0.05)
            assert page.height / MM == pytest.approx(210, abs=0.05)
            if n > 1:  # the cover carries no folio
                assert _folio(page) == n
        text = "\n".join(p.extract_text() for p in doc.pages)
    for heading in ("What is in the box", "Setting up", "Playing", "Bridges", "Tile catalogue", "For the designer"):
        assert heading in text
    assert text.index("Setting up") < text.index("Playing") < text.index("Tile catalogue")


def _folio(page) -> int | None:
    """The page number printed in the footer band."""
    x0, _, x1, bottom = page.bbox
    band = page.crop((x0, bottom - 14 * MM, x1, bottom))
    numbers = [w["text"] for w in band.extract_words() if re.fullmatch(r"\d+", w["text"])]
    return int(numbers[0]) if numbers else None


def test_the_booklet_is_imposed_2_up_on_landscape_a4_in_folding_order():
    kit = standin_kit()
    reading = len(PdfReader(io.BytesIO(kit["print/rules.pdf"])).pages)
    n = -(-reading // 4) * 4
    with pdfplumber.open(io.BytesIO(kit["print/rules-booklet.pdf"])) as doc:
        assert len(doc.pages) * 2 == n and n % 4 == 0
        for side, (left, right) in zip(doc.pages, saddle_order(reading), strict=True):
            assert side.width / MM == pytest.approx(297, abs=0.05)
            assert side.height / MM == pytest.approx(210, abs=0.05)
            half = side.width / 2
            for index, crop in (
                (left, side.crop((0, 0, half, side.height))),
                (right, side.crop((half, 0, side.width, side.height))),
            ):
                page_number = index + 1
                found = _folio(crop)
                if page_number == 1 or page_number > reading:
                    assert found is None  # the cover and the blank padding
                else:
                    assert found == page_number
    prefs = PdfReader(io.BytesIO(kit["print/rules-booklet.pdf"])).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge" and prefs["/PrintScaling"] == "/None"


def test_the_component_list_is_counted_from_the_tile_set_and_board():
    src = standin_sources()
    ctx = booklet_context(src, load_settings())
    assert ctx["tiles"]["count"] == 20 and ctx["tiles"]["sides"] == 40
    assert ctx["tiles"]["designs"] == len(src.tileset.design_counts())
    assert sum(d["count"] for d in ctx["catalogue"]) == 40
    assert sorted(ctx["board"]["landmarks"]) == ["Exit", "Hut", "Lair", "Orchard", "Spring", "Well"]
    with pdfplumber.open(io.BytesIO(standin_kit()["print/rules.pdf"])) as doc:
        text = " ".join(" ".join(p.extract_text().split()) for p in doc.pages)
    assert f"({ctx['tiles']['sides']} sides in {ctx['tiles']['designs']} different designs)" in text
    assert f"{ctx['board']['connectors']} printed border trails" in text
    assert "10.500" in text  # the designer's fitness figure


def test_booklet_pdfs_embed_their_fonts_and_are_reproducible():
    kit = standin_kit()
    for name in ("print/rules.pdf", "print/rules-booklet.pdf"):
        reader = PdfReader(io.BytesIO(kit[name]))
        for page in reader.pages:
            for ref in page["/Resources"].get("/Font", {}).values():
                font = ref.get_object()
                assert "/FontDescriptor" in font and "/FontFile2" in font["/FontDescriptor"].get_object()
    src = standin_sources()
    from generator.publish.art import ArtCache
    from generator.publish.bookletkit import make_booklet

    settings = load_settings()
    art = ArtCache.covering(src.art_for_width(63.5), 63.5, settings.dpi, settings.bleed_mm)
    again = make_booklet(src, settings, art, src.board_svg)
    assert len(again[0]) > 0 and make_booklet(src, settings, art, src.board_svg) == again


# --- template errors ----------------------------------------------------------------------


@pytest.fixture
def templates(tmp_path):
    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    return folder


def _render(folder):
    return bk.render_markup(folder, booklet_context(standin_sources(folder), load_settings()))


def _edit_line(path, index: int, text: str, insert: bool = False) -> None:
    """Replace (or insert before) line ``index`` (from 0) of a template file."""
    lines = path.read_text().splitlines()
    if insert:
        lines.insert(index, text)
    else:
        lines[index] = text
    path.write_text("\n".join(lines) + "\n")


def test_the_shipped_templates_render_to_well_formed_markup():
    root = bk.parse_markup(_render(TEMPLATES), TEMPLATES)
    assert root.tag == "booklet"
    assert [el.tag for el in root][:2] == ["cover", "h1"]


def test_a_missing_template_is_named(templates):
    (templates / "catalogue.xml.j2").unlink()
    with pytest.raises(TrailwrightError, match="missing template 'catalogue.xml.j2'"):
        _render(templates)


def test_a_template_syntax_error_names_the_template_and_line(templates):
    _edit_line(templates / "play.xml.j2", 2, "{% if %}")
    with pytest.raises(TrailwrightError, match=r"play\.xml\.j2: template error at line 3"):
        _render(templates)


def test_an_undefined_name_names_the_template_and_line(templates):
    _edit_line(templates / "bridges.xml.j2", 1, "<p>{{ tiles.no_such_count }}</p>")
    with pytest.raises(TrailwrightError, match=r"bridges\.xml\.j2: template error at line 2: .*no_such_count"):
        _render(templates)


def test_malformed_markup_names_the_included_template_and_its_line(templates):
    path = templates / "setup.xml.j2"
    lines = path.read_text().splitlines()
    path.write_text(path.read_text() + "<p>unclosed\n")
    with pytest.raises(
        TrailwrightError, match=rf"setup\.xml\.j2: template error at line {len(lines) + 1}: <p> is not closed"
    ):
        bk.parse_markup(_render(templates), templates)


def test_a_bad_token_names_the_included_template_and_its_line(templates):
    _edit_line(templates / "play.xml.j2", 5, "<p>salt & pepper</p>")
    with pytest.raises(TrailwrightError, match=r"play\.xml\.j2: template error at line 6: markup not well formed"):
        bk.parse_markup(_render(templates), templates)


def test_an_unknown_element_names_the_template_and_line(templates):
    _edit_line(templates / "bridges.xml.j2", 4, "<marquee>hi</marquee>", insert=True)
    root = bk.parse_markup(_render(templates), templates)
    # the blocks before need art; the unknown element comes before the bridges' thumbs
    root = replace(root, children=tuple(b for b in root if b.at.template == "bridges.xml.j2"))
    with pytest.raises(
        TrailwrightError, match=r"bridges\.xml\.j2: template error at line 5: unknown markup element <marquee>"
    ):
        bk.build_story(root, None, 120, templates)
    inline = bk.parse_markup('<booklet><p tw-at="x.xml.j2:7">a <blink>b</blink></p></booklet>', templates)
    with pytest.raises(TrailwrightError, match=r"x\.xml\.j2: template error at line 7: <blink> is not allowed"):
        bk.build_story(inline, None, 120, templates)


def _booklet_with(templates, name, old, new):
    from generator.publish.art import ArtCache
    from generator.publish.bookletkit import make_booklet

    path = templates / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    src = standin_sources(templates)
    settings = load_settings()
    art = ArtCache.covering(src.art_for_width(63.5), 63.5, settings.dpi, settings.bleed_mm)
    return make_booklet(src, settings, art, src.board_svg)


def test_a_thumb_naming_no_tile_side_names_the_template_and_line(templates):
    line = (templates / "bridges.xml.j2").read_text().splitlines().index("<list>") + 1
    with pytest.raises(TrailwrightError, match=rf"bridges\.xml\.j2: template error at line {line}: <thumb tile='99'"):
        _booklet_with(templates, "bridges.xml.j2", "<list>", '<thumbs><thumb tile="99">x</thumb></thumbs><list>')


def test_a_block_taller_than_a_page_names_the_template_line_and_section(templates):
    with pytest.raises(
        TrailwrightError,
        match=r"play\.xml\.j2: template error at line 2: Spacer in section "
        r"'Playing' does not fit on a A5 page, 400 mm tall",
    ):
        _booklet_with(templates, "play.xml.j2", "<h2>The goal</h2>", '<h2>The goal</h2><spacer mm="400"/>')


def test_the_catalogue_shows_every_side_grouped_by_design_with_counts_and_readable_captions():
    kit = standin_kit()
    context = booklet_context(standin_sources(), load_settings())
    with pdfplumber.open(io.BytesIO(kit["print/rules.pdf"])) as doc:
        pages = [p for p in doc.pages if re.search(r"#\d+ · ×\d", p.extract_text() or "")]
        assert pages
        text = "\n".join(p.extract_text() for p in pages)
        images = sum(len(p.images) for p in pages)
        sizes = {round(ch["size"], 2) for p in pages for ch in p.chars}
    assert images >= 40  # one thumbnail per side, not per design
    for tile in standin_sources().tileset:
        for face in ("front", "back"):
            assert f"tile {tile.id}, {face}" in text
    labels = text.split("its tile and face.")[1]  # after the intro's example
    counts = [int(n) for n in re.findall(r"#\d+ · ×(\d+)", labels)]
    assert len(counts) == len(context["catalogue"]) and sum(counts) == 40
    assert min(sizes) >= 7  # captions and labels readable


def test_the_rules_free_a_pawn_on_a_landmark_and_say_what_a_new_tile_does():
    with pdfplumber.open(io.BytesIO(standin_kit()["print/rules.pdf"])) as doc:
        text = " ".join(" ".join(p.extract_text().split()) for p in doc.pages)
    assert "next to that landmark" in text  # a pawn on a landmark can always turn a tile
    assert "If it does not, your pawn stays" not in text  # the dead rule: every edge belongs to a trail
    assert "then step onto its trail at the edge you came through" in text
    assert "Dead ends block:" in text  # the dead rule's intent, offered as a variant
    assert "covers two spaces, joined by printed trails to the disc" in text  # the classic board's Exit: two hexes
