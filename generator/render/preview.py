"""Maze previews: the scorer's own random layouts of a tile set drawn on its board (``board``) with the sides in
the style (``tiles``), on every tile geometry; and a contact sheet of every side.

Glossary
--------
layout      tile ``perm[s]`` in slot ``s``, its back up if ``flip[s]``, turned ``rot[s]`` steps clockwise (the
            scorer's own sampler, ``kernel.board_layouts``).
reach       the trails joined to a landmark in a layout's graph (``scoring.reference.layout_graph``); a preview
            paints each landmark's reach in its own colour and fades the rest.
sheet       several layouts of the same seed side by side (``--count N``).
"""

from __future__ import annotations

import math

import networkx as nx

from generator import __version__
from generator.board import Board
from generator.fileio import dumps_json
from generator.model import FACES, Side, TileSet
from generator.render.board import board_frame, board_layers
from generator.render.style import Style
from generator.render.svg import escape, num
from generator.render.tiles import outline_points, render_side, scale_of, side_body, tile_size_mm
from generator.scoring.reference import layout_graph, placed_sides
from generator.units import MM_PER_PT

SHEET_GAP_MM = 8.0
CAPTION_MM = 9.0


def layouts(tileset: TileSet, board: Board, seed: int, count: int = 1):
    """The first ``count`` layouts the scorer draws from ``seed`` (``kernel.board_layouts``, its own sampler):
    ``(perm, flip, rot)`` rows."""
    from generator.scoring.kernel import board_layouts
    from generator.scoring.tables import board_arrays

    perm, flip, rot = board_layouts(board_arrays(board), count, seed)
    return [(tuple(map(int, perm[i])), tuple(map(int, flip[i])), tuple(map(int, rot[i]))) for i in range(count)]


def _reach(board: Board, sides: list[Side], style: Style) -> tuple[dict, dict, list[str]]:
    """Colours of reached trails ``(slot, trail)`` and board pieces, and which landmark pairs join."""
    graph = layout_graph(board, sides)
    colours: dict = {}
    names = [lm.name for lm in board.landmarks]
    for k, name in enumerate(names):
        if name in graph and name not in colours:
            colour = style.preview_highlight[k % len(style.preview_highlight)]
            for v in nx.node_connected_component(graph, name):
                colours.setdefault(v, colour)
    joined = [
        f"{names[a]}-{names[b]}"
        for a, b in board.landmark_pairs()
        if names[a] in graph and names[b] in graph and nx.has_path(graph, names[a], names[b])
    ]
    g = board.geometry
    pieces: dict = {("landmark", k): colours.get(name) for k, name in enumerate(names)}
    for i, c in enumerate(board.connectors):  # a connector takes the colour of its first trail's reach
        pieces[("connector", i)] = colours.get((c.a.slot, sides[c.a.slot].trail_of(g.end_at(c.a.direction, 0))))
    return colours, pieces, joined


def _layout_art(tileset: TileSet, board: Board, style: Style, layout, highlight: bool, at=(0.0, 0.0)):
    """One layout's elements placed at ``at`` (mm), and facts about it."""
    g = board.geometry
    perm, flip, rot = layout
    frame = board_frame(board, style, 0.5)
    sides = placed_sides(tileset, perm, flip, rot)
    colours, pieces, joined = _reach(board, sides, style) if highlight else ({}, {}, [])
    under, over = board_layers(board, style, frame, fills=pieces if highlight else None, slot_numbers=False)
    out = [f'<g transform="translate({num(at[0])} {num(at[1])})">', under]
    outline = outline_points(g, scale_of(g, style))
    for s, cell in enumerate(board.slots):
        face = "back" if flip[s] else "front"
        printed = tileset.tiles[perm[s]].face(face)
        fills = None
        if highlight:
            fills = tuple(colours.get((s, sides[s].trail_of(g.turned(t[0], rot[s])))) for t in printed.trails)
        faded = highlight and all(f is None for f in fills or ())
        x, y = frame.at(cell)
        opacity = f' opacity="{num(1 - style.preview_unreached_opacity)}"' if faded else ""
        body = side_body(printed, face, style, fills=fills)
        out.append(
            f'<g transform="translate({num(x)} {num(y)}) rotate({num(360 * rot[s] / g.edges)})"{opacity}>'
            f'<polygon points="{outline}" fill="{style.ground(face)}"/>{body}</g>'
        )
    out += [over, "</g>"]
    facts = {"tiles": [tileset.tiles[p].id for p in perm], "flip": list(flip), "rot": list(rot), "joined": joined}
    return "".join(out), facts


def _caption(text: str, x: float, y: float, style: Style) -> str:
    size = style.board_font_size_pt * MM_PER_PT
    return (
        f'<text x="{num(x)}" y="{num(y + size)}" font-family="{escape(style.label_font_family)}" '
        f'font-size="{num(size)}" fill="{style.board_label_colour}">{escape(text)}</text>'
    )


def _svg(width: float, height: float, title: str, meta: dict, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}mm" height="{num(height)}mm" '
        f'viewBox="0 0 {num(width)} {num(height)}"><title>{escape(title)}</title>'
        f"<metadata>{escape(dumps_json(meta))}</metadata>"
        f'<rect width="{num(width)}" height="{num(height)}" fill="#ffffff"/>{body}</svg>\n'
    )


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
    """The first ``count`` layouts from ``seed`` side by side (in ``columns``), each captioned with the pairs it
    joins."""
    frame = board_frame(board, style, 0.5)
    columns = columns or min(count, max(1, math.ceil(math.sqrt(count))))
    cell_w, cell_h = frame.width_mm, frame.height_mm + CAPTION_MM
    parts, facts = [], []
    for i, layout in enumerate(layouts(tileset, board, seed, count)):
        x, y = (i % columns) * (cell_w + SHEET_GAP_MM), (i // columns) * (cell_h + SHEET_GAP_MM)
        art, fact = _layout_art(tileset, board, style, layout, highlight, (x, y))
        text = (
            f"seed {seed}, layout {i + 1}: {len(fact['joined'])} of {len(board.landmark_pairs())} landmark pairs joined"
        )
        parts += [art, _caption(text, x + 6, y + frame.height_mm, style)]
        facts.append(fact)
    rows = math.ceil(count / columns)
    meta = {"board": board.name, "seed": seed, "count": count, "highlight": highlight, "layouts": facts}
    meta["generator"] = f"trailwright {__version__}"
    width = columns * cell_w + (columns - 1) * SHEET_GAP_MM
    height = rows * cell_h + (rows - 1) * SHEET_GAP_MM
    return _svg(width, height, f"Maze preview, seed {seed}", meta, "".join(parts))


def render_contact_sheet(tileset: TileSet, style: Style, *, columns: int = 10) -> str:
    """Every side of a tile set at print size in rows of ``columns``: the fronts, then (double-sided) the backs."""
    w, h = tile_size_mm(tileset.geometry, style)
    gap = 3.0
    cells = [(tile, face) for face in FACES[: tileset.geometry.faces] for tile in tileset]
    out = []
    for n, (tile, face) in enumerate(cells):
        x, y = gap + w / 2 + (n % columns) * (w + gap), gap + h / 2 + (n // columns) * (h + gap)
        svg = render_side(tile, face, style)
        out.append(f'<g transform="translate({num(x)} {num(y)})">{svg[svg.index(">") + 1 : svg.rindex("</svg>")]}</g>')
    rows = math.ceil(len(cells) / columns)
    meta = {"tiles": len(tileset), "generator": f"trailwright {__version__}"}
    return _svg(
        min(columns, len(cells)) * (w + gap) + gap, rows * (h + gap) + gap, "Every tile side", meta, "".join(out)
    )


def render_preview(tileset: TileSet, board: Board, style: Style, seed: int, *, highlight: bool = True) -> str:
    """The first layout the scorer draws from ``seed``, on the board, each landmark's reach in colour."""
    return render_sheet(tileset, board, style, seed, 1, highlight=highlight)
