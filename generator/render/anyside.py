"""Drawing a tile side of any geometry (``generator.model.geometry``): the first step of issue 44's renderer.

The classic game's renderer (``geometry``, ``curves``, ``tiles``) is tuned to six exits at the hexagon's
edge midpoints and stays as it is. This module draws any geometry's side from the geometry's facts alone:
exits at ``TileGeometry.end_point`` (tile units: circumradius 1, y down), each leaving its edge along the
inward normal. A trail of two ends is one cubic; one of three or more, branches to a junction on a
lattice; a stub, a short run inward ending in a bar. A small search picks, per trail, among bends and
junctions so that every two trails cross exactly ``pair_crossings`` times and keep apart elsewhere; each
crossing carries a bridge. ``layout_any(side).crossings`` is read back from the sampled curves, so a
drawing with the wrong number of bridges cannot be made (``tests/test_render_any.py`` checks every design
of the small geometries).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from generator.errors import TrailwrightError
from generator.model import Side, pair_crossings
from generator.model.geometry import TileGeometry
from generator.render.curves import Curve, Point, cubic, point, sample
from generator.render.geometry import _crossings

WIDTH = 0.09  # trail width, tile units
STUB = 0.28
GROUND, TRAIL = "#e9dfc7", "#7a5230"


@dataclass(frozen=True)
class AnyShape:
    """One trail's curves, and the bar across its end when it is a stub."""

    trail: tuple[int, ...]
    curves: tuple[Curve, ...]
    bar: tuple[Point, Point] | None = None


@dataclass(frozen=True)
class AnyLayout:
    """A side's drawing: one shape per trail (the side's order) and its bridges ``(centre, angle, upper)``."""

    side: Side
    shapes: tuple[AnyShape, ...]
    bridges: tuple[tuple[Point, float, int], ...]


def _exit(g: TileGeometry, end: int) -> tuple[np.ndarray, np.ndarray]:
    """An end's point and its edge's inward unit normal."""
    corners = g.corners()
    edge = g.edge_of(end)
    a, b = np.array(corners[edge]), np.array(corners[(edge + 1) % g.edges])
    mid = (a + b) / 2
    return np.array(g.end_point(end)), -mid / np.linalg.norm(mid)


def _candidates(g: TileGeometry, trail: tuple[int, ...]) -> list[tuple[float, AnyShape]]:
    """(prior cost, shape) of the drawings tried for one trail, plainest first."""
    if len(trail) == 1:
        p, n = _exit(g, trail[0])
        end = p + STUB * n
        across = np.array([-n[1], n[0]]) * 0.6 * WIDTH
        return [
            (
                0.0,
                AnyShape(
                    trail,
                    (cubic(p, p + STUB / 3 * n, end - STUB / 3 * n, end),),
                    (point(end + across), point(end - across)),
                ),
            )
        ]
    if len(trail) == 2:
        (p, n), (q, m) = _exit(g, trail[0]), _exit(g, trail[1])
        chord = float(np.linalg.norm(q - p))
        out = []
        for scale in (0.45, 0.3, 0.65, 0.18, 0.9):
            for bend in (0.0, 0.3, -0.3, 0.6, -0.6):
                h1, h2 = chord * scale * (1 + bend), chord * scale * (1 - bend)
                out.append(
                    (abs(scale - 0.45) + 0.3 * abs(bend), AnyShape(trail, (cubic(p, p + h1 * n, q + h2 * m, q),)))
                )
        return out
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
    for j in [ideal] + _lattice(0.12):
        curves = []
        for p, n in exits:
            length = float(np.linalg.norm(j - p))
            p1 = p + 0.45 * length * n
            curves.append(cubic(p, p1, j + 0.3 * (p1 - j), j))
        out.append((0.1 + 4.0 * float(np.linalg.norm(j - ideal)) ** 2, AnyShape(trail, tuple(curves))))
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


def _inside(g: TileGeometry, shape: AnyShape) -> bool:
    """Whether the drawing stays inside the tile, off the outline except near its own exits."""
    pts = _points(shape)
    pts = pts[~np.isnan(pts).any(axis=1)]
    own = np.array([g.end_point(d) for d in shape.trail])
    far = np.linalg.norm(pts[:, None] - own[None], axis=2).min(axis=1) > 1.5 * WIDTH
    corners = np.array(g.corners())
    mids = (corners + np.roll(corners, -1, axis=0)) / 2
    normals = mids / np.linalg.norm(mids, axis=1)[:, None]
    apothem = float(np.linalg.norm(mids[0]))
    gap = apothem - (pts[far] @ normals.T).max(axis=1) if far.any() else np.array([1.0])
    return bool((gap > 0.6 * WIDTH).all())


def crossings_of(a: AnyShape, b: AnyShape) -> list:
    """Where two drawn trails cross (read back from their sampled curves)."""
    return _crossings(_points(a), _points(b))


@lru_cache(maxsize=4096)
def _usable(g: TileGeometry, trail: tuple[int, ...]) -> tuple[tuple[float, AnyShape], ...]:
    return tuple(c for c in _candidates(g, trail) if _inside(g, c[1]))


def _pair_cost(a: AnyShape, b: AnyShape) -> float | None:
    """The cost of two trails together, or None when they cross a wrong number of times or run too close."""
    xs = crossings_of(a, b)
    if len(xs) != pair_crossings(a.trail, b.trail):
        return None
    pa, pb = _points(a), _points(b)
    pa, pb = pa[~np.isnan(pa).any(axis=1)], pb[~np.isnan(pb).any(axis=1)]
    for p, _, _ in xs:
        pa = pa[np.linalg.norm(pa - p, axis=1) > 2.5 * WIDTH]
        pb = pb[np.linalg.norm(pb - p, axis=1) > 2.5 * WIDTH]
    if len(pa) and len(pb):
        dist = float(np.linalg.norm(pa[:, None] - pb[None], axis=2).min())
        if dist < 1.2 * WIDTH:
            return None
        return max(0.0, 3 * WIDTH - dist)
    return 0.0


@lru_cache(maxsize=500_000)
def _pair_cached(g: TileGeometry, a: tuple[int, ...], ia: int, b: tuple[int, ...], ib: int) -> float | None:
    return _pair_cost(_usable(g, a)[ia][1], _usable(g, b)[ib][1])


@lru_cache(maxsize=2048)
def layout_any(side: Side) -> AnyLayout:
    """The cheapest drawing of ``side`` with exactly ``side.min_crossings`` bridges (depth-first, pruned)."""
    g = side.geometry
    trails = side.trails
    options = [_usable(g, t) for t in trails]
    order = sorted(range(len(trails)), key=lambda i: len(options[i]))
    best: list = [math.inf, None]

    def search(depth: int, chosen: dict, cost: float) -> None:
        if cost >= best[0]:
            return
        if depth == len(order):
            best[:] = [cost, dict(chosen)]
            return
        i = order[depth]
        for ci, (prior, _) in enumerate(options[i]):
            total = cost + prior
            for j, cj in chosen.items():
                if trails[i] < trails[j]:
                    extra = _pair_cached(g, trails[i], ci, trails[j], cj)
                else:
                    extra = _pair_cached(g, trails[j], cj, trails[i], ci)
                if extra is None:
                    break
                total += extra
            else:
                chosen[i] = ci
                search(depth + 1, chosen, total)
                del chosen[i]

    search(0, {}, 0.0)
    if best[1] is None:
        raise TrailwrightError(f"cannot draw side {side} with exactly {side.min_crossings} bridges")
    shapes = tuple(options[i][best[1][i]][1] for i in range(len(trails)))
    bridges = []
    for (i, a), (_, b) in combinations(enumerate(shapes), 2):
        for p, da, _ in crossings_of(a, b):
            bridges.append((point(p), math.atan2(da[1], da[0]), i))
    return AnyLayout(side, shapes, tuple(bridges))


def svg_any(side: Side, size_mm: float = 50.0) -> str:
    """A side as a standalone SVG: the outline, the trails, an end dot at each end and a bridge deck at
    each crossing (a ``<g class="bridge">``, so the drawing's bridges can be read back)."""
    g = side.geometry
    layout = layout_any(side)
    s = size_mm / 2
    w = WIDTH * s

    def xy(p) -> tuple[float, float]:
        return (float(p[0]) * s + s, float(p[1]) * s + s)

    def fmt(p) -> str:
        x, y = xy(p)
        return f"{x:.3f},{y:.3f}"

    outline = " ".join(fmt(c) for c in g.corners())
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_mm}mm" height="{size_mm}mm" '
        f'viewBox="0 0 {size_mm} {size_mm}">',
        f'<polygon class="outline" points="{outline}" fill="{GROUND}" stroke="#333" stroke-width="0.3"/>',
    ]
    for shape in layout.shapes:
        d = " ".join(f"M{fmt(c[0])} C{fmt(c[1])} {fmt(c[2])} {fmt(c[3])}" for c in shape.curves)
        parts.append(f'<path d="{d}" fill="none" stroke="{TRAIL}" stroke-width="{w:.3f}" stroke-linecap="round"/>')
        if shape.bar is not None:
            (x1, y1), (x2, y2) = xy(shape.bar[0]), xy(shape.bar[1])
            parts.append(
                f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}" '
                f'stroke="{TRAIL}" stroke-width="{w:.3f}"/>'
            )
    for centre, angle, _ in layout.bridges:
        x, y = xy(centre)
        parts.append(
            f'<g class="bridge" transform="translate({x:.3f},{y:.3f}) rotate({math.degrees(angle):.2f})">'
            f'<rect x="{-1.6 * w:.3f}" y="{-1.1 * w:.3f}" width="{3.2 * w:.3f}" height="{2.2 * w:.3f}" '
            f'fill="{GROUND}" stroke="#333" stroke-width="0.25"/>'
            f'<line x1="{-1.6 * w:.3f}" y1="0" x2="{1.6 * w:.3f}" y2="0" stroke="{TRAIL}" stroke-width="{w:.3f}"/></g>'
        )
    for end in range(g.ends):
        x, y = xy(g.end_point(end))
        parts.append(f'<circle class="end" cx="{x:.3f}" cy="{y:.3f}" r="0.5" fill="#333"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def board_svg_any(board, cell_mm: float = 20.0) -> str:
    """A board of any geometry as SVG: each slot's outline, landmark cells filled and named, and each
    connector cell with its printed trails (end ``p`` of the one edge to end ``m - 1 - p`` of the other)."""
    from xml.sax.saxutils import escape

    g = board.geometry
    s = cell_mm / 2
    cells = list(board.slots) + [c for lm in board.landmarks for c in lm.hexes] + [c.hex for c in board.connectors]
    centres = [g.cell_centre(c) for c in cells]
    x0, y0 = min(x for x, _ in centres) - 1.1, min(y for _, y in centres) - 1.1
    width = (max(x for x, _ in centres) - x0 + 1.1) * s
    height = (max(y for _, y in centres) - y0 + 1.1) * s

    def xy(cell, p) -> tuple[float, float]:
        cx, cy = g.cell_centre(cell)
        return ((cx + p[0] - x0) * s, (cy + p[1] - y0) * s)

    def polygon(cell, fill: str, cls: str) -> str:
        points = " ".join("{:.3f},{:.3f}".format(*xy(cell, c)) for c in g.corners())
        return f'<polygon class="{cls}" points="{points}" fill="{fill}" stroke="#333" stroke-width="0.3"/>'

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.1f}mm" height="{height:.1f}mm" '
        f'viewBox="0 0 {width:.3f} {height:.3f}">'
    ]
    parts += [polygon(c, "#fbf7ec", "slot") for c in board.slots]
    for lm in board.landmarks:
        parts += [polygon(c, "#b9cfa0", "landmark") for c in lm.hexes]
        lx = sum(xy(c, (0, 0))[0] for c in lm.hexes) / len(lm.hexes)
        ly = sum(xy(c, (0, 0))[1] for c in lm.hexes) / len(lm.hexes)
        parts.append(
            f'<text x="{lx:.3f}" y="{ly:.3f}" font-size="{0.28 * s:.2f}" text-anchor="middle" '
            f'font-family="sans-serif">{escape(lm.name)}</text>'
        )
    m = g.ends_per_edge
    for con in board.connectors:
        parts.append(polygon(con.hex, "#efe6cf", "connector"))
        ea = next(e for e in range(g.edges) if g.neighbour(con.hex, e) == board.slots[con.a.slot])
        eb = next(e for e in range(g.edges) if g.neighbour(con.hex, e) == board.slots[con.b.slot])
        for p in range(m):
            (pa, na), (pb, nb) = _exit(g, g.end_at(ea, p)), _exit(g, g.end_at(eb, m - 1 - p))
            h = 0.45 * float(np.linalg.norm(pb - pa))
            c = [xy(con.hex, q) for q in (pa, pa + h * na, pb + h * nb, pb)]
            d = "M{:.3f},{:.3f} C{:.3f},{:.3f} {:.3f},{:.3f} {:.3f},{:.3f}".format(*(v for q in c for v in q))
            parts.append(f'<path d="{d}" fill="none" stroke="{TRAIL}" stroke-width="{WIDTH * s:.3f}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
