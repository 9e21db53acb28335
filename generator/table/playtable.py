"""The browser play table: one self-contained HTML page (inline SVG art, script and data).

Glossary
--------
page data   the JSON the script reads (``<script type="application/json">``): tiles (id and the
            trails of each printed face), slot centres, joins, landmarks, colours, default seed.
            Every ``<``, ``>`` and ``&`` in it is a JSON escape, so no tile id can end the script.
side art    each tile side drawn once (the print kit's art, no bleed) in a hidden ``<defs>`` as
            ``<g id="side-<index>-<face>">``; the script clones it into a slot when it is laid.
join        ``[slot, end, slot or -1-landmark, end]``, one per pair of ends that meet, as the scorer joins
            them (``TileGeometry.meeting``), for the "what each landmark reaches" highlight; with one end an
            edge, an end is its edge. ``geometry`` in the page data (turns, the angle of one, ends, ends per
            edge, faces) is what ``play.js`` reads of the tile's shape.
"""

from __future__ import annotations

import json
from html import escape
from importlib import resources

from generator import __version__
from generator.board import LandmarkEnd
from generator.model import FACES
from generator.render.board import board_layers, connector_trails
from generator.render.style import MM_PER_PT
from generator.render.svg import num, points
from generator.render.tiles import trail_width
from generator.table.pile import MASK
from generator.table.scene import TableArt, side_inner
from generator.table.words import WORDS

FOLDER = "play"


def _asset(name: str) -> str:
    return resources.files("generator.table").joinpath(name).read_text(encoding="utf-8")


def names_script() -> str:
    """The script that keeps the landmarks' names readable however small the board is drawn (play table, rooms)."""
    return f"<script>{_asset('names.js')}</script>"


def script_json(data) -> str:
    """JSON safe inside ``<script>``: no ``<``, ``>`` or ``&`` survives as itself."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_data(table: TableArt, seed: int) -> dict:
    """Everything the script needs about the tiles and the board."""
    board, style = table.board, table.style
    frame = table.frame
    data = {
        "seed": seed & MASK,  # the page's seeds are unsigned 32-bit, as draw_pile reads them
        "tiles": [
            {"id": t.id, **{f: [list(trail) for trail in t.face(f).trails] for f in FACES}} for t in table.tileset
        ],
        "slots": [[round(x, 3), round(y, 3)] for x, y in table.slot_centres()],
        "joins": end_joins(table),
        "landmarks": [
            {"name": board.shown(lm.name), "at": [round(c, 3) for c in frame.at(lm.hexes[0])]} for lm in board.landmarks
        ],
        "colours": list(style.preview_highlight),
        "sand": style.trail_fill,
        "ground": style.board_ground,  # the landmarks' discs (a name's halo on screen)
        "players": [name for name, _ in table.players],
        "die": table.die,  # the sides of the die of steps
        "start": [round(c, 3) for c in table.start()[1]],
        "pawnRadius": round(style.tile_width_mm * 0.09, 3),
        "words": {"joined": table.words["joined"], "alone": table.words["alone"]},
    }
    g = board.geometry
    data["geometry"] = {
        "shape": g.shape,
        "turns": g.rotations,
        "step": 360 / g.rotations,  # degrees clockwise a turn
        "ends": g.ends,
        "endsPerEdge": g.ends_per_edge,
        "faces": g.faces,
    }
    return data


def end_joins(table: TableArt) -> list[list[int]]:
    """``[slot, end, slot or -1-landmark, end]`` for each two ends that meet, as the scorer joins them."""
    g, out = table.board.geometry, []
    for j in table.board.joins():
        for p in range(g.ends_per_edge):
            a = g.end_at(j.a.direction, p)
            if isinstance(j.b, LandmarkEnd):
                out.append([j.a.slot, a, -1 - j.b.landmark, -1])
            else:
                out.append([j.a.slot, a, j.b.slot, g.end_at(j.b.direction, g.meeting(p))])
    return out


TILE_EM = 3.0  # the least width of a tile on screen (45 px at 15 px to the em): a tile a finger can turn
TARGET_EM = 3.0  # the least width of a move target on screen (45 px; 44 CSS px is the usual least touch target)


def least_size(frame, style, target_mm: float = 0.0) -> str:
    """The board's least size on screen, so no tile is drawn narrower than ``TILE_EM`` and no move target
    ``target_mm`` wide (the rooms' end targets; 0: none) narrower than ``TARGET_EM``: a small board fits the window
    (the stylesheet's height cap), a big one (a 217-slot hexagon, or a board whose ends lie close) is larger than
    it and the page scrolls."""
    em = max(TILE_EM / style.tile_width_mm, TARGET_EM / target_mm if target_mm else 0.0)
    return f"min-width: {frame.width_mm * em:.1f}em; min-height: {frame.height_mm * em:.1f}em"


def _board_parts(table: TableArt) -> tuple[str, str, str, str]:
    """The board's art under and over the tiles (the layout stage's, on its one frame), the connectors' reach
    paths (one per end) and the slots' click targets."""
    frame, style, board = table.frame, table.style, table.board
    under, over = board_layers(board, style, frame)
    w = trail_width(board.geometry, style) * frame.tile_radius_mm - 2 * style.trail_edge_pt * MM_PER_PT  # sand
    reach = "".join(
        f'<path class="connector-reach" data-slot="{c.a.slot}" data-end="{end}" '
        f'd="{d}" fill="none" stroke="none" stroke-width="{num(w)}"/>'
        for i, c in enumerate(board.connectors)
        for end, d in connector_trails(board, frame, i)
    )
    outlines = [frame.outline(h) for h in board.slots]
    slots = "".join(
        f'<polygon class="slot" data-slot="{s}" points="{points(outline)}">'
        f"<title>{escape(table.words['slot'].format(n=s + 1))}</title>"
        f"</polygon>"
        for s, outline in enumerate(outlines)
    )
    return under, over, reach, slots


def board_svg(table: TableArt, target_mm: float = 0.0) -> str:
    """The board as printed, with a layer for tiles, a click target on every slot, and the pawns; drawn at least
    large enough for move targets ``target_mm`` wide (``least_size``)."""
    frame, style = table.frame, table.style
    under, over, reach, slots = _board_parts(table)
    r = style.tile_width_mm * 0.09
    pawns = "".join(
        f'<g class="pawn" data-player="{escape(name)}">'
        f"<title>{escape(table.words['pawn'].format(colour=table.words.get(name, name)))}</title>"
        f'<circle r="{num(r)}" fill="{colour}" stroke="#2b2418" stroke-width="{num(r * 0.18)}"/>'
        f'<circle r="{num(r * 0.38)}" fill="#ffffff" fill-opacity="0.55"/></g>'
        for name, colour in table.players
    )
    return (
        f'<svg id="table" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(frame.width_mm)} '
        f'{num(frame.height_mm)}" style="{least_size(frame, style, target_mm)}" role="img" '
        f'aria-label="{escape(table.words["board"])}">{under}'
        f'<g id="reach">{reach}</g><g id="tiles"></g><g id="slots">{slots}</g>{over}<g id="pawns">{pawns}</g></svg>'
    )


def side_defs(table: TableArt) -> str:
    """Every tile side once, hidden, for the script to clone (ids by position, never by tile id)."""
    groups = [
        f'<g id="side-{i}-{face}">{side_inner(table.art(tile, face, 0.0))}</g>'
        for i, tile in enumerate(table.tileset)
        for face in FACES[: table.board.geometry.faces]  # a single-sided tile's front only
    ]
    hidden = 'xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="display:none"'
    return f"<svg {hidden}><defs>{''.join(groups)}</defs></svg>"


def roll_label(sides: int, words: dict[str, str] = WORDS) -> str:
    """The roll button's words: the booklet's die has six sides; any other is named."""
    return words["roll"] if sides == 6 else words["roll_sides"].format(sides=sides)


def _listed(items, last: str) -> str:
    """``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def the_game(table: TableArt) -> str:
    """The rules in a paragraph, as a reminder beside the board (nothing on a board without a game), every
    landmark by its printed name and every word the table's language's."""
    game, words = table.game, table.words
    if game is None:
        return ""

    w = {k: escape(v) for k, v in words.items()}

    def names(ids) -> str:
        return _listed([w["name"].format(name=f"<b>{escape(table.board.shown(n))}</b>") for n in ids], w["and"])

    text = w["start"].format(start=names([game.start])) + "; "
    if game.required:
        text += w["visit"].format(required=names(game.required), goal=names([game.goal]))
    else:
        text += w["reach"].format(goal=names([game.goal]))
    for h in game.hazards:
        rolls = _listed(map(str, h.rolls), w["or"])
        text += ". " + w["hazard"].format(landmark=names([h.landmark]), rolls=rolls, to=names([h.to]))
    low, high = game.players_min, game.players_max
    seats = w["seats"].format(low=low, high=high) if low < high else w["seat"].format(n=high)
    return f'<p id="the-game">{text}. {seats}.</p>'


def play_table_html(table: TableArt, seed: int) -> str:
    """The play table page for ``table``; ``seed`` is the shuffle when the URL names none."""
    title = escape(table.title)
    w = {k: escape(v) for k, v in table.words.items()}
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(table.lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="{escape(table.provenance)}">'
        f'<link rel="icon" href="data:,"><title>{w["page"].format(title=title)}</title>'
        f"<style>{_asset('play.css')}</style></head><body>"
        f"<header><h1>{title}</h1>"
        f'<button id="new-maze" type="button">{w["new_maze"]}</button>'
        f'<span>{w["seed"]} <b id="seed"></b> ({w["share"]}: <code id="share"></code>)</span>'
        f'<span><b id="left"></b> {w["pile"]}</span>'
        f'<span><button id="roll" type="button">{roll_label(table.die, w)}</button> <span id="die-face"></span> '
        '<output id="die-value"></output></span>'
        f'<label><input id="highlight" type="checkbox"> {w["highlight"]}</label></header>'
        f"<main>{board_svg(table)}<aside>"
        f"<p>{w['how'].format(turn=w['turn'])}</p>"
        f"{the_game(table)}"
        f"<p>{w['far'].format(seed='<code>?seed=</code>')}</p>"
        '<ul id="legend"></ul>'
        f"<p><small>{w['made'].format(version=escape(__version__))}</small></p></aside></main>"
        f"{side_defs(table)}"
        f'<script type="application/json" id="trailwright-data">{script_json(page_data(table, seed))}</script>'
        f"<script>{_asset('play.js')}</script>"
        f"{names_script()}</body></html>\n"
    )


def play_files(table: TableArt, seed: int) -> dict[str, bytes]:
    """The play table's files by path: ``play/index.html``."""
    return {f"{FOLDER}/index.html": play_table_html(table, seed).encode("utf-8")}
