"""A tile side's label ("7 front"): where it fits, inside the safe zone and clear of the art, and how it is drawn
(the style's font as SVG text, or a theme's label font as outlines, ``render.outlines``).

The label sits inside the safe zone, ``LABEL_AIR_MM`` clear of the trails, the bridges and a back's marks: near a
corner along an edge first (the lowest edge first, upright there), then anywhere along or inside an edge, then in
smaller sizes down to ``MIN_LABEL_PT``.

Glossary
--------
keep-off    what a label keeps ``LABEL_AIR_MM`` clear of: the trails, the bridges and, on a back, the marks.
label box   the estimated box of a label's text (``label_box``: 0.6 em a character); placement proves the box
            clear, and outlines are fitted inside it.

Shapely geometries are built afresh by each call and never shared between threads (publish draws sides on a
thread pool, and GEOS prepared geometries are not thread-safe).
"""

from __future__ import annotations

import math

import numpy as np

from generator.board.geometry import rotate
from generator.model import Side
from generator.model.geometry import TileGeometry
from generator.render.curves import sample
from generator.render.outlines import fitted
from generator.render.shapes import SideLayout, _edges, boundary_gap
from generator.render.style import Style
from generator.render.svg import escape, num, quoteattr
from generator.units import MM_PER_PT

SAFE_ZONE_MM = 3.175  # 1/8 in inside the cut (The Game Crafter)
LABEL_AIR_MM = 0.5  # the least gap between a label and any trail, bridge or decoration
MIN_LABEL_PT = 4.0  # labels shrink in half-point steps down to this before a side is refused
MOON = 0.78  # the back's marks sit this far out towards each corner (of the circumradius)


def bridge_shape(layout: SideLayout, width: float):
    """Every bridge's gap, shadow and deck of a drawn side, in tile units."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    parts = []
    for b in layout.bridges:
        half_l, half_w = layout.deck_length(b) / 2, layout.deck_width() / 2
        gap, shadow = 0.16 * width, 0.2 * width
        for x0, y0, x1, y1, (sx, sy) in (
            (-half_l, -half_w - gap, half_l, half_w + gap, (0.0, 0.0)),
            (-half_l + 0.1 * width, -half_w, half_l - 0.1 * width, half_w, (0.6 * shadow, shadow)),
        ):
            parts.append(
                Polygon(
                    [
                        (b.centre[0] + sx + x, b.centre[1] + sy + y)
                        for x, y in (rotate(p, b.angle) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
                    ]
                )
            )
    return unary_union(parts)


def keep_off_shapes(layout: SideLayout):
    """(trails, bridges) of a drawn side as shapely shapes in tile units."""
    from shapely.geometry import LineString
    from shapely.ops import unary_union

    width, parts = layout.width, []
    for shape in layout.shapes:
        for curve in shape.curves:
            parts.append(LineString(sample(curve, 32)).buffer(width / 2))
        if shape.bar is not None:
            parts.append(LineString(shape.bar).buffer(width / 4))
    return unary_union(parts), bridge_shape(layout, width)


def _edges_lowest_first(side: Side) -> list[tuple[np.ndarray, np.ndarray, float, bool]]:
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
    apothem, _ = _edges(g)
    length, inset = 0.6 * size * len(text), SAFE_ZONE_MM / scale
    air = round(max(0.025, LABEL_AIR_MM / scale), 6)
    steps = [0.03 * k for k in range(30)] if wide else [0.0]
    for step in steps:
        centres, angles, boxes = [], [], []
        for along, normal, half, upright in _edges_lowest_first(side):
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
        gaps = boundary_gap(g, corners.reshape(-1, 2)).reshape(len(corners), 4).min(axis=1)
        keep = np.flatnonzero(gaps >= inset - 1e-9)
        if len(keep):
            clear = keep[~shapely.intersects(area, shapely.polygons(corners[keep]))]
            if len(clear):
                return (float(at[clear[0], 0]), float(at[clear[0], 1]), angles[clear[0]])
    return None


def place_label(
    side: Side, layout: SideLayout, style: Style, scale: float, text: str, moons: bool = False
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


def moon_discs(g: TileGeometry) -> tuple[tuple[float, float, float], ...]:
    """A back's corner marks as discs (x, y, radius) in tile units."""
    return tuple((MOON * x, MOON * y, 0.045) for x, y in g.corners())


def label_box(x: float, y: float, angle: float, size: float, text: str) -> list[tuple[float, float]]:
    """The estimated box of a label's text (any unit): 0.6 em a character, 0.75 em above the baseline, 0.075 below."""
    half = 0.3 * size * len(text)
    return [
        (x + p[0], y + p[1])
        for p in (
            rotate(q, math.radians(angle))
            for q in ((-half, -0.75 * size), (half, -0.75 * size), (half, 0.075 * size), (-half, 0.075 * size))
        )
    ]


def label_texts(tile_id: str, face: str, words: tuple[str, ...] = (), faces: int = 2) -> tuple[str, str]:
    """A side's label, long then short: ``("7 front", "7F")``, or in a language's ``words`` (the front's long and
    short forms, then the back's, each with ``{tile}``: ``"{tile} recto"``); a single-sided tile (``faces`` 1) has one
    face, and its label is its id alone."""
    if faces == 1:
        return tile_id, tile_id
    if not words:
        return f"{tile_id} {face}", f"{tile_id}{face[0].upper()}"
    long, short = words[0:2] if face == "front" else words[2:4]
    return long.format(tile=tile_id), short.format(tile=tile_id)


def label_svg(spot: tuple[float, float, float, float], style: Style, text: str, scale: float) -> str:
    x, y, angle, pt = spot
    size = pt * MM_PER_PT
    font = style.art.label_font if style.art is not None else None
    if font is not None:  # the theme's font, as outlines fitted to the box the label was placed by
        d, shrink = fitted(font, text, size)
        place = f"translate({num(scale * x)} {num(scale * y)}) rotate({num(angle)}) scale({num(shrink)})"
        return (
            f'<path class="label" data-text={quoteattr(text)} d="{d}" transform="{place}" fill="{style.label_colour}"/>'
        )
    return (
        f'<text x="0" y="0" transform="translate({num(scale * x)} {num(scale * y)}) rotate({num(angle)})" '
        f'font-family="{escape(style.label_font_family)}" font-size="{num(size)}" fill="{style.label_colour}" '
        f'text-anchor="middle">{escape(text)}</text>'
    )
