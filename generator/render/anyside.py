"""Drawing a tile side of any geometry (``generator.model.geometry``): the shapes a trail may take, the layout of
a side, and a plain SVG of a side and of a board.

The classic game's renderer (``geometry``, ``curves``, ``tiles``) is tuned to six exits at the hexagon's
edge midpoints and stays as it is. This module draws any geometry's side from the geometry's facts alone:
exits at ``TileGeometry.end_point`` (tile units: circumradius 1, y down), each leaving its edge along the
inward normal. A trail of two ends is one cubic or a bow through a point off its chord; one of three or more
branches to a junction on a lattice, or to two hubs joined by a link (or is an H); a stub is a short run
inward ending in a bar. ``anysearch`` picks one shape per trail so that every two trails cross exactly
``pair_crossings`` times and every bridge deck keeps apart; ``layout_any(side).bridges`` are read back from
the sampled curves, so a drawing with the wrong number of bridges cannot be made. ``anytiles`` paints a layout
in a style and theme; ``svg_any`` and ``board_svg_any`` are the plain drawings (or the styled ones, given a
style).
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


def layout_any(side: Side, width: float = WIDTH) -> AnyLayout:
    """The drawing of ``side`` with trails ``width`` wide (tile units): its design's drawing, turned, with
    exactly ``side.min_crossings`` bridges."""
    g = side.geometry
    canonical = side.canonical
    steps = next(k for k in range(g.rotations) if canonical.rotated(k) == side)
    from generator.render.anysearch import layout_canonical

    base = layout_canonical(canonical, round(width, 6))
    turned = [_turn_shape(g, s, steps) for s in base.shapes]
    index = [side.trails.index(s.trail) for s in turned]  # canonical trail -> this side's trail
    shapes = sorted(zip(index, turned, strict=True))
    angle = 2 * math.pi * steps / g.edges
    bridges = tuple(
        Bridge(_turn(b.centre, angle), b.angle + angle, index[b.upper], index[b.lower], b.crossing_angle)
        for b in base.bridges
    )
    return AnyLayout(side, tuple(s for _, s in shapes), bridges, base.width, base.crowded)


def clear_caches() -> None:
    """Forget every searched drawing (for timing a cold start)."""
    from generator.render.anysearch import _pair_cached, _usable, deck_box, layout_canonical

    for cached in (_usable, _pair_cached, layout_canonical, deck_box):
        cached.cache_clear()


def svg_any(
    side: Side,
    size_mm: float = 50.0,
    *,
    style=None,
    face: str = "front",
    bleed_mm: float = 0.0,
    tile_id: str | None = None,
) -> str:
    """A side as a standalone SVG: the outline, the trails, an end dot at each end and a bridge deck at
    each crossing (a ``<g class="bridge">``, so the drawing's bridges can be read back).

    With a ``style`` (``render.style.Style``) the side is drawn in it instead, as ``anytiles.render_side_any``
    draws it: ``size_mm`` is then the tile's width at the cut (``style.tile_width_mm``), ``face`` picks the ground
    and the back's marks, and ``tile_id`` is the label (none without it).
    """
    if style is not None:
        from dataclasses import replace

        from generator.model import Tile
        from generator.render.anytiles import render_side_any

        tile = Tile(tile_id or "", side, side)
        return render_side_any(
            tile, face, replace(style, tile_width_mm=size_mm), bleed_mm=bleed_mm, label=tile_id is not None
        )
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
    for b in layout.bridges:
        x, y = xy(b.centre)
        parts.append(
            f'<g class="bridge" transform="translate({x:.3f},{y:.3f}) rotate({math.degrees(b.angle):.2f})">'
            f'<rect x="{-1.6 * w:.3f}" y="{-1.1 * w:.3f}" width="{3.2 * w:.3f}" height="{2.2 * w:.3f}" '
            f'fill="{GROUND}" stroke="#333" stroke-width="0.25"/>'
            f'<line x1="{-1.6 * w:.3f}" y1="0" x2="{1.6 * w:.3f}" y2="0" stroke="{TRAIL}" stroke-width="{w:.3f}"/></g>'
        )
    for end in range(g.ends):
        x, y = xy(g.end_point(end))
        parts.append(f'<circle class="end" cx="{x:.3f}" cy="{y:.3f}" r="0.5" fill="#333"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def board_svg_any(board, cell_mm: float = 20.0, *, style=None, clearance_mm: float = 0.5) -> str:
    """A board of any geometry as SVG: each slot's outline, landmark cells filled and named, and each
    connector cell with its printed trails (end ``p`` of the one edge to end ``m - 1 - p`` of the other).

    With a ``style`` it is drawn in it at the style's tile size, as ``anyboard.render_board_any`` draws it
    (``cell_mm`` is then unused): wall, slot numbers, themed landmarks and connectors.
    """
    if style is not None:
        from generator.render.anyboard import render_board_any

        return render_board_any(board, style, clearance_mm=clearance_mm)
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
