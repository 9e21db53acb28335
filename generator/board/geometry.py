"""Offset coordinates for flat-topped hexes: odd columns sit half a hex lower.

A hex is ``(q, r)``: column ``q``, row ``r``. These coordinates reproduce the article's
tables exactly (README.md, "Boards"; `generator/board/boards/classic.toml` lists the classic board).
"""

from __future__ import annotations

from generator.model.tiles import Direction

Hex = tuple[int, int]

_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def neighbour(h: Hex, d: Direction) -> Hex:
    """The hex across edge ``d`` of hex ``h``."""
    q, r = h
    dq, dr = (_ODD if q % 2 else _EVEN)[d]
    return (q + dq, r + dr)


def centre(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """The centre of hex ``h`` in the plane (y down), for hexes of circumradius ``size``."""
    q, r = h
    return (1.5 * size * q, 3**0.5 * size * (r + 0.5 * (q % 2)))
