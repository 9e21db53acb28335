"""The shapes a tile side is drawn from, on every geometry: each trail's candidate drawings (exits at
``TileGeometry.end_point``, natural arcs, tees, junctions, hubs, stubs), the layout they make and the arithmetic
they are tested with. ``sidesearch`` picks one drawing a trail; ``side`` turns the pick to the side.

Glossary
--------
tile units  the unit of this module: the tile's circumradius is 1, the centre is the origin, y points down (as in
            SVG). Callers scale to mm (``tiles.scale_of``).
exit        where a trail leaves through an end: ``TileGeometry.end_point``, left along the edge's inward normal.
curve       a cubic Bézier ``(p0, p1, p2, p3)``; a trail is drawn as one or more curves.
natural arc the circular arc between two exits, square to both edges, about the point where the edges' lines meet
            (on the classic hexagon: radius 1/2 about a corner, or 3/2 about the next hexagon's centre); a straight
            line between exits that face each other.
junction    the point where the branches of a trail of three or more ends meet; ``hub`` a second one.
stub        a one-end trail: a short run inward that ends in a bar.
crossing    where two trails of a side cross; the drawing has exactly ``Side.min_crossings`` of them and each
            carries a bridge (``upper`` passes over ``lower``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generator.board.geometry import rotate
from generator.model import Side
from generator.model.geometry import TileGeometry
from generator.render.curves import Curve, Point, cubic, point, sample

WIDTH = 0.09  # trail width, tile units (the plain drawings')
STUB = 0.28
GROUND, TRAIL = "#e9dfc7", "#7a5230"
LATTICE = 0.5  # the cost of moving a junction off its natural place (then by the distance squared)
TIE = 1e-9  # costs closer than this are equal: the first drawing found wins, on any floating-point library


@dataclass(frozen=True)
class TrailShape:
    """One trail's curves, and the bar across its end when it is a stub."""

    trail: tuple[int, ...]
    curves: tuple[Curve, ...]
    bar: tuple[Point, Point] | None = None
    junction: Point | None = None  # where the branches of a trail of three or more ends meet
    hub: Point | None = None  # a second junction (a trail drawn as two hubs joined by a link)


@dataclass(frozen=True)
class Bridge:
    """A crossing: trail ``upper`` passes over trail ``lower`` at ``centre`` heading ``angle`` (radians)."""

    centre: Point
    angle: float
    upper: int
    lower: int
    crossing_angle: float  # between the two trails, radians in (0, pi/2]


def deck_length(width: float, bridge: Bridge) -> float:
    """The length of a bridge's deck for trails ``width`` wide: over the lower trail at its angle, with abutments."""
    s = math.sin(bridge.crossing_angle)
    return width * (1 / s + abs(math.cos(bridge.crossing_angle)) / s + 0.7)


def deck_width(width: float) -> float:
    """The width of every bridge deck, parapets included."""
    return width * 1.36


@dataclass(frozen=True)
class SideLayout:
    """A side's drawing: one shape per trail (the side's order), its bridges, and the trail width (tile units)."""

    side: Side
    shapes: tuple[TrailShape, ...]
    bridges: tuple[Bridge, ...]
    width: float = WIDTH
    crowded: bool = False  # the decks could not be kept apart (``sidesearch.CROWDED``)

    def deck_length(self, bridge: Bridge) -> float:
        return deck_length(self.width, bridge)

    def deck_width(self) -> float:
        return deck_width(self.width)


def segments(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sampled segments' starts and ends (none across a NaN break between curves)."""
    a, b = points[:-1], points[1:]
    keep = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
    return a[keep], b[keep]


def crossings(pa: np.ndarray, pb: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Where two sampled trails cross: (point, direction along a, direction along b)."""
    a0, a1 = segments(pa)
    b0, b1 = segments(pb)
    r = (a1 - a0)[:, None, :]
    s = (b1 - b0)[None, :, :]
    qp = b0[None, :, :] - a0[:, None, :]
    denom = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denom
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denom
    hit = (denom != 0) & (t >= 0) & (t < 1) & (u >= 0) & (u < 1)
    return [
        (a0[i] + t[i, j] * (a1[i] - a0[i]), a1[i] - a0[i], b1[j] - b0[j]) for i, j in zip(*np.nonzero(hit), strict=True)
    ]


def _exit(g: TileGeometry, end: int) -> tuple[np.ndarray, np.ndarray]:
    """An end's point and its edge's inward unit normal."""
    corners = g.corners()
    edge = g.edge_of(end)
    a, b = np.array(corners[edge]), np.array(corners[(edge + 1) % g.edges])
    mid = (a + b) / 2
    return np.array(g.end_point(end)), -mid / np.linalg.norm(mid)


def _stub(g: TileGeometry, trail: tuple[int, ...], width: float) -> TrailShape:
    p, n = _exit(g, trail[0])
    end = p + STUB * n
    across = np.array([-n[1], n[0]]) * 0.62 * width
    return TrailShape(
        trail, (cubic(p, p + STUB / 3 * n, end - STUB / 3 * n, end),), (point(end + across), point(end - across))
    )


def natural_handle(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> float | None:
    """The handle length that makes the cubic between two exits a circular arc square to both edges (about the
    point where the two edges' lines meet), a third of the chord when the exits face each other, or None when no
    such arc joins them (the exits are not alike about that point, or face each other off line)."""
    (p, n), (q, m) = a, b
    cross = float(n[0] * m[1] - n[1] * m[0])
    chord = float(np.linalg.norm(q - p))
    if abs(cross) < 1e-9:  # parallel edges: only a straight trail between exits that face each other
        along = (q - p) / chord
        return chord / 3 if float(along @ n) > 1 - 1e-9 else None
    t = -float((q - p) @ m) / cross  # the centre, p + t * (n turned a quarter), on both edges' lines
    centre = p + t * np.array([n[1], -n[0]])
    radius = float(np.linalg.norm(centre - p))
    if abs(radius - float(np.linalg.norm(centre - q))) > 1e-6:
        return None
    turn = math.acos(max(-1.0, min(1.0, float(n @ -m))))  # how far the trail turns, leaving along n, arriving along -m
    return 4 / 3 * math.tan(turn / 4) * radius


def _natural(trail: tuple[int, ...], a, b, handle: float) -> list[tuple[float, TrailShape]]:
    """The natural arc and its variants (the classic game's): ``scale`` stretches both handles, ``bend`` moves
    length from one to the other; exits that face each other bow sideways through a point off the centre."""
    (p, n), (q, m) = a, b
    chord = float(np.linalg.norm(q - p))
    if float(((q - p) / chord) @ n) > 1 - 1e-9:
        out = []
        for bend in (0.0, 0.08, -0.08, 0.16, -0.16, 0.24, -0.24):
            if bend == 0:
                out.append((0.0, TrailShape(trail, (cubic(p, p + handle * n, q + handle * m, q),))))
                continue
            along = (q - p) / chord
            via = (p + q) / 2 + bend * np.array([-along[1], along[0]])
            k = 0.5 * float(np.linalg.norm(via - p))
            first, second = cubic(p, p + k * n, via - k * along, via), cubic(via, via + k * along, q + k * m, q)
            out.append((1.5 * abs(bend), TrailShape(trail, (first, second))))
        return out
    return [
        (
            0.4 * abs(bend) + 0.8 * abs(scale - 1),
            TrailShape(trail, (cubic(p, p + handle * scale * (1 + bend) * n, q + handle * scale * (1 - bend) * m, q),)),
        )
        for scale in (1.0, 0.75, 1.25, 0.5)
        for bend in (0.0, 0.25, -0.25, 0.5, -0.5)
    ]


def _two(g: TileGeometry, trail: tuple[int, ...]) -> list[tuple[float, TrailShape]]:
    """A two-end trail: with one end an edge, the natural arc and its variants where one joins the exits; else one
    cubic leaving both edges square (handles stretched and shifted), and for long chords a bow through a point off
    the chord's middle (so crossings of near-diameters can spread)."""
    a, b = _exit(g, trail[0]), _exit(g, trail[1])
    handle = natural_handle(a, b) if g.ends_per_edge == 1 else None  # ends at the edges' midpoints
    out = [] if handle is None else _natural(trail, a, b, handle)
    (p, n), (q, m) = a, b
    chord = float(np.linalg.norm(q - p))
    facing = float(((q - p) / chord) @ n) > 1 - 1e-9  # then every cubic square to both edges is the straight line
    fallback = 0.0 if handle is None else 1.0  # where a natural arc joins the ends, these come after its variants
    for scale in () if facing else (0.45, 0.3, 0.65, 0.18, 0.9):
        for bend in (0.0, 0.3, -0.3, 0.6, -0.6):
            h1, h2 = chord * scale * (1 + bend), chord * scale * (1 - bend)
            prior = fallback + abs(scale - 0.45) + 0.3 * abs(bend)
            out.append((prior, TrailShape(trail, (cubic(p, p + h1 * n, q + h2 * m, q),))))
    if chord > 1.2:
        along = (q - p) / chord
        across = np.array([-along[1], along[0]])
        for off in (0.12, -0.12, 0.24, -0.24, 0.36, -0.36):
            via = (p + q) / 2 + off * across
            k = 0.5 * float(np.linalg.norm(via - p))
            first = cubic(p, p + k * n, via - k * along, via)
            second = cubic(via, via + k * along, q + k * m, q)
            out.append((fallback + 0.4 + 1.5 * abs(off), TrailShape(trail, (first, second))))
    return out


def _candidates(g: TileGeometry, trail: tuple[int, ...], width: float) -> list[tuple[float, TrailShape]]:
    """(prior cost, shape) of the drawings tried for one trail, plainest first."""
    if len(trail) == 1:
        return [(0.0, _stub(g, trail, width))]
    if len(trail) == 2:
        return _two(g, trail)
    exits = [_exit(g, d) for d in trail]
    ideal = 0.42 * np.mean([p for p, _ in exits], axis=0)
    out = _tees(g, trail, exits)
    if len(trail) == 4:  # an H: two arcs, each between neighbouring ends, joined middle to middle
        for i in range(2):
            first = _arc(exits[i], exits[i + 1])
            second = _arc(exits[(i + 2) % 4], exits[(i + 3) % 4])
            ma, mb = sample(first, 3)[1], sample(second, 3)[1]
            link = cubic(ma, ma + 0.3 * (mb - ma), mb + 0.3 * (ma - mb), mb)
            out.append((0.05, TrailShape(trail, (first, second, link))))
    out += _two_hubs(trail, exits)
    for k, j in enumerate([ideal] + _lattice(0.12)):
        curves = []
        for p, n in exits:
            length = float(np.linalg.norm(j - p))
            p1 = p + 0.45 * length * n
            curves.append(cubic(p, p1, j + 0.3 * (p1 - j), j))
        shape = TrailShape(trail, tuple(curves), junction=point(j))
        moved = LATTICE * (k > 0)  # a junction off its natural place only where the plain shapes cannot be drawn
        out.append((0.1 + moved + 6.0 * float(np.linalg.norm(j - ideal)) ** 2, shape))
    return out


def _tees(g: TileGeometry, trail: tuple[int, ...], exits: list) -> list[tuple[float, TrailShape]]:
    """A trail of three or more ends as the natural arc between two neighbouring ends (at most two edges apart,
    not facing) with a branch from a point along it to each other end, on the side of the arc that end lies."""
    out, k = [], len(trail)
    for i in range(k):
        a, b = exits[i], exits[(i + 1) % k]
        gap = (g.edge_of(trail[(i + 1) % k]) - g.edge_of(trail[i])) % g.edges
        handle = natural_handle(a, b)
        if handle is None or not 0 < gap <= 2 or float(((b[0] - a[0]) / np.linalg.norm(b[0] - a[0])) @ a[1]) > 0.999:
            continue
        (p, n), (q, m) = a, b
        arc = cubic(p, p + handle * n, q + handle * m, q)
        rest = [exits[j] for j in range(k) if j not in (i, (i + 1) % k)]
        for at in (0.5, 0.35, 0.65, 0.25, 0.75):
            joint, tangent = _along(arc, at)
            normal = np.array([-tangent[1], tangent[0]])
            branches = []
            for r, rn in rest:
                side = normal if normal @ (r - joint) > 0 else -normal
                length = float(np.linalg.norm(joint - r))
                p1 = r + 0.45 * length * rn
                branches.append(cubic(r, p1, joint + 0.4 * length * side, joint))
            prior = 0.05 * gap + 0.8 * abs(at - 0.5) + 0.2 * (len(rest) - 1)  # a branch more is busier than a hub
            out.append((prior, TrailShape(trail, (arc, *branches), junction=point(joint))))
    return out


def _along(curve: Curve, t: float) -> tuple[np.ndarray, np.ndarray]:
    """The point ``t`` along a cubic and its unit tangent there."""
    p0, p1, p2, p3 = (np.asarray(p) for p in curve)
    at = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3
    tangent = 3 * (1 - t) ** 2 * (p1 - p0) + 6 * (1 - t) * t * (p2 - p1) + 3 * t**2 * (p3 - p2)
    return at, tangent / np.linalg.norm(tangent)


def _gather(exits: list[tuple[np.ndarray, np.ndarray]], hub: np.ndarray) -> list[Curve]:
    """A branch from each exit to ``hub``, leaving its edge square."""
    curves = []
    for p, n in exits:
        p1 = p + 0.45 * float(np.linalg.norm(hub - p)) * n
        curves.append(cubic(p, p1, hub + 0.3 * (p1 - hub), hub))
    return curves


def _two_hubs(trail: tuple[int, ...], exits: list) -> list[tuple[float, TrailShape]]:
    """A trail of three or more ends as two hubs, each gathering a run of neighbouring ends, joined by a link: so
    a trail whose ends another trail separates into two runs crosses it once, on the link."""
    out, seen, k = [], set(), len(trail)
    for start in range(k):
        for size in range(1, k):
            run = frozenset((start + i) % k for i in range(size))
            if run in seen or frozenset(range(k)) - run in seen:
                continue
            seen.add(run)
            groups = [[exits[i] for i in sorted(run)], [exits[i] for i in range(k) if i not in run]]
            hubs = [
                group[0][0] + 0.3 * group[0][1] if len(group) == 1 else 0.6 * np.mean([p for p, _ in group], axis=0)
                for group in groups
            ]
            a, b = hubs
            link = cubic(a, a + 0.3 * (b - a), b + 0.3 * (a - b), b)
            curves = _gather(groups[0], a) * (len(groups[0]) > 1) + _gather(groups[1], b) * (len(groups[1]) > 1)
            lone = [_arc(groups[i][0], (hubs[i], np.zeros(2))) for i in (0, 1) if len(groups[i]) == 1]
            shape = TrailShape(trail, (*curves, *lone, link), junction=point(a), hub=point(b))
            out.append((0.8, shape))
    return out


def _arc(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> Curve:
    """The plain cubic between two exits, leaving each along its edge's inward normal."""
    (p, n), (q, m) = a, b
    h = natural_handle(a, b) or 0.45 * float(np.linalg.norm(q - p))
    return cubic(p, p + h * n, q + h * m, q)


def _lattice(step: float, radius: float = 0.5) -> list[np.ndarray]:
    n = int(radius / step) + 1
    pts = [np.array([step * i, step * j]) for i in range(-n, n + 1) for j in range(-n, n + 1)]
    return [p for p in pts if np.linalg.norm(p) <= radius]


def _points(shape: TrailShape) -> np.ndarray:
    parts: list[np.ndarray] = []
    for c in shape.curves:
        parts += [sample(c), np.full((1, 2), np.nan)]
    return np.vstack(parts[:-1])


@lru_cache(maxsize=16)
def _edges(g: TileGeometry) -> tuple[float, np.ndarray]:
    """The apothem and the outward unit normals of the edges, from the corners."""
    corners = np.array(g.corners())
    mids = (corners + np.roll(corners, -1, axis=0)) / 2
    apothem = float(np.linalg.norm(mids[0]))
    return apothem, mids / apothem


def boundary_gap(g: TileGeometry, pts: np.ndarray) -> np.ndarray:
    """Distance from each point to the tile's outline (positive inside)."""
    apothem, normals = _edges(g)
    return apothem - (pts @ normals.T).max(axis=1)


def crossings_of(a: TrailShape, b: TrailShape) -> list:
    """Where two drawn trails cross (read back from their sampled curves)."""
    return crossings(_points(a), _points(b))


def _turn(p: Point, angle: float) -> Point:
    return point(rotate(p, angle))


def _turn_shape(g: TileGeometry, shape: TrailShape, steps: int) -> TrailShape:
    angle = 2 * math.pi * steps / g.edges
    return TrailShape(
        tuple(sorted(g.turned(d, steps) for d in shape.trail)),
        tuple(cubic(*(_turn(p, angle) for p in c)) for c in shape.curves),
        None if shape.bar is None else (_turn(shape.bar[0], angle), _turn(shape.bar[1], angle)),
        None if shape.junction is None else _turn(shape.junction, angle),
        None if shape.hub is None else _turn(shape.hub, angle),
    )
