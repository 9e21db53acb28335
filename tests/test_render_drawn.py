"""Each design's drawing is kept on disk once searched (``generator.render.drawn``): a later process reads back
exactly the drawing the search made, a bad entry is searched again, and an edit of the renderer starts afresh."""

from __future__ import annotations

import json
import shutil

import pytest

from generator.board import load_board
from generator.model import Side, Tile
from generator.model.designs import designs
from generator.render import drawn, sidesearch
from generator.render import side as drawing
from generator.render.style import load_style
from generator.render.tiles import render_side, trail_width


def _some(board: str, n: int) -> tuple[float, list[Side]]:
    g = load_board(board).geometry
    every = designs(g)
    return trail_width(g, load_style()), [every[k] for k in range(0, len(every), max(1, len(every) // n))][:n]


@pytest.fixture
def kept(tmp_path, monkeypatch):
    monkeypatch.setenv(drawn.ENV, str(tmp_path))
    drawing.clear_caches()
    yield tmp_path
    drawing.clear_caches()


@pytest.mark.parametrize(
    ("board", "n"), [("classic", 12), ("hex-pairs", 3), ("square-pathways", 6), ("square-jungle", 4)]
)
def test_a_later_process_reads_back_exactly_the_drawing_the_search_made(kept, monkeypatch, board, n):
    width, sides = _some(board, n)
    searched = [sidesearch.layout_canonical(s, width) for s in sides]
    assert len(list(kept.rglob("*.json"))) == len(sides)  # one entry a design
    drawing.clear_caches()  # a new process: nothing in memory, no search allowed

    def no_search(side, width):
        raise AssertionError(f"{side} searched again")

    monkeypatch.setattr(sidesearch, "_searched", no_search)
    again = [sidesearch.layout_canonical(s, width) for s in sides]
    assert again == searched and [repr(a) for a in again] == [repr(s) for s in searched]


def test_a_side_drawn_from_disk_is_the_same_svg_bytes(kept):
    side = Side.of([[0, 2, 4], [1], [3, 5]])
    tile = Tile("7", side, Side.of([[0, 3], [1, 4], [2, 5]]))
    style = load_style()
    first = [render_side(tile, face, style, bleed_mm=2) for face in ("front", "back")]
    drawing.clear_caches()
    assert [render_side(tile, face, style, bleed_mm=2) for face in ("front", "back")] == first


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: "{not json",
        lambda data: json.dumps({**data, "shapes": data["shapes"][:-1]}),  # a trail short
        lambda data: json.dumps({**data, "bridges": []}),  # its bridges lost
        lambda data: json.dumps({**data, "shapes": [{**s, "curves": "x"} for s in data["shapes"]]}),
    ],
)
def test_an_entry_that_does_not_read_back_whole_is_searched_again_and_written_anew(kept, spoil):
    side = Side.of([[0, 3], [1, 4], [2, 5]])  # three bridges
    width = trail_width(side.geometry, load_style())
    searched = sidesearch.layout_canonical(side, width)
    (entry,) = kept.rglob("*.json")
    entry.write_text(spoil(json.loads(entry.read_text())))
    drawing.clear_caches()
    assert drawn.load(side, width) is None
    assert sidesearch.layout_canonical(side, width) == searched
    assert drawn.load(side, width) == searched  # rewritten whole


def test_off_keeps_nothing_and_reads_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(drawn.ENV, drawn.OFF)
    assert drawn.folder() is None
    side = Side.of([[0, 1], [2, 3], [4, 5]])
    drawn.keep(sidesearch._searched(side, 0.18))
    assert drawn.load(side, 0.18) is None and not any(tmp_path.iterdir())


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv(drawn.ENV, str(blocked))
    drawing.clear_caches()
    side = Side.of([[0, 4], [1, 3], [2, 5]])
    assert sidesearch.layout_canonical(side, 0.18).side == side
    drawing.clear_caches()


def test_an_edit_of_the_renderer_or_the_model_is_a_new_folder(tmp_path, monkeypatch):
    render = tmp_path / "generator" / "render"
    shutil.copytree(drawn._RENDER, render)
    shutil.copytree(drawn._RENDER.parent / "model", tmp_path / "generator" / "model")
    monkeypatch.setattr(drawn, "_RENDER", render)
    stamps = []
    for edit in (None, render / "sidesearch.py", tmp_path / "generator" / "model" / "tiles.py"):
        if edit is not None:
            edit.write_text(edit.read_text() + "\n# an edit\n")
        drawn.stamp.cache_clear()
        stamps.append(drawn.stamp())
    drawn.stamp.cache_clear()
    assert len(set(stamps)) == 3
