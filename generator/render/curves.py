"""Cubic Béziers in tile units (see ``shapes``' glossary): sampling, and the classic hexagon's edge midpoints
and natural arcs that the classic board's printed connectors are drawn with (``board``).
"""

from __future__ import annotations

import math

import numpy as np

APOTHEM = math.sqrt(3) / 2
SAMPLES = 24  # points per curve for the search's checks

Point = tuple[float, float]
Curve = tuple[Point, Point, Point, Point]


def unit(d: int) -> np.ndarray:
    """The outward unit normal of edge ``d`` (y down, clockwise from the top)."""
    angle = math.radians(60 * d)
    return np.array([math.sin(angle), -math.cos(angle)])


def exit_point(d: int) -> np.ndarray:
    """The midpoint of edge ``d``."""
    return APOTHEM * unit(d)


def bezier(curve, n: int = SAMPLES) -> np.ndarray:
    """``n`` points along a cubic Bézier."""
    t = np.linspace(0.0, 1.0, n)[:, None]
    p0, p1, p2, p3 = (np.asarray(p, float) for p in curve)
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3


def sample(curve: Curve, n: int = SAMPLES) -> np.ndarray:
    """Points along a curve (for checks and for shapely)."""
    return bezier(curve, n)


def point(p) -> Point:
    return (float(p[0]), float(p[1]))


def cubic(a, b, c, d) -> Curve:
    """A cubic from its four control points."""
    return (point(a), point(b), point(c), point(d))


def _natural_handle(d1: int, d2: int) -> float:
    """Handle length that makes a two-exit curve a circular arc (a straight line when opposite)."""
    gap = min((d2 - d1) % 6, (d1 - d2) % 6)
    if gap == 1:  # a 120° arc of radius 1/2 around the shared corner
        return 0.5 * 4 / 3 * math.tan(math.radians(30))
    if gap == 2:  # a 60° arc of radius 3/2 around the next hexagon's centre
        return 1.5 * 4 / 3 * math.tan(math.radians(15))
    return APOTHEM * 2 / 3


def pair_curves(d1: int, d2: int, bend: float, scale: float = 1.0) -> tuple[Curve, ...]:
    """A two-exit trail: the natural arc, or a smooth variant of it.

    Exits that are not opposite keep one cubic, perpendicular at both edges: ``scale`` stretches
    both handles (flatter or rounder) and ``bend`` moves length from one handle to the other.
    Opposite exits bow sideways through a point ``bend`` off the centre.
    """
    m1, m2 = exit_point(d1), exit_point(d2)
    h = _natural_handle(d1, d2)
    if (d2 - d1) % 6 != 3:
        h1, h2 = h * scale * (1 + bend), h * scale * (1 - bend)
        return (cubic(m1, m1 - h1 * unit(d1), m2 - h2 * unit(d2), m2),)
    if bend == 0:
        return (cubic(m1, m1 - h * unit(d1), m2 - h * unit(d2), m2),)
    chord = (m2 - m1) / np.linalg.norm(m2 - m1)
    via = bend * np.array([-chord[1], chord[0]])
    k = 0.5 * float(np.linalg.norm(via - m1))
    first = (m1, m1 - k * unit(d1), via - k * chord, via)
    second = (via, via + k * chord, m2 - k * unit(d2), m2)
    return (cubic(*first), cubic(*second))
