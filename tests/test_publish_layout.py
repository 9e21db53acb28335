"""Sheet plans as geometry: crop marks outside the bleed, packing clear of margins and neighbours."""

import math

import pytest
from shapely.geometry import LineString, Polygon

from generator.errors import TrailwrightError
from generator.publish.layout import (
    TileMarks,
    footprint_box,
    pack,
    plan_duplex,
    plan_foldover,
    printable_area,
)
from generator.publish.outline import hex_bleed as bleed_outline
from generator.publish.outline import hex_corners
from generator.publish.outline import hex_marks as crop_marks
from generator.publish.settings import load_paper, load_settings

SETTINGS = load_settings()
MARKS = TileMarks.of(63.5, SETTINGS)


def test_hex_corners_measure_the_tile_width_and_height():
    xs, ys = zip(*hex_corners(0, 0, 63.5), strict=True)
    assert max(xs) - min(xs) == pytest.approx(63.5)
    assert max(ys) - min(ys) == pytest.approx(63.5 * math.sqrt(3) / 2)


def test_bleed_reaches_the_bleed_distance_past_every_edge():
    cut = Polygon(hex_corners(0, 0, 63.5))
    bleed = Polygon(bleed_outline(0, 0, 63.5, 3.0))
    assert bleed.contains(cut)
    assert cut.exterior.hausdorff_distance(bleed.exterior) >= 3.0 - 1e-9
    # every edge midpoint of the cut hex is 3 mm from the bleed outline (the closing edge too)
    corners = list(hex_corners(0, 0, 63.5))
    assert len(corners) == 6
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
        assert bleed.exterior.distance(
            LineString([((x0 + x1) / 2, (y0 + y1) / 2), ((x0 + x1) / 2, (y0 + y1) / 2)])
        ) == pytest.approx(3.0, abs=1e-6)


def test_crop_marks_lie_on_the_cut_edges_lines_and_outside_the_bleed():
    marks = crop_marks(0, 0, 63.5, 3.0, 0.75, 3.0)
    bleed = Polygon(bleed_outline(0, 0, 63.5, 3.0))
    corners = hex_corners(0, 0, 63.5)
    edges = [LineString([corners[k], corners[(k + 1) % 6]]) for k in range(6)]
    assert len(marks) == 12
    for a, b in marks:
        tick = LineString([a, b])
        assert tick.length == pytest.approx(3.0)
        assert tick.distance(bleed) == pytest.approx(0.75) or tick.distance(bleed) > 0.75
        # collinear with one edge: both ends on the edge's infinite line
        assert any(_on_line(a, e) and _on_line(b, e) for e in edges)


def _on_line(p, edge):
    (x0, y0), (x1, y1) = edge.coords
    return abs((x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)) / edge.length < 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_packing_keeps_tiles_apart_and_inside_the_margins(paper):
    sheet = load_paper(paper)
    slots = pack(printable_area(sheet, SETTINGS), MARKS)
    assert len(slots) >= 9  # three nested columns of 63.5 mm tiles fit both papers
    shapes = []
    for cx, cy in slots:
        bleed = Polygon(bleed_outline(cx, cy, 63.5, 3.0))
        ticks = [LineString(m) for m in MARKS.marks(cx, cy)]
        shapes.append([bleed, *ticks])
        for shape in (bleed, *ticks):
            x0, y0, x1, y1 = shape.bounds
            assert x0 >= 10 - 1e-6 and x1 <= sheet.width_mm - 10 + 1e-6
            assert y0 >= 10 + SETTINGS.footer_mm - 1e-6 and y1 <= sheet.height_mm - 10 + 1e-6
    for i, a in enumerate(shapes):
        for b in shapes[i + 1 :]:
            assert min(p.distance(q) for p in a for q in b) >= SETTINGS.gap_mm - 1e-3


def test_duplex_backs_mirror_fronts_about_the_page_centre():
    sheet = load_paper("a4")
    plan = plan_duplex(20, sheet, MARKS, SETTINGS)
    assert len(plan.pages) % 2 == 0
    for fronts, backs in zip(plan.pages[::2], plan.pages[1::2], strict=True):
        assert {f for _, f, _ in fronts} == {"front"} and {f for _, f, _ in backs} == {"back"}
        for (i, _, (x, y)), (j, _, (bx, by)) in zip(fronts, backs, strict=True):
            assert i == j and bx == pytest.approx(sheet.width_mm - x) and by == pytest.approx(y)
    assert sorted(i for page in plan.pages[::2] for i, _, _ in page) == list(range(20))


def test_foldover_backs_mirror_fronts_across_the_fold():
    sheet = load_paper("letter")
    plan = plan_foldover(20, sheet, MARKS, SETTINGS)
    x0, _, x1, _ = footprint_box(MARKS)
    for page in plan.pages:
        fronts = [p for p in page if p[1] == "front"]
        backs = {p[0]: p[2] for p in page if p[1] == "back"}
        for i, _, (x, y) in fronts:
            assert x + x1 < plan.fold_x  # fronts stay left of the fold
            assert backs[i] == pytest.approx((2 * plan.fold_x - x, y))


def test_a_tile_too_large_for_the_paper_is_an_error():
    with pytest.raises(TrailwrightError, match="does not fit .* on A4"):
        plan_duplex(20, load_paper("a4"), TileMarks.of(250.0, SETTINGS), SETTINGS)


def test_nested_packing_beats_a_plain_grid_on_a4():
    # three columns of 63.5 mm tiles only fit A4 when alternate columns drop half a row
    slots = pack(printable_area(load_paper("a4"), SETTINGS), MARKS)
    assert len({round(x, 3) for x, _ in slots}) == 3
    assert len({round(y, 3) for _, y in slots}) > 3
