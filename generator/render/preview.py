"""Maze previews: random layouts of a tile set on its board, as the scorer samples them.

Glossary
--------
layout      tile ``perm[s]`` in slot ``s``, its back up if ``flip[s]``, turned ``rot[s]`` sixths
            clockwise (``generator.scoring.kernel.sample_layouts``, the scorer's own sampler).
reach       the trails joined to a landmark in a layout's graph (``scoring.reference.layout_graph``);
            a preview paints each landmark's reach in its own colour and fades the rest.
sheet       several layouts of the same seed side by side (``--count N``).
"""

from __future__ import annotations

import math

import networkx as nx

from generator import __version__
from generator.board import Board
from generator.fileio import dumps_json
from generator.model import Side, TileSet
from generator.render.board import board_frame, board_layers
from generator.render.style import Style
from generator.render.svg import escape, hexagon_points, num, points
from generator.render.tiles import side_body
from generator.scoring.kernel import sample_layouts
from generator.scoring.reference import layout_graph, placed_sides
from generator.units import MM_PER_PT

SHEET_GAP_MM = 8.0
CAPTION_MM = 9.0


def layouts(tileset: TileSet, board: Board, seed: int, count: int = 1):
    """The first ``count`` layouts the scorer draws from ``seed``: ``(perm, flip, rot)`` rows."""
    perm, flip, rot = sample_layouts(len(board.slots), count, seed)
    return [
        (tuple(int(x) for x in perm[i]), tuple(int(x) for x in flip[i]), tuple(int(x) for x in rot[i]))
        for i in range(count)
    ]


def _reach(board: Board, sides: list[Side], style: Style) -> tuple[dict, dict, list[str]]:
    """Colours of reached trails ``(slot, trail)`` and board pieces, and which landmark pairs join."""
    graph = layout_graph(board, sides)
    colours: dict = {}
    names = [lm.name for lm in board.landmarks]
    for k, name in enumerate(names):
        if name not in graph or name in colours:
            continue
        colour = style.preview_highlight[k % len(style.preview_highlight)]
        for v in nx.node_connected_component(graph, name):
            colours.setdefault(v, colour)
    joined = [
        f"{names[a]}-{names[b]}"
        for a, b in board.landmark_pairs()
        if names[a] in graph and names[b] in graph and nx.has_path(graph, names[a], names[b])
    ]
    pieces = {("landmark", k): colours.get(name) for k, name in enumerate(names)}
    for i, c in enumerate(board.connectors):
        pieces[("connector", i)] = colours.get((c.a.slot, sides[c.a.slot].trail_of(c.a.direction)))
    return colours, pieces, joined


def _layout_art(
    tileset: TileSet, board: Board, style: Style, layout, highlight: bool, at=(0.0, 0.0)
) -> tuple[str, dict]:
    """One layout's elements placed at ``at`` (mm), and facts about it."""
    perm, flip, rot = layout
    frame = board_frame(board, style, 0.5)
    sides = placed_sides(tileset, perm, flip, rot)
    colours, pieces, joined = _reach(board, sides, style) if highlight else ({}, {}, [])
    under, over = board_layers(board, style, frame, fills=pieces if highlight else None, slot_numbers=False)
    out = [f'<g transform="translate({num(at[0])} {num(at[1])})">', under]
    for s, h in enumerate(board.slots):
        tile = tileset.tiles[perm[s]]
        face = "back" if flip[s] else "front"
        printed = tile.face(face)
        fills = None
        faded = False
        if highlight:
            turned = sides[s]
            fills = tuple(colours.get((s, turned.trail_of((t[0] + rot[s]) % 6))) for t in printed.trails)
            faded = all(f is None for f in fills)
        x, y = frame.at(h)
        hexagon = points(hexagon_points(style.tile_width_mm / 2))
        body = side_body(printed, face, style, fills=fills)
        opacity = f' opacity="{num(1 - style.preview_unreached_opacity)}"' if faded else ""
        out.append(
            f'<g transform="translate({num(x)} {num(y)}) rotate({60 * rot[s]})"{opacity}>'
            f'<polygon points="{hexagon}" fill="{style.ground(face)}"/>{body}</g>'
        )
    out.append(over)
    out.append("</g>")
    facts = {"tiles": [tileset.tiles[p].id for p in perm], "flip": list(flip), "rot": list(rot), "joined": joined}
    return "".join(out), facts


def _caption(text: str, x: float, y: float, style: Style) -> str:
    size = style.board_font_size_pt * MM_PER_PT
    return (
        f'<text x="{num(x)}" y="{num(y + size)}" font-family="{escape(style.label_font_family)}" '
        f'font-size="{num(size)}" fill="{style.board_label_colour}">{escape(text)}</text>'
    )


def render_preview(tileset: TileSet, board: Board, style: Style, seed: int, *, highlight: bool = True) -> str:
    """The first layout the scorer draws from ``seed``, on the board, each landmark's reach in colour."""
    return render_sheet(tileset, board, style, seed, 1, highlight=highlight)


def render_sheet(
    tileset: TileSet,
    board: Board,
    style: Style,
    seed: int,
    count: int,
    *,
    highlight: bool = True,
    columns: int | None = None,
) -> str:
    """The first ``count`` layouts from ``seed`` side by side, each captioned with the pairs it joins."""
    frame = board_frame(board, style, 0.5)
    columns = columns or min(count, max(1, math.ceil(math.sqrt(count))))
    rows = math.ceil(count / columns)
    cell_w, cell_h = frame.width_mm, frame.height_mm + CAPTION_MM
    width = columns * cell_w + (columns - 1) * SHEET_GAP_MM
    height = rows * cell_h + (rows - 1) * SHEET_GAP_MM
    parts, facts = [], []
    for i, layout in enumerate(layouts(tileset, board, seed, count)):
        x = (i % columns) * (cell_w + SHEET_GAP_MM)
        y = (i // columns) * (cell_h + SHEET_GAP_MM)
        art, fact = _layout_art(tileset, board, style, layout, highlight, (x, y))
        parts.append(art)
        pairs = len(board.landmark_pairs())
        text = f"seed {seed}, layout {i + 1}: {len(fact['joined'])} of {pairs} landmark pairs joined"
        parts.append(_caption(text, x + 6, y + frame.height_mm, style))
        facts.append(fact)
    meta = dumps_json(
        {
            "board": board.name,
            "seed": seed,
            "count": count,
            "highlight": highlight,
            "layouts": facts,
            "generator": f"trailwright {__version__}",
        }
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}mm" height="{num(height)}mm" '
        f'viewBox="0 0 {num(width)} {num(height)}"><title>Maze preview, seed {seed}</title>'
        f"<metadata>{escape(meta)}</metadata>"
        f'<rect width="{num(width)}" height="{num(height)}" fill="#ffffff"/>{"".join(parts)}</svg>\n'
    )


def render_contact_sheet(tileset: TileSet, style: Style, *, columns: int = 10) -> str:
    """Every side of a tile set at print size: the fronts, then the backs, in rows of ``columns``."""
    from generator.render.tiles import render_side

    w, h = style.tile_width_mm, style.tile_height_mm
    gap = 3.0
    pitch_x, pitch_y = 0.75 * w + gap, h + gap
    cells = [(tile, face) for face in ("front", "back") for tile in tileset]
    per_face_rows = math.ceil(len(tileset) / columns)
    width = (columns - 1) * pitch_x + w + 2 * gap
    shift = h / 2 + 2 * gap  # the backs start below the fronts' lowered columns
    height = 2 * per_face_rows * pitch_y + h / 2 + shift + gap
    out = []
    for n, (tile, face) in enumerate(cells):
        k = n % len(tileset)
        row = (k // columns) + (per_face_rows if face == "back" else 0)
        col = k % columns
        x = gap + w / 2 + col * pitch_x
        y = gap + h / 2 + row * pitch_y + (h / 2 + gap / 2 if col % 2 else 0) + (shift if face == "back" else 0)
        svg = render_side(tile, face, style)
        inner = svg[svg.index(">") + 1 : svg.rindex("</svg>")]
        out.append(f'<g transform="translate({num(x)} {num(y)})">{inner}</g>')
    meta = dumps_json({"tiles": len(tileset), "generator": f"trailwright {__version__}"})
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}mm" height="{num(height)}mm" '
        f'viewBox="0 0 {num(width)} {num(height)}"><title>Every tile side</title>'
        f"<metadata>{escape(meta)}</metadata>"
        f'<rect width="{num(width)}" height="{num(height)}" fill="#ffffff"/>{"".join(out)}</svg>\n'
    )
