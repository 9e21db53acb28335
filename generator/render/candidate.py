"""One way to draw one trail, sampled for the drawing search (``sidesearch``): its points and segments, how far it
turns along them and where its curves meet inside the tile; where two such drawings cross; whether one stays
inside the tile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from generator.model.geometry import TileGeometry
from generator.render.shapes import Point, TrailShape, _points, boundary_gap, point, segments


@dataclass(frozen=True)
class Cand:
    """One way to draw one trail: its shape, prior cost and sampled points (``clean``: without NaN breaks)."""

    shape: TrailShape
    prior: float
    points: np.ndarray
    clean: np.ndarray
    starts: np.ndarray  # the sampled segments' starts and vectors (``_segments`` of ``points``)
    steps: np.ndarray
    low: np.ndarray  # the bounding box of ``clean``
    high: np.ndarray
    turns: np.ndarray  # how far the trail has turned (radians, summed) by each segment, within its curve
    joints: tuple[Point, ...]  # where curves meet inside the tile (a junction, a hub, a link's ends): no crossing there
    length: float  # the drawn length (tile units): of two drawings of a trail, the shorter is the plainer

    @classmethod
    def of(cls, g: TileGeometry, shape: TrailShape, prior: float) -> Cand:
        pts = _points(shape)
        clean = pts[~np.isnan(pts).any(axis=1)]
        a0, a1 = segments(pts)
        steps = a1 - a0
        heading = np.arctan2(steps[:, 1], steps[:, 0])
        turn = np.abs((np.diff(heading) + np.pi) % (2 * np.pi) - np.pi)
        turn[np.abs(a0[1:] - a1[:-1]).max(axis=1) > 1e-12] = 0.0  # no turn across a break between curves
        turns = np.concatenate([[0.0], np.cumsum(turn)])
        exits = {point(g.end_point(e)) for e in shape.trail}
        meets = Counter(p for c in shape.curves for p in (c[0], c[3]) if p not in exits)  # 2: one curve goes on
        hubs = {p for p in (shape.junction, shape.hub) if p is not None}
        joints = tuple(sorted(hubs | {p for p, k in meets.items() if k != 2}))
        length = float(np.sqrt((steps * steps).sum(axis=1)).sum())
        return cls(shape, prior, pts, clean, a0, steps, clean.min(axis=0), clean.max(axis=0), turns, joints, length)

    def turning(self, p: np.ndarray, reach: float) -> float:
        """How much the trail turns within ``reach`` of ``p``: small where a deck fits."""
        near = np.flatnonzero(((self.starts - p) ** 2).sum(axis=1) <= reach * reach)
        return float(self.turns[near[-1]] - self.turns[near[0]]) if len(near) > 2 else 0.0


def hits(a: Cand, b: Cand) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``shapes.crossings`` of two candidates (the same arithmetic), from their stored segments."""
    r, s = a.steps[:, None, :], b.steps[None, :, :]
    qp = b.starts[None, :, :] - a.starts[:, None, :]
    denom = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denom
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denom
    hit = (denom != 0) & (t >= 0) & (t < 1) & (u >= 0) & (u < 1)
    return [(a.starts[i] + t[i, j] * a.steps[i], a.steps[i], b.steps[j]) for i, j in zip(*np.nonzero(hit), strict=True)]


def inside(g: TileGeometry, c: Cand, width: float) -> bool:
    """Whether the drawing stays inside the tile, off the outline except near its own exits."""
    own = np.array([g.end_point(d) for d in c.shape.trail])
    far = np.linalg.norm(c.clean[:, None] - own[None], axis=2).min(axis=1) > 1.5 * width
    return bool(not far.any() or (boundary_gap(g, c.clean[far]) > 0.6 * width).all())
