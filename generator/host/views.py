"""What a client of the game server sees: a room's state as JSON (for one seat), its feed in words, and the
page around the board (the play table's own board and tile art).

Glossary
--------
board mm    the board SVG's coordinates (``generator.table.scene``): pawns and targets are placed in them.
target      a legal action drawn on the board: a step's destination (a slot or a landmark) or a tile that
            may be turned, with the action to send when it is clicked. A step into a slot is drawn by the end
            it arrives at, so two doors into one slot stay apart.
end target  where an edge has more than one end (the end you step onto decides your trail), every step is
            drawn at its end's point on the edge with radius ``target_radius``: neighbouring ends' targets keep
            ``TARGET_GAP`` of their distance between them, and the room's board is drawn large enough
            (``playtable.least_size``) that each is a finger wide.
"""

from __future__ import annotations

import json
import math
from html import escape

from generator import __version__
from generator.host.rooms import BOTS, Room
from generator.model.geometry import TileGeometry
from generator.table.playtable import board_svg, page_data, roll_label, script_json, side_defs, the_game
from generator.table.scene import PLAYERS, TableArt
from generator.web.assets import script, stylesheet

FEED = 40  # the most recent events a state carries
TARGET_GAP = 0.2  # the share of two neighbouring ends' distance left bare between their targets


def end_xy(art: TableArt, slot: int, end: int) -> tuple[float, float]:
    """Where end ``end`` of slot ``slot`` lies on the slot's outline, in board mm (any geometry)."""
    (cx, cy), (ex, ey) = art.frame.at(art.board.slots[slot]), art.board.geometry.end_point(end)
    return cx + art.frame.radius_mm * ex, cy + art.frame.radius_mm * ey


def _mid(art: TableArt, slot: int, ends) -> tuple[float, float]:
    points = [end_xy(art, slot, e) for e in ends]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def end_spacing(geometry: TileGeometry) -> float:
    """The least distance between two ends of a tile of circumradius 1."""
    points = [geometry.end_point(e) for e in range(geometry.ends)]
    return min(math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1 :])


def target_radius(art: TableArt) -> float | None:
    """An end target's radius in board mm, from the geometry's end spacing; None where an edge has one end (a
    step is drawn by the slot it enters, as before)."""
    g = art.board.geometry
    if g.ends_per_edge == 1:
        return None
    return (1 - TARGET_GAP) / 2 * end_spacing(g) * art.frame.radius_mm


def _door_ends(room: Room) -> list[tuple[int, int]]:
    """The (slot, end) each door of the current player's place lies at, in ``doors()``' order."""
    table = room.match.table
    place = table.pawns[room.match.current]
    if place[0] == "landmark":
        return [(door[1], door[2]) for door in table.doors(place)]
    _, slot, t = place
    return [(slot, e) for e in table.trail_edges(slot, t) if (slot, e) in table.geo.across]


def place_xy(room: Room, art: TableArt, place: tuple, player: int) -> list[float]:
    """Where a pawn on ``place`` is drawn: on its trail (towards the trail's edges) or its landmark, each
    player a little apart."""
    frame, table = art.frame, room.match.table
    r = frame.radius_mm
    spread = 0.16 * r
    if place[0] == "landmark":
        x, y = frame.hub(art.board.landmarks[place[1]].hexes)
        spread = 0.36 * r  # round the landmark's name, not on it
    else:
        _, slot, t = place
        cx, cy = frame.at(art.board.slots[slot])
        ends = table.trail_edges(slot, t)  # the ends the trail leaves through, as the tile lies now
        mids = [end_xy(art, slot, e) for e in ends]
        mx, my = sum(m[0] for m in mids) / len(mids) - cx, sum(m[1] for m in mids) / len(mids) - cy
        length = math.hypot(mx, my)
        scale = 0.45 * r / length if length > 0.2 * r else 0.0
        x, y = cx + mx * scale, cy + my * scale
    angle = math.pi / 2 * player + math.pi / 4
    return [round(x + spread * math.cos(angle), 3), round(y + spread * math.sin(angle), 3)]


def _targets(room: Room, art: TableArt) -> list[dict]:
    """The legal actions of the player whose turn it is, drawn on the board."""
    match, out = room.match, []
    doors, radius = match.doors(), target_radius(art)
    ends = _door_ends(room) if radius is not None and match.pips else []
    for action in match.legal():
        if action[0] == "step":
            door = doors[action[1]]
            target = {"action": list(action), "landmark" if door[0] == "landmark" else "slot": door[1]}
            if radius is None:
                target["at"] = _rounded(_step_at(art, door))
            else:  # at the end it crosses, a finger wide
                target |= {"at": _rounded(end_xy(art, *ends[action[1]])), "r": round(radius, 3)}
            out.append(target)
        elif action[0] == "turn":
            at = _rounded(art.frame.at(art.board.slots[action[1]]))
            out.append({"action": list(action), "slot": action[1], "at": at})
    return out


def _rounded(point: tuple[float, float]) -> list[float]:
    return [round(c, 3) for c in point]


def _step_at(art: TableArt, door: tuple) -> tuple[float, float]:
    """Where a step is drawn where an edge has one end: the landmark's disc, or the slot it enters, towards the end
    it arrives at."""
    frame = art.frame
    if door[0] == "landmark":
        return frame.hub(art.board.landmarks[door[1]].hexes)
    (cx, cy) = frame.at(art.board.slots[door[1]])
    (ex, ey) = end_xy(art, door[1], door[2])  # by the end it arrives at: two doors into a slot stay apart
    return cx + 0.6 * (ex - cx), cy + 0.6 * (ey - cy)


def describe(room: Room, art: TableArt, seat: int, event: tuple) -> str:
    """One game event in words (plain text: the page writes it as text, never as markup)."""
    names = [s.name if s is not None else f"seat {i + 1}" for i, s in enumerate(room.seats)]
    who, kind, marks = names[seat], event[0], art.board.landmarks
    slots, ends = len(art.board.slots), art.board.geometry.ends  # a place: an end of a slot, or a landmark after them

    def where(place: int) -> str:
        return marks[place - ends * slots].name if place >= ends * slots else f"slot {place // ends + 1}"

    if kind == "timeout":
        return f"{who} took too long: a bot plays this turn for them"
    if kind == "handed":
        return f"the room's owner handed seat {seat + 1} to the {event[1]} bot"
    if kind == "roll":
        return f"{who} rolls {event[2]}"
    if kind == "step":
        return f"{who} steps to {where(event[2])}"
    if kind == "lay":
        return f"{who} lays tile {room.spec.tiles.tiles[event[3]].id} in slot {event[2] + 1}"
    if kind == "turn":
        return f"{who} turns the tile in slot {event[2] + 1} {'clockwise' if event[3] > 0 else 'anticlockwise'}"
    if kind == "chase":
        return f"{who} is chased to {where(event[2])}"
    return f"{who} wins!" if kind == "win" else f"{who}: {kind}"


def feed_lines(room: Room, art: TableArt, lines: list[str]) -> list[str]:
    """``lines`` (the room's feed in words so far) brought up to date: only new events are described (every
    event happens once every seat is filled, so its words never change)."""
    lines.extend(describe(room, art, seat, e) for seat, e in room.feed[len(lines) :])
    return lines


def shared_state(room: Room, art: TableArt, lines: list[str] | None = None) -> dict:
    """What every client of ``room`` sees alike (computed once a broadcast; ``lines`` from ``feed_lines``)."""
    match, table = room.match, room.match.table
    last = room.last
    return {
        "type": "state",
        "room": room.id,
        "players": room.players,
        "seats": [None if s is None else {"name": s.name, "bot": s.bot} for s in room.seats],
        "current": match.current,
        "round": match.round,
        "pips": match.pips,
        "over": match.over,
        "winner": match.winner,
        "laid": [[s, *v] for s, v in sorted(table.laid.items())],
        "pawns": [place_xy(room, art, place, p) for p, place in enumerate(table.pawns)],
        "ticked": [len(v) for v in table.visited],
        "required": len(match.geo.required),
        "feed": (feed_lines(room, art, []) if lines is None else lines)[-FEED:],
        "events": len(room.feed),
        "actions": len(match.actions),
        "last": None if last is None else [last[0], list(last[1])],
        "bots": list(BOTS),
    }


def personal(room: Room, art: TableArt, you: int | None) -> dict:
    """What only the holder of seat ``you`` (None: a spectator) sees: its legal moves when it is its turn."""
    match = room.match
    mine = you is not None and you == match.current and not match.over and None not in room.seats
    return {
        "you": you,
        "targets": _targets(room, art) if mine else [],
        "legal": [list(a) for a in match.legal()] if mine else [],
    }


def state(room: Room, art: TableArt, you: int | None, lines: list[str] | None = None) -> dict:
    """The room as the holder of seat ``you`` (None: a spectator) sees it."""
    return {**shared_state(room, art, lines), **personal(room, art, you)}


def state_text(shared_json: str, room: Room, art: TableArt, you: int | None) -> str:
    """``state`` as JSON text, from the shared part's text (encoded once a broadcast)."""
    return shared_json[:-1] + "," + json.dumps(personal(room, art, you))[1:]


# the pages' scripts and stylesheets (``generator.web.assets``)
ASSETS = {
    "host": ("generator.host", "static", ("host.js", "host.css", "lobby.js")),
    "table": ("generator.table", "", ("names.js",)),
}


def _no_inline_style(svg: str) -> str:
    """The play table's board or tile art with its one inline style attribute made data the script applies (the
    board's least size) or a class of the stylesheet (the hidden art): the page's CSP allows no inline style."""
    if 'style="display:none"' in svg:
        return svg.replace(' style="display:none"', ' class="art-defs"', 1)
    return svg.replace(' style="', ' data-least="', 1)


def room_page(art: TableArt, room_id: str) -> str:
    """The room's page: the board and tile art inline, the script and style from the package (no network)."""
    title = escape(art.title)
    data = {**page_data(art, 0), "room": room_id, "colours": [c for _, c in PLAYERS]}
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{title}: a hosted game</title>'
        f"{stylesheet('host', 'host.css')}</head><body>"
        f'<header><h1>{title}</h1><span id="status">connecting…</span>'
        f'<span id="controls"><button id="roll" type="button" hidden>{roll_label(art.die)}</button>'
        '<button id="pass" type="button" hidden>Pass</button></span></header>'
        f'<main><div id="board-view">{_no_inline_style(board_svg(art, 2 * (target_radius(art) or 0.0)))}</div><aside>'
        '<section id="seats"><h2>Seats</h2><ol id="seat-list"></ol>'
        '<form id="sit"><input id="name" maxlength="40" placeholder="your name" autocomplete="nickname">'
        '<button type="submit">Take a seat</button></form></section>'
        '<section id="invite" hidden><h2>Invite the players</h2><p>Send them this page\'s address: '
        '<code id="invite-link"></code> <button id="copy-invite" type="button">Copy</button></p></section>'
        '<section id="replay" hidden><h2>Replay</h2><input id="replay-slider" type="range" min="0" value="0">'
        ' <output id="replay-at"></output></section>'
        f"<section><h2>The game</h2>{the_game(art)}</section>"
        '<section><h2>What happened</h2><ol id="feed"></ol></section>'
        '<p id="message" role="alert"></p>'
        f"<p><small>trailwright {escape(__version__)}: every move is recorded.</small></p></aside></main>"
        f"{_no_inline_style(side_defs(art))}"
        f'<script type="application/json" id="trailwright-data">{script_json(data)}</script>'
        f"{script('host', 'host.js')}{script('table', 'names.js')}</body></html>\n"
    )


def lobby_page(art: TableArt, rules_players: tuple[int, int, int]) -> str:
    """The host's own page: make a room (the host token is in the page's address, never in the page)."""
    low, high, default = rules_players
    options = "".join(
        f'<option value="{n}"{" selected" if n == default else ""}>{n}</option>' for n in range(low, high + 1)
    )
    board = escape(art.board.title or art.board.name)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<link rel="icon" href="data:,"><title>{escape(art.title)}: host</title>'
        f"{stylesheet('host', 'host.css')}</head><body><header><h1>{escape(art.title)}: host a game</h1>"
        f"</header><main><section><p>{len(art.tileset)} tiles on the board “{board}”. Make a room,"
        " then send its address to the players; it opens for you as the room's owner, who may seat bots.</p>"
        '<form id="create"><label>Players <select id="players">'
        f'{options}</select></label> <button type="submit">Make a room</button></form>'
        '<p id="made"></p></section></main>'
        f"{script('host', 'lobby.js')}</body></html>\n"
    )


def replay_frames(room: Room, art: TableArt) -> list[dict]:
    """The room's game after each recorded action (for the replay slider): laid tiles, pawns and the feed so far,
    room events (a seat handed to a bot, a turn timed out) at their places."""
    again = Room(room.id, room.spec, room.players, room.seed, room.owner)  # no store: nothing is recorded twice
    again.seats = list(room.seats)
    lines: list[str] = []
    notes = list(room.notes)

    def noted(k: int) -> None:
        while notes and notes[0][0] == k:
            again.feed.append(notes.pop(0)[1:])

    noted(0)
    frames = [_frame(again, art, lines)]
    for k, action in enumerate(room.match.actions):
        again.act_for(again.match.current, list(action))
        noted(k + 1)
        frames.append(_frame(again, art, lines))
    return frames


def _frame(room: Room, art: TableArt, lines: list[str]) -> dict:
    s = shared_state(room, art, feed_lines(room, art, lines))
    return {k: s[k] for k in ("laid", "pawns", "round", "current", "feed", "winner", "over")}
