"""A tile side as print-ready SVG in a style and theme, on every geometry: the ground cut to the outline grown by
the bleed, the theme's ground and trail texture (``theme``), the painted trails, bridges and dead ends
(``paint``), grass tufts or the theme's decorations, a back's corner marks, and the label (``labels``).

Glossary
--------
across      the tile's width in tile units (corner to corner on a hexagon, 2; edge to edge on a square, sqrt 2):
            ``style.tile_width_mm`` is that width at the cut, so mm per tile unit is ``tile_width_mm / across``.
trail width the style's share of the tile's width on one end per edge; on two ends per edge, ``TWO_ENDS`` of it,
            so neighbouring exits keep ground between them. One width per geometry, so exits meet on the board.
body        the SVG elements of one side without the ``<svg>`` root, so a board preview can place sides on slots.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from generator import __version__
from generator.board.geometry import rotate
from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.model import Side, Tile
from generator.model.geometry import TileGeometry
from generator.render.labels import MIN_LABEL_PT, MOON, keep_off_shapes, label_svg, label_texts, moon_discs, place_label
from generator.render.paint import DECORATION, TEXTURE, bridge_svg, dead_end_svg, painted_trail
from generator.render.shapes import SideLayout, _exit, boundary_gap
from generator.render.side import layout_side
from generator.render.style import Style
from generator.render.svg import escape, num, points
from generator.render.theme import decorations, ground_layer, side_defs
from generator.units import MM_PER_PT

TWO_ENDS = 0.45  # a trail's width on two ends per edge, as a share of the one-end width (busy hex sides need it)


def across(g: TileGeometry) -> float:
    """The tile's width in tile units (its corners' extent along x)."""
    xs = [x for x, _ in g.corners()]
    return max(xs) - min(xs)


def scale_of(g: TileGeometry, style: Style) -> float:
    """mm per tile unit for tiles ``style.tile_width_mm`` wide."""
    return style.tile_width_mm / across(g)


def trail_width(g: TileGeometry, style: Style) -> float:
    """The drawn trail width in tile units: the classic share of the width, narrower with two ends per edge."""
    share = 1.0 if g.ends_per_edge == 1 else TWO_ENDS
    return round(style.trail_width * across(g) * share, 6)


def tile_size_mm(g: TileGeometry, style: Style) -> tuple[float, float]:
    """The tile's width and height at the cut (mm)."""
    s = scale_of(g, style)
    xs, ys = zip(*g.corners(), strict=True)
    return s * (max(xs) - min(xs)), s * (max(ys) - min(ys))


def outline_points(g: TileGeometry, radius: float, at: tuple[float, float] = (0.0, 0.0)) -> str:
    """The outline's corners for a circumradius ``radius`` (mm) centred ``at``, as SVG points."""
    return points(g.corners(), radius, at)


def grown_radius(g: TileGeometry, radius: float, mm: float) -> float:
    """The circumradius of the outline grown by ``mm`` on every edge."""
    return radius + mm / math.cos(math.pi / g.edges)


def side_layout(side: Side, style: Style) -> SideLayout:
    """The drawing of a side in this style's trail width."""
    return layout_side(side, trail_width(side.geometry, style))


def trail_path(g: TileGeometry, curves, scale: float, extend: float = 0.0, at=(0.0, 0.0), turn: int = 0) -> str:
    """An SVG path ``d`` (mm) for curves in tile units; a curve that starts or ends at an end runs on straight
    ``extend`` tile units out through the edge (to the bleed, or across a board slot's clearance)."""
    angle = 2 * math.pi * turn / g.edges
    ends = [np.asarray(g.end_point(e)) for e in range(g.ends)]
    normals = [-_exit(g, e)[1] for e in range(g.ends)]

    def xy(p) -> str:
        x, y = rotate((float(p[0]), float(p[1])), angle)
        return f"{num(at[0] + scale * x)} {num(at[1] + scale * y)}"

    def outward(p) -> np.ndarray | None:
        for e, q in enumerate(ends):
            if abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9:
                return q + extend * normals[e]
        return None

    parts, last = [], None
    for p0, p1, p2, p3 in curves:
        start, end = outward(p0), outward(p3)
        if start is not None and extend > 0:
            parts.append(f"M{xy(start)}L{xy(p0)}")
        elif last != p0:  # a curve that goes on from the last one's end goes on in the same stroke
            parts.append(f"M{xy(p0)}")
        last = None if end is not None and extend > 0 else p3
        parts.append(f"C{xy(p1)} {xy(p2)} {xy(p3)}")
        if end is not None and extend > 0:
            parts.append(f"L{xy(end)}")
    return "".join(parts)


def side_body(
    side: Side,
    face: str,
    style: Style,
    *,
    bleed_mm: float = 0.0,
    textured: bool = False,
    fills: tuple[str | None, ...] | None = None,
) -> str:
    """The SVG elements of a side centred at the origin (mm): trails, stubs and bridges, no ground. ``fills``
    overrides the sand colour of trail ``i`` (previews)."""
    g = side.geometry
    layout = side_layout(side, style)
    scale = scale_of(g, style)
    w = layout.width * scale
    extend = bleed_mm / scale + (1e-3 if bleed_mm > 0 else 0.0)
    out = []
    for i, shape in enumerate(layout.shapes):
        d = trail_path(g, shape.curves, scale, extend)
        junction = None if shape.junction is None else (scale * shape.junction[0], scale * shape.junction[1])
        hub = () if shape.hub is None else ((scale * shape.hub[0], scale * shape.hub[1]),)
        out.append(f'<g class="trail" data-trail="{i}">')
        fill = (fills[i] if fills else None) or style.trail_fill
        out.append(painted_trail(d, style, w, (fill, TEXTURE) if textured else (fill,), junction, hub))
        if shape.bar is not None:
            (x1, y1), (x2, y2) = shape.bar
            out.append(
                f'<path class="terminator" d="M{num(scale * x1)} {num(scale * y1)}L{num(scale * x2)} '
                f'{num(scale * y2)}" stroke="{style.trail_stub_end}" stroke-width="{num(0.34 * w)}" '
                'stroke-linecap="round"/>'
            )
        out.append("</g>")
        if shape.bar is not None and style.art is not None and style.art.dead_end is not None:
            out.append(dead_end_svg(shape.bar, style.art.dead_end, scale, 0.34 * w))
    out += [bridge_svg(layout, k, style, scale, style.ground(face)) for k in range(len(layout.bridges))]
    return "".join(out)


def _back_marks(g: TileGeometry, style: Style, scale: float) -> str:
    """A small moon near each corner of a back (or the theme's mark), as on the classic back."""
    if style.art is not None and style.art.back_mark is not None:
        mark = style.art.back_mark
        return "".join(
            mark.placed(scale * (x - r), scale * (y - r), 2 * r * scale, 2 * r * scale, "xMidYMid meet")
            for x, y, r in moon_discs(g)
        )
    out = []
    for k, (x, y, radius) in enumerate(moon_discs(g)):
        a = 2 * math.pi * k / g.edges
        cx, cy, r = x * scale, y * scale, radius * scale
        out.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}"/>')
        bx, by = cx + 0.45 * r * math.cos(a + 2.2), cy + 0.45 * r * math.sin(a + 2.2)
        out.append(f'<circle cx="{num(bx)}" cy="{num(by)}" r="{num(0.85 * r)}" fill="{style.tile_back_ground}"/>')
    return f'<g fill="{style.tile_mark_colour}">{"".join(out)}</g>'


@lru_cache(maxsize=1024)
def _tuft_spots(side: Side, width: float, avoid: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """Where tufts of grass go (tile units): the classic jittered lattice, clear of trails, edges and ``avoid``."""
    import shapely

    step, grid, k = 0.24, [], 0
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
    keep = boundary_gap(side.geometry, xy) >= 0.13
    trails, _ = keep_off_shapes(layout_side(side, width))
    keep &= shapely.distance(trails, shapely.points(xy)) >= 0.07
    for a in avoid:
        keep &= np.hypot(xy[:, 0] - a[0], xy[:, 1] - a[1]) >= 0.12
    return tuple((round(float(x), 4), round(float(y), 4)) for x, y in xy[keep])


def _tufts(side: Side, style: Style, scale: float, avoid) -> str:
    """Small tufts of grass on the ground (or the theme's decorations), never touching a trail."""
    spots = _tuft_spots(side, trail_width(side.geometry, style), tuple(avoid))
    if style.art is not None and style.art.decorations:
        return decorations(spots, style.art.decorations, scale * DECORATION, scale)
    if not spots:
        return ""
    s = 0.03 * scale
    blades = "".join(
        f"M{num(scale * x - 0.5 * s)} {num(scale * y)}l{num(-0.35 * s)} {num(-0.9 * s)}"
        f"M{num(scale * x)} {num(scale * y)}l0 {num(-1.2 * s)}"
        f"M{num(scale * x + 0.5 * s)} {num(scale * y)}l{num(0.35 * s)} {num(-0.9 * s)}"
        for x, y in spots
    )
    return (
        f'<path d="{blades}" fill="none" stroke="{style.tile_texture_colour}" '
        f'stroke-width="{num(0.6 * MM_PER_PT)}" stroke-linecap="round"/>'
    )


def _label(tile: Tile, face: str, side: Side, style: Style, scale: float):
    """(spot, text) of the side's label, or None; a one-line error when it has no room at any size."""
    text = ""
    for text in label_texts(tile.id, face, style.labels, tile.geometry.faces):
        spot = place_label(
            side, side_layout(side, style), style, scale, text, moons=face == "back" and style.tile_back_mark
        )
        if spot is not None:
            return spot, text
    raise TrailwrightError(
        f"tile {tile.id} {face}: no room for the label {text!r} on a {num(style.tile_width_mm)} mm tile, even at "
        f"{num(min(MIN_LABEL_PT, style.label_font_size_pt))} pt (use a shorter id, a larger tile, or turn labels "
        "off: [label] show = false or --no-labels)"
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


def _title(tile, face: str, style) -> str:
    """A side's SVG title: its label, or the tile and face in English (the tile alone when it has one face)."""
    if style.labels:
        return label_texts(tile.id, face, style.labels, tile.geometry.faces)[0]
    return f"Tile {tile.id}" if tile.geometry.faces == 1 else f"Tile {tile.id}, {face}"


def render_side(tile: Tile, face: str, style: Style, *, bleed_mm: float = 0.0, label: bool | None = None) -> str:
    """One side of a tile of any geometry as SVG text in mm, origin at the centre, art out to the bleed."""
    side = tile.face(face)
    g = side.geometry
    scale = scale_of(g, style)
    (w, h), b = tile_size_mm(g, style), bleed_mm
    layout = side_layout(side, style)
    grown = grown_radius(g, scale, b)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(w + 2 * b)}mm" height="{num(h + 2 * b)}mm" '
        f'viewBox="{num(-w / 2 - b)} {num(-h / 2 - b)} {num(w + 2 * b)} {num(h + 2 * b)}">',
        f"<title>{escape(_title(tile, face, style))}</title>",
        f"<metadata>{escape(dumps_json(side_metadata(tile, face, side, len(layout.bridges))))}</metadata>",
        f'<polygon class="outline" points="{outline_points(g, grown)}" fill="{style.ground(face)}"/>',
    ]
    art = style.art
    if art is not None:
        out.append(side_defs(art, grown, layout.width * scale, outline=outline_points(g, grown)))
        out.append(ground_layer(art, face, (-w / 2 - b, -h / 2 - b, w + 2 * b, h + 2 * b)))
    placed = _label(tile, face, side, style, scale) if (style.label_show if label is None else label) else None
    if style.tile_texture:
        avoid = [(x * MOON, y * MOON) for x, y in g.corners()]
        if placed is not None:
            (x, y, degrees, pt), text = placed
            reach, angle = 0.3 * pt * MM_PER_PT / scale * len(text), math.radians(degrees)
            avoid += [(x + t * reach * math.cos(angle), y + t * reach * math.sin(angle)) for t in (-1, -0.5, 0, 0.5, 1)]
        out.append(_tufts(side, style, scale, avoid))
    if face == "back" and style.tile_back_mark:
        out.append(_back_marks(g, style, scale))
    out.append(side_body(side, face, style, bleed_mm=b, textured=art is not None and art.trail is not None))
    if placed is not None:
        out.append(label_svg(placed[0], style, placed[1], scale))
    out.append("</svg>\n")
    return "".join(out)
