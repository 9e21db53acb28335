"""The game server's websocket: one client of one room, its messages, and its refusals.

Glossary
--------
message   a websocket text frame of JSON: ``{"type": "sit", "name": ...}``, ``{"type": "hello", "token": ...}``
          (a returning player), ``{"type": "act", "token": ..., "action": [...]}``, ``{"type": "bot", "seat":
          ..., "policy": ..., "owner": ...}`` (the owner seats a bot, or hands it a person's seat). The server
          answers with ``state`` (what this client sees), ``seated`` (the seat token to keep) or ``error`` (one
          line), carrying ``re`` when the message carried a short ``id``; every other state is a broadcast. A
          refused message, a binary frame included, changes nothing and the connection stays open.
one seat  a connection holds at most one seat: a second ``sit`` is refused.
refusals  a socket refused at its start (no such room, too many connections) is accepted and closed at once
          with code ``4000 + status`` and its reason; each refusal is logged through the guard's rate-limited
          refusal log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect

from generator.errors import shown
from generator.host.rooms import Room, RoomError
from generator.web.guard import REFUSALS, RateLimit, client_of, close_socket, loads

if TYPE_CHECKING:
    from generator.host.hall import Hall


@dataclass(eq=False)  # compared and hashed by identity: one per socket
class Client:
    """One websocket: the seat it holds (None: watching) and its message budget."""

    ws: WebSocket
    room: Room
    address: str = "?"
    seat: int | None = None
    budget: RateLimit = field(default_factory=RateLimit)


async def serve_socket(hall: Hall, ws: WebSocket) -> None:
    """One websocket client of one room, until it goes."""
    address = client_of(ws.scope)
    room = await hall.find(ws.path_params["room"])
    refused = (
        (404, "no such room")
        if room is None
        else (429, f"too many connections from your address (at most {hall.limits.connections_per_address})")
        if hall.addresses.get(address, 0) >= hall.limits.connections_per_address
        else None
    )
    if room is None or refused is not None:
        status, reason = refused or (404, "no such room")
        REFUSALS.say(address, f"websocket {ws.url.path[:60]}: {reason}")
        await ws.receive()  # the websocket.connect message
        await close_socket(ws.send, status, reason)
        return
    await ws.accept()
    client = Client(ws, room, address, budget=RateLimit(hall.limits.messages_per_second, hall.limits.message_burst))
    hall.addresses[address] = hall.addresses.get(address, 0) + 1
    hall.clients[room.id].add(client)
    try:
        await ws.send_text(json.dumps(hall.state(room, None)))
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            reply: dict | None
            if text is None:
                reply = refusal(client, "a message is a text frame of JSON, not a binary frame")
            else:
                reply = await handle(hall, client, text)
            if reply is not None:
                await ws.send_text(json.dumps(reply))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hall.clients.get(room.id, set()).discard(client)
        hall.addresses[address] -= 1
        if not hall.addresses[address]:
            del hall.addresses[address]
        hall.put_away(only=room.id)  # a finished room leaves memory as its last client leaves


async def handle(hall: Hall, client: Client, text: str) -> dict | None:
    """One message: its reply to the sender, carrying ``re`` when the message carried a short ``id`` (the others
    hear of any change through ``broadcast``)."""
    if len(text.encode("utf-8")) > hall.limits.message_bytes:
        return refusal(client, f"a message is at most {hall.limits.message_bytes} bytes")
    if not client.budget.allow("me"):  # before parsing: a flood costs the server as little as it can
        return refusal(client, "too many messages: slow down")
    try:
        message = loads(text)
    except ValueError:
        message = None
    given = message.get("id") if isinstance(message, dict) else None
    echo = (
        {"re": given} if isinstance(given, int | str) and not isinstance(given, bool) and len(str(given)) <= 40 else {}
    )
    reply: dict | None
    if message is None:
        reply = refusal(client, "a message is JSON")
    elif not isinstance(message, dict) or not isinstance(message.get("type"), str):
        reply = refusal(client, 'a message is a JSON object with a "type"')
    else:
        reply = await _dispatch(hall, client, message)
    return None if reply is None else {**reply, **echo}


async def _dispatch(hall: Hall, client: Client, message: dict) -> dict | None:
    """A well-formed message acted on: the sender's reply, or None (a change everyone hears of)."""
    room, kind = client.room, message["type"]
    reply: dict | None = None
    try:
        async with hall.lock(room.id):
            if kind == "hello":
                seat = room.seat_of(message.get("token"))
                if message.get("token") and seat is None:
                    return refusal(client, "that token holds no seat in this room")
                client.seat = seat
                return hall.state(room, client.seat)
            if kind == "sit":
                if client.seat is not None:
                    raise RoomError(f"this connection holds seat {client.seat} already (one seat a connection)")
                seat, token = room.sit(message.get("name"), message.get("seat"))
                client.seat = seat
                reply = {"type": "seated", "seat": seat, "token": token, "room": room.id}
            elif kind == "bot":
                room.add_bot(message.get("seat"), message.get("policy"), message.get("owner"))
            elif kind == "act":
                room.act(message.get("token"), message.get("action"))
            else:
                return refusal(client, f"unknown message type {shown(kind)} (hello, sit, bot or act)")
    except RoomError as err:
        return refusal(client, str(err))
    await hall.changed(room)
    return reply


def refusal(client: Client, reason: str) -> dict:
    """The one-line error a refused message gets (and the server log, within the client's share)."""
    REFUSALS.say(client.address, f"a message in room {client.room.id}: {reason}")
    return {"type": "error", "error": " ".join(reason.split())}
