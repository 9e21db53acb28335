"""The renderer's own read-back of a drawing: the painted trails as areas (each stroke its width
wide with flat ends and round joins, a disc at each junction and hub, a stub's bar), tested with the promises the
read-back test makes of the SVG. ``sidesearch`` keeps only candidates that ``fits`` and proves each chosen pair of
trails ``sound``, so a drawing that breaks a promise is searched again, never drawn.

Glossary
--------
body        a trail's painted area (tile units), from the same curves the SVG strokes, sampled ``FINE``.
mouth       the short cut across a trail just inside one of its ends: the stroke must cross it square, the full
            width wide and centred on the end (a stroke bent hard at its end pinches there).
piece       one connected part of where two bodies overlap: every piece is one crossing, under its own deck.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from generator.model.geometry import TileGeometry
from generator.render.curves import bezier
from generator.render.shapes import TrailShape, _edges, _exit

FINE = 48  # points per curve (a chord strays from its curve by well under ``SLACK`` of a width)
SLACK = 0.015  # of the trail width: how far a body may pass the cut, and a mouth be off (below print precision)
PINCH = 0.6  # trail widths: the tightest radius a stroke may turn on (under half a width its inner edge folds)
MOUTH = 0.8  # trail widths: the tightest radius within a width of an end (there a stroke must leave square)
CLEAR = 0.12  # of the trail width: the least ground between two trails that do not cross


def _runs(shape: TrailShape) -> list[np.ndarray]:
    """The stroked polylines, as the SVG path draws them: a curve that starts where the last ended goes on in the
    same stroke (a round join), any other starts a new one (flat ends)."""
    runs: list[list[np.ndarray]] = []
    last = None
    for c in shape.curves:
        pts = bezier(c, FINE)
        if last is not None and c[0] == last:
            runs[-1].append(pts[1:])
        else:
            runs.append([pts])
        last = c[3]
    return [np.vstack(r) for r in runs]


@lru_cache(maxsize=65536)
def body(shape: TrailShape, width: float) -> BaseGeometry:
    """The painted area of one trail (tile units)."""
    parts = [LineString(r).buffer(width / 2, cap_style="flat", join_style="round") for r in _runs(shape)]
    parts += [Point(p).buffer(width / 2) for p in (shape.junction, shape.hub) if p is not None]
    if shape.bar is not None:
        parts.append(LineString(shape.bar).buffer(0.17 * width))
    return shapely.unary_union(parts)


def _basis(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cubic Bernstein weights of a curve's points, first and second derivatives at ``n`` parameters."""
    t = np.linspace(0.0, 1.0, n)[:, None]
    u = 1 - t
    b0 = np.hstack([u**3, 3 * u * u * t, 3 * u * t * t, t**3])
    b1 = 3 * np.hstack([-u * u, u * u - 2 * u * t, 2 * u * t - t * t, t * t])
    b2 = 6 * np.hstack([u, t - 2 * u, u - 2 * t, t])
    return b0, b1, b2


BASIS = _basis(FINE)


@lru_cache(maxsize=16)
def _stretches(g: TileGeometry) -> tuple[np.ndarray, np.ndarray]:
    """Each end's stretch of outline (half the way to its neighbours each side): starts and steps."""
    spacing = math.dist(g.corners()[0], g.corners()[1]) / (g.ends_per_edge + 1)
    starts, steps = [], []
    for end in range(g.ends):
        p, n = _exit(g, end)
        along = np.array([-n[1], n[0]]) * spacing / 2
        starts.append(p - along)
        steps.append(2 * along)
    return np.array(starts), np.array(steps)


def fits(g: TileGeometry, shape: TrailShape, width: float) -> bool:
    """Whether a trail's stroke bends gently enough not to pinch (nowhere tighter than ``PINCH``, and near its ends
    no tighter than ``MOUTH``, so it leaves each edge square with its full width), stays within the cut, and keeps
    ``CLEAR`` off every other end's stretch of the outline."""
    ctrl = np.array(shape.curves)  # curve, control point, xy
    pts, d1, d2 = (np.einsum("tj,kjd->ktd", b, ctrl).reshape(-1, 2) for b in BASIS)
    speed = np.maximum(np.hypot(d1[:, 0], d1[:, 1]), 1e-12)
    bend = np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / speed**3
    ends = np.array([g.end_point(e) for e in shape.trail])
    near = (((pts[:, None] - ends[None]) ** 2).sum(axis=2) < width * width).any(axis=1)
    discs = np.array([p for p in (shape.junction, shape.hub) if p is not None]).reshape(-1, 2)
    bend[(((pts[:, None] - discs[None]) ** 2).sum(axis=2) < width * width / 4).any(axis=1)] = 0.0  # under a disc
    if (bend * PINCH * width > 1).any() or (bend[near] * MOUTH * width > 1).any():
        return False
    apothem, normals = _edges(g)
    across = d1[:, ::-1] * np.array([1.0, -1.0]) / speed[:, None] * width / 2
    rim = np.vstack([pts + across, pts - across])  # the stroke's two edges
    if (rim @ normals.T).max() > apothem + SLACK * width or (discs @ normals.T).max(initial=-1.0) > apothem - width / 2:
        return False
    others = [e for e in range(g.ends) if e not in shape.trail]
    if not others:
        return True
    starts, steps = (a[others] for a in _stretches(g))
    line = np.vstack([pts, discs, np.array(shape.bar or ()).reshape(-1, 2)])
    rel = line[:, None, :] - starts[None]
    t = np.clip((rel * steps[None]).sum(axis=2) / (steps * steps).sum(axis=1)[None], 0.0, 1.0)
    gap = rel - t[..., None] * steps[None]
    return bool((gap * gap).sum(axis=2).min() >= ((0.5 + CLEAR) * width) ** 2)


def deck(centre: tuple[float, float], angle: float, half_length: float, half_width: float) -> Polygon:
    """A bridge's deck as a polygon: ``half_length`` along ``angle`` each way from ``centre``."""
    c, s = math.cos(angle), math.sin(angle)
    local = [(sx * half_length, sy * half_width) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return Polygon([(centre[0] + x * c - y * s, centre[1] + x * s + y * c) for x, y in local])


def sound(a: TrailShape, b: TrailShape, width: float, decks: list[Polygon]) -> bool:
    """Whether two trails meet only in their crossings, each piece wholly under one of ``decks`` (their bridges'),
    and otherwise keep ``CLEAR`` apart."""
    one, two = body(a, width), body(b, width)
    if not decks:
        return bool(one.distance(two) > CLEAR * width)
    meet = one.intersection(two)
    pieces = [p for p in getattr(meet, "geoms", [meet]) if p.area > 1e-7 * width * width]
    if len(pieces) != len(decks):
        return False
    inner = [d.buffer(-SLACK * width, join_style="mitre") for d in decks]
    under = [[k for k, d in enumerate(inner) if p.difference(d).area < 1e-7 * width * width] for p in pieces]
    return all(len(ks) == 1 for ks in under) and sorted(k for ks in under for k in ks) == list(range(len(decks)))
