"""The booklet package: blocks carry their template location as a value, builders are a table, and the
look (margins, colours, paragraph styles) is data checked with file/key/value messages."""

import tomllib

import pytest

from generator.errors import TrailwrightError
from generator.publish import booklet as bk
from generator.publish.booklet import TEMPLATES
from generator.publish.booklet.styles import load_look, look_from_dict
from tests.test_publish_standin import ROOT

LOOK_TOML = ROOT / "generator" / "publish" / "booklet.toml"


def test_parsed_blocks_carry_their_template_and_line_and_no_marker_attribute():
    root = bk.parse_markup(
        '<booklet tw-at="main.xml.j2:1">\n<p tw-at="a.xml.j2:7" x="1">a <b>b</b></p><p>inherits</p></booklet>', None
    )
    first, second = root.children
    assert first.at == bk.At("a.xml.j2", 7) and first.attrs == (("x", "1"),)
    assert first.children[0].at == bk.At("a.xml.j2", 7)  # an inline element without a mark: its block's
    assert second.at == bk.At("main.xml.j2", 1)
    assert first.words() == "a b"


def test_every_element_the_templates_document_has_a_builder():
    listed = (TEMPLATES / "booklet.xml.j2").read_text()
    for tag in (
        "cover",
        "h1",
        "h2",
        "p",
        "small",
        "centred",
        "list",
        "steps",
        "note",
        "table",
        "thumbs",
        "board",
        "chart",
        "spacer",
        "pagebreak",
    ):
        assert f"<{tag}" in listed and tag in bk.BUILDERS


def test_a_too_tall_block_is_found_from_its_piece_not_from_reportlabs_message():
    root = bk.parse_markup(
        '<booklet tw-at="m.xml.j2:1"><h1 tw-at="m.xml.j2:2">Part</h1><spacer tw-at="m.xml.j2:3" mm="300"/></booklet>',
        None,
    )
    pieces = bk.build_story(root, None, 120)
    assert [p.at.line for p in pieces] == [2, 3] and pieces[1].section == "Part"
    from generator.publish.pdf import DocInfo
    from generator.publish.settings import load_paper

    with pytest.raises(
        TrailwrightError,
        match=r"m\.xml\.j2: template error at line 3: Spacer in section 'Part' "
        r"does not fit on a A5 page, 300 mm tall",
    ):
        bk.booklet_pdf(pieces, load_paper("a5"), DocInfo("t", "s", "m"), "t")


def test_the_look_comes_from_booklet_toml():
    look = load_look()
    styles = dict(look.styles)
    assert styles["h1"].size == 15 and styles["h1"].colour == "accent" and styles["h1"].font == "Sans-Bold"
    assert styles["small"].space_after == 4  # inherited from [styles.body]
    assert look.hex("accent") == "#8c4521" and look.margin_bottom_mm == 15


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d["styles"]["h1"].update(size="big"), r"styles\.h1\.size: 'big' is not a number from 1 to 200"),
        (lambda d: d["styles"]["h2"].update(size=float("nan")), r"styles\.h2\.size: nan is not a number"),
        (lambda d: d["styles"]["h1"].update(colour="teal"), r"styles\.h1\.colour: 'teal' is not one of 'ink'"),
        (lambda d: d["styles"]["note"].update(font="Comic"), r"styles\.note\.font: 'Comic' is not one of"),
        (lambda d: d["styles"]["note"].update(align="middle"), r"styles\.note\.align: 'middle' is not one of"),
        (lambda d: d["styles"]["h1"].update(sise=3), r"styles\.h1: unknown key 'sise'"),
        (lambda d: d["styles"].update(h7={}), r"styles: unknown key 'h7'"),
        (lambda d: d["styles"].pop("caption"), r"styles: missing 'caption'"),
        (lambda d: d["colours"].update(ink=[0, 2, 0]), r"colours\.ink\[2\]: 2 is not a number from 0 to 1"),
        (lambda d: d["page"].update(margin_x_mm=-1), r"page\.margin_x_mm: -1 is not a number from 0 to 100"),
    ],
)
def test_a_bad_look_is_one_line_naming_file_key_and_value(edit, message):
    data = tomllib.loads(LOOK_TOML.read_text())
    edit(data)
    with pytest.raises(TrailwrightError, match=r"^look\.toml: " + message):
        look_from_dict(data, "look.toml")


def test_a_look_changes_the_booklet(tmp_path):
    """The styles are really read from the data: another body size gives other bytes."""
    from generator.publish.pdf import DocInfo
    from generator.publish.settings import load_paper

    data = tomllib.loads(LOOK_TOML.read_text())
    root = bk.parse_markup("<booklet><p>Some words on a page.</p></booklet>", None)
    made = []
    for size in (8.8, 12):
        data["styles"]["body"]["size"] = size
        look = look_from_dict(data, "look.toml")
        made.append(
            bk.booklet_pdf(
                bk.build_story(root, None, 120, look=look), load_paper("a5"), DocInfo("t", "s", "m"), "t", look=look
            )
        )
    assert made[0] != made[1]
