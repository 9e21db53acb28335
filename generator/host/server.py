"""The game server: Starlette on uvicorn, websockets for the table, SQLite for the record.

Glossary
--------
hall          everything one host serves (``Hall``): the game spec and its art, the rooms, the store,
              the host token (it makes rooms) and the limits.
host token    printed when the server starts, as Jupyter prints its token: the lobby page and the room
              API need it. A room's id is its invite (unguessable); a seat token acts for one seat.
message       a websocket text frame of JSON: ``{"type": "sit", "name": ...}``, ``{"type": "hello",
              "token": ...}`` (a returning player), ``{"type": "act", "token": ..., "action": [...]}``,
              ``{"type": "bot", "seat": ..., "policy": ..., "owner": ...}``. The server answers with
              ``state`` (what this client sees), ``seated`` (the seat token to keep) or ``error`` (one
              line), carrying ``re`` when the message carried a short ``id``; every other state is a
              broadcast. A refused message changes nothing and the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from dataclasses import dataclass, field, replace
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from generator.host.rooms import GameSpec, Room, RoomError
from generator.host.store import Store, digest
from generator.host.views import feed_lines, lobby_page, room_page, shared_state, state, state_text
from generator.render.board import render_board
from generator.table.scene import TableArt
from generator.web.guard import (
    HTTP_ERRORS,
    BodyTooLarge,
    Guard,
    RateLimit,
    client_of,
    error_response,
    loads,
    same_secret,
)

log = logging.getLogger("trailwright.host")
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class Limits:
    """How much one host takes."""

    rooms: int = 200
    connections_per_address: int = 32
    message_bytes: int = 4096
    messages_per_second: float = 10.0
    message_burst: float = 40.0


@dataclass(eq=False)  # compared and hashed by identity: one per socket
class Client:
    """One websocket: the seat it holds (None: watching) and its message budget."""

    ws: WebSocket
    room: Room
    seat: int | None = None
    budget: RateLimit = field(default_factory=RateLimit)


class Hall:
    """The rooms one host serves, restored from its store when it starts."""

    def __init__(self, spec: GameSpec, art: TableArt, store: Store, token: str, limits: Limits, bot_delay: float):
        self.spec, self.art, self.store, self.token = spec, art, store, token
        self.limits, self.bot_delay = limits, bot_delay
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, set[Client]] = {}
        self.addresses: dict[str, int] = {}
        self.bots: dict[str, asyncio.Task] = {}
        self.feeds: dict[str, list[str]] = {}
        self.arts: dict[str, TableArt] = {}  # per room id, the art of its game
        for record in store.rooms():
            room = Room.restore(record, store)
            self.rooms[room.id] = room
            self.clients[room.id] = set()

    def art_of(self, room: Room) -> TableArt:
        """The art of ``room``'s game: the host's, or the same look drawn for a room of another tile set, board or
        rules (a studio's playtest of an edit, a record from an earlier tile set)."""
        art = self.arts.get(room.id)
        if art is None:
            spec = room.spec
            arts = (self.art, *self.arts.values())
            same = [a for a in arts if (a.tileset, a.board, a.game) == (spec.tiles, spec.board, spec.rules)]
            if same:
                art = same[0]
            else:
                board = self.art.board_svg if spec.board == self.art.board else render_board(spec.board, self.art.style)
                art = replace(self.art, tileset=spec.tiles, board=spec.board, board_svg=board, rules=spec.rules)
            self.arts[room.id] = art
        return art

    def create(self, players: Any, seed: Any = None, spec: GameSpec | None = None) -> tuple[Room, str]:
        """A new room for ``players`` (the rules' range) and its owner key; it plays ``spec`` (default: the
        host's game)."""
        spec = spec or self.spec
        rules = spec.rules
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not rules.players_min <= players <= rules.players_max
        ):
            raise RoomError(f"players: a whole number from {rules.players_min} to {rules.players_max}")
        if seed is None:
            seed = secrets.randbits(32)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**32:
            raise RoomError("seed: a whole number from 0 to 2**32 - 1")
        if len(self.rooms) >= self.limits.rooms:
            raise RoomError(f"this host holds at most {self.limits.rooms} rooms")
        room_id, owner = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
        self.store.create(room_id, spec.record(players, seed), digest(owner))
        room = Room(room_id, spec, players, seed, digest(owner), self.store)
        self.rooms[room_id], self.clients[room_id] = room, set()
        return room, owner

    async def broadcast(self, room: Room) -> None:
        """Every client of ``room`` gets the state it may see (sent after the change is recorded)."""
        art = self.art_of(room)
        shared = json.dumps(shared_state(room, art, self.lines(room)))
        for client in list(self.clients.get(room.id, ())):
            try:
                await client.ws.send_text(state_text(shared, room, art, client.seat))
            except Exception:  # a closed socket: it is dropped, the others carry on
                self.clients[room.id].discard(client)

    def lines(self, room: Room) -> list[str]:
        """The room's feed in words, kept up to date (each event described once)."""
        return feed_lines(room, self.art_of(room), self.feeds.setdefault(room.id, []))

    def state(self, room: Room, seat: int | None) -> dict:
        """What the holder of ``seat`` sees of ``room``."""
        return state(room, self.art_of(room), seat, self.lines(room))

    def kick_bots(self, room: Room) -> None:
        """Let the bots of ``room`` move, one action each ``bot_delay`` seconds, until a person's turn."""
        task = self.bots.get(room.id)
        if task is None or task.done():
            self.bots[room.id] = asyncio.get_running_loop().create_task(self._bots(room))

    async def _bots(self, room: Room) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            if room.bot_move() is None:
                return
            await self.broadcast(room)


def _room(hall: Hall, room_id: str) -> Room | None:
    return hall.rooms.get(room_id) if ROOM_ID.fullmatch(room_id) else None


def _host_token_ok(hall: Hall, given: str | None) -> bool:
    return same_secret(given, hall.token)


def routes(hall: Hall) -> list:
    """The HTTP and websocket routes."""

    async def lobby(request: Request) -> Response:
        if not _host_token_ok(hall, request.query_params.get("token")):
            return error_response(403, "the lobby needs the host token (printed when the server started)")
        r = hall.spec.rules
        return HTMLResponse(lobby_page(hall.art, (r.players_min, r.players_max, r.players_default)))

    async def make_room(request: Request) -> Response:
        bearer = request.headers.get("authorization", "")
        if not _host_token_ok(hall, bearer.removeprefix("Bearer ")):
            return error_response(403, "making a room needs the host token")
        try:
            body = loads(await request.body() or b"{}")
        except BodyTooLarge as err:
            return error_response(413, str(err))
        except ValueError:
            return error_response(400, "the body is not JSON")
        if not isinstance(body, dict):
            return error_response(400, "the body is a JSON object")
        try:
            room, owner = hall.create(body.get("players", hall.spec.rules.players_default), body.get("seed"))
        except RoomError as err:
            return error_response(400, str(err))
        return JSONResponse({"room": room.id, "url": f"/room/{room.id}", "owner": owner}, status_code=201)

    async def room_html(request: Request) -> Response:
        room = _room(hall, request.path_params["room"])
        if room is None:
            return error_response(404, "no such room")
        return HTMLResponse(room_page(hall.art_of(room), room.id), headers={"Cache-Control": "no-store"})

    async def room_json(request: Request) -> Response:
        room = _room(hall, request.path_params["room"])
        return error_response(404, "no such room") if room is None else JSONResponse(hall.state(room, None))

    async def replay(request: Request) -> Response:
        room = _room(hall, request.path_params["room"])
        if room is None:
            return error_response(404, "no such room")
        return JSONResponse({"frames": replay_frames(room, hall.art_of(room))})

    async def table(ws: WebSocket) -> None:
        await serve_socket(hall, ws)

    return [
        Route("/", lobby),
        Route("/api/rooms", make_room, methods=["POST"]),
        Route("/room/{room}", room_html),
        Route("/api/rooms/{room}", room_json),
        Route("/api/rooms/{room}/replay", replay),
        WebSocketRoute("/ws/{room}", table),
    ]


def replay_frames(room: Room, art: TableArt) -> list[dict]:
    """The room's game after each recorded action (for the replay slider): laid tiles, pawns and the feed so far."""
    again = Room(room.id, room.spec, room.players, room.seed, room.owner)  # no store: nothing is recorded twice
    again.seats = list(room.seats)
    lines: list[str] = []
    frames = [_frame(again, art, lines)]
    for action in room.match.actions:
        again.act_for(again.match.current, list(action))
        frames.append(_frame(again, art, lines))
    return frames


def _frame(room: Room, art: TableArt, lines: list[str]) -> dict:
    s = shared_state(room, art, feed_lines(room, art, lines))
    return {k: s[k] for k in ("laid", "pawns", "round", "current", "feed", "winner", "over")}


async def serve_socket(hall: Hall, ws: WebSocket) -> None:
    """One websocket client of one room, until it goes."""
    room = _room(hall, ws.path_params["room"])
    address = client_of(ws.scope)
    if room is None:
        await ws.close(code=4404, reason="no such room")
        return
    if hall.addresses.get(address, 0) >= hall.limits.connections_per_address:
        await ws.close(code=4429, reason="too many connections from your address")
        return
    await ws.accept()
    client = Client(ws, room, budget=RateLimit(hall.limits.messages_per_second, hall.limits.message_burst))
    hall.addresses[address] = hall.addresses.get(address, 0) + 1
    hall.clients[room.id].add(client)
    try:
        await ws.send_text(json.dumps(hall.state(room, None)))
        while True:
            text = await ws.receive_text()
            reply = await handle(hall, client, text)
            if reply is not None:
                await ws.send_text(json.dumps(reply))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hall.clients[room.id].discard(client)
        hall.addresses[address] -= 1
        if not hall.addresses[address]:
            del hall.addresses[address]


async def handle(hall: Hall, client: Client, text: str) -> dict | None:
    """One message: its reply to the sender, carrying ``re`` when the message carried a short ``id`` (the others
    hear of any change through ``broadcast``)."""
    if len(text.encode("utf-8")) > hall.limits.message_bytes:
        return refusal(client, f"a message is at most {hall.limits.message_bytes} bytes")
    try:
        message = loads(text)
    except ValueError:
        message = None
    given = message.get("id") if isinstance(message, dict) else None
    echo = {"re": given} if isinstance(given, int | str) and len(str(given)) <= 40 else {}
    if not client.budget.allow("me"):
        reply: dict | None = refusal(client, "too many messages: slow down")
    elif message is None:
        reply = refusal(client, "a message is JSON")
    elif not isinstance(message, dict) or not isinstance(message.get("type"), str):
        reply = refusal(client, 'a message is a JSON object with a "type"')
    else:
        reply = await _dispatch(hall, client, message)
    return None if reply is None else {**reply, **echo}


async def _dispatch(hall: Hall, client: Client, message: dict) -> dict | None:
    """A well-formed message acted on: the sender's reply, or None (a change everyone hears of)."""
    room, kind = client.room, message["type"]
    try:
        if kind == "hello":
            client.seat = room.seat_of(message.get("token"))
            if message.get("token") and client.seat is None:
                return refusal(client, "that token holds no seat in this room")
            return hall.state(room, client.seat)
        if kind == "sit":
            seat, token = room.sit(message.get("name"), message.get("seat"))
            client.seat = seat
            await hall.broadcast(room)
            hall.kick_bots(room)
            return {"type": "seated", "seat": seat, "token": token, "room": room.id}
        if kind == "bot":
            room.add_bot(message.get("seat"), message.get("policy"), message.get("owner"))
        elif kind == "act":
            room.act(message.get("token"), message.get("action"))
        else:
            return refusal(client, f"unknown message type {kind[:40]!r} (hello, sit, bot or act)")
    except RoomError as err:
        return refusal(client, str(err))
    await hall.broadcast(room)
    hall.kick_bots(room)
    return None


def refusal(client: Client, reason: str) -> dict:
    """The one-line error a refused message gets (and the server log)."""
    log.warning("refused a message in room %s: %s", client.room.id, reason)
    return {"type": "error", "error": reason}


def lifespan(hall: Hall):
    """The app's life: restored rooms whose turn is a bot's go on when it starts; the bots stop when it stops."""

    @contextlib.asynccontextmanager
    async def life(app):
        for room in hall.rooms.values():
            hall.kick_bots(room)
        yield
        for task in hall.bots.values():
            task.cancel()

    return life


def create_app(hall: Hall, hosts: set[str]) -> Guard:
    """The ASGI app: the routes behind the guard."""
    return Guard(Starlette(routes=routes(hall), lifespan=lifespan(hall), exception_handlers=HTTP_ERRORS), hosts)
