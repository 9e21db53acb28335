"""The board as SVG at the tiles' scale: slots, landmarks, connectors and wall.

Glossary
--------
mm          the unit of the board SVG; the origin is the top-left corner of the art.
clearance   how much larger than a tile each slot outline is on every side, so printed tiles
            fit; slots (and every other hex) sit on a grid whose pitch includes it.
frame       where every hex of the board lies on the page (``BoardFrame``).
wall        every hex around the board that is not a slot, landmark or connector.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from generator import __version__
from generator.board import Board, centre, neighbour
from generator.board.geometry import Hex
from generator.fileio import dumps_json
from generator.model import opposite
from generator.render.curves import APOTHEM, pair_curves, unit
from generator.render.paint import painted_trail
from generator.render.style import Style
from generator.render.svg import curves_path, escape, hexagon_points, num, points
from generator.render.theme import LANDMARK_ART, LANDMARK_DISC, board_defs
from generator.units import MM_PER_PT

MARGIN_MM = 6.0
_STONES = (
    (-0.35, -0.3, 0.14),
    (0.05, -0.42, 0.1),
    (0.38, -0.12, 0.16),
    (-0.1, 0.05, 0.18),
    (-0.45, 0.3, 0.1),
    (0.25, 0.38, 0.13),
    (-0.05, 0.5, 0.08),
    (0.55, 0.28, 0.07),
)  # (x, y, size) in tile units


@dataclass(frozen=True)
class BoardFrame:
    """The page geometry of a board: hex size with clearance, the offset and the art's size (mm)."""

    radius_mm: float  # circumradius of a slot (the tile's plus clearance)
    tile_radius_mm: float  # circumradius of a tile
    offset: tuple[float, float]
    width_mm: float
    height_mm: float
    walls: tuple[Hex, ...]

    def at(self, h: Hex) -> tuple[float, float]:
        """The centre of hex ``h`` on the page."""
        x, y = centre(h, self.radius_mm)
        return (x + self.offset[0], y + self.offset[1])


def _used(board: Board) -> list[Hex]:
    out = list(board.slots)
    for lm in board.landmarks:
        out += list(lm.hexes)
    out += [c.hex for c in board.connectors]
    return out


def board_frame(board: Board, style: Style, clearance_mm: float = 0.5) -> BoardFrame:
    """Where everything lies: wall around every slot, a margin around it all."""
    used = _used(board)
    taken = set(used)
    walls = sorted({neighbour(h, d) for h in board.slots for d in range(6)} - taken)
    radius = style.tile_width_mm / 2 + 2 * clearance_mm / math.sqrt(3)
    xs, ys = [], []
    for h in used + walls:
        x, y = centre(h, radius)
        xs += [x - radius, x + radius]
        ys += [y - radius * math.sqrt(3) / 2, y + radius * math.sqrt(3) / 2]
    offset = (MARGIN_MM - min(xs), MARGIN_MM - min(ys))
    return BoardFrame(
        radius,
        style.tile_width_mm / 2,
        offset,
        max(xs) - min(xs) + 2 * MARGIN_MM,
        max(ys) - min(ys) + 2 * MARGIN_MM,
        tuple(walls),
    )


def _trail(d: str, style: Style, w: float, fill: str | None = None, textured: bool = False) -> str:
    """A printed trail: its edge, its sand (or ``fill``) and, ``textured``, the theme's ``#tw-connector`` over it."""
    paint = fill or style.trail_fill
    return painted_trail(d, style, w, (paint, "url(#tw-connector)") if textured else (paint,))


def _wall(frame: BoardFrame, style: Style, scale: float) -> list[str]:
    """The wall's hexes: filled with the theme's wall art (``#tw-wall``), else the wall colour and its stones."""
    wall = "".join(f'<polygon points="{points(hexagon_points(frame.radius_mm, frame.at(h)))}"/>' for h in frame.walls)
    themed = style.art is not None and style.art.wall is not None
    out = [f'<g fill="{style.board_wall}">{wall}</g>'] if themed else []  # under the pattern: no seams between tiles
    out.append(
        f'<g fill="{"url(#tw-wall)" if themed else style.board_wall}" stroke="{style.board_wall_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{wall}</g>'
    )
    if themed:
        return out
    stones = "".join(
        f'<ellipse cx="{num(frame.at(h)[0] + scale * dx)}" cy="{num(frame.at(h)[1] + scale * dy)}" '
        f'rx="{num(scale * rx)}" ry="{num(scale * 0.6 * rx)}"/>'
        for h in frame.walls
        for dx, dy, rx in _STONES
    )
    return out + [
        f'<g fill="none" stroke="{style.board_wall_edge}" '
        f'stroke-width="{num(2 * style.board_slot_edge_pt * MM_PER_PT)}">{stones}</g>'
    ]


def _landmark_faces(board: Board, k: int) -> list[tuple[Hex, int]]:
    """The (hex, direction) faces of landmark ``k`` that meet a slot."""
    lm = board.landmarks[k]
    faces = []
    for s in lm.sides:
        slot_hex = board.slots[s.slot]
        d = opposite(s.direction)
        h = next(h for h in lm.hexes if neighbour(h, d) == slot_hex)
        faces.append((h, d))
    return faces


def connector_path(board: Board, frame: BoardFrame, i: int) -> str:
    """The SVG path of connector ``i``'s trail in board mm, running on into its two slots' clearance."""
    c = board.connectors[i]
    scale = frame.tile_radius_mm
    reach = 2 * (frame.radius_mm - frame.tile_radius_mm) * math.sqrt(3) / 2 / scale  # to the tile's edge
    da = next(d for d in range(6) if neighbour(c.hex, d) == board.slots[c.a.slot])
    db = next(d for d in range(6) if neighbour(c.hex, d) == board.slots[c.b.slot])
    return curves_path(pair_curves(min(da, db), max(da, db), 0.0), scale, reach, frame.at(c.hex))


def _label_font(style: Style) -> str:
    return f'font-family="{escape(style.label_font_family)}"'


def board_layers(
    board: Board, style: Style, frame: BoardFrame, *, fills: dict | None = None, slot_numbers: bool = True
) -> tuple[str, str]:
    """The board's art under the tiles and over them: (ground, slots, wall, connectors; landmarks).

    ``fills`` maps ``("connector", i)`` or ``("landmark", k)`` to a trail colour (previews).
    """
    fills = fills or {}
    scale = frame.tile_radius_mm
    w = 2 * style.trail_width * scale
    reach = 2 * (frame.radius_mm - frame.tile_radius_mm) * math.sqrt(3) / 2 / scale  # to the tile's edge
    art = style.art
    under = [board_defs(art, w, 2 * frame.radius_mm)] if art is not None else []
    under.append(f'<rect width="{num(frame.width_mm)}" height="{num(frame.height_mm)}" fill="{style.board_ground}"/>')
    under += _wall(frame, style, scale)
    textured = art is not None and (art.connector or art.trail) is not None
    slots = "".join(f'<polygon points="{points(hexagon_points(frame.radius_mm, frame.at(h)))}"/>' for h in board.slots)
    under.append(
        f'<g fill="{style.board_slot}" stroke="{style.board_slot_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{slots}</g>'
    )
    font = _label_font(style)
    if slot_numbers:
        size = style.board_font_size_pt * MM_PER_PT
        nums = "".join(
            f'<text x="{num(frame.at(h)[0])}" y="{num(frame.at(h)[1] + size * 0.35)}">{i + 1}</text>'
            for i, h in enumerate(board.slots)
        )
        under.append(
            f'<g {font} font-size="{num(size)}" fill="{style.board_slot_edge}" text-anchor="middle">{nums}</g>'
        )
    for i, c in enumerate(board.connectors):
        at = frame.at(c.hex)
        under.append(
            f'<polygon points="{points(hexagon_points(frame.radius_mm, at))}" '
            f'fill="{style.board_connector_ground}" stroke="{style.board_slot_edge}" '
            f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}"/>'
        )
        under.append(_trail(connector_path(board, frame, i), style, w, fills.get(("connector", i)), textured))
    over = [
        part
        for k in range(len(board.landmarks))
        for part in _landmark(board, style, frame, k, fills.get(("landmark", k)), w, reach)
    ]
    return "".join(under), "".join(over)


def _landmark(board: Board, style: Style, frame: BoardFrame, k: int, fill: str | None, w: float, reach: float):
    """Landmark ``k`` over the tiles: its hexes, a trail from every face it joins, its disc, picture and name."""
    lm, scale = board.landmarks[k], frame.tile_radius_mm
    font = _label_font(style)
    parts = []
    cells = "".join(f'<polygon points="{points(hexagon_points(frame.radius_mm, frame.at(h)))}"/>' for h in lm.hexes)
    parts.append(
        f'<g fill="{style.board_landmark}" stroke="{style.board_landmark_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{cells}</g>'
    )
    # every face's trail runs straight to its hex's centre; the hexes of one landmark are
    # joined centre to centre, and the name sits on the first hex
    paths = []
    for h, d in _landmark_faces(board, k):
        cx, cy = frame.at(h)
        out = (APOTHEM + reach) * unit(d)
        paths.append(f"M{num(cx + scale * out[0])} {num(cy + scale * out[1])}L{num(cx)} {num(cy)}")
    centres = [frame.at(h) for h in lm.hexes]
    for (x1, y1), (x2, y2) in pairwise(centres):
        paths.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
    parts.append(_trail("".join(paths), style, w, fill))
    for extra in centres[1:]:
        parts.append(
            f'<circle cx="{num(extra[0])}" cy="{num(extra[1])}" r="{num(0.2 * scale)}" '
            f'fill="{style.board_ground}" stroke="{style.board_landmark_edge}" '
            f'stroke-width="{num(1.2 * MM_PER_PT)}"/>'
        )
    hub = centres[0]
    r = LANDMARK_DISC * scale
    size = style.board_font_size_pt * MM_PER_PT
    parts.append(
        f'<circle cx="{num(hub[0])}" cy="{num(hub[1])}" r="{num(r)}" fill="{style.board_ground}" '
        f'stroke="{style.board_landmark_edge}" stroke-width="{num(1.2 * MM_PER_PT)}"/>'
    )
    parts.append(
        f'<circle cx="{num(hub[0])}" cy="{num(hub[1])}" r="{num(r - 1.0)}" fill="none" '
        f'stroke="{fill or style.board_landmark}" '
        f'stroke-width="{num(2.4 * MM_PER_PT)}"/>'
    )
    picture = style.art.landmark(lm.name) if style.art is not None else None
    if picture is not None:  # the theme's illustration above the name, its box inside the disc
        box = LANDMARK_ART * r
        parts.append(picture.placed(hub[0] - box / 2, hub[1] - 0.75 * r, box, box, "xMidYMid meet"))
    text_y = hub[1] + (0.62 * r if picture is not None else size * 0.35)
    parts.append(
        f'<text class="landmark-name" x="{num(hub[0])}" y="{num(text_y)}" {font} font-size="{num(size)}" '
        f'font-weight="bold" fill="{style.board_label_colour}" text-anchor="middle">'
        f"{escape(board.shown(lm.name))}</text>"
    )
    return parts


def render_board(board: Board, style: Style, *, clearance_mm: float = 0.5) -> str:
    """The board as SVG in mm, slots ``clearance_mm`` larger than the tiles on every side."""
    frame = board_frame(board, style, clearance_mm)
    under, over = board_layers(board, style, frame)
    meta = dumps_json(
        {
            "board": board.name,
            "slots": len(board.slots),
            "clearance_mm": clearance_mm,
            "tile_width_mm": style.tile_width_mm,
            "generator": f"trailwright {__version__}",
        }
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(frame.width_mm)}mm" '
        f'height="{num(frame.height_mm)}mm" viewBox="0 0 {num(frame.width_mm)} {num(frame.height_mm)}">'
        f"<title>{escape(board.shown())}</title><metadata>{escape(meta)}</metadata>"
        f"{under}{over}</svg>\n"
    )
