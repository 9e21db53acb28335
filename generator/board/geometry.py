"""Offset coordinates for flat-topped hexes: odd columns sit half a hex lower.

A hex is ``(q, r)``: column ``q``, row ``r``. These coordinates reproduce the article's
tables exactly (README.md, "Boards"; `generator/board/boards/classic.toml` lists the classic board).
"""

from __future__ import annotations

import math

from generator.model.tiles import Direction

Hex = tuple[int, int]
Point = tuple[float, float]

_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def neighbour(h: Hex, d: Direction) -> Hex:
    """The hex across edge ``d`` of hex ``h``."""
    q, r = h
    dq, dr = (_ODD if q % 2 else _EVEN)[d]
    return (q + dq, r + dr)


def cube(h: Hex) -> tuple[int, int]:
    """Hex ``h`` in cube coordinates (x, z; y is -x - z), where steps add up as vectors."""
    q, r = h
    return q, r - (q - (q & 1)) // 2


def offset(x: int, z: int) -> Hex:
    """Cube coordinates (x, z) back to an offset hex (the inverse of ``cube``)."""
    return x, z + (x - (x & 1)) // 2


def hex_distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes (through neighbours, ignoring what lies between)."""
    (x1, z1), (x2, z2) = cube(a), cube(b)
    return (abs(x1 - x2) + abs(z1 - z2) + abs(x1 + z1 - x2 - z2)) // 2


def centre(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """The centre of hex ``h`` in the plane (y down), for hexes of circumradius ``size``."""
    q, r = h
    return (1.5 * size * q, 3**0.5 * size * (r + 0.5 * (q % 2)))


def hexagon_corners(radius: float, at: Point = (0.0, 0.0)) -> tuple[Point, ...]:
    """The six corners of a flat-topped hexagon of circumradius ``radius`` centred at ``at``, from the
    right-hand corner at 60° steps (counter-clockwise with y up, clockwise with y down)."""
    return tuple(
        (at[0] + radius * math.cos(math.radians(60 * k)), at[1] + radius * math.sin(math.radians(60 * k)))
        for k in range(6)
    )


def rotate(p: Point, angle: float) -> Point:
    """``p`` turned by ``angle`` radians about the origin (towards +y from +x)."""
    c, s = math.cos(angle), math.sin(angle)
    return (c * p[0] - s * p[1], s * p[0] + c * p[1])
