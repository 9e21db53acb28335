"""The shapes a side of any geometry is drawn from: each trail's candidate drawings (exits at
``TileGeometry.end_point``, cubics, junctions, stubs) and the geometry they are tested with. ``anysearch``
picks one drawing a trail; ``anyside`` turns the pick to the side and draws it.
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
from generator.render.geometry import Bridge, SideLayout, _crossings

WIDTH = 0.09  # trail width, tile units
STUB = 0.28
GROUND, TRAIL = "#e9dfc7", "#7a5230"


@dataclass(frozen=True)
class AnyShape:
    """One trail's curves, and the bar across its end when it is a stub."""

    trail: tuple[int, ...]
    curves: tuple[Curve, ...]
    bar: tuple[Point, Point] | None = None
    junction: Point | None = None  # where the branches of a trail of three or more ends meet
    hub: Point | None = None  # a second junction (a trail drawn as two hubs joined by a link)


@dataclass(frozen=True)
class AnyLayout:
    """A side's drawing: one shape per trail (the side's order), its bridges, and the trail width (tile units)."""

    side: Side
    shapes: tuple[AnyShape, ...]
    bridges: tuple[Bridge, ...]
    width: float = WIDTH
    crowded: bool = False  # the decks could not be kept apart (``anysearch.CROWDED``)

    deck_length = SideLayout.deck_length  # the classic deck's rule, so every tile's decks are the same timber
    deck_width = SideLayout.deck_width


def _exit(g: TileGeometry, end: int) -> tuple[np.ndarray, np.ndarray]:
    """An end's point and its edge's inward unit normal."""
    corners = g.corners()
    edge = g.edge_of(end)
    a, b = np.array(corners[edge]), np.array(corners[(edge + 1) % g.edges])
    mid = (a + b) / 2
    return np.array(g.end_point(end)), -mid / np.linalg.norm(mid)


def _stub(g: TileGeometry, trail: tuple[int, ...], width: float) -> AnyShape:
    p, n = _exit(g, trail[0])
    end = p + STUB * n
    across = np.array([-n[1], n[0]]) * 0.62 * width
    return AnyShape(
        trail, (cubic(p, p + STUB / 3 * n, end - STUB / 3 * n, end),), (point(end + across), point(end - across))
    )


def _two(g: TileGeometry, trail: tuple[int, ...]) -> list[tuple[float, AnyShape]]:
    """A two-end trail: one cubic leaving both edges square (handles stretched and shifted), and for long
    chords a bow through a point off the chord's middle (so crossings of near-diameters can spread)."""
    (p, n), (q, m) = _exit(g, trail[0]), _exit(g, trail[1])
    chord = float(np.linalg.norm(q - p))
    out = []
    for scale in (0.45, 0.3, 0.65, 0.18, 0.9):
        for bend in (0.0, 0.3, -0.3, 0.6, -0.6):
            h1, h2 = chord * scale * (1 + bend), chord * scale * (1 - bend)
            out.append((abs(scale - 0.45) + 0.3 * abs(bend), AnyShape(trail, (cubic(p, p + h1 * n, q + h2 * m, q),))))
    if chord > 1.2:
        along = (q - p) / chord
        across = np.array([-along[1], along[0]])
        for off in (0.12, -0.12, 0.24, -0.24, 0.36, -0.36):
            via = (p + q) / 2 + off * across
            k = 0.5 * float(np.linalg.norm(via - p))
            first = cubic(p, p + k * n, via - k * along, via)
            second = cubic(via, via + k * along, q + k * m, q)
            out.append((0.4 + 1.5 * abs(off), AnyShape(trail, (first, second))))
    return out


def _candidates(g: TileGeometry, trail: tuple[int, ...], width: float) -> list[tuple[float, AnyShape]]:
    """(prior cost, shape) of the drawings tried for one trail, plainest first."""
    if len(trail) == 1:
        return [(0.0, _stub(g, trail, width))]
    if len(trail) == 2:
        return _two(g, trail)
    exits = [_exit(g, d) for d in trail]
    ideal = 0.4 * np.mean([p for p, _ in exits], axis=0)
    out = []
    if len(trail) == 4:  # an H: two arcs, each between neighbouring ends, joined middle to middle
        for i in range(2):
            first = _arc(exits[i], exits[i + 1])
            second = _arc(exits[(i + 2) % 4], exits[(i + 3) % 4])
            ma, mb = sample(first, 3)[1], sample(second, 3)[1]
            link = cubic(ma, ma + 0.3 * (mb - ma), mb + 0.3 * (ma - mb), mb)
            out.append((0.05, AnyShape(trail, (first, second, link))))
    out += _two_hubs(trail, exits)
    for j in [ideal] + _lattice(0.12):
        curves = []
        for p, n in exits:
            length = float(np.linalg.norm(j - p))
            p1 = p + 0.45 * length * n
            curves.append(cubic(p, p1, j + 0.3 * (p1 - j), j))
        shape = AnyShape(trail, tuple(curves), junction=point(j))
        out.append((0.1 + 4.0 * float(np.linalg.norm(j - ideal)) ** 2, shape))
    return out


def _gather(exits: list[tuple[np.ndarray, np.ndarray]], hub: np.ndarray) -> list[Curve]:
    """A branch from each exit to ``hub``, leaving its edge square."""
    curves = []
    for p, n in exits:
        p1 = p + 0.45 * float(np.linalg.norm(hub - p)) * n
        curves.append(cubic(p, p1, hub + 0.3 * (p1 - hub), hub))
    return curves


def _two_hubs(trail: tuple[int, ...], exits: list) -> list[tuple[float, AnyShape]]:
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
            shape = AnyShape(trail, (*curves, *lone, link), junction=point(a), hub=point(b))
            out.append((0.35, shape))
    return out


def _arc(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> Curve:
    """The plain cubic between two exits, leaving each along its edge's inward normal."""
    (p, n), (q, m) = a, b
    h = 0.45 * float(np.linalg.norm(q - p))
    return cubic(p, p + h * n, q + h * m, q)


def _lattice(step: float, radius: float = 0.5) -> list[np.ndarray]:
    n = int(radius / step) + 1
    pts = [np.array([step * i, step * j]) for i in range(-n, n + 1) for j in range(-n, n + 1)]
    return [p for p in pts if np.linalg.norm(p) <= radius]


def _points(shape: AnyShape) -> np.ndarray:
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


def crossings_of(a: AnyShape, b: AnyShape) -> list:
    """Where two drawn trails cross (read back from their sampled curves)."""
    return _crossings(_points(a), _points(b))


def _turn(p: Point, angle: float) -> Point:
    return point(rotate(p, angle))


def _turn_shape(g: TileGeometry, shape: AnyShape, steps: int) -> AnyShape:
    angle = 2 * math.pi * steps / g.edges
    return AnyShape(
        tuple(sorted(g.turned(d, steps) for d in shape.trail)),
        tuple(cubic(*(_turn(p, angle) for p in c)) for c in shape.curves),
        None if shape.bar is None else (_turn(shape.bar[0], angle), _turn(shape.bar[1], angle)),
        None if shape.junction is None else _turn(shape.junction, angle),
        None if shape.hub is None else _turn(shape.hub, angle),
    )
