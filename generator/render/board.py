"""The board as SVG at the tiles' scale, in a style and theme, on every tile geometry: slots, landmarks,
connectors and wall on the geometry's own grid.

Glossary
--------
mm          the unit of the board SVG; the origin is the top-left corner of the art.
clearance   how much larger than a tile each slot outline is on every side, so printed tiles fit; cells sit at
            ``TileGeometry.cell_centre`` on a pitch that includes it, each the tile's outline (``corners()``).
frame       where every cell of the board lies on the page (``BoardFrame``).
wall        every cell across a slot's edge or corner that holds nothing.
landmark    its cells filled; a trail runs in from every end of every edge it shares with a slot, and its cells meet
            at one disc that carries its name.
connector   a cell with ``m`` printed trails, end ``p`` of one edge to end ``m - 1 - p`` of the other, so they never
            cross.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator import __version__
from generator.board import Board
from generator.fileio import dumps_json
from generator.model.geometry import TileGeometry
from generator.render.paint import painted_trail
from generator.render.shapes import _arc, _edges, _exit
from generator.render.style import Style
from generator.render.svg import escape, num
from generator.render.theme import LANDMARK_ART, LANDMARK_DISC, board_defs
from generator.render.tiles import grown_radius, outline_points, scale_of, trail_path, trail_width
from generator.units import MM_PER_PT

MARGIN_MM = 6.0
CLEARANCE_MM = 0.5  # how much larger than a tile a slot is on every side, by default
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


def _trail(d: str, style: Style, w: float, fill: str | None = None, textured: bool = False) -> str:
    """A printed trail: its edge, its sand (or ``fill``) and, ``textured``, the theme's ``#tw-connector`` over it."""
    paint = fill or style.trail_fill
    return painted_trail(d, style, w, (paint, "url(#tw-connector)") if textured else (paint,))


Cell = tuple[int, int]


@dataclass(frozen=True)
class BoardFrame:
    """Where every cell lies on the page (mm): slot circumradius, tile circumradius, offset, size and wall."""

    geometry: TileGeometry
    radius_mm: float
    tile_radius_mm: float
    offset: tuple[float, float]
    width_mm: float
    height_mm: float
    walls: tuple[Cell, ...]

    def at(self, cell: Cell) -> tuple[float, float]:
        """The centre of ``cell`` on the page."""
        x, y = self.geometry.cell_centre(cell)
        return (x * self.radius_mm + self.offset[0], y * self.radius_mm + self.offset[1])

    def outline(self, cell: Cell, radius: float | None = None) -> list[tuple[float, float]]:
        """The corners of ``cell`` (a slot's, or a tile's with ``radius = tile_radius_mm``), clockwise."""
        cx, cy = self.at(cell)
        r = self.radius_mm if radius is None else radius
        return [(cx + r * x, cy + r * y) for x, y in self.geometry.corners()]

    def hub(self, cells) -> tuple[float, float]:
        """The middle of ``cells`` on the page: where a landmark's cells meet, at its disc."""
        centres = [self.at(c) for c in cells]
        return (sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres))

    def cell(self, cell: Cell, kind: str = "") -> str:
        """The polygon of a slot-sized cell (of class ``kind``: board-slot, board-landmark, board-connector; a
        table's own ``slot`` targets lie over them)."""
        named = f' class="{kind}"' if kind else ""
        return f'<polygon{named} points="{outline_points(self.geometry, self.radius_mm, self.at(cell))}"/>'

    @property
    def reach(self) -> float:
        """From a cell's tile edge across both clearances to the next cell's tile edge (where a tile's trail ends),
        in tile units."""
        g = self.geometry
        return 2 * (self.radius_mm - self.tile_radius_mm) * _edges(g)[0] / self.tile_radius_mm


def _used(board: Board) -> list[Cell]:
    return list(board.slots) + [c for lm in board.landmarks for c in lm.hexes] + [c.hex for c in board.connectors]


def _touching(g: TileGeometry, cells) -> list[Cell]:
    """The cells that share an edge or a corner with any of ``cells`` (centres at most two circumradii apart)."""
    out = []
    for c in cells:
        x, y = g.cell_centre(c)
        near = {g.neighbour(g.neighbour(c, e), f) for e in range(g.edges) for f in range(g.edges)}
        out += [n for n in near if np.hypot(g.cell_centre(n)[0] - x, g.cell_centre(n)[1] - y) <= 2 + 1e-9 and n != c]
    return out


def board_frame(board: Board, style: Style, clearance_mm: float = CLEARANCE_MM) -> BoardFrame:
    """Where everything lies: the wall round every slot, a margin round it all."""
    g = board.geometry
    used = _used(board)
    walls = sorted(set(_touching(g, board.slots)) - set(used))
    tile = scale_of(g, style)
    radius = grown_radius(g, tile, clearance_mm)
    corners = np.array(g.corners()) * radius
    spots = np.array([g.cell_centre(c) for c in used + walls]) * radius
    every = (spots[:, None, :] + corners[None]).reshape(-1, 2)
    low, high = every.min(axis=0), every.max(axis=0)
    offset = (MARGIN_MM - float(low[0]), MARGIN_MM - float(low[1]))
    size = high - low + 2 * MARGIN_MM
    return BoardFrame(g, radius, tile, offset, float(size[0]), float(size[1]), tuple(walls))


def _wall(frame: BoardFrame, style: Style) -> list[str]:
    """The wall's cells: the theme's wall art (``#tw-wall``), else the wall colour and its stones."""
    wall = "".join(frame.cell(c) for c in frame.walls)
    themed = style.art is not None and style.art.wall is not None
    out = [f'<g fill="{style.board_wall}">{wall}</g>'] if themed else []
    out.append(
        f'<g fill="{"url(#tw-wall)" if themed else style.board_wall}" stroke="{style.board_wall_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{wall}</g>'
    )
    if themed:
        return out
    s = frame.tile_radius_mm
    stones = "".join(
        f'<ellipse cx="{num(frame.at(c)[0] + s * dx)}" cy="{num(frame.at(c)[1] + s * dy)}" '
        f'rx="{num(s * rx)}" ry="{num(s * 0.6 * rx)}"/>'
        for c in frame.walls
        for dx, dy, rx in _STONES
    )
    return out + [
        f'<g fill="none" stroke="{style.board_wall_edge}" '
        f'stroke-width="{num(2 * style.board_slot_edge_pt * MM_PER_PT)}">{stones}</g>'
    ]


def connector_trails(board: Board, frame: BoardFrame, i: int) -> list[tuple[int, str]]:
    """Connector ``i``'s ``m`` printed trails in board mm, each running on into its slots' clearance, as (the end
    of its first slot's tile the trail meets, SVG path): end ``p`` of the one edge runs to end ``m - 1 - p`` of the
    other (``TileGeometry.meeting``), so they never cross."""
    g, c = board.geometry, board.connectors[i]
    ea = next(e for e in range(g.edges) if g.neighbour(c.hex, e) == board.slots[c.a.slot])
    eb = next(e for e in range(g.edges) if g.neighbour(c.hex, e) == board.slots[c.b.slot])
    out = []
    for p in range(g.ends_per_edge):
        curve = _arc(_exit(g, g.end_at(ea, p)), _exit(g, g.end_at(eb, g.meeting(p))))
        d = trail_path(g, (curve,), frame.tile_radius_mm, frame.reach, frame.at(c.hex))
        out.append((g.facing_end(g.end_at(ea, p)), d))
    return out


def connector_path(board: Board, frame: BoardFrame, i: int) -> str:
    """Connector ``i``'s printed trails as one SVG path (``connector_trails``)."""
    return "".join(d for _, d in connector_trails(board, frame, i))


def _slots(board: Board, style: Style, frame: BoardFrame, slot_numbers: bool) -> list[str]:
    cells = "".join(frame.cell(c, "board-slot") for c in board.slots)
    out = [
        f'<g fill="{style.board_slot}" stroke="{style.board_slot_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{cells}</g>'
    ]
    if slot_numbers:
        size = style.board_font_size_pt * MM_PER_PT
        nums = "".join(
            f'<text x="{num(frame.at(c)[0])}" y="{num(frame.at(c)[1] + size * 0.35)}">{i + 1}</text>'
            for i, c in enumerate(board.slots)
        )
        out.append(
            f'<g font-family="{escape(style.label_font_family)}" font-size="{num(size)}" '
            f'fill="{style.board_slot_edge}" text-anchor="middle">{nums}</g>'
        )
    return out


def board_layers(
    board: Board, style: Style, frame: BoardFrame, *, fills: dict | None = None, slot_numbers: bool = True
) -> tuple[str, str]:
    """The board's art under the tiles and over them: (ground, wall, slots, connectors; landmarks)."""
    fills = fills or {}
    w = trail_width(board.geometry, style) * frame.tile_radius_mm
    art = style.art
    under = [board_defs(art, w, 2 * frame.radius_mm)] if art is not None else []
    under.append(f'<rect width="{num(frame.width_mm)}" height="{num(frame.height_mm)}" fill="{style.board_ground}"/>')
    under += _wall(frame, style)
    under += _slots(board, style, frame, slot_numbers)
    textured = art is not None and (art.connector or art.trail) is not None
    for i, c in enumerate(board.connectors):
        under.append(
            f'<g fill="{style.board_connector_ground}" stroke="{style.board_slot_edge}" '
            f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{frame.cell(c.hex, "board-connector")}</g>'
        )
        under.append(_trail(connector_path(board, frame, i), style, w, fills.get(("connector", i)), textured))
    over = [part for k in range(len(board.landmarks)) for part in _landmark(board, style, frame, k, fills, w)]
    return "".join(under), "".join(over)


def _landmark(board: Board, style: Style, frame: BoardFrame, k: int, fills: dict, w: float) -> list[str]:
    """Landmark ``k`` over the tiles: its cells, a trail in from every end it shares with a slot, each cell
    joined to the hub (the cells' middle), its disc, picture and name."""
    g, lm, scale = board.geometry, board.landmarks[k], frame.tile_radius_mm
    fill = fills.get(("landmark", k))
    cells = "".join(frame.cell(c, "board-landmark") for c in lm.hexes)
    parts = [
        f'<g fill="{style.board_landmark}" stroke="{style.board_landmark_edge}" '
        f'stroke-width="{num(style.board_slot_edge_pt * MM_PER_PT)}">{cells}</g>'
    ]
    hub = frame.hub(lm.hexes)
    paths, met = [], set()
    to_hub = f"L{num(hub[0])} {num(hub[1])}" if len(lm.hexes) > 1 else ""  # one stroke, turning round at the cell
    for s in lm.sides:
        edge = g.opposite(s.direction)
        cell = next(c for c in lm.hexes if g.neighbour(c, edge) == board.slots[s.slot])
        cx, cy = frame.at(cell)
        met.add(cell)
        for end in g.ends_of(edge):
            p, inward = _exit(g, end)
            out = p - frame.reach * inward
            paths.append(f"M{num(cx + scale * out[0])} {num(cy + scale * out[1])}L{num(cx)} {num(cy)}{to_hub}")
    if to_hub:  # a cell no slot meets is joined to the hub too
        paths += [f"M{num(frame.at(c)[0])} {num(frame.at(c)[1])}{to_hub}" for c in lm.hexes if c not in met]
    parts.append(_trail("".join(paths), style, w, fill))
    r = LANDMARK_DISC * scale
    size = style.board_font_size_pt * MM_PER_PT
    line = num(1.2 * MM_PER_PT)
    parts.append(
        f'<circle cx="{num(hub[0])}" cy="{num(hub[1])}" r="{num(r)}" fill="{style.board_ground}" '
        f'stroke="{style.board_landmark_edge}" stroke-width="{line}"/>'
        f'<circle cx="{num(hub[0])}" cy="{num(hub[1])}" r="{num(r - 1.0)}" fill="none" '
        f'stroke="{fill or style.board_landmark}" stroke-width="{num(2.4 * MM_PER_PT)}"/>'
    )
    picture = style.art.landmark(lm.name) if style.art is not None else None
    if picture is not None:
        box = LANDMARK_ART * r
        parts.append(picture.placed(hub[0] - box / 2, hub[1] - 0.75 * r, box, box, "xMidYMid meet"))
    parts.append(
        f'<text class="landmark-name" x="{num(hub[0])}" y="{num(hub[1] + (0.62 * r if picture else size * 0.35))}" '
        f'font-family="{escape(style.label_font_family)}" font-size="{num(size)}" font-weight="bold" '
        f'fill="{style.board_label_colour}" text-anchor="middle">{escape(board.shown(lm.name))}</text>'
    )
    return parts


def render_board(board: Board, style: Style, *, clearance_mm: float = CLEARANCE_MM) -> str:
    """The board as SVG in mm, slots ``clearance_mm`` larger than the tiles on every side."""
    frame = board_frame(board, style, clearance_mm)
    under, over = board_layers(board, style, frame)
    meta = {
        "board": board.name,
        "slots": len(board.slots),
        "clearance_mm": clearance_mm,
        "tile_width_mm": style.tile_width_mm,
        "geometry": board.geometry.to_dict(),
        "generator": f"trailwright {__version__}",
    }
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(frame.width_mm)}mm" '
        f'height="{num(frame.height_mm)}mm" viewBox="0 0 {num(frame.width_mm)} {num(frame.height_mm)}">'
        f"<title>{escape(board.shown())}</title><metadata>{escape(dumps_json(meta))}</metadata>"
        f"{under}{over}</svg>\n"
    )
