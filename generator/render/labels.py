"""A tile side's label ("7 front"): where it fits, inside the safe zone and clear of the art, and how it is drawn
(the style's font as SVG text, or a theme's label font as outlines, ``render.outlines``).

Glossary
--------
keep-off    what a label keeps ``LABEL_AIR_MM`` clear of: the trails, the bridges and, on a back, the moons.
label box   the estimated box of a label's text (``label_box``: 0.6 em a character); placement proves the box
            clear, and outlines are fitted inside it.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache

from generator.board.geometry import hexagon_corners, rotate
from generator.model import Side
from generator.render.curves import APOTHEM, sample
from generator.render.geometry import layout_side
from generator.render.outlines import fitted
from generator.render.style import Style
from generator.render.svg import escape, num, quoteattr
from generator.units import MM_PER_PT

SAFE_ZONE_MM = 3.175  # 1/8 in inside the cut (The Game Crafter)


# Shapely geometries are never shared between threads (publish draws sides on a thread pool): GEOS
# prepared geometries are not thread-safe, and two threads querying one crashed publish with a segfault.
# So the caches hold shapes as WKB bytes, each call builds its own geometry, and a prepared shape is
# prepared and cached per thread (``_keep_off``).


@lru_cache(maxsize=1024)
def _trail_area_wkb(side: Side, width: float) -> bytes:
    from shapely import to_wkb
    from shapely.geometry import LineString
    from shapely.ops import unary_union

    layout = layout_side(side, width)
    parts = []
    for shape in layout.shapes:
        for curve in shape.curves:
            parts.append(LineString(sample(curve, 32)).buffer(width / 2))
        if shape.terminator is not None:
            parts.append(LineString(shape.terminator).buffer(width / 4))
    return to_wkb(unary_union(parts))


def trail_area(side: Side, width: float):
    """Everything drawn for a side's trails, in tile units, as one shapely shape (the caller's own)."""
    from shapely import from_wkb

    return from_wkb(_trail_area_wkb(side, width))


def bridge_area(side: Side, width: float):
    """Every bridge's gap, shadow and deck, in tile units, as one shapely shape (it overhangs the trails)."""
    return bridge_shape(layout_side(side, width), width)


def bridge_shape(layout, width: float):
    """Every bridge's gap, shadow and deck of a drawn side (``SideLayout`` or ``AnyLayout``), in tile units."""
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


LABEL_AIR_MM = 0.5  # the least gap between a label and any trail, bridge or decoration


def moon_discs() -> tuple[tuple[float, float, float], ...]:
    """The back's corner moons as discs (x, y, radius) in tile units."""
    return tuple((x, y, 0.045) for x, y in hexagon_corners(0.78))


@lru_cache(maxsize=1024)
def _keep_off_wkb(side: Side, width: float, air: float, moons: bool) -> bytes:
    import shapely
    from shapely.geometry import Point

    area = trail_area(side, width).union(bridge_area(side, width))
    if moons:
        area = area.union(shapely.union_all([Point(x, y).buffer(r) for x, y, r in moon_discs()]))
    return shapely.to_wkb(area.buffer(air))


def _prepared_keep_off(side: Side, width: float, air: float, moons: bool):
    import shapely

    area = shapely.from_wkb(_keep_off_wkb(side, width, air, moons))
    shapely.prepare(area)
    return area


_THREAD = threading.local()


def _keep_off(side: Side, width: float, air: float, moons: bool):
    """What a label keeps ``air`` clear of (tile units): trails, stubs and bridges, and a back's moons; prepared,
    and this thread's own (see above)."""
    cached = getattr(_THREAD, "keep_off", None)
    if cached is None:
        cached = _THREAD.keep_off = lru_cache(maxsize=256)(_prepared_keep_off)
    return cached(side, width, air, moons)


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


def _first_spot(
    side: Side, style: Style, text: str, size: float, wide: bool, moons: bool = False
) -> tuple[float, float, float] | None:
    """The first spot (x, y, degrees) in tile units for a label ``size`` tile units tall, or None.

    Tried first: near the corners along an edge, hugging the safe zone, the bottom edge first.
    With ``wide``, then every spot along every edge and stepping inward into open ground.
    """
    import numpy as np
    import shapely

    from generator.render.geometry import boundary_gap

    scale = style.tile_width_mm / 2
    length = 0.6 * size * len(text)
    inset = SAFE_ZONE_MM / scale
    air = round(max(0.025, LABEL_AIR_MM / scale), 6)
    area = _keep_off(side, round(2 * style.trail_width, 6), air, moons)
    reach = 0.48 if not moons else 0.39 - 0.045 - air  # a back's labels start inside its corner moons
    if wide:
        offsets = [0.025 * k for k in range(-24, 25)]
        steps = [0.03 * k for k in range(0, 30)]
    else:
        offsets, steps = None, [0.0]
    for step in steps:  # the first clear spot of the nearest step: tried a step at a time, in one batch each
        centres, angles, boxes = [], [], []
        for d in (3, 0, 2, 4, 1, 5):  # the bottom edge first
            upright = d in (2, 3, 4)
            along = np.array([math.cos(math.radians(60 * d)), math.sin(math.radians(60 * d))])
            normal = np.array([math.sin(math.radians(60 * d)), -math.cos(math.radians(60 * d))])
            if upright:
                along = -along
            base = APOTHEM - inset - (0.0 if upright else size * 0.75) - step
            if offsets is None:
                tries = [towards * (reach - 0.025 * k - length / 2) for towards in (-1, 1) for k in range(12)]
            else:
                tries = sorted(offsets, key=lambda o: (-abs(o), o))  # nearer the corners first
            flip = 1 if upright else -1
            corner = np.array(
                [
                    along * sx * length / 2 + normal * sy * size * 0.75 * flip
                    for sx, sy in ((-1, 0.1), (1, 0.1), (1, -1.0), (-1, -1.0))
                ]
            )
            here = normal * base + np.array(tries)[:, None] * along  # every try on this edge at once
            centres.append(here)
            angles += [math.degrees(math.atan2(along[1], along[0]))] * len(tries)
            boxes.append(here[:, None, :] + corner[None, :, :])
        at, corners = np.concatenate(centres), np.concatenate(boxes)
        inside = boundary_gap(corners.reshape(-1, 2)).reshape(len(corners), 4).min(axis=1) >= inset - 1e-9
        keep = np.flatnonzero(inside)
        if not len(keep):
            continue
        clear = keep[~shapely.intersects(area, shapely.polygons(corners[keep]))]
        if len(clear):
            return (float(at[clear[0], 0]), float(at[clear[0], 1]), angles[clear[0]])
    return None


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


MIN_LABEL_PT = 4.0  # labels shrink in half-point steps down to this before a side is refused


def label_spot(side: Side, style: Style, text: str, moons: bool = False) -> tuple[float, float, float, float] | None:
    """Where a label fits (x, y, degrees, font size in pt), in tile units: inside the safe zone, clear of the art.

    The style's size near a corner first (as always), then anywhere along or inside an edge, then
    smaller sizes in half points down to ``MIN_LABEL_PT``.
    """
    scale = style.tile_width_mm / 2
    sizes = [style.label_font_size_pt]
    while sizes[-1] - 0.5 >= MIN_LABEL_PT - 1e-9:
        sizes.append(sizes[-1] - 0.5)
    for i, pt in enumerate(sizes):
        size = pt * MM_PER_PT / scale
        for wide in (False, True) if i == 0 else (True,):
            spot = _first_spot(side, style, text, size, wide, moons)
            if spot is not None:
                return (*spot, pt)
    return None


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
