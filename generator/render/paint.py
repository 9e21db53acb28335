"""The paint of a drawn side, shared by the tiles and the board's printed trails: a trail with its edge and sand
(``painted_trail``), a bridge's deck, gap and shadow (``bridge_svg``) and a theme's dead-end art (``dead_end_svg``).

Glossary
--------
mm          the unit of every SVG this module writes; the origin is the tile's centre.
scale       mm per tile unit (``tiles.scale_of``).
deck        a bridge's timber: a rectangle along the upper trail, over the lower trail.
"""

from __future__ import annotations

import math

from generator.board.geometry import rotate
from generator.render.shapes import SideLayout
from generator.render.style import Style
from generator.render.svg import num, points
from generator.units import MM_PER_PT

TEXTURE = "url(#tw-trail)"  # the theme's trail texture, a pattern in the side's <defs>
DECORATION = 0.045  # half the box of a theme's decoration, in tile units (tufts' spots are 0.07 clear of trails)


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


def bridge_svg(layout: SideLayout, k: int, style: Style, scale: float, ground: str) -> str:
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


def dead_end_svg(bar, art, scale: float, thickness: float) -> str:
    """The theme's dead-end art over a stop bar (tile units), stretched along it and cut to the bar's own
    footprint (its length by ``thickness`` mm), so it covers nothing the bar does not."""
    (x1, y1), (x2, y2) = bar
    length = scale * math.hypot(x2 - x1, y2 - y1)
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    frame = f"translate({num(scale * (x1 + x2) / 2)} {num(scale * (y1 + y2) / 2)}) rotate({num(angle)})"
    placed = art.placed(-length / 2, -thickness / 2, length, thickness)
    return f'<g class="dead-end-art" transform="{frame}">{placed}</g>'
