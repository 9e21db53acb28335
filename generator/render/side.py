"""Drawing a tile side of any geometry (``generator.model.geometry``), the classic hexagon among them: the layout
of a side, turned from its design's, and a plain SVG of a side.

Exits are at ``TileGeometry.end_point`` (tile units: circumradius 1, y down), each leaving its edge along the
inward normal. A trail of two ends is the natural arc where one joins its exits (on the classic hexagon, every
pair), else one cubic or a bow through a point off its chord; one of three or more is a tee off a natural arc,
branches to a junction on a lattice, two hubs joined by a link, or an H; a stub is a short run inward ending in a
bar (``shapes``). ``sidesearch`` picks one shape per trail so that every two trails cross exactly
``pair_crossings`` times and every bridge deck keeps apart; ``layout_side(side).bridges`` are read back from the
sampled curves, so a drawing with the wrong number of bridges cannot be made. ``tiles`` paints a layout in a style
and theme; ``plain_svg`` is the plain drawing (no style), for looking at a layout.
"""

from __future__ import annotations

import math

from generator.model import Side
from generator.render.decks import deck_box
from generator.render.proof import body
from generator.render.shapes import GROUND, TRAIL, WIDTH, Bridge, SideLayout, _turn, _turn_shape
from generator.render.sidesearch import (
    _deck_covers,
    _decks_apart,
    _pair_cached,
    _pair_geometry,
    _pair_sound,
    _unfit,
    _usable,
    layout_canonical,
)


def layout_side(side: Side, width: float = WIDTH) -> SideLayout:
    """The drawing of ``side`` with trails ``width`` wide (tile units): its design's drawing, turned, with
    exactly ``side.min_crossings`` bridges."""
    g = side.geometry
    canonical = side.canonical
    steps = next(k for k in range(g.rotations) if canonical.rotated(k) == side)
    base = layout_canonical(canonical, round(width, 6))
    turned = [_turn_shape(g, s, steps) for s in base.shapes]
    index = [side.trails.index(s.trail) for s in turned]  # canonical trail -> this side's trail
    shapes = sorted(zip(index, turned, strict=True))
    angle = 2 * math.pi * steps / g.edges
    bridges = tuple(
        Bridge(_turn(b.centre, angle), b.angle + angle, index[b.upper], index[b.lower], b.crossing_angle)
        for b in base.bridges
    )
    return SideLayout(side, tuple(s for _, s in shapes), bridges, base.width, base.crowded)


def clear_caches() -> None:
    """Forget every searched drawing (for timing a cold start)."""
    for cached in (
        _usable,
        _unfit,
        _pair_cached,
        _pair_geometry,
        _pair_sound,
        _decks_apart,
        _deck_covers,
        layout_canonical,
        deck_box,
        body,
    ):
        cached.cache_clear()


def plain_svg(
    side: Side,
    size_mm: float = 50.0,
) -> str:
    """A side as a plain standalone SVG: the outline, the trails, an end dot at each end and a bridge deck at
    each crossing (a ``<g class="bridge">``, so the drawing's bridges can be read back). The styled drawing is
    ``tiles.render_side``'s."""
    g = side.geometry
    layout = layout_side(side)
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
