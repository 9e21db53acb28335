"""The kit's art for tiles of another geometry than the classic game's, from ``generator.render.anyside``.

Glossary
--------
unit span   the width of a tile of circumradius 1 (``TileGeometry.corners()``): 2 for the flat-topped hexagon,
            sqrt(2) for a square. A tile ``w`` mm wide has circumradius ``w / span`` mm.
side art    as ``generator.publish.art``: ``(tile, face, bleed_mm) -> SVG`` in mm, the tile's centre at the
            origin, the cut outline's box grown by the bleed. Here ``svg_any``'s drawing, re-centred, over the
            bleed outline filled with its ground colour (so the art runs past the cut).

The side art and the board come only from ``svg_any(side, size_mm=...)`` and ``board_svg_any(board, ...)``,
whose ``size_mm`` and ``cell_mm`` are twice the tile's circumradius in mm.
"""

from __future__ import annotations

import re

from generator.model import Tile
from generator.model.geometry import TileGeometry
from generator.publish.art import SideArt
from generator.publish.outline import Outline

CLEARANCE_MM = 0.5  # how much larger than a tile each slot on the board is, on every side (as ``render``'s)
_VIEWBOX = re.compile(r'viewBox="([-\d.eE+]+) ([-\d.eE+]+) ([-\d.eE+]+) ([-\d.eE+]+)"')
_WIDTH = re.compile(r'\swidth="([\d.eE+]+)mm"')


def unit_span(geometry: TileGeometry) -> float:
    """The width of ``geometry``'s tile of circumradius 1."""
    xs = [x for x, _ in geometry.corners()]
    return max(xs) - min(xs)


def centred(svg: str) -> tuple[float, str]:
    """An SVG's drawing, without its root, moved so its viewBox's centre is the origin and scaled to mm:
    (the root's width in mm, the drawing as a ``<g>``)."""
    start = svg.find("<svg")
    head_end = svg.find(">", start)
    head = svg[start:head_end]
    box, width = _VIEWBOX.search(head), _WIDTH.search(head)
    if box is None or width is None:
        raise ValueError("svg_any's drawing has no viewBox or width in mm")
    x0, y0, vw, vh = (float(v) for v in box.groups())
    scale = float(width.group(1)) / vw
    body = svg[head_end + 1 : svg.rfind("</svg>")]
    transform = f"scale({scale:.6f}) translate({-(x0 + vw / 2):.4f},{-(y0 + vh / 2):.4f})"
    return float(width.group(1)), f'<g transform="{transform}">{body}</g>'


def any_art(width_mm: float, labels: bool = True) -> SideArt:
    """The side art of tiles ``width_mm`` wide (``labels`` is taken for the classic art's signature: these
    drawings carry none yet)."""
    from generator.render.anyside import GROUND, svg_any

    def art(tile: Tile, face: str, bleed_mm: float) -> str:
        g = tile.geometry
        outline = Outline.of(g)
        w, h = width_mm + 2 * bleed_mm, outline.height(width_mm) + 2 * bleed_mm
        bled = " ".join(f"{x:.4f},{-y:.4f}" for x, y in outline.bleed(0.0, 0.0, width_mm, bleed_mm))
        _, drawing = centred(svg_any(tile.face(face), size_mm=2 * width_mm / unit_span(g)))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.4f}mm" height="{h:.4f}mm" '
            f'viewBox="{-w / 2:.4f} {-h / 2:.4f} {w:.4f} {h:.4f}">\n'
            f'<polygon class="bleed" points="{bled}" fill="{GROUND}"/>\n'
            f"{_trails_into_bleed(g, width_mm, bleed_mm)}{drawing}\n</svg>\n"
        )

    return art


def _trails_into_bleed(g: TileGeometry, width_mm: float, bleed_mm: float) -> str:
    """Each end's trail run on past the cut through the bleed, along its edge's outward normal, so a cut a
    little off still meets the trail at the edge."""
    from generator.render.anyside import TRAIL, WIDTH

    if bleed_mm <= 0:
        return ""
    radius = width_mm / unit_span(g)
    corners = g.corners()
    lines = []
    for end in range(g.ends):
        edge = g.edge_of(end)
        (ax, ay), (bx, by) = corners[edge], corners[(edge + 1) % g.edges]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        norm = (mx * mx + my * my) ** 0.5
        x, y = (v * radius for v in g.end_point(end))
        x2, y2 = x + mx / norm * (bleed_mm + 0.5), y + my / norm * (bleed_mm + 0.5)
        lines.append(f"M{x:.4f},{y:.4f} L{x2:.4f},{y2:.4f}")
    return (
        f'<path class="bleed-trails" d="{" ".join(lines)}" fill="none" stroke="{TRAIL}" '
        f'stroke-width="{WIDTH * radius:.4f}"/>\n'
    )


def any_board_svg(board, tile_width_mm: float) -> str:
    """The board drawn for tiles ``tile_width_mm`` wide, each slot ``CLEARANCE_MM`` larger on every side."""
    from generator.render.anyside import board_svg_any

    return board_svg_any(board, cell_mm=2 * (tile_width_mm + 2 * CLEARANCE_MM) / unit_span(board.geometry))
