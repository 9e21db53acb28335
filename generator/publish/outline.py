"""A tile's outline on paper, for any tile geometry: where it is cut, its bleed and its crop marks. In mm.

Glossary
--------
width       the cut outline's width: corner to corner for the flat-topped hexagon, side to side for a square.
height      the cut outline's height: ``width * sqrt(3) / 2`` across a hexagon's flats, ``width`` for a square.
cut         the outline a tile is cut along: ``TileGeometry.corners()`` scaled to ``width`` (page points, y up).
bleed       the cut pushed out by the bleed on every edge (mitred corners), trimmed to the art's box.
crop mark   a short tick on the line of a cut edge, past each of its ends, outside the bleed.
tiling      how the outline tiles the plane as a board's grid does: (column pitch, row pitch, odd columns' drop),
            in widths.

The flat-topped hexagon's outline is the classic game's and keeps its own exact arithmetic (the functions
``hex_corners``, ``hex_bleed`` and ``hex_marks``, the kit's bytes since before issue 44); every other shape
is read from ``TileGeometry.corners()``. ``tests/test_publish_outline.py`` finds the two equal on the hexagon.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from shapely.geometry import Polygon, box

from generator.board.geometry import hexagon_corners
from generator.model.geometry import CLASSIC, TileGeometry

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]
Segment = tuple[Point, Point]


def hex_corners(cx: float, cy: float, width: float) -> tuple[Point, ...]:
    """The six corners of a flat-topped hexagon ``width`` wide, counter-clockwise from the right-hand corner."""
    return hexagon_corners(width / 2, (cx, cy))


def hex_height(width: float) -> float:
    """Height across the flats of a flat-topped hexagon ``width`` wide."""
    return width * SQRT3 / 2


def hex_bleed(cx: float, cy: float, width: float, bleed: float) -> tuple[Point, ...]:
    """The bleed hex: the cut hex pushed out by ``bleed``, trimmed to the art's box."""
    grown = Polygon(hex_corners(cx, cy, width + 4 * bleed / SQRT3))
    w, h = width / 2 + bleed, hex_height(width) / 2 + bleed
    trimmed = grown.intersection(box(cx - w, cy - h, cx + w, cy + h))
    return tuple(trimmed.exterior.coords)[:-1]


def hex_marks(cx: float, cy: float, width: float, bleed: float, offset: float, length: float) -> tuple[Segment, ...]:
    """Two ticks at every corner, on the lines of the two edges that meet there, outside the bleed."""
    corners = hex_corners(cx, cy, width)
    start = (bleed + offset) * 2 / SQRT3  # along the edge's line, ``offset`` clear of the bleed hex
    marks = []
    for k, (vx, vy) in enumerate(corners):
        for other in (corners[(k - 1) % 6], corners[(k + 1) % 6]):
            ux, uy = vx - other[0], vy - other[1]
            norm = math.hypot(ux, uy)
            ux, uy = ux / norm, uy / norm
            marks.append(((vx + ux * start, vy + uy * start), (vx + ux * (start + length), vy + uy * (start + length))))
    return tuple(marks)


@dataclass(frozen=True)
class Outline:
    """The cut outline of a geometry's tiles (only its shape matters), at any width and place on a page."""

    shape: str = "hex"
    tuned: bool = True  # the hexagon by its own exact arithmetic (False: from corners(), as every other shape)

    @classmethod
    def of(cls, geometry: TileGeometry) -> Outline:
        """The outline of ``geometry``'s tiles."""
        return cls(geometry.shape)

    @cached_property
    def _geometry(self) -> TileGeometry:
        return TileGeometry(shape=self.shape)

    @cached_property
    def exact_hex(self) -> bool:
        """Whether this is the classic game's flat-topped hexagon, drawn by its own exact arithmetic."""
        return self.tuned and self.shape == CLASSIC.shape

    @cached_property
    def unit(self) -> tuple[Point, ...]:
        """The corners of an outline 1 wide centred at the origin, y up (counter-clockwise)."""
        corners = self._geometry.corners()
        span = max(x for x, _ in corners) - min(x for x, _ in corners)
        return tuple((x / span, -y / span) for x, y in corners)

    @cached_property
    def aspect(self) -> float:
        """Height over width."""
        return max(y for _, y in self.unit) - min(y for _, y in self.unit)

    @cached_property
    def name(self) -> str:
        """What the cut is, in words: "hexagon" or "square"."""
        return {4: "square", 6: "hexagon"}.get(len(self.unit), f"{len(self.unit)}-gon")

    def height(self, width: float) -> float:
        """The outline's height when it is ``width`` wide."""
        return hex_height(width) if self.exact_hex else width * self.aspect

    def corners(self, cx: float, cy: float, width: float) -> tuple[Point, ...]:
        """The cut outline ``width`` wide centred at ``(cx, cy)`` (page points, y up)."""
        if self.exact_hex:
            return hex_corners(cx, cy, width)
        return tuple((cx + width * x, cy + width * y) for x, y in self.unit)

    def bleed(self, cx: float, cy: float, width: float, bleed: float) -> tuple[Point, ...]:
        """The cut outline pushed out by ``bleed`` on every edge (mitred), trimmed to the art's box."""
        if self.exact_hex:
            return hex_bleed(cx, cy, width, bleed)
        grown = Polygon(self.corners(cx, cy, width)).buffer(bleed, join_style="mitre", mitre_limit=10.0)
        w, h = width / 2 + bleed, self.height(width) / 2 + bleed
        trimmed = grown.intersection(box(cx - w, cy - h, cx + w, cy + h))
        return tuple((round(x, 9), round(y, 9)) for x, y in trimmed.exterior.coords)[:-1]

    def marks(
        self, cx: float, cy: float, width: float, bleed: float, offset: float, length: float
    ) -> tuple[Segment, ...]:
        """Two ticks at every corner, on the lines of the two edges that meet there, ``offset`` clear of the
        bleed: a tick starts ``(bleed + offset) / sin(angle)`` past the corner, ``angle`` the corner's own."""
        if self.exact_hex:
            return hex_marks(cx, cy, width, bleed, offset, length)
        corners = self.corners(cx, cy, width)
        n = len(corners)
        marks = []
        for k, (vx, vy) in enumerate(corners):
            units = []
            for other in (corners[(k - 1) % n], corners[(k + 1) % n]):
                ux, uy = vx - other[0], vy - other[1]
                norm = math.hypot(ux, uy)
                units.append((ux / norm, uy / norm))
            (ax, ay), (bx, by) = units
            start = (bleed + offset) / abs(ax * by - ay * bx)  # sin of the angle between the two edges
            for ux, uy in units:
                marks.append(
                    ((vx + ux * start, vy + uy * start), (vx + ux * (start + length), vy + uy * (start + length)))
                )
        return tuple(marks)

    @cached_property
    def shares_cuts(self) -> bool:
        """Whether tiles of this outline lie edge to edge in rows and columns on a sheet, each cut shared by two
        neighbours and running straight across the block (the square)."""
        return self.name == "square"

    def tiling(self) -> tuple[float, float, float]:
        """(column pitch, row pitch, odd columns' drop), in widths, as the board's grid lays the tiles."""
        g = self._geometry
        span = max(x for x, _ in g.corners()) - min(x for x, _ in g.corners())
        (x1, y1), (_, y2) = g.cell_centre((1, 0)), g.cell_centre((0, 1))
        return (x1 / span, y2 / span, y1 / span)


HEX = Outline("hex")
