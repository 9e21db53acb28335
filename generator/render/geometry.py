"""Where the trails of one tile side run: curves, junctions, stubs and bridges, in tile units.

Glossary
--------
tile units  the core unit of this module: the hexagon's circumradius is 1, the centre is the
            origin, y points down (as in SVG). Callers scale to mm (``scale = width_mm / 2``).
width       the drawn width of every trail, in tile units (the same on every side, so exits meet).
exit        where a trail leaves through direction ``d``: the edge midpoint ``APOTHEM * unit(d)``,
            left perpendicular to the edge.
curve       a cubic Bézier ``(p0, p1, p2, p3)``; a trail is drawn as one or more curves.
junction    the point where the branches of a trail with three or more exits meet.
stub        a one-exit trail: a short straight run inward that ends in a terminator bar.
crossing    where two trails of a side cross; the drawing has exactly ``Side.min_crossings``
            of them and each carries a bridge (``upper`` passes over ``lower``).
layout      the chosen curves of every trail of a side plus its bridges (``SideLayout``).

A side is laid out once per design (its canonical rotation) by a small deterministic search
over junction positions and bends, and the result is turned to the side's rotation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from generator.board.geometry import rotate
from generator.errors import TrailwrightError
from generator.model import Side, pair_crossings
from generator.render.curves import (
    APOTHEM,
    Curve,
    Point,
    branch,
    cubic,
    exit_point,
    joined_pairs,
    pair_curves,
    point,
    sample,
    tee,
    unit,
)

STUB_LENGTH = 0.3  # of the circumradius, from the exit to the terminator
TIE = 1e-9  # costs closer than this are equal: the first drawing found wins, on any floating-point library


@dataclass(frozen=True)
class TrailShape:
    """How one trail is drawn: its curves, its junction (3+ exits) and its terminator (stubs)."""

    trail: tuple[int, ...]
    curves: tuple[Curve, ...]
    junction: Point | None = None
    terminator: tuple[Point, Point] | None = None  # the bar across a stub's end


@dataclass(frozen=True)
class Bridge:
    """A crossing: trail ``upper`` passes over trail ``lower`` at ``centre`` heading ``angle`` (radians)."""

    centre: Point
    angle: float
    upper: int
    lower: int
    crossing_angle: float  # between the two trails, radians in (0, pi/2]


@dataclass(frozen=True)
class SideLayout:
    """The drawing of a side: one shape per trail (in the side's trail order) and its bridges."""

    side: Side
    width: float
    shapes: tuple[TrailShape, ...]
    bridges: tuple[Bridge, ...]

    def deck_length(self, bridge: Bridge) -> float:
        """The length of ``bridge``'s deck: over the lower trail at its angle, with abutments."""
        s = math.sin(bridge.crossing_angle)
        return self.width * (1 / s + abs(math.cos(bridge.crossing_angle)) / s + 0.7)

    def deck_width(self) -> float:
        """The width of every bridge deck, parapets included."""
        return self.width * 1.36


# --- the search -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    """One way to draw one trail, with its prior cost (how far from the plainest drawing)."""

    shape: TrailShape
    prior: float
    points: np.ndarray  # samples of every curve, stacked with NaN rows between curves
    clean: np.ndarray  # the same without the NaN rows
    length: float


def _candidate(shape: TrailShape, prior: float, extra: tuple[np.ndarray, ...] = ()) -> _Candidate:
    parts = []
    for piece in [sample(c) for c in shape.curves] + list(extra):
        parts += [piece, np.full((1, 2), np.nan)]
    points = np.vstack(parts[:-1])
    clean = points[~np.isnan(points).any(axis=1)]
    length = sum(float(np.linalg.norm(np.diff(sample(c), axis=0), axis=1).sum()) for c in shape.curves)
    return _Candidate(shape, prior, points, clean, length)


def _junction_grid(step: float, radius: float = 0.56) -> list[np.ndarray]:
    """Candidate junctions: a triangular lattice inside the hexagon."""
    points = []
    n = int(radius / step) + 2
    for i in range(-2 * n, 2 * n + 1):
        for j in range(-n, n + 1):
            p = np.array([step * (i + j / 2), step * j * math.sqrt(3) / 2])
            if np.linalg.norm(p) <= radius + 1e-9:
                points.append(p)
    return points


def _candidates(trail: tuple[int, ...], width: float, step: float | None) -> list[_Candidate]:
    """The drawings the search considers for one trail, plainest first.

    Junctions lie on a lattice ``step`` apart; with ``step`` None only the plain shapes are
    tried (arcs with a tee, an H, one junction at the natural place).
    """
    if len(trail) == 1:
        d = trail[0]
        m, inward = exit_point(d), -unit(d)
        end = m + STUB_LENGTH * inward
        curve = cubic(m, m + STUB_LENGTH / 3 * inward, end - STUB_LENGTH / 3 * inward, end)
        across = np.array([-inward[1], inward[0]]) * 0.62 * width
        bar = (point(end + across), point(end - across))
        return [_candidate(TrailShape(trail, (curve,), None, bar), 0.0, (np.linspace(bar[0], bar[1], 5),))]
    if len(trail) == 2:
        if (trail[1] - trail[0]) % 6 == 3:
            return [
                _candidate(TrailShape(trail, pair_curves(trail[0], trail[1], bend)), 1.5 * abs(bend))
                for bend in (0.0, 0.08, -0.08, 0.16, -0.16, 0.24, -0.24)
            ]
        return [
            _candidate(
                TrailShape(trail, pair_curves(trail[0], trail[1], bend, scale)), 0.4 * abs(bend) + 0.8 * abs(scale - 1)
            )
            for scale in (1.0, 0.75, 1.25, 0.5)
            for bend in (0.0, 0.25, -0.25, 0.5, -0.5)
        ]
    out = []
    k = len(trail)
    pairs = [(trail[i], trail[(i + 1) % k]) for i in range(k) if (trail[(i + 1) % k] - trail[i]) % 6 <= 2]
    for pair in pairs:
        rest = tuple(d for d in trail if d not in pair)
        for at in (0.5, 0.35, 0.65, 0.25, 0.75):
            curves, joint = tee(pair, rest, at)
            gap = (pair[1] - pair[0]) % 6
            out.append(_candidate(TrailShape(trail, curves, point(joint)), 0.05 * gap + 0.8 * abs(at - 0.5)))
    if k == 4:
        for i in range(2):
            first, second = (trail[i], trail[(i + 1) % 4]), (trail[(i + 2) % 4], trail[(i + 3) % 4])
            if (first[1] - first[0]) % 6 == 1 and (second[1] - second[0]) % 6 == 1:
                out.append(_candidate(TrailShape(trail, joined_pairs(first, second), None), 0.0))
    mids = np.array([exit_point(d) for d in trail])
    ideal = 0.42 * mids.mean(axis=0)
    grid = [ideal] if step is None else _junction_grid(step)
    for j in grid:
        curves = tuple(branch(d, j) for d in trail)
        out.append(_candidate(TrailShape(trail, curves, point(j)), 0.1 + 6.0 * float(np.linalg.norm(j - ideal)) ** 2))
    return sorted(out, key=lambda c: round(c.prior, 9))


def boundary_gap(points: np.ndarray) -> np.ndarray:
    """Distance from each point to the hexagon's boundary (positive inside)."""
    normals = np.array([unit(d) for d in range(6)])
    return APOTHEM - (points @ normals.T).max(axis=1)


def _inside(c: _Candidate, width: float) -> bool:
    """Whether a drawing keeps off the edges except at its own exits."""
    own = np.array([exit_point(d) for d in c.shape.trail])
    far = np.linalg.norm(c.clean[:, None, :] - own[None], axis=2).min(axis=1) > 1.1 * width
    return not np.any(boundary_gap(c.clean[far]) < 0.5 * width + 0.04)


def _segments(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b = points[:-1], points[1:]
    keep = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
    return a[keep], b[keep]


def _crossings(pa: np.ndarray, pb: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Where two sampled trails cross: (point, direction along a, direction along b)."""
    a0, a1 = _segments(pa)
    b0, b1 = _segments(pb)
    r = (a1 - a0)[:, None, :]
    s = (b1 - b0)[None, :, :]
    qp = b0[None, :, :] - a0[:, None, :]
    denom = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denom
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denom
    hit = (denom != 0) & (t >= 0) & (t < 1) & (u >= 0) & (u < 1)
    out = []
    for i, j in zip(*np.nonzero(hit), strict=True):
        p = a0[i] + t[i, j] * (a1[i] - a0[i])
        out.append((p, a1[i] - a0[i], b1[j] - b0[j]))
    return out


def _turning(points: np.ndarray, p: np.ndarray, reach: float) -> float:
    """How much a trail turns (radians) within ``reach`` of ``p``: small where a deck fits."""
    best = 0.0
    for seg in np.split(points, np.nonzero(np.isnan(points[:, 0]))[0]):
        seg = seg[~np.isnan(seg).any(axis=1)]
        near = np.nonzero(np.linalg.norm(seg - p, axis=1) <= reach)[0]
        if len(near) < 3:
            continue
        v = np.diff(seg[near[0] : near[-1] + 1], axis=0)
        ang = np.arctan2(v[:, 1], v[:, 0])
        best = max(best, float(np.abs((np.diff(ang) + np.pi) % (2 * np.pi) - np.pi).sum()))
    return best


def _pair(a: _Candidate, b: _Candidate, width: float):
    """(cost, crossings) of two trails drawn together, or None when they break a rule.

    Each crossing is ``(point, angle of the upper trail, upper is a, crossing angle)``.
    """
    xs = _crossings(a.points, b.points)
    if len(xs) != pair_crossings(a.shape.trail, b.shape.trail):
        return None
    reach = 1.45 * width
    near_a = np.zeros(len(a.clean), bool)
    near_b = np.zeros(len(b.clean), bool)
    cost = 0.0
    out = []
    for p, da, db in xs:
        cosang = abs(float(da @ db) / (np.linalg.norm(da) * np.linalg.norm(db)))
        angle = math.acos(min(1.0, float(cosang)))
        if angle < math.radians(52) or boundary_gap(p[None])[0] < 1.25 * width:
            return None
        ta, tb = _turning(a.points, p, reach), _turning(b.points, p, reach)
        if min(ta, tb) > 0.6:
            return None
        for c in (a, b):
            if c.shape.junction is not None and math.dist(c.shape.junction, p) < 1.6 * width:
                return None
        over_a = ta <= tb
        d = da if over_a else db
        out.append((point(p), math.atan2(d[1], d[0]), over_a, angle))
        near_a |= np.linalg.norm(a.clean - p, axis=1) < reach
        near_b |= np.linalg.norm(b.clean - p, axis=1) < reach
        cost += 0.6 * (math.pi / 2 - angle) + 0.3 * min(ta, tb)
    pa, pb = a.clean[~near_a], b.clean[~near_b]
    if len(pa) and len(pb):
        dist = float(np.linalg.norm(pa[:, None, :] - pb[None], axis=2).min())
        if dist < 1.55 * width:
            return None
        cost += max(0.0, 2.4 * width - dist) * 3
    return cost, tuple(out)


@lru_cache(maxsize=256)
def _usable(trail: tuple[int, ...], width: float, step: float | None) -> tuple[_Candidate, ...]:
    """The candidates for a trail that keep off the edges (shared by every design with this trail)."""
    return tuple(c for c in _candidates(trail, width, step) if _inside(c, width))


@lru_cache(maxsize=200_000)
def _pair_cached(a: tuple[int, ...], ca: int, b: tuple[int, ...], cb: int, width: float, step: float | None):
    """``_pair`` of candidate ``ca`` of trail ``a`` and ``cb`` of trail ``b`` (shared across designs)."""
    return _pair(_usable(a, width, step)[ca], _usable(b, width, step)[cb], width)


@lru_cache(maxsize=512)
def _layout_canonical(side: Side, width: float) -> SideLayout:
    """The best drawing of a side in canonical rotation (searched once per design and width).

    The search tries a coarse lattice of junctions first and a fine one only if that fails.
    """
    for step in (None, 0.16, 0.08):
        found = _search(side, width, step)
        if found is not None:
            return found
    raise TrailwrightError(f"cannot draw side {side} with trails {width / 2:.3f} of the tile wide")


def _search(side: Side, width: float, step: float | None) -> SideLayout | None:
    """The cheapest valid drawing with junctions on a lattice ``step`` apart, if there is one."""
    options = [_usable(t, width, step) for t in side.trails]
    order = sorted(range(len(options)), key=lambda i: len(options[i]))
    best: list = [math.inf, None, None]

    def pair(i, ci, j, cj):
        if side.trails[i] < side.trails[j]:
            return _pair_cached(side.trails[i], ci, side.trails[j], cj, width, step)
        result = _pair_cached(side.trails[j], cj, side.trails[i], ci, width, step)
        if result is None:
            return None
        return result[0], tuple((p, angle, not over, cross) for p, angle, over, cross in result[1])

    def bridges_of(chosen: dict) -> tuple[Bridge, ...] | None:
        found = []
        for i, j in combinations(sorted(chosen), 2):
            for p, angle, over_i, cross in pair(i, chosen[i], j, chosen[j])[1]:
                found.append(Bridge(p, angle, i if over_i else j, j if over_i else i, cross))
        for b1, b2 in combinations(found, 2):
            if math.dist(b1.centre, b2.centre) < 2.7 * width:
                return None
        for b in found:
            for k, ck in chosen.items():
                if (
                    k not in (b.upper, b.lower)
                    and np.linalg.norm(options[k][ck].clean - np.asarray(b.centre), axis=1).min() < 2.0 * width
                ):
                    return None
        return tuple(found)

    def search(depth: int, chosen: dict, cost: float) -> None:
        if depth == len(order):
            found = bridges_of(chosen)
            if found is not None and cost < best[0] - TIE:
                best[:] = [cost, dict(chosen), found]
            return
        i = order[depth]
        for ci, cand in enumerate(options[i]):
            partial = cost + cand.prior + cand.length
            if partial >= best[0] - TIE:
                continue
            ok = True
            for j, cj in chosen.items():
                result = pair(i, ci, j, cj)
                if result is None:
                    ok = False
                    break
                partial += result[0]
            if ok and partial < best[0] - TIE:
                chosen[i] = ci
                search(depth + 1, chosen, partial)
                del chosen[i]

    search(0, {}, 0.0)
    if best[1] is None:
        return None
    shapes = tuple(options[i][best[1][i]].shape for i in range(len(options)))
    return SideLayout(side, width, shapes, best[2])


def clear_caches() -> None:
    """Forget every searched drawing (for timing a cold start)."""
    for cached in (_usable, _pair_cached, _layout_canonical):
        cached.cache_clear()


def _turn(p: Point, steps: int) -> Point:
    return rotate(p, math.radians(60 * steps))


def _turn_shape(shape: TrailShape, steps: int) -> TrailShape:
    return TrailShape(
        tuple(sorted((d + steps) % 6 for d in shape.trail)),
        tuple(cubic(*(_turn(p, steps) for p in c)) for c in shape.curves),
        None if shape.junction is None else _turn(shape.junction, steps),
        None if shape.terminator is None else (_turn(shape.terminator[0], steps), _turn(shape.terminator[1], steps)),
    )


def layout_side(side: Side, width: float) -> SideLayout:
    """The drawing of ``side`` with trails ``width`` wide (tile units): its design's drawing, turned."""
    canonical = side.canonical
    steps = next(k for k in range(6) if canonical.rotated(k) == side)
    base = _layout_canonical(canonical, round(width, 6))
    turned = [_turn_shape(s, steps) for s in base.shapes]
    order = {t: i for i, t in enumerate(side.trails)}
    index = [order[s.trail] for s in turned]  # canonical trail index -> this side's trail index
    shapes: list[TrailShape | None] = [None] * len(turned)
    for k, s in enumerate(turned):
        shapes[index[k]] = s
    bridges = tuple(
        Bridge(
            _turn(b.centre, steps), b.angle + math.radians(60 * steps), index[b.upper], index[b.lower], b.crossing_angle
        )
        for b in base.bridges
    )
    assert all(s is not None for s in shapes)  # index is a permutation
    return SideLayout(side, base.width, tuple(s for s in shapes if s is not None), bridges)
