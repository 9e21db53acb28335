"""The virtual tables' plain board and side art on any tile geometry (``generator.model.geometry``), in board mm,
on the layout stage's own frame (``generator.render.board.BoardFrame``): the play table, the rooms and Tabletop
Simulator place tiles on that frame, so a slot drawn here is where a tile lands. The classic board keeps the
layout stage's styled art; every other geometry is drawn here from the geometry's facts alone: outlines from
``corners()``, connector trails between ``end_point``s.

Glossary
--------
tile radius   the circumradius (mm) that makes a tile ``style.tile_width_mm`` wide: a flat-topped hex
              across its corners, a square across its sides.
"""

from __future__ import annotations

import math
from html import escape

from generator.board import Board
from generator.model import Tile
from generator.model.geometry import Point, TileGeometry
from generator.render.board import BoardFrame
from generator.render.style import Style
from generator.render.svg import num
from generator.units import MM_PER_PT


def tile_radius(geometry: TileGeometry, width_mm: float) -> float:
    """The circumradius (mm) of a tile ``width_mm`` wide."""
    xs = [x for x, _ in geometry.corners()]
    return width_mm / (max(xs) - min(xs))


def inward(geometry: TileGeometry, end: int) -> Point:
    """The inward unit normal of the edge end ``end`` lies on."""
    corners, edge = geometry.corners(), geometry.edge_of(end)
    (x0, y0), (x1, y1) = corners[edge], corners[(edge + 1) % geometry.edges]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    norm = math.hypot(mx, my)
    return (-mx / norm, -my / norm)


def _points(corners) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def connector_trails(board: Board, frame: BoardFrame, i: int) -> list[tuple[int, str]]:
    """Connector ``i``'s printed trails as (end of its first slot, SVG path in board mm): end ``p`` of the one
    edge runs to end ``m - 1 - p`` of the other (``TileGeometry.meeting``), so they never cross."""
    g, c = frame.geometry, board.connectors[i]
    ea = next(e for e in range(g.edges) if g.neighbour(c.hex, e) == board.slots[c.a.slot])
    eb = next(e for e in range(g.edges) if g.neighbour(c.hex, e) == board.slots[c.b.slot])
    (cx, cy), r = frame.at(c.hex), frame.radius_mm
    out = []
    for p in range(g.ends_per_edge):
        a, b = g.end_at(ea, p), g.end_at(eb, g.meeting(p))
        (ax, ay), (bx, by) = g.end_point(a), g.end_point(b)
        (nax, nay), (nbx, nby) = inward(g, a), inward(g, b)
        h = 0.45 * math.hypot(bx - ax, by - ay)
        pts = [(ax, ay), (ax + h * nax, ay + h * nay), (bx + h * nbx, by + h * nby), (bx, by)]
        x = [(cx + r * u, cy + r * v) for u, v in pts]
        d = f"M{num(x[0][0])},{num(x[0][1])} C" + " ".join(f"{num(u)},{num(v)}" for u, v in x[1:])
        facing = g.facing_end(g.end_at(ea, p))  # the end of the slot's tile this trail meets
        out.append((facing, d))
    return out


def board_layers(board: Board, style: Style, frame: BoardFrame) -> tuple[str, str]:
    """The board's art under the tiles (ground, wall, slots, connectors) and over them (landmarks and names)."""
    edge = f'stroke="{style.board_slot_edge}" stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}"'
    under = [f'<rect width="{num(frame.width_mm)}" height="{num(frame.height_mm)}" fill="{style.board_ground}"/>']
    walls = "".join(f'<polygon points="{_points(frame.outline(c))}"/>' for c in frame.walls)
    under.append(f'<g fill="{style.board_wall}" stroke="{style.board_wall_edge}">{walls}</g>')
    slots = "".join(f'<polygon points="{_points(frame.outline(c))}"/>' for c in board.slots)
    under.append(f'<g fill="{style.board_slot}" {edge}>{slots}</g>')
    w = style.trail_width * style.tile_width_mm  # a trail's width, as the style sets it
    for i, c in enumerate(board.connectors):
        under.append(
            f'<polygon points="{_points(frame.outline(c.hex))}" fill="{style.board_connector_ground}" {edge}/>'
        )
        under += [
            f'<path d="{d}" fill="none" stroke="{style.trail_fill}" stroke-width="{num(w)}"/>'
            for _, d in connector_trails(board, frame, i)
        ]
    size = style.board_font_size_pt * MM_PER_PT
    font = f'font-family="{escape(style.label_font_family)}" font-size="{num(size)}"'
    over = []
    for lm in board.landmarks:
        cells = "".join(f'<polygon points="{_points(frame.outline(c))}"/>' for c in lm.hexes)
        over.append(f'<g fill="{style.board_landmark}" stroke="{style.board_landmark_edge}">{cells}</g>')
        x = sum(frame.at(c)[0] for c in lm.hexes) / len(lm.hexes)
        y = sum(frame.at(c)[1] for c in lm.hexes) / len(lm.hexes)
        over.append(
            f'<text class="landmark-name" x="{num(x)}" y="{num(y + size * 0.35)}" {font} '
            f'fill="{style.board_label_colour}" text-anchor="middle">{escape(board.shown(lm.name))}</text>'
        )
    return "".join(under), "".join(over)


def board_svg(board: Board, style: Style, frame: BoardFrame) -> str:
    """The board as a standalone SVG in board mm (the mat Tabletop Simulator shows)."""
    under, over = board_layers(board, style, frame)
    w, h = num(frame.width_mm), num(frame.height_mm)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
        f"{under}{over}</svg>\n"
    )


def side_art(style: Style):
    """Side art of any geometry (``generator.render.raster.SideArt``): ``side.plain_svg`` at the style's tile width,
    its root the tile's circumscribed box (plus the bleed) centred on the tile, in mm."""
    from generator.render.side import plain_svg

    def art(tile: Tile, face: str, bleed_mm: float) -> str:
        side = tile.face(face)
        r = tile_radius(side.geometry, style.tile_width_mm)
        inner = plain_svg(side, 2 * r)
        inner = inner[inner.index(">", inner.index("<svg")) + 1 : inner.rindex("</svg>")]
        half = r + bleed_mm
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(2 * half)}mm" height="{num(2 * half)}mm" '
            f'viewBox="{num(-half)} {num(-half)} {num(2 * half)} {num(2 * half)}">'
            f'<g transform="translate({num(-r)} {num(-r)})">{inner}</g></svg>\n'
        )

    return art
