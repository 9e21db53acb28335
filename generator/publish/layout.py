"""Sheet plans: where each tile's art, bleed and crop marks go on a page. Pure geometry, in mm.

Glossary
--------
page point  ``(x, y)`` in millimetres from the page's lower-left corner, y up (as in PDF).
cut         the outline a tile is cut along (``generator.publish.outline``: the flat-topped hexagon, a square).
bleed       the cut pushed out by the bleed on every edge, trimmed to the art's box.
crop mark   a short tick on the line of a cut edge, past each of its ends, outside the bleed.
footprint   everything a tile puts on paper: bleed outline and crop marks.
slot        one tile position on a sheet: a centre.
arrangement "grid" (aligned columns) or "nested" (odd columns half a row lower).
shared cut  squares lie edge to edge in rows and columns (``Outline.shares_cuts``): one straight cut between two
            rows or columns cuts both, the bleed runs round the block's edge only and the crop marks sit at the
            ends of each cut line, outside the block.
block       the slots of one page (of one face, on a fold-over sheet).
mirror      a back sits at ``(W - x, y)`` for a long-edge flip, or across the fold line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from shapely.affinity import translate
from shapely.geometry import MultiLineString, Polygon
from shapely.ops import unary_union

from generator.errors import TrailwrightError
from generator.model.geometry import CLASSIC, TileGeometry
from generator.publish.outline import HEX, Outline
from generator.publish.settings import Paper, PublishSettings

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class TileMarks:
    """How a tile is printed: cut width, bleed and crop-mark geometry (mm)."""

    width: float
    bleed: float
    mark_offset: float
    mark_length: float
    gap: float
    outline: Outline = HEX

    @classmethod
    def of(cls, tile_width_mm: float, settings: PublishSettings, geometry: TileGeometry = CLASSIC) -> TileMarks:
        """The marks for ``geometry``'s tiles ``tile_width_mm`` wide under ``settings``."""
        return cls(
            tile_width_mm,
            settings.bleed_mm,
            settings.mark_offset_mm,
            settings.mark_length_mm,
            settings.gap_mm,
            Outline.of(geometry),
        )

    @property
    def height(self) -> float:
        """The cut outline's height."""
        return self.outline.height(self.width)

    def cut(self, cx: float, cy: float) -> tuple[Point, ...]:
        """The cut outline of a tile centred at ``(cx, cy)``."""
        return self.outline.corners(cx, cy, self.width)

    def bleed_outline(self, cx: float, cy: float) -> tuple[Point, ...]:
        """The bleed outline of a tile centred at ``(cx, cy)``."""
        return self.outline.bleed(cx, cy, self.width, self.bleed)

    def marks(self, cx: float, cy: float) -> tuple[Segment, ...]:
        """The crop marks of a tile centred at ``(cx, cy)``."""
        return self.outline.marks(cx, cy, self.width, self.bleed, self.mark_offset, self.mark_length)


@lru_cache(maxsize=64)
def _footprint(marks: TileMarks) -> Polygon:
    ticks = MultiLineString([list(s) for s in marks.marks(0.0, 0.0)])
    return unary_union([Polygon(marks.bleed_outline(0.0, 0.0)), ticks])


def footprint_box(marks: TileMarks) -> tuple[float, float, float, float]:
    """The footprint's bounding box around the tile centre: (minx, miny, maxx, maxy)."""
    return _footprint(marks).bounds


def _clear(marks: TileMarks, offsets: list[Point]) -> bool:
    shape = _footprint(marks)
    return all(shape.distance(translate(shape, dx, dy)) >= marks.gap - 1e-9 for dx, dy in offsets)


def _least(limit: float, ok) -> float:
    """The least pitch in [0, limit] from which every larger pitch is clear (scanned in 0.05 mm)."""
    step, pitch = 0.05, limit
    while pitch - step > 0 and ok(pitch - step):
        pitch -= step
    return round(pitch, 4)


@lru_cache(maxsize=64)
def pitches(marks: TileMarks, arrangement: str) -> tuple[float, float]:
    """The tightest column and row pitch (mm) at which footprints keep ``gap`` apart."""
    x0, y0, x1, y1 = footprint_box(marks)
    dy = _least(y1 - y0 + marks.gap, lambda p: _clear(marks, [(0.0, p)]))
    if arrangement == "grid":
        dx = _least(x1 - x0 + marks.gap, lambda p: _clear(marks, [(p, 0.0), (p, dy), (p, -dy)]))
    else:
        dx = _least(
            x1 - x0 + marks.gap,
            lambda p: _clear(marks, [(p, dy / 2), (p, -dy / 2), (p, 1.5 * dy), (p, -1.5 * dy), (2 * p, 0.0)]),
        )
    return dx, dy


@dataclass(frozen=True)
class Area:
    """A rectangle on the page, in mm: lower-left corner, width, height."""

    x: float
    y: float
    width: float
    height: float


def printable_area(paper: Paper, settings: PublishSettings) -> Area:
    """The page inside the margins, above the footer band."""
    m = settings.margin_mm
    bottom = m + settings.footer_mm
    return Area(m, bottom, paper.width_mm - 2 * m, paper.height_mm - m - bottom)


def pack(area: Area, marks: TileMarks) -> tuple[Point, ...]:
    """As many tile centres as fit in ``area``, the block centred: squares edge to edge (shared cuts), every other
    outline the best of grid and nested, each tile with its own bleed and marks."""
    if marks.outline.shares_cuts:
        return _pack_shared(area, marks)
    x0, y0, x1, y1 = footprint_box(marks)
    fw, fh = x1 - x0, y1 - y0
    best: tuple[Point, ...] = ()
    for arrangement in ("grid", "nested"):
        dx, dy = pitches(marks, arrangement)
        cols = int((area.width - fw) // dx) + 1 if area.width >= fw else 0
        for shift_first in (False, True):
            centres = []
            for i in range(cols):
                shift = dy / 2 if arrangement == "nested" and (i % 2 == 1) != shift_first else 0.0
                rows = int((area.height - fh - shift) // dy) + 1 if area.height - shift >= fh else 0
                centres += [(i * dx, -shift - j * dy) for j in range(rows)]
            if len(centres) > len(best):
                best = _centred(tuple(centres), area, (x0, y0, x1, y1))
    return best


def _pack_shared(area: Area, marks: TileMarks) -> tuple[Point, ...]:
    """Squares edge to edge, as many rows and columns as fit with the block's bleed and marks round it, centred;
    the top row first, left to right."""
    w, edge = marks.width, marks.bleed + marks.mark_offset + marks.mark_length
    cols, rows = (int((side - 2 * edge + 1e-9) // w) for side in (area.width, area.height))
    if cols < 1 or rows < 1:
        return ()
    left = area.x + (area.width - cols * w + w) / 2
    top = area.y + (area.height + rows * w - w) / 2
    return tuple((round(left + i * w, 4), round(top - j * w, 4)) for j in range(rows) for i in range(cols))


def clip(marks: TileMarks, centre: Point, block: frozenset[Point]) -> tuple[Point, ...]:
    """Where a tile's art is cut off: its bleed outline, or with shared cuts its square grown by the bleed only on
    the sides no neighbour in ``block`` (the page's centres) shares."""
    if not marks.outline.shares_cuts:
        return marks.bleed_outline(*centre)
    (cx, cy), w = centre, marks.width

    def grown(dx: int, dy: int) -> float:
        return 0.0 if (round(cx + dx * w, 4), round(cy + dy * w, 4)) in block else marks.bleed

    x0, x1, y0, y1 = (
        cx - w / 2 - grown(-1, 0),
        cx + w / 2 + grown(1, 0),
        cy - w / 2 - grown(0, -1),
        cy + w / 2 + grown(0, 1),
    )
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def block_marks(marks: TileMarks, centres: list[Point]) -> tuple[Segment, ...]:
    """The crop marks of a block of squares with shared cuts: a tick at each end of every cut line, on its line,
    ``mark_offset`` clear of the block's bleed."""
    w, out = marks.width, marks.bleed + marks.mark_offset
    xs = sorted({round(x + k * w / 2, 4) for x, _ in centres for k in (-1, 1)})
    ys = sorted({round(y + k * w / 2, 4) for _, y in centres for k in (-1, 1)})
    low, high, left, right = ys[0] - out, ys[-1] + out, xs[0] - out, xs[-1] + out
    length = marks.mark_length
    ticks = [((x, high), (x, high + length)) for x in xs] + [((x, low), (x, low - length)) for x in xs]
    ticks += [((left, y), (left - length, y)) for y in ys] + [((right, y), (right + length, y)) for y in ys]
    return tuple(ticks)


def _centred(centres: tuple[Point, ...], area: Area, fbox: tuple[float, float, float, float]) -> tuple[Point, ...]:
    x0, y0, x1, y1 = fbox
    lo_x = min(x for x, _ in centres) + x0
    hi_x = max(x for x, _ in centres) + x1
    lo_y = min(y for _, y in centres) + y0
    hi_y = max(y for _, y in centres) + y1
    sx = area.x + (area.width - (hi_x - lo_x)) / 2 - lo_x
    sy = area.y + (area.height - (hi_y - lo_y)) / 2 - lo_y
    # Top row first, then left to right: the order a reader scans the sheet.
    return tuple(sorted(((round(x + sx, 4), round(y + sy, 4)) for x, y in centres), key=lambda p: (-p[1], p[0])))


class DoesNotFit(TrailwrightError):
    """A document that cannot fit its paper: publish skips it, names it and makes the rest."""


def check_fits(slots: tuple[Point, ...], paper: Paper, marks: TileMarks, what: str) -> None:
    """An error naming the paper when not even one tile fits."""
    if not slots:
        x0, y0, x1, y1 = footprint_box(marks)
        raise DoesNotFit(
            f"a {marks.width:g} mm tile with its bleed and crop marks ({x1 - x0:.1f} × {y1 - y0:.1f} mm) "
            f"does not fit {what} on {paper.title} inside the margins"
        )


@dataclass(frozen=True)
class SheetPlan:
    """Where the tiles of a print-and-play document go: per page, (tile index, face, centre)."""

    paper: Paper
    kind: str  # "duplex", "foldover" or "single" (fronts only)
    marks: TileMarks
    pages: tuple[tuple[tuple[int, str, Point], ...], ...]
    fold_x: float | None = None


def plan_duplex(count: int, paper: Paper, marks: TileMarks, settings: PublishSettings) -> SheetPlan:
    """Fronts on odd pages, backs on even pages at ``(W - x, y)`` so each lands behind its front."""
    slots = pack(printable_area(paper, settings), marks)
    check_fits(slots, paper, marks, "a duplex sheet")
    pages = []
    for start in range(0, count, len(slots)):
        chunk = list(enumerate(slots[: count - start]))
        pages.append(tuple((start + i, "front", p) for i, p in chunk))
        pages.append(tuple((start + i, "back", (round(paper.width_mm - p[0], 4), p[1])) for i, p in chunk))
    return SheetPlan(paper, "duplex", marks, tuple(pages))


def plan_foldover(count: int, paper: Paper, marks: TileMarks, settings: PublishSettings) -> SheetPlan:
    """Fronts left of a vertical fold line, backs mirrored across it: fold, glue, cut."""
    full = printable_area(paper, settings)
    fold = paper.width_mm / 2
    half = Area(full.x, full.y, fold - settings.margin_mm / 2 - full.x, full.height)
    slots = pack(half, marks)
    check_fits(slots, paper, marks, "half a fold-over sheet")
    pages = []
    for start in range(0, count, len(slots)):
        chunk = list(enumerate(slots[: count - start]))
        page = [(start + i, "front", p) for i, p in chunk]
        page += [(start + i, "back", (round(2 * fold - p[0], 4), p[1])) for i, p in chunk]
        pages.append(tuple(page))
    return SheetPlan(paper, "foldover", marks, tuple(pages), fold)


def plan_single(count: int, paper: Paper, marks: TileMarks, settings: PublishSettings) -> SheetPlan:
    """Single-sided tiles: fronts only, printed on one side of each sheet (nothing behind them to register)."""
    slots = pack(printable_area(paper, settings), marks)
    check_fits(slots, paper, marks, "a sheet")
    pages = []
    for start in range(0, count, len(slots)):
        pages.append(tuple((start + i, "front", p) for i, p in enumerate(slots[: count - start])))
    return SheetPlan(paper, "single", marks, tuple(pages))
