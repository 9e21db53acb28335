"""Small helpers for writing SVG text by hand: numbers, paths, escaping (no random ids, no dates)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from generator.board.geometry import hexagon_corners as hexagon_points
from generator.board.geometry import rotate
from generator.render.curves import APOTHEM, Curve, exit_point, unit

__all__ = ["escape", "quoteattr", "num", "points", "curves_path", "hexagon_points"]


def num(x: float) -> str:
    """A length for SVG: three decimals, no trailing zeros, never ``-0``."""
    text = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def points(pts, scale: float = 1.0, at: tuple[float, float] = (0.0, 0.0)) -> str:
    """``x,y x,y ...`` for a polygon or polyline."""
    return " ".join(f"{num(at[0] + scale * x)},{num(at[1] + scale * y)}" for x, y in pts)


def _at_exit(p) -> int | None:
    for d in range(6):
        e = exit_point(d)
        if abs(p[0] - e[0]) < 1e-9 and abs(p[1] - e[1]) < 1e-9:
            return d
    return None


def curves_path(
    curves: tuple[Curve, ...], scale: float, extend: float = 0.0, at: tuple[float, float] = (0.0, 0.0), turn: int = 0
) -> str:
    """An SVG path ``d`` for curves in tile units, scaled to mm and placed at ``at``.

    A curve that starts or ends at an exit runs on straight for ``extend`` (tile units) past the
    edge, so the art reaches the bleed. ``turn`` rotates by sixths clockwise first.
    """
    angle = math.radians(60 * turn)

    def xy(p) -> str:
        x, y = rotate(p, angle)
        return f"{num(at[0] + scale * x)} {num(at[1] + scale * y)}"

    parts = []
    for p0, p1, p2, p3 in curves:
        start, end = _at_exit(p0), _at_exit(p3)
        if start is not None and extend > 0:
            out = (APOTHEM + extend) * unit(start)
            parts.append(f"M{xy(out)}L{xy(p0)}")
        else:
            parts.append(f"M{xy(p0)}")
        parts.append(f"C{xy(p1)} {xy(p2)} {xy(p3)}")
        if end is not None and extend > 0:
            parts.append(f"L{xy((APOTHEM + extend) * unit(end))}")
    return "".join(parts)
