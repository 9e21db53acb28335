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
from functools import lru_cache

from generator import __version__
from generator.board.geometry import hexagon_corners, rotate
from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.model import Side, Tile
from generator.render.geometry import SideLayout, layout_side
from generator.render.labels import MIN_LABEL_PT, label_spot, label_svg, label_texts, moon_discs, trail_area
from generator.render.style import Style
from generator.render.svg import curves_path, escape, hexagon_points, num, points
from generator.render.theme import decorations, ground_layer, side_defs
from generator.units import MM_PER_PT

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


def painted_trail(
    d: str,
    style: Style,
    w: float,
    paints: tuple[str, ...],
    junction: tuple[float, float] | None = None,
    more: tuple[tuple[float, float], ...] = (),
) -> str:
    """A trail ``w`` mm wide along path ``d``: its edge, then each paint (the sand, a texture) inside the edge; a
    ``junction`` (mm) where three exits meet, and each of ``more``, is rounded with a disc in each. The tiles and
    the board's printed trails both draw theirs with it."""
    edge = style.trail_edge_pt * MM_PER_PT
    discs = [f'<circle cx="{num(x)}" cy="{num(y)}" ' for x, y in ([junction] if junction else []) + list(more)]
    out = [f'<path d="{d}" fill="none" stroke="{style.trail_edge}" stroke-width="{num(w)}" stroke-linejoin="round"/>']
    out += [f'{disc}r="{num(w / 2)}" fill="{style.trail_edge}"/>' for disc in discs]
    for paint in paints:
        out.append(
            f'<path d="{d}" fill="none" stroke="{paint}" stroke-width="{num(w - 2 * edge)}" stroke-linejoin="round"/>'
        )
        out += [f'{disc}r="{num(w / 2 - edge)}" fill="{paint}"/>' for disc in discs]
    return "".join(out)


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
    extend = bleed_mm / scale + (1e-3 if bleed_mm > 0 else 0.0)
    ground = ground or style.ground(face)
    out = []
    for i, shape in enumerate(layout.shapes):
        d = curves_path(shape.curves, scale, extend)
        fill = (fills[i] if fills else None) or style.trail_fill
        out.append(f'<g class="trail" data-trail="{i}">')
        junction = None if shape.junction is None else (scale * shape.junction[0], scale * shape.junction[1])
        out.append(painted_trail(d, style, w, (fill, TEXTURE) if textured else (fill,), junction))
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
    keep &= shapely.distance(trail_area(side, width), shapely.points(xy)) >= 0.07
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
        f"<title>{escape(label_texts(tile.id, face, style.labels)[0] if style.labels else f'Tile {tile.id}, {face}')}"
        "</title>",
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
        for text in label_texts(tile.id, face, style.labels):
            spot = label_spot(side, style, text, moons=face == "back" and style.tile_back_mark)
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
        out.append(label_svg(spot, style, text, scale))
    out.append("</svg>\n")
    return "".join(out)
