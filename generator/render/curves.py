"""The curves a trail is drawn with, in tile units (see ``geometry``'s glossary): exits, cubic Béziers, the
natural arc between two exits and its variants, branches to a junction, a tee and two joined arcs.
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


def branch(d: int, junction: np.ndarray, heading: np.ndarray | None = None) -> Curve:
    """A branch from exit ``d`` to a junction, leaving the edge perpendicular.

    ``heading`` is the direction the branch leaves the junction in (towards the exit when None).
    """
    m = exit_point(d)
    length = float(np.linalg.norm(junction - m))
    p1 = m - 0.45 * length * unit(d)
    if heading is None:
        p2 = junction + 0.3 * (p1 - junction)
    else:
        p2 = junction + 0.4 * length * heading
    return cubic(m, p1, p2, junction)


def tee(pair: tuple[int, int], others: tuple[int, ...], at: float) -> tuple[tuple[Curve, ...], np.ndarray]:
    """An arc between two exits with a branch from the point ``at`` along it to each other exit."""
    curves = pair_curves(pair[0], pair[1], 0.0)
    arc = curves[0]
    t = np.array([[at]])
    p0, p1, p2, p3 = (np.asarray(p) for p in arc)
    joint = ((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3)[0]
    tangent = (3 * (1 - t) ** 2 * (p1 - p0) + 6 * (1 - t) * t * (p2 - p1) + 3 * t**2 * (p3 - p2))[0]
    tangent = tangent / np.linalg.norm(tangent)
    normal = np.array([-tangent[1], tangent[0]])
    branches = []
    for d in others:
        side = normal if normal @ (exit_point(d) - joint) > 0 else -normal
        branches.append(branch(d, joint, side))
    return curves + tuple(branches), joint


def joined_pairs(first: tuple[int, int], second: tuple[int, int]) -> tuple[Curve, ...]:
    """Two arcs, each between two neighbouring exits, joined middle to middle (an H)."""
    a, b = pair_curves(*first, 0.0)[0], pair_curves(*second, 0.0)[0]
    ma, mb = bezier(a, 3)[1], bezier(b, 3)[1]
    k = 0.35 * float(np.linalg.norm(mb - ma))
    na = -(exit_point(first[0]) + exit_point(first[1]))
    nb = -(exit_point(second[0]) + exit_point(second[1]))
    na, nb = na / np.linalg.norm(na), nb / np.linalg.norm(nb)
    link = cubic(ma, ma + k * na, mb + k * nb, mb)
    return (a, b, link)
