"""Cubic Béziers in tile units (see ``shapes``' glossary): building, sampling and reading points."""

from __future__ import annotations

import numpy as np

SAMPLES = 24  # points per curve for the search's checks

Point = tuple[float, float]
Curve = tuple[Point, Point, Point, Point]


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
