"""Hostile tile ids: every stage writes only inside --out, names stay distinct, PDFs and SVGs stay whole."""

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from generator.cli import main
from generator.errors import TrailwrightError
from generator.inputs import parse_json
from generator.model import tileset_from_dict
from generator.model.ids import PLAIN_LENGTH, file_stem, id_width, side_file_name
from generator.render import load_style, render_side

HOSTILE = ["/../../tmp/x", "..", "a/b", "%", "<", "é", "🦊", "x" * 300, "a b", "a_b", "7", "07"]
SIDES = [
    [["N", "S"], ["NE"], ["SE"], ["SW", "NW"]],
    [["N", "NE"], ["SE", "NW"], ["S"], ["SW"]],
    [["N"], ["NE", "S"], ["SE"], ["SW"], ["NW"]],
]
STYLE = load_style()
BOARD = """name = "strip"
slots = [[0,0],[1,0],[2,0],[3,0],[4,0],[5,0],[0,1],[1,1],[2,1],[3,1],[4,1],[5,1]]
[[landmark]]
name = "Hut"
hexes = [[-1, 0]]
[[landmark]]
name = "Well"
hexes = [[6, 0]]
"""


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A 12-slot board and a tile set with hostile ids ('a b' and 'a_b' drawn differently); cwd inside tmp."""
    work = tmp_path / "deep" / "work"
    work.mkdir(parents=True)
    tiles = [{"id": i, "front": SIDES[k % 3], "back": SIDES[(k + 1) % 3]} for k, i in enumerate(HOSTILE)]
    (work / "t.json").write_text(json.dumps({"tiles": tiles}, ensure_ascii=False), encoding="utf-8")
    (work / "board.toml").write_text(BOARD, encoding="utf-8")
    (work / "settings.toml").write_text('papers = ["a4"]\ndpi = 150\nboard_dpi = 100\nscore_samples = 200\n')
    (work / "style.toml").write_text("[label]\nshow = false\n")
    monkeypatch.chdir(work)
    return work


def _inside(root: Path, top: Path) -> list[Path]:
    """Every file under ``top``, failing if any lies outside ``root``."""
    files = [p for p in top.rglob("*") if p.is_file()]
    for p in files:
        assert p.resolve().is_relative_to(root.resolve()), p
    return files


def test_stems_are_injective_safe_and_short():
    width = id_width(HOSTILE)
    stems = {i: file_stem(i, width) for i in HOSTILE}
    assert len(set(stems.values())) == len(HOSTILE)
    for stem in stems.values():
        assert "/" not in stem and "\\" not in stem and ".." not in stem and stem not in (".", "")
        assert len(stem) <= PLAIN_LENGTH + 11
    assert stems["7"] == "07" and stems["07"] != "07" and stems["a_b"] == "a_b" and stems["a b"] != "a_b"
    assert file_stem("120", 3) == "120" and file_stem("7", 3) == "007"


def test_ids_differing_only_in_case_are_one_line(capsys, game):
    (game / "t.json").write_text(
        json.dumps(
            {"tiles": [{"id": i, "front": SIDES[0], "back": SIDES[1]} for i in ["A", "a", *map(str, range(10))]]}
        )
    )
    status = main(["render", "t.json", "--board", "board.toml", "--out", "r"])
    err = capsys.readouterr().err
    assert status == 2 and "tile ids 'A' and 'a' would share the file name" in err and err.count("\n") == 1


def test_render_writes_every_side_inside_out(capsys, game):
    before = set(game.parent.parent.rglob("*"))
    status = main(["render", "t.json", "--board", "board.toml", "--out", "r", "--no-labels"])
    assert status == 0, capsys.readouterr().err
    files = _inside(game / "r", game / "r")
    assert len(files) == 2 * len(HOSTILE) + 1
    assert set(game.parent.parent.rglob("*")) - before == {game / "r", *files}
    for f in files:
        ET.parse(f)  # well-formed XML, whatever the id


def test_labels_with_markup_characters_stay_well_formed_xml(capsys, game):
    ids = ["<", "&", '"', "é", "🦊", "a b", "%", "]]>", "7", "8", "9", "10"]
    (game / "t.json").write_text(json.dumps({"tiles": [{"id": i, "front": SIDES[0], "back": SIDES[1]} for i in ids]}))
    assert main(["render", "t.json", "--board", "board.toml", "--out", "r"]) == 0, capsys.readouterr().err
    texts = set()
    for f in (game / "r").glob("tile-*.svg"):
        texts |= {"".join(t.itertext()) for t in ET.parse(f).iter("{http://www.w3.org/2000/svg}text")}
    assert any(t.startswith("<") for t in texts) and any(t.startswith("🦊") for t in texts)


@pytest.mark.slow
def test_publish_writes_only_inside_out_with_distinct_images(capsys, game):
    out = game / "kit"
    before = set(game.parent.parent.rglob("*"))
    status = main(
        [
            "publish",
            "t.json",
            "--board",
            "board.toml",
            "--settings",
            "settings.toml",
            "--style",
            "style.toml",
            "--out",
            "kit",
            "--workers",
            "1",
        ]
    )
    assert status == 0, capsys.readouterr().err
    files = _inside(out, out)
    assert set(game.parent.parent.rglob("*")) - before <= {out, *out.rglob("*")}
    folder = out / "manufacturer" / "thegamecrafter-medium-hex"
    assert len(list(folder.glob("tile-*.png"))) == 2 * len(HOSTILE)
    with zipfile.ZipFile(out / "manufacturer" / "thegamecrafter-medium-hex.zip") as z:
        names = z.namelist()
    assert len(names) == len(set(names)) == len(list(folder.iterdir()))
    for name in names:
        assert not name.startswith("/") and ".." not in name.split("/") and "\\" not in name
    duplex = out / "print" / "tiles-a4-duplex.pdf"
    reader = PdfReader(duplex)
    images = {
        xo.indirect_reference.idnum
        for page in reader.pages
        for xo in page["/Resources"]["/XObject"].values()
        if xo.get_object()["/Subtype"] == "/Image"
    }
    assert len(images) == 2 * len(HOSTILE)  # every side its own image: 'a b' and 'a_b' never share one
    assert all(len(f.name.encode()) < 255 for f in files)
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed: the page pixels are not checked")
    png = subprocess.run(
        ["pdftoppm", "-r", "15", "-f", "1", "-l", "1", "-gray", str(duplex)], capture_output=True, check=True
    ).stdout
    body = png[png.index(b"255\n") + 4 :]  # a PGM: the header ends with the max value
    assert sum(b < 200 for b in body) > 0.1 * len(body)  # the page shows art, not a blank sheet


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=40))
def test_any_id_is_refused_in_one_line_or_drawn_as_well_formed_xml_with_a_safe_name(tile_id):
    data = {"tiles": [{"id": tile_id, "front": SIDES[0], "back": SIDES[1]}]}
    text = json.dumps(data)  # escapes every character, lone surrogates included
    try:
        tileset = tileset_from_dict(parse_json(text, "t.json"), "t.json")
    except TrailwrightError as err:
        assert str(err).startswith("t.json: ") and "\n" not in str(err)
        return
    tile = tileset.tiles[0]
    for face in ("front", "back"):
        name = side_file_name(tile.id, face, id_width([tile.id]))
        assert "/" not in name and "\\" not in name and ".." not in name and len(name.encode()) < 255
        ET.fromstring(render_side(tile, face, STYLE, label=False).encode("utf-8"))
