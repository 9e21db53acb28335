"""Tile sheets measured in the PDF itself: page sizes, cut size from the crop marks, mirrored backs,
footers, rulers, line widths, viewer preferences, embedded fonts, same bytes every time."""

import io
import itertools
import math
from dataclasses import replace
from functools import cache

import pdfplumber
import pytest
from pypdf import PdfReader

from generator.model import read_tileset
from generator.publish.art import ArtCache
from generator.publish.layout import TileMarks, plan_duplex, plan_foldover
from generator.publish.pdf import DocInfo
from generator.publish.settings import load_paper, load_settings
from generator.publish.sheets import sheets_pdf
from tests.test_publish_standin import ROOT, TILE_MM, standin_side

MM = 72 / 25.4
SETTINGS = replace(load_settings(), dpi=150, cut_lines=True)
TILESET = read_tileset(ROOT / "examples" / "random-20.json")
ART = ArtCache.covering(lambda t, f, b: standin_side(t, f, b), TILE_MM, SETTINGS.dpi, SETTINGS.bleed_mm)


@cache
def sheet(paper: str, kind: str, tile_mm: float = TILE_MM, cut_lines: bool = True) -> tuple:
    """(plan, PDF bytes) for the example tile set."""
    settings = replace(SETTINGS, cut_lines=cut_lines)
    marks = TileMarks.of(tile_mm, settings)
    art = (
        ART
        if tile_mm == TILE_MM
        else ArtCache.covering(lambda t, f, b: standin_side(t, f, b, tile_mm), tile_mm, settings.dpi, settings.bleed_mm)
    )
    planner = plan_duplex if kind == "duplex" else plan_foldover
    plan = planner(len(TILESET), load_paper(paper), marks, settings)
    return plan, sheets_pdf(plan, TILESET, art, settings, DocInfo("tiles", "test"))


def pages(pdf: bytes):
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [(p.width, p.height, p.lines, p.curves, p.images, p.extract_text()) for p in doc.pages]


def vertices_from_marks(lines, height_pt):
    """Cut corners where pairs of crop-mark lines meet, each pair pointing back at the same point
    from the same distance (mm, y up)."""
    ticks = [
        tuple((x / MM, (height_pt - y) / MM) for x, y in ln["pts"])
        for ln in lines
        if 2 * MM < math.dist(*ln["pts"]) < 4 * MM
    ]
    corners = set()
    for a, b in itertools.combinations(ticks, 2):
        if _parallel(a, b):
            continue
        p = _intersect(a, b)
        near_a, far_a = sorted(a, key=lambda q: math.dist(p, q))
        near_b, far_b = sorted(b, key=lambda q: math.dist(p, q))
        da, db = math.dist(p, near_a), math.dist(p, near_b)
        if da < 10 and abs(da - db) < 0.05:
            corners.add((round(p[0], 3), round(p[1], 3)))
    return sorted(corners)


def _parallel(a, b):
    (ax, ay), (bx, by) = (a[1][0] - a[0][0], a[1][1] - a[0][1]), (b[1][0] - b[0][0], b[1][1] - b[0][1])
    return abs(ax * by - ay * bx) < 1e-6 * math.hypot(ax, ay) * math.hypot(bx, by) + 1e-9


def _intersect(a, b):
    (x1, y1), (x2, y2) = a
    (x3, y3), (x4, y4) = b
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


def image_centres(images, height_pt):
    """Centres (mm, y up) of the placed art, measured from the PDF."""
    return [((i["x0"] + i["x1"]) / 2 / MM, (height_pt - (i["top"] + i["bottom"]) / 2) / MM) for i in images]


def hexagons(corners, centres, width_mm):
    """For each art centre, the six mark corners around it (those near a corner direction)."""
    found = []
    for cx, cy in centres:
        near = [c for c in corners if abs(math.dist(c, (cx, cy)) - width_mm / 2) < 1.0]
        if len(near) == 6:
            found.append(near)
    return found


def flat(points):
    return [v for p in points for v in p]


@pytest.mark.parametrize("paper,size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
@pytest.mark.parametrize("kind", ["duplex", "foldover"])
def test_page_sizes(paper, size, kind):
    for w, h, *_ in pages(sheet(paper, kind)[1]):
        assert w / MM == pytest.approx(size[0], abs=0.05) and h / MM == pytest.approx(size[1], abs=0.05)


@pytest.mark.parametrize("tile_mm", [63.5, 50.0, 76.2])
def test_the_crop_marks_meet_at_corners_of_a_tile_of_exactly_the_set_width(tile_mm):
    plan, pdf = sheet("a4", "duplex", tile_mm)
    w, h, lines, curves, images, _ = pages(pdf)[0]
    found = hexagons(vertices_from_marks(lines, h), image_centres(images, h), tile_mm)
    assert len(found) == len(plan.pages[0])
    for corners in found:
        xs, ys = zip(*corners, strict=True)
        assert max(xs) - min(xs) == pytest.approx(tile_mm, abs=0.1)
        assert max(ys) - min(ys) == pytest.approx(tile_mm * math.sqrt(3) / 2, abs=0.1)


def test_the_cut_lines_measure_the_tile_width():
    _, pdf = sheet("letter", "duplex")
    for _, _h, _, curves, _, _ in pages(pdf)[:2]:
        cuts = [c for c in curves if len(c["pts"]) >= 6]
        assert cuts
        for c in cuts:
            assert (c["x1"] - c["x0"]) / MM == pytest.approx(TILE_MM, abs=0.1)
            assert (c["bottom"] - c["top"]) / MM == pytest.approx(TILE_MM * math.sqrt(3) / 2, abs=0.1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_lands_behind_its_front_after_a_long_edge_flip(paper):
    plan, pdf = sheet(paper, "duplex")
    measured = pages(pdf)
    for (w, h, flines, _, fimages, _), (_, _, blines, _, bimages, _) in zip(measured[::2], measured[1::2], strict=True):
        fronts = sorted(((i["x0"] + i["x1"]) / 2 / MM, h / MM - (i["top"] + i["bottom"]) / 2 / MM) for i in fimages)
        backs = sorted(
            ((w - (i["x0"] + i["x1"]) / 2) / MM, h / MM - (i["top"] + i["bottom"]) / 2 / MM) for i in bimages
        )  # mirrored: a long-edge flip sends x to W - x
        assert len(fronts) == len(backs) > 0
        assert flat(fronts) == pytest.approx(flat(backs), abs=0.1)
        # the cut corners from the crop marks mirror too
        fc = hexagons(vertices_from_marks(flines, h), image_centres(fimages, h), TILE_MM)
        bc = hexagons(vertices_from_marks(blines, h), image_centres(bimages, h), TILE_MM)
        assert len(fc) == len(bc) == len(fronts)
        fcent = sorted((sum(x for x, _ in g) / 6, sum(y for _, y in g) / 6) for g in fc)
        bcent = sorted((w / MM - sum(x for x, _ in g) / 6, sum(y for _, y in g) / 6) for g in bc)
        assert flat(fcent) == pytest.approx(flat(bcent), abs=0.1)


def test_the_plan_puts_each_back_behind_its_own_front():
    plan, _ = sheet("a4", "duplex")
    for fronts, backs in zip(plan.pages[::2], plan.pages[1::2], strict=True):
        assert [i for i, _, _ in fronts] == [i for i, _, _ in backs]


def test_foldover_backs_mirror_across_the_fold_line():
    plan, pdf = sheet("a4", "foldover")
    w, h, lines, _, images, _ = pages(pdf)[0]
    fold = [ln for ln in lines if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["x0"] - w / 2) < 0.01]
    assert fold, "a fold line down the middle"
    centres = [((i["x0"] + i["x1"]) / 2 / MM, round(h / MM - (i["top"] + i["bottom"]) / 2 / MM, 3)) for i in images]
    left = sorted((x, y) for x, y in centres if x < w / 2 / MM)
    right = sorted((w / MM - x, y) for x, y in centres if x > w / 2 / MM)
    assert len(left) == len(right) > 0
    assert flat(left) == pytest.approx(flat(right), abs=0.1)


def test_every_page_has_the_footer_and_a_true_50_mm_and_2_in_ruler():
    for paper in ("a4", "letter"):
        measured = pages(sheet(paper, "duplex")[1])
        for n, (_w, _h, lines, _, _, text) in enumerate(measured, start=1):
            assert "Print at 100% / Actual size" in text
            assert f"Trailwright · page {n} of {len(measured)}" in text.replace("  ", " ")
            lengths = [math.dist(*ln["pts"]) / MM for ln in lines if abs(ln["top"] - ln["bottom"]) < 0.01]
            assert any(abs(length - 50.0) < 0.1 for length in lengths)
            assert any(abs(length - 50.8) < 0.1 for length in lengths)


def test_marks_are_never_thinner_than_a_quarter_point():
    for paper, kind in itertools.product(("a4", "letter"), ("duplex", "foldover")):
        for _, _, lines, curves, _, _ in pages(sheet(paper, kind)[1]):
            assert min(x["linewidth"] for x in lines + curves) >= 0.25


def test_viewer_preferences_ask_for_duplex_and_actual_size():
    duplex = PdfReader(io.BytesIO(sheet("a4", "duplex")[1])).trailer["/Root"]["/ViewerPreferences"]
    assert duplex["/Duplex"] == "/DuplexFlipLongEdge" and duplex["/PrintScaling"] == "/None"
    fold = PdfReader(io.BytesIO(sheet("a4", "foldover")[1])).trailer["/Root"]["/ViewerPreferences"]
    assert fold["/PrintScaling"] == "/None" and "/Duplex" not in fold


def test_fonts_are_embedded():
    reader = PdfReader(io.BytesIO(sheet("a4", "duplex")[1]))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert fonts
    for ref in fonts.values():
        font = ref.get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor


def test_same_inputs_give_the_same_bytes():
    settings = replace(SETTINGS, cut_lines=True)
    marks = TileMarks.of(TILE_MM, settings)
    plan = plan_duplex(len(TILESET), load_paper("a4"), marks, settings)
    fresh = ArtCache.covering(lambda t, f, b: standin_side(t, f, b), TILE_MM, settings.dpi, settings.bleed_mm)
    again = sheets_pdf(plan, TILESET, fresh, settings, DocInfo("tiles", "test"))
    assert again == sheet("a4", "duplex")[1]
    info = PdfReader(io.BytesIO(again)).metadata
    assert "/CreationDate" not in info and "/ModDate" not in info  # no dates at all, not even fixed ones


@pytest.mark.parametrize(
    "name",
    [
        "print/tiles-a4-foldover.pdf",
        "print/tiles-letter-foldover.pdf",
        "print/board-a4-tiled.pdf",
        "print/board-letter-tiled.pdf",
    ],
)
def test_every_word_prints_inside_the_margin(name):
    import pdfplumber

    from tests.test_publish_standin import standin_kit

    m = SETTINGS.margin_mm * 72 / 25.4 - 0.01
    with pdfplumber.open(io.BytesIO(standin_kit()[name])) as doc:
        for page in doc.pages:
            assert page.chars
            for ch in page.chars:
                assert m <= ch["x0"] and ch["x1"] <= page.width - m, (ch["text"], ch["x0"], ch["x1"])
                assert m <= ch["top"] and ch["bottom"] <= page.height - m, (ch["text"], ch["top"])


def test_the_art_cache_keeps_each_side_compressed_and_gives_back_its_exact_pixels():
    from PIL import Image

    from generator.render.raster import render_pixels

    fresh = ArtCache.covering(lambda t, f, b: standin_side(t, f, b), TILE_MM, SETTINGS.dpi, SETTINGS.bleed_mm)
    tile = TILESET.tiles[3]
    decoded = fresh.pixels(tile, "back")
    assert decoded.tobytes() == render_pixels(fresh.svg(tile, "back"), *fresh.frame_px).tobytes()
    assert decoded.size == fresh.frame_px and decoded.mode == "RGB"
    for t in TILESET.tiles[:4]:
        fresh.packed(t, "front")
    kept = [v for v in fresh._cache.values() if isinstance(v, Image.Image)]
    assert not kept  # no side's raw pixels stay: 434 sides of a 217-slot board would hold 735 MiB
    packed = fresh.packed(tile, "back")
    assert len(packed.data) < decoded.width * decoded.height * 3 / 4
