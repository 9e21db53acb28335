"""Small helpers for writing SVG text by hand: numbers, paths, escaping (no random ids, no dates)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from generator.board.geometry import hexagon_corners as hexagon_points

__all__ = ["escape", "quoteattr", "num", "points", "hexagon_points"]


def num(x: float) -> str:
    """A length for SVG: three decimals, no trailing zeros, never ``-0``."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def points(pts, scale: float = 1.0, at: tuple[float, float] = (0.0, 0.0)) -> str:
    """``x,y x,y ...`` for a polygon or polyline."""
    return " ".join(f"{num(at[0] + scale * x)},{num(at[1] + scale * y)}" for x, y in pts)
