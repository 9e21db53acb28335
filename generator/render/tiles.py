"""Tile sides as print-ready SVG: ground, trails with verges, stub terminators, bridges, label.

Glossary
--------
mm          the unit of every SVG this module writes; the origin is the tile's centre.
scale       mm per tile unit: half the tile's corner-to-corner width (see ``geometry``).
bleed       extra art beyond the cut on every side: the ground and the trails run on to the
            hexagon grown by ``bleed_mm``, so a wandering cut never shows paper.
body        the SVG elements of one side without the ``<svg>`` root, so a board preview can
            place sides on slots.
deck        a bridge's timber: a rectangle along the upper trail, over the lower trail.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache

from generator import __version__
from generator.board.geometry import hexagon_corners, rotate
from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.model import Side, Tile
from generator.render.geometry import APOTHEM, SideLayout, layout_side, sample
from generator.render.outlines import fitted
from generator.render.style import Style
from generator.render.svg import curves_path, escape, hexagon_points, num, points
from generator.render.theme import decorations, ground_layer, side_defs
from generator.units import MM_PER_PT

SAFE_ZONE_MM = 3.175  # 1/8 in inside the cut (The Game Crafter)
TEXTURE = "url(#tw-trail)"  # the theme's trail texture, a pattern in the side's <defs>
DECORATION = 0.045  # half the box of a theme's decoration, in tile units (tufts' spots are 0.07 clear of trails)


def side_layout(side: Side, style: Style) -> SideLayout:
    """The geometry of a side in this style's trail width."""
    return layout_side(side, 2 * style.trail_width)


def _bridge(layout: SideLayout, k: int, style: Style, scale: float, ground: str) -> str:
    """One bridge: a gap and a shadow (cast down and to the right) on the lower trail, the deck, planks, parapets.

    The deck outline is a ``<polygon class="deck">`` in the side's own coordinates, so a test
    can read where each bridge is; the planks and rails are drawn in the deck's frame.
    """
    b = layout.bridges[k]
    w = layout.width * scale
    half_l, half_w = layout.deck_length(b) / 2 * scale, layout.deck_width() / 2 * scale
    cx, cy = scale * b.centre[0], scale * b.centre[1]

    def box(x0, y0, x1, y1, shift=(0.0, 0.0)):
        return points(
            [
                (cx + shift[0] + x, cy + shift[1] + y)
                for x, y in (rotate(p, b.angle) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
            ]
        )

    rail = style.bridge_rail_pt * MM_PER_PT
    plank = style.bridge_plank_pt * MM_PER_PT
    gap, shadow = 0.16 * w, 0.2 * w
    out = [
        f'<g class="bridge" data-upper="{b.upper}" data-lower="{b.lower}">',
        f'<polygon points="{box(-half_l, -half_w - gap, half_l, half_w + gap)}" fill="{ground}"/>',
        f'<polygon points="{box(-half_l + 0.1 * w, -half_w, half_l - 0.1 * w, half_w, (0.6 * shadow, shadow))}" '
        f'fill="{style.bridge_shadow}" fill-opacity="{num(style.bridge_shadow_opacity)}"/>',
        f'<polygon class="deck" points="{box(-half_l, -half_w, half_l, half_w)}" fill="{style.bridge_deck}" '
        f'stroke="{style.bridge_rail}" stroke-width="{num(plank)}" stroke-linejoin="round"/>',
    ]
    frame = f'<g transform="translate({num(cx)} {num(cy)}) rotate({num(math.degrees(b.angle))})"'
    if style.art is not None and style.art.bridge is not None:  # the theme's bridge, stretched to the deck, cut to it
        out.append(f"{frame}>{style.art.bridge.placed(-half_l, -half_w, 2 * half_l, 2 * half_w)}</g></g>")
        return "".join(out)
    out.append(f'{frame} stroke="{style.bridge_rail}" fill="none">')
    planks = max(3, int(2 * half_l / (0.16 * w)))
    step = 2 * half_l / planks
    lines = "".join(f"M{num(-half_l + i * step)} {num(-half_w + rail)}V{num(half_w - rail)}" for i in range(1, planks))
    out.append(f'<path d="{lines}" stroke-width="{num(plank)}" stroke-opacity="0.6"/>')
    rails = "".join(f"M{num(-half_l)} {num(y)}H{num(half_l)}" for y in (-half_w + rail / 2, half_w - rail / 2))
    out.append(f'<path d="{rails}" stroke-width="{num(rail)}" stroke-linecap="round"/>')
    post = 1.7 * rail
    posts = "".join(
        f'<rect x="{num(x - post / 2)}" y="{num(y - post / 2)}" width="{num(post)}" height="{num(post)}"/>'
        for x in (-half_l + post / 2, half_l - post / 2)
        for y in (-half_w + rail / 2, half_w - rail / 2)
    )
    out.append(f'<g fill="{style.bridge_rail}" stroke="none">{posts}</g></g></g>')
    return "".join(out)


def _dead_end(bar, art, scale: float, thickness: float) -> str:
    """The theme's dead-end art over a stop bar (tile units), stretched along it and cut to the bar's own
    footprint (its length by ``thickness`` mm), so it covers nothing the bar does not."""
    (x1, y1), (x2, y2) = bar
    length = scale * math.hypot(x2 - x1, y2 - y1)
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    frame = f"translate({num(scale * (x1 + x2) / 2)} {num(scale * (y1 + y2) / 2)}) rotate({num(angle)})"
    placed = art.placed(-length / 2, -thickness / 2, length, thickness)
    return f'<g class="dead-end-art" transform="{frame}">{placed}</g>'


def side_body(
    side: Side,
    face: str,
    style: Style,
    *,
    bleed_mm: float = 0.0,
    fills: tuple[str | None, ...] | None = None,
    ground: str | None = None,
    textured: bool = False,
) -> str:
    """The SVG elements of a side centred at the origin (mm): trails, stubs and bridges, no ground.

    ``fills`` overrides the sand colour of trail ``i`` (for previews); ``ground`` is the colour
    a bridge's gap is painted in (the side's ground by default); ``textured`` paints the theme's
    trail texture over the sand (its pattern defined by ``theme_defs``).
    """
    layout = side_layout(side, style)
    scale = style.tile_width_mm / 2
    w = layout.width * scale
    edge = style.trail_edge_pt * MM_PER_PT
    extend = bleed_mm / scale + (1e-3 if bleed_mm > 0 else 0.0)
    ground = ground or style.ground(face)
    out = []
    for i, shape in enumerate(layout.shapes):
        d = curves_path(shape.curves, scale, extend)
        fill = fills[i] if fills and fills[i] else style.trail_fill
        out.append(f'<g class="trail" data-trail="{i}">')
        out.append(
            f'<path d="{d}" fill="none" stroke="{style.trail_edge}" stroke-width="{num(w)}" stroke-linejoin="round"/>'
        )
        if shape.junction is not None:
            jx, jy = scale * shape.junction[0], scale * shape.junction[1]
            out.append(f'<circle cx="{num(jx)}" cy="{num(jy)}" r="{num(w / 2)}" fill="{style.trail_edge}"/>')
        for paint in (fill, TEXTURE) if textured else (fill,):
            out.append(
                f'<path d="{d}" fill="none" stroke="{paint}" stroke-width="{num(w - 2 * edge)}" '
                'stroke-linejoin="round"/>'
            )
            if shape.junction is not None:
                out.append(f'<circle cx="{num(jx)}" cy="{num(jy)}" r="{num(w / 2 - edge)}" fill="{paint}"/>')
        if shape.terminator is not None:
            (x1, y1), (x2, y2) = shape.terminator
            out.append(
                f'<path class="terminator" d="M{num(scale * x1)} {num(scale * y1)}'
                f'L{num(scale * x2)} {num(scale * y2)}" stroke="{style.trail_stub_end}" '
                f'stroke-width="{num(0.34 * w)}" stroke-linecap="round"/>'
            )
        out.append("</g>")
        if shape.terminator is not None and style.art is not None and style.art.dead_end is not None:
            out.append(_dead_end(shape.terminator, style.art.dead_end, scale, 0.34 * w))
    for k in range(len(layout.bridges)):
        out.append(_bridge(layout, k, style, scale, ground))
    return "".join(out)


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


def _trail_area(side: Side, width: float):
    """Everything drawn for a side's trails, in tile units, as one shapely shape (the caller's own)."""
    from shapely import from_wkb

    return from_wkb(_trail_area_wkb(side, width))


def _bridge_area(side: Side, width: float):
    """Every bridge's gap, shadow and deck, in tile units, as one shapely shape (it overhangs the trails)."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    layout = layout_side(side, width)
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

    area = _trail_area(side, width).union(_bridge_area(side, width))
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


def label_texts(tile_id: str, face: str) -> tuple[str, str]:
    """A side's label, long then short: ``("7 front", "7F")``."""
    return f"{tile_id} {face}", f"{tile_id}{face[0].upper()}"


MIN_LABEL_PT = 4.0  # labels shrink in half-point steps down to this before a side is refused


def _label_spot(side: Side, style: Style, text: str, moons: bool = False) -> tuple[float, float, float, float] | None:
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


def _label(spot: tuple[float, float, float, float], style: Style, text: str, scale: float) -> str:
    x, y, angle, pt = spot
    size = pt * MM_PER_PT
    font = style.art.label_font if style.art is not None else None
    if font is not None:  # the theme's font, as outlines fitted to the box the label was placed by
        d, shrink = fitted(font, text, size)
        place = f"translate({num(scale * x)} {num(scale * y)}) rotate({num(angle)}) scale({num(shrink)})"
        return (
            f'<path class="label" data-text="{escape(text)}" d="{d}" transform="{place}" fill="{style.label_colour}"/>'
        )
    return (
        f'<text x="0" y="0" transform="translate({num(scale * x)} {num(scale * y)}) rotate({num(angle)})" '
        f'font-family="{escape(style.label_font_family)}" font-size="{num(size)}" fill="{style.label_colour}" '
        f'text-anchor="middle">{escape(text)}</text>'
    )


def _back_marks(style: Style, scale: float) -> str:
    """A small moon in each corner of a back (or the theme's mark), so a back reads at a glance in any rotation."""
    if style.art is not None and style.art.back_mark is not None:
        mark = style.art.back_mark
        return "".join(
            mark.placed(scale * (x - r), scale * (y - r), 2 * r * scale, 2 * r * scale, "xMidYMid meet")
            for x, y, r in moon_discs()
        )
    out = []
    for k, (x, y, radius) in enumerate(moon_discs()):
        a = math.radians(60 * k)
        cx, cy, r = x * scale, y * scale, radius * scale
        out.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"/>')
        bx, by = cx + 0.45 * r * math.cos(a + 2.2), cy + 0.45 * r * math.sin(a + 2.2)
        out.append(f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(0.85 * r)}" fill="{style.tile_back_ground}"/>')
    return f'<g fill="{style.tile_mark_colour}">{"".join(out)}</g>'


@lru_cache(maxsize=1024)
def _tuft_spots(side: Side, width: float, avoid: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """Where tufts of grass go (tile units): a jittered lattice, clear of trails, edges and ``avoid``."""
    import numpy as np
    import shapely

    from generator.render.geometry import boundary_gap

    step = 0.24
    grid = []
    k = 0
    for j in range(-4, 5):
        for i in range(-5, 6):
            k += 1
            grid.append(
                (
                    step * (i + (j % 2) / 2) + ((k * 0.618034) % 1 - 0.5) * step * 0.7,
                    step * j * 0.866 + ((k * 0.754878) % 1 - 0.5) * step * 0.7,
                )
            )
    xy = np.array(grid)
    keep = boundary_gap(xy) >= 0.13
    keep &= shapely.distance(_trail_area(side, width), shapely.points(xy)) >= 0.07
    for a in avoid:
        keep &= np.hypot(xy[:, 0] - a[0], xy[:, 1] - a[1]) >= 0.12
    spots = [(round(float(x), 4), round(float(y), 4)) for x, y in xy[keep]]
    return tuple(spots)


def _tufts(side: Side, style: Style, scale: float, avoid) -> str:
    """Small tufts of grass on the ground (or the theme's decorations): texture that never touches a trail."""
    spots = _tuft_spots(side, round(2 * style.trail_width, 6), tuple(avoid))
    if style.art is not None and style.art.decorations:
        return decorations(spots, style.art.decorations, scale * DECORATION, scale)
    s = 0.03 * scale
    blades = "".join(
        f"M{num(scale * x - 0.5 * s)} {num(scale * y)}l{num(-0.35 * s)} {num(-0.9 * s)}"
        f"M{num(scale * x)} {num(scale * y)}l0 {num(-1.2 * s)}"
        f"M{num(scale * x + 0.5 * s)} {num(scale * y)}l{num(0.35 * s)} {num(-0.9 * s)}"
        for x, y in spots
    )
    return (
        (
            f'<path d="{blades}" fill="none" stroke="{style.tile_texture_colour}" '
            f'stroke-width="{num(0.6 * MM_PER_PT)}" stroke-linecap="round"/>'
        )
        if spots
        else ""
    )


def side_metadata(tile: Tile, face: str, side: Side, bridges: int) -> dict:
    """What a side's SVG records about itself."""
    return {
        "tile": tile.id,
        "face": face,
        "trails": side.names(),
        "bridges": bridges,
        "generator": f"trailwright {__version__}",
    }


def render_side(tile: Tile, face: str, style: Style, *, bleed_mm: float = 0.0, label: bool | None = None) -> str:
    """One side of a tile as SVG text in mm, origin at the centre, art out to the bleed."""
    side = tile.face(face)
    w, h, b = style.tile_width_mm, style.tile_height_mm, bleed_mm
    scale = w / 2
    layout = side_layout(side, style)
    meta = dumps_json(side_metadata(tile, face, side, len(layout.bridges)))
    ground = style.ground(face)
    grown = scale + 2 * b / math.sqrt(3)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(w + 2 * b)}mm" height="{num(h + 2 * b)}mm" '
        f'viewBox="{num(-w / 2 - b)} {num(-h / 2 - b)} {num(w + 2 * b)} {num(h + 2 * b)}">',
        f"<title>Tile {escape(tile.id)}, {face}</title>",
        f"<metadata>{escape(meta)}</metadata>",
        f'<polygon points="{points(hexagon_points(grown))}" fill="{ground}"/>',
    ]
    art = style.art
    textured = art is not None and art.trail is not None
    if art is not None:
        out.append(side_defs(art, grown, layout.width * scale))
        out.append(ground_layer(art, face, (-w / 2 - b, -h / 2 - b, w + 2 * b, h + 2 * b)))
    show_label = style.label_show if label is None else label
    spot = None
    if show_label:  # "120 front", or "120F" where the long form has no room
        for text in label_texts(tile.id, face):
            spot = _label_spot(side, style, text, moons=face == "back" and style.tile_back_mark)
            if spot is not None:
                break
    if show_label and spot is None:
        raise TrailwrightError(
            f"tile {tile.id} {face}: no room for the label {text!r} on a {num(w)} mm tile, even at "
            f"{num(min(MIN_LABEL_PT, style.label_font_size_pt))} pt (use a shorter id, a larger "
            f"tile, or turn labels off: [label] show = false or --no-labels)"
        )
    if style.tile_texture:
        avoid = list(hexagon_corners(0.78))
        if spot is not None:
            size = spot[3] * MM_PER_PT / scale
            reach = 0.3 * size * len(text)
            angle = math.radians(spot[2])
            avoid += [
                (spot[0] + t * reach * math.cos(angle), spot[1] + t * reach * math.sin(angle))
                for t in (-1, -0.5, 0, 0.5, 1)
            ]
        out.append(_tufts(side, style, scale, avoid))
    if face == "back" and style.tile_back_mark:
        out.append(_back_marks(style, scale))
    out.append(side_body(side, face, style, bleed_mm=b, textured=textured))
    if spot is not None:
        out.append(_label(spot, style, text, scale))
    out.append("</svg>\n")
    return "".join(out)
