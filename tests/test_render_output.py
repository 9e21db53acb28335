"""Tile art as pixels and as files: colour at the exits, tiles that join, golden SVGs, same bytes, speed.

Refresh the golden SVGs with ``TRAILWRIGHT_REFRESH_GOLDEN=1 pytest tests/test_render_output.py``.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import time
from pathlib import Path

import cairosvg
import numpy as np
import pytest
from PIL import Image

from generator.model import Side, Tile
from generator.render import load_style, render_board, render_side
from generator.render import side as drawing

GOLDEN = Path(__file__).resolve().parent / "golden"
REFRESH = os.environ.get("TRAILWRIGHT_REFRESH_GOLDEN") == "1"
STYLE = load_style()
PX_PER_MM = 8


def raster(svg: str, width_mm: float, height_mm: float) -> np.ndarray:
    """RGB pixels of an SVG at ``PX_PER_MM``, on white."""
    png = cairosvg.svg2png(
        bytestring=svg.encode(),
        output_width=round(width_mm * PX_PER_MM),
        output_height=round(height_mm * PX_PER_MM),
        background_color="white",
    )
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def pixel(img, x_mm, y_mm, origin):
    return img[int(round((y_mm - origin[1]) * PX_PER_MM)), int(round((x_mm - origin[0]) * PX_PER_MM))]


def unit(d):
    a = math.radians(60 * d)
    return np.array([math.sin(a), -math.cos(a)]), np.array([math.cos(a), math.sin(a)])


def test_trail_colour_is_at_every_edge_midpoint(random20):
    w, h = STYLE.tile_width_mm, STYLE.tile_height_mm
    sand = rgb(STYLE.trail_fill)
    for tile in list(random20)[:6]:
        for face in ("front", "back"):
            img = raster(render_side(tile, face, STYLE), w, h)
            for d in range(6):
                normal, _ = unit(d)
                x, y = normal * (h / 2 - 1.0)
                assert np.abs(pixel(img, x, y, (-w / 2, -h / 2)) - sand).max() <= 12, (tile.id, face, d)


def _two_tiles(a: str, b: str, d: int) -> tuple[str, float, float, tuple[float, float]]:
    """Tile ``a`` at the origin and tile ``b`` across its edge ``d``, in one SVG."""
    w, h = STYLE.tile_width_mm, STYLE.tile_height_mm
    normal, _ = unit(d)
    bx, by = normal * h
    x0, y0 = min(0, bx) - w / 2 - 2, min(0, by) - h / 2 - 2
    x1, y1 = max(0, bx) + w / 2 + 2, max(0, by) + h / 2 + 2

    def nest(svg, cx, cy):
        inner = svg[svg.index(">") + 1 : svg.rindex("</svg>")]
        return f'<g transform="translate({cx} {cy})">{inner}</g>'

    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{x1 - x0}mm" height="{y1 - y0}mm" '
        f'viewBox="{x0} {y0} {x1 - x0} {y1 - y0}">{nest(a, 0, 0)}{nest(b, bx, by)}</svg>'
    )
    return svg, x1 - x0, y1 - y0, (x0, y0)


def _runs(img, origin, centre, along, half):
    """Which pixels along a line are trail (sand or verge) rather than ground."""
    ground = [rgb(STYLE.tile_front_ground), rgb(STYLE.tile_back_ground)]
    out = []
    for t in np.linspace(-half, half, int(2 * half * PX_PER_MM)):
        p = pixel(img, *(centre + t * along), origin)
        out.append(min(np.abs(p - g).max() for g in ground) > 30)
    return np.array(out)


@pytest.mark.parametrize("d", range(6))
def test_two_tiles_side_by_side_join_seamlessly(random20, d):
    tiles = list(random20)
    a = render_side(tiles[0], "front", STYLE, label=False)
    b = render_side(tiles[1].rotated(d), "back", STYLE, label=False)
    svg, width, height, origin = _two_tiles(a, b, d)
    img = raster(svg, width, height)
    normal, along = unit(d)
    edge = normal * STYLE.tile_height_mm / 2
    inside = _runs(img, origin, edge - 0.4 * normal, along, 8)
    outside = _runs(img, origin, edge + 0.4 * normal, along, 8)
    assert inside.sum() == pytest.approx(STYLE.trail_width_mm * PX_PER_MM, abs=3)
    assert (inside != outside).sum() <= 2  # the same band of trail on both sides of the shared edge


GOLDEN_SIDES = {
    "side-interleaved-triples-front": (Side.of([[0, 2, 4], [1, 3, 5]]), "front", 0.0),
    "side-three-diameters-back": (Side.of([[0, 3], [1, 4], [2, 5]]), "back", 0.0),
    "side-stubs-and-tee-front-bleed": (Side.of([[0, 1, 3], [2], [4], [5]]), "front", 3.175),
}


def _stable(svg: str) -> str:
    """The SVG without the version that made it (so a release does not break the goldens)."""
    return re.sub(r"trailwright [0-9][^&\"<]*", "trailwright VERSION", svg)


def _golden(name: str, svg: str) -> None:
    path = GOLDEN / f"{name}.svg"
    if REFRESH:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(_stable(svg), encoding="utf-8")
    if not path.exists():
        pytest.fail(
            f"{path.name} is missing: look at the drawing, then write it with "
            f"TRAILWRIGHT_REFRESH_GOLDEN=1 pytest tests/test_render_output.py"
        )
    assert _stable(svg) == path.read_text(encoding="utf-8"), f"{path.name} changed (TRAILWRIGHT_REFRESH_GOLDEN=1)"


@pytest.mark.parametrize("name", sorted(GOLDEN_SIDES))
def test_golden_sides(name):
    side, face, bleed = GOLDEN_SIDES[name]
    _golden(name, render_side(Tile("7", side, side), face, STYLE, bleed_mm=bleed))


def test_golden_board(classic):
    _golden("board-classic", render_board(classic, STYLE))


def test_a_missing_golden_fails_rather_than_writing_itself(monkeypatch, tmp_path):
    import tests.test_render_output as me

    monkeypatch.setattr(me, "GOLDEN", tmp_path)
    monkeypatch.setattr(me, "REFRESH", False)
    with pytest.raises(pytest.fail.Exception, match="TRAILWRIGHT_REFRESH_GOLDEN=1"):
        _golden("nowhere", "<svg/>")
    assert not (tmp_path / "nowhere.svg").exists()
    monkeypatch.setattr(me, "REFRESH", True)
    _golden("nowhere", "<svg/>")
    assert (tmp_path / "nowhere.svg").read_text(encoding="utf-8") == "<svg/>"


def test_same_input_same_bytes_and_no_ids(random20):
    tile = list(random20)[3]
    first = render_side(tile, "back", STYLE, bleed_mm=2)
    drawing.clear_caches()
    assert render_side(tile, "back", STYLE, bleed_mm=2) == first
    assert ' id="' not in first
    meta = json.loads(re.search(r"<metadata>(.*)</metadata>", first).group(1).replace("&quot;", '"'))
    assert meta["tile"] == tile.id and meta["face"] == "back"
    assert meta["trails"] == tile.back.names() and meta["bridges"] == tile.back.min_crossings


def test_labels_turn_on_and_off(random20):
    tile = list(random20)[0]
    assert f">{tile.id} front</text>" in render_side(tile, "front", STYLE)
    assert "<text" not in render_side(tile, "front", STYLE, label=False)


def test_fronts_and_backs_differ_at_a_glance_even_in_greyscale(random20):
    def grey(c):
        r, g, b = rgb(c)
        return 0.299 * r + 0.587 * g + 0.114 * b

    assert abs(grey(STYLE.tile_front_ground) - grey(STYLE.tile_back_ground)) > 15
    tile = list(random20)[0]
    assert render_side(tile, "back", STYLE).count(STYLE.tile_mark_colour) == 1  # the corner moons


def test_forty_sides_and_the_board_render_in_well_under_a_few_seconds(random20, classic):
    drawing.clear_caches()
    start = time.perf_counter()
    for tile in random20:
        for face in ("front", "back"):
            render_side(tile, face, STYLE)
    render_board(classic, STYLE)
    assert time.perf_counter() - start < 4.0


def test_labels_sit_inside_the_safe_zone_clear_of_trails():
    from shapely.geometry import Point

    from generator.render.labels import SAFE_ZONE_MM, keep_off_shapes
    from generator.render.tiles import side_layout
    from tests.test_render_geometry import DESIGNS

    scale = STYLE.tile_width_mm / 2
    for side in DESIGNS:
        svg = render_side(Tile("20", side, side), "back", STYLE)
        x, y = map(float, re.search(r'<text x="0" y="0" transform="translate\(([-0-9.]+) ([-0-9.]+)\)', svg).groups())
        inside = min(
            STYLE.tile_height_mm / 2 - (x * math.sin(math.radians(60 * d)) - y * math.cos(math.radians(60 * d)))
            for d in range(6)
        )
        assert inside >= SAFE_ZONE_MM, side
        trails, _ = keep_off_shapes(side_layout(side, STYLE))
        assert trails.distance(Point(x / scale, y / scale)) > 0.03, side
