"""Where a label fits on a side of any geometry: the classic rule (``labels``), read along the outline's own edges.

The label sits inside the safe zone, ``LABEL_AIR_MM`` clear of the trails, the bridges and a back's marks: near a
corner along an edge first (the lowest edge first, upright there), then anywhere along or inside an edge, then in
smaller sizes down to ``MIN_LABEL_PT``. The texts and the drawing are ``labels``' own.
"""

from __future__ import annotations

import math

import numpy as np

from generator.model import Side
from generator.model.geometry import TileGeometry
from generator.render import anyside
from generator.render.labels import LABEL_AIR_MM, MIN_LABEL_PT, SAFE_ZONE_MM, bridge_shape
from generator.render.style import Style
from generator.units import MM_PER_PT


def keep_off_shapes(layout: anyside.AnyLayout):
    """(trails, bridges) of a drawn side as shapely shapes in tile units."""
    from shapely.geometry import LineString
    from shapely.ops import unary_union

    width, parts = layout.width, []
    for shape in layout.shapes:
        for curve in shape.curves:
            parts.append(LineString(anyside.sample(curve, 32)).buffer(width / 2))
        if shape.bar is not None:
            parts.append(LineString(shape.bar).buffer(width / 4))
    return unary_union(parts), bridge_shape(layout, width)


def _edges(side: Side) -> list[tuple[np.ndarray, np.ndarray, float, bool]]:
    """(along, outward normal, half length, upright) of each edge, the lowest edge first."""
    corners = np.array(side.geometry.corners())
    out = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        mid = (a + b) / 2
        normal = mid / np.linalg.norm(mid)
        upright = bool(normal[1] > 1e-9)
        along = np.array([-normal[1], normal[0]]) * (-1 if upright else 1)
        out.append((along, normal, float(np.linalg.norm(b - a)) / 2, upright))
    return sorted(out, key=lambda e: round(-e[1][1], 9))


def _spot(side, area, style: Style, scale: float, text: str, size: float, wide: bool, moons: bool):
    """The first clear spot (x, y, degrees) for a label ``size`` tile units tall, or None."""
    import shapely

    g = side.geometry
    apothem, _ = anyside._edges(g)
    length, inset = 0.6 * size * len(text), SAFE_ZONE_MM / scale
    air = round(max(0.025, LABEL_AIR_MM / scale), 6)
    steps = [0.03 * k for k in range(30)] if wide else [0.0]
    for step in steps:
        centres, angles, boxes = [], [], []
        for along, normal, half, upright in _edges(side):
            reach = 0.96 * half if not moons else 0.78 * half - 0.045 - air  # a back's labels start inside its marks
            if wide:
                tries = sorted((0.025 * k for k in range(-40, 41)), key=lambda o: (-abs(o), o))
            else:
                tries = [towards * (reach - 0.025 * k - length / 2) for towards in (-1, 1) for k in range(12)]
            flip = 1 if upright else -1
            base = apothem - inset - (0.075 if upright else 0.75) * size - step  # the box inside the safe zone
            corner = np.array(
                [
                    along * sx * length / 2 + normal * sy * size * 0.75 * flip
                    for sx, sy in ((-1, 0.1), (1, 0.1), (1, -1.0), (-1, -1.0))
                ]
            )
            here = normal * base + np.array(tries)[:, None] * along
            centres.append(here)
            angles += [math.degrees(math.atan2(along[1], along[0]))] * len(tries)
            boxes.append(here[:, None, :] + corner[None, :, :])
        at, corners = np.concatenate(centres), np.concatenate(boxes)
        gaps = anyside.boundary_gap(g, corners.reshape(-1, 2)).reshape(len(corners), 4).min(axis=1)
        keep = np.flatnonzero(gaps >= inset - 1e-9)
        if len(keep):
            clear = keep[~shapely.intersects(area, shapely.polygons(corners[keep]))]
            if len(clear):
                return (float(at[clear[0], 0]), float(at[clear[0], 1]), angles[clear[0]])
    return None


def place_label(
    side: Side, layout: anyside.AnyLayout, style: Style, scale: float, text: str, moons: bool = False
) -> tuple[float, float, float, float] | None:
    """Where a label fits (x, y, degrees, font size in pt) in tile units, or None."""
    import shapely
    from shapely.geometry import Point

    trails, bridges = keep_off_shapes(layout)
    area = trails.union(bridges)
    if moons:
        area = area.union(shapely.union_all([Point(x, y).buffer(r) for x, y, r in moon_discs(side.geometry)]))
    area = area.buffer(round(max(0.025, LABEL_AIR_MM / scale), 6))
    shapely.prepare(area)
    sizes = [style.label_font_size_pt]
    while sizes[-1] - 0.5 >= MIN_LABEL_PT - 1e-9:
        sizes.append(sizes[-1] - 0.5)
    for i, pt in enumerate(sizes):
        for wide in (False, True) if i == 0 else (True,):
            spot = _spot(side, area, style, scale, text, pt * MM_PER_PT / scale, wide, moons)
            if spot is not None:
                return (*spot, pt)
    return None


MOON = 0.78  # the back's marks sit this far out towards each corner (of the circumradius), as on the classic back


def moon_discs(g: TileGeometry) -> tuple[tuple[float, float, float], ...]:
    """A back's corner marks as discs (x, y, radius) in tile units."""
    return tuple((MOON * x, MOON * y, 0.045) for x, y in g.corners())
