"""The studio's Playtest view: a room of the game server (``generator.host``) that plays the tile set as edited now,
the designer in seat 0 and the simulator's bots in the others. The room page, its websocket and its replay are
the host's own routes, served by the studio's app; the games are recorded in the project's ``output/games.db``.
"""

from __future__ import annotations

from typing import Any

from generator.errors import shown
from generator.host.rooms import BOTS, GameSpec
from generator.host.server import Hall, Limits
from generator.host.store import Store
from generator.studio.errors import EditError
from generator.studio.session import Studio

GAMES_DB = "output/games.db"  # the playtests' record, inside the project


def playtest_hall(studio: Studio, token: str) -> Hall:
    """The game server of the studio's playtests, its rooms restored from the project's games file."""
    from generator.project import project_file, project_style
    from generator.publish.settings import load_settings
    from generator.render.style import load_style
    from generator.table.scene import layout_table_art

    style = load_style(project_style(studio.folder))
    title = load_settings(project_file(studio.folder, "settings")).title
    art = layout_table_art(studio.current, studio.board, style, title, "studio", studio.rules)
    path = studio.folder / GAMES_DB
    path.parent.mkdir(parents=True, exist_ok=True)
    # one designer's playtests: kept in memory, finished or idle, and no turn of theirs ever times out
    limits = Limits(keep_finished=True, idle_minutes=10**9, turn_timeout=10**9)
    return Hall(GameSpec(studio.current, studio.board, studio.rules), art, Store(path), token, limits, 0.4)


def playtest(hall: Hall, studio: Studio, data: dict) -> dict[str, Any]:
    """A room that plays the tile set as edited now: the designer's seat 0, bots (``policy``) in the others."""
    policy = data.get("policy", "explorer")
    if policy not in BOTS:
        raise EditError(f"bots play {' or '.join(BOTS)}, not {shown(policy)}")
    room, owner = hall.create(
        data.get("players", studio.rules.players_default), None, GameSpec(studio.current, studio.board, studio.rules)
    )
    for seat in range(1, room.players):
        room.add_bot(seat, policy, owner)
    return {"room": room.id, "url": f"/room/{room.id}#owner={owner}&seat=0"}  # seat 0 is the designer's: no bots


def playtests(hall: Hall) -> list[dict[str, Any]]:
    """The studio's rooms, newest last: who sits where, the round, and the winner once it is over."""
    out = []
    for room in list(hall.rooms.values()):  # a copy: the event loop may add a room meanwhile
        match = room.match
        out.append(
            {
                "room": room.id,
                "seats": [None if s is None else s.name for s in room.seats],
                "round": match.round,
                "over": match.over,
                "winner": match.winner,
                "moves": len(match.actions),
            }
        )
    return out
