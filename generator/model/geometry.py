"""Tile geometry as data: the one description every stage reads (model, board, scoring, render).

Glossary
--------
shape          ``"hex"`` (a flat-topped hexagon, six edges ``N NE SE S SW NW``) or ``"square"``
               (four edges ``N E S W``). Edges are numbered clockwise from the top edge, 0..edges-1.
ends_per_edge  how many trail ends sit on each edge: 1 (at the edge's midpoint) or 2 (at one third
               and two thirds of the edge, ``END_FRACTIONS``).
end            a place where a trail meets the tile's outline. End ``k`` lies on edge
               ``k // ends_per_edge`` at position ``k % ends_per_edge``; positions run clockwise along
               the edge, from the edge's clockwise-first corner. So the ends are numbered clockwise
               round the tile from the top edge's left-hand corner, and their cyclic order is their
               numeric order (two straight chords cross exactly when their ends interleave).
trails         ``"any"``: a side is any partition of the ends (branches and dead ends allowed, the
               classic game); ``"pairs"``: a perfect matching (every trail joins exactly two ends).
faces          2 (double-sided tiles, flipped at random) or 1 (single-sided: only rotations).
rotation step  one edge: turning a tile clockwise by one step moves end ``k`` to ``k + ends_per_edge``.
mirror end     across a shared edge, end ``(e, p)`` of one tile meets end ``(opposite(e), m-1-p)`` of
               its neighbour (``m`` = ends per edge): the two tiles number the edge in opposite
               directions.
grid           hex boards use offset coordinates ``(q, r)`` (odd columns half a hex lower); square
               boards use ``(x, y)`` with y down. ``neighbour(cell, edge)`` is the cell across an edge.

The classic game is ``CLASSIC``: hex, one end per edge, any trails, two faces. Its ends are its six
directions, so every classic number and name is unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from generator.errors import TrailwrightError

SHAPES = ("hex", "square")
TRAILS = ("any", "pairs")
EDGE_NAMES = {"hex": ("N", "NE", "SE", "S", "SW", "NW"), "square": ("N", "E", "S", "W")}
END_FRACTIONS = {1: (Fraction(1, 2),), 2: (Fraction(1, 3), Fraction(2, 3))}  # along an edge, clockwise

_HEX_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_HEX_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
_SQUARE = ((0, -1), (1, 0), (0, 1), (-1, 0))

Cell = tuple[int, int]
Point = tuple[float, float]
MOST_SIDES = (
    20_000  # sides every stage can list, number and draw: hex/2/pairs has 10,395; hex/2/any would have 4,213,597
)


def bell(n: int) -> int:
    """How many partitions a set of ``n`` ends has (the Bell number; the Bell triangle)."""
    row = [1]
    for _ in range(n - 1):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[-1]


def _polar(degrees: float) -> Point:
    """The point at angle ``degrees`` on the unit circle (y down, so angles grow clockwise on screen)."""
    return (math.cos(math.radians(degrees)), math.sin(math.radians(degrees)))


@dataclass(frozen=True, order=True)
class TileGeometry:
    """The shape of a tile, where its trail ends sit, what a side may be, and how many faces it has."""

    shape: str = "hex"
    ends_per_edge: int = 1
    trails: str = "any"
    faces: int = 2

    def __post_init__(self):
        if self.shape not in SHAPES:
            raise TrailwrightError(f"tiles: shape {self.shape!r} is not one of {', '.join(SHAPES)}")
        if self.ends_per_edge not in END_FRACTIONS:
            raise TrailwrightError(f"tiles: ends_per_edge {self.ends_per_edge!r} is not 1 or 2")
        if self.trails not in TRAILS:
            raise TrailwrightError(f"tiles: trails {self.trails!r} is not one of {', '.join(TRAILS)}")
        if self.faces not in (1, 2):
            raise TrailwrightError(f"tiles: faces {self.faces!r} is not 1 or 2")
        if self.trails == "pairs" and self.ends % 2:
            raise TrailwrightError(f"tiles: {self.ends} ends cannot all be paired")
        if self.side_count > MOST_SIDES:
            raise TrailwrightError(
                f"tiles: {self}: its {self.side_count:,} possible sides are too many to search, number and draw "
                f'(at most {MOST_SIDES:,}); use trails = "pairs" or ends_per_edge = 1'
            )

    # --- derived facts ---------------------------------------------------------------------

    @cached_property
    def edges(self) -> int:
        """How many edges a tile has (and how many rotations it can be laid in)."""
        return len(EDGE_NAMES[self.shape])

    @cached_property
    def ends(self) -> int:
        """How many trail ends a side has."""
        return self.edges * self.ends_per_edge

    @cached_property
    def side_count(self) -> int:
        """How many sides there are, counted without listing them: partitions of the ends, or perfect
        matchings (``(ends - 1)!!``) with paired trails."""
        if self.trails == "any":
            return bell(self.ends)
        return math.prod(range(self.ends - 1, 0, -2))

    @property
    def rotations(self) -> int:
        """How many ways a face can be turned on the board (one per edge)."""
        return self.edges

    @property
    def edge_names(self) -> tuple[str, ...]:
        """The edges' names, clockwise from the top."""
        return EDGE_NAMES[self.shape]

    @cached_property
    def end_names(self) -> tuple[str, ...]:
        """Each end's name: the edge name with one end per edge, else the edge name and 1 or 2 (``N1``)."""
        if self.ends_per_edge == 1:
            return self.edge_names
        return tuple(f"{e}{p + 1}" for e in self.edge_names for p in range(self.ends_per_edge))

    @property
    def end_fractions(self) -> tuple[Fraction, ...]:
        """Where the ends of an edge sit along it, clockwise from its first corner."""
        return END_FRACTIONS[self.ends_per_edge]

    @cached_property
    def is_classic(self) -> bool:
        """Whether this is the classic game's geometry (its fast kernels and formats apply)."""
        return self == CLASSIC

    @property
    def end_word(self) -> str:
        """How words name one end: the classic game's "direction", else "end"."""
        return "direction" if self.is_classic else "end"

    def edge_of(self, end: int) -> int:
        """The edge end ``end`` lies on."""
        return end // self.ends_per_edge

    def end_at(self, edge: int, position: int) -> int:
        """The end at ``position`` (0-based, clockwise) along ``edge``."""
        return (edge % self.edges) * self.ends_per_edge + position

    def ends_of(self, edge: int) -> tuple[int, ...]:
        """The ends on ``edge``, clockwise."""
        return tuple(self.end_at(edge, p) for p in range(self.ends_per_edge))

    def turned(self, end: int, steps: int) -> int:
        """Where end ``end`` goes when the tile turns ``steps`` edges clockwise."""
        return (end + steps * self.ends_per_edge) % self.ends

    def opposite(self, edge: int) -> int:
        """The edge facing ``edge`` across a shared edge (on the neighbour)."""
        return (edge + self.edges // 2) % self.edges

    def meeting(self, position: int) -> int:
        """The position along the other edge that ``position`` meets when two edges meet (``m - 1 - p``).

        The two tiles number a shared edge in opposite directions. A printed connector joins two
        edges the same way, so its trails never cross.
        """
        return self.ends_per_edge - 1 - position

    def facing_end(self, end: int) -> int:
        """The neighbour's end that end ``end`` meets across their shared edge (the mirror end)."""
        edge, position = divmod(end, self.ends_per_edge)
        return self.end_at(self.opposite(edge), self.meeting(position))

    def mirror_end(self, end: int) -> int:
        """Where end ``end`` shows after a flip about the vertical axis (the classic ``mirror``)."""
        edge, position = divmod(end, self.ends_per_edge)
        return self.end_at(-edge, self.ends_per_edge - 1 - position)

    def neighbour(self, cell: Cell, edge: int) -> Cell:
        """The cell across ``edge`` of ``cell`` on this shape's grid."""
        q, r = cell
        if self.shape == "square":
            dq, dr = _SQUARE[edge]
        else:
            dq, dr = (_HEX_ODD if q % 2 else _HEX_EVEN)[edge]
        return (q + dq, r + dr)

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between two cells through neighbours, ignoring what lies between: the hex distance on hex
        grids (offset columns converted to cube coordinates), Manhattan steps on square grids."""
        (q1, r1), (q2, r2) = a, b
        if self.shape == "square":
            return abs(q1 - q2) + abs(r1 - r2)
        z1, z2 = r1 - (q1 - (q1 & 1)) // 2, r2 - (q2 - (q2 & 1)) // 2
        return (abs(q1 - q2) + abs(z1 - z2) + abs(q1 + z1 - q2 - z2)) // 2

    # --- the plane (y down; a tile of circumradius 1) ----------------------------------------

    def corners(self) -> tuple[Point, ...]:
        """The tile's corners, clockwise from the top edge's first (left-hand) corner, circumradius 1."""
        edges = self.edges
        first = 270 - 180 / edges
        return tuple(_polar(first + 360 * k / edges) for k in range(edges))

    def end_point(self, end: int) -> Point:
        """Where end ``end`` sits on the outline of a tile centred at the origin (circumradius 1)."""
        edge, position = divmod(end, self.ends_per_edge)
        corners = self.corners()
        (x0, y0), (x1, y1) = corners[edge], corners[(edge + 1) % self.edges]
        t = float(self.end_fractions[position])
        return (x0 + t * (x1 - x0), y0 + t * (y1 - y0))

    def cell_centre(self, cell: Cell) -> Point:
        """The centre of ``cell`` in the plane, for tiles of circumradius 1 (neighbours share an edge)."""
        q, r = cell
        if self.shape == "square":
            side = 2**0.5
            return (side * q, side * r)
        return (1.5 * q, 3**0.5 * (r + 0.5 * (q % 2)))

    # --- files -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The board file's ``[tiles]`` table (and a tile set file's ``geometry``)."""
        return {"shape": self.shape, "ends_per_edge": self.ends_per_edge, "trails": self.trails, "faces": self.faces}

    @classmethod
    def from_dict(cls, data: Any, where: str = "tiles") -> TileGeometry:
        """A geometry from a ``[tiles]`` table; missing keys take the classic game's values."""
        if not isinstance(data, dict):
            raise TrailwrightError(f"'{where}' must be a table, got {data!r}")
        unknown = sorted(set(data) - {"shape", "ends_per_edge", "trails", "faces"})
        if unknown:
            raise TrailwrightError(
                f"{where}: unknown key {unknown[0]!r} (expected shape, ends_per_edge, trails, faces)"
            )
        for key in ("ends_per_edge", "faces"):
            if key in data and (isinstance(data[key], bool) or not isinstance(data[key], int)):
                raise TrailwrightError(f"{where}: {key} must be a whole number, got {data[key]!r}")
        for key in ("shape", "trails"):
            if key in data and not isinstance(data[key], str):
                raise TrailwrightError(f"{where}: {key} must be a string, got {data[key]!r}")
        return cls(**data)

    def __str__(self) -> str:
        faces = "double-sided" if self.faces == 2 else "single-sided"
        ends = "one end" if self.ends_per_edge == 1 else "two ends"
        trails = "branching trails" if self.trails == "any" else "paired trails"
        return f"{self.shape} tiles, {ends} per edge, {trails}, {faces}"


CLASSIC = TileGeometry()
