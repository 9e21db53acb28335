"""The game server's HTTP and websocket routes: the lobby, making a room, a room's page, state and replay, the
health of the server, the table's websocket (``generator.host.sockets``) and the pages' scripts."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from generator.host.rooms import RoomError
from generator.host.sockets import serve_socket
from generator.host.views import ASSETS, lobby_page, room_page
from generator.web.assets import asset_route
from generator.web.guard import BodyTooLarge, error_response, loads, same_secret

if TYPE_CHECKING:
    from generator.host.hall import Hall


def _host_token_ok(hall: Hall, given: str | None) -> bool:
    return same_secret(given, hall.token)


async def _make_room(hall: Hall, request: Request) -> Response:
    """A new room, made for a POST that carries the host token: its id, its page and its owner key, or a refusal."""
    bearer = request.headers.get("authorization", "")
    if not bearer.startswith("Bearer ") or not _host_token_ok(hall, bearer[len("Bearer ") :]):
        return error_response(403, "making a room needs the host token (Authorization: Bearer TOKEN)")
    try:
        body = loads(await request.body() or b"{}")
    except BodyTooLarge as err:
        return error_response(413, str(err))
    except ValueError:
        return error_response(400, "the body is not JSON")
    if not isinstance(body, dict):
        return error_response(400, "the body is a JSON object")
    try:
        players = body.get("players", hall.spec.rules.players_default)
        room, owner = await asyncio.to_thread(hall.create, players, body.get("seed"))  # a disk write: not here
    except RoomError as err:
        return error_response(400, str(err))
    return JSONResponse({"room": room.id, "url": f"/room/{room.id}", "owner": owner}, status_code=201)


def routes(hall: Hall) -> list:
    """The HTTP and websocket routes."""

    async def lobby(request: Request) -> Response:
        if not _host_token_ok(hall, request.query_params.get("token")):
            return error_response(403, "the lobby needs the host token (printed when the server started)")
        r = hall.spec.rules
        return HTMLResponse(lobby_page(hall.art, (r.players_min, r.players_max, r.players_default)))

    async def make_room(request: Request) -> Response:
        return await _make_room(hall, request)

    async def room_html(request: Request) -> Response:
        room = await hall.find(request.path_params["room"])
        if room is None:
            return error_response(404, "no such room")
        return HTMLResponse(room_page(hall.art_of(room), room.id), headers={"Cache-Control": "no-store"})

    async def room_json(request: Request) -> Response:
        room = await hall.find(request.path_params["room"])
        return error_response(404, "no such room") if room is None else JSONResponse(hall.state(room, None))

    async def replay(request: Request) -> Response:
        room = await hall.find(request.path_params["room"])
        if room is None:
            return error_response(404, "no such room")
        return Response(await hall.replay(room), media_type="application/json")

    async def health(request: Request) -> Response:
        return JSONResponse(
            {"warming": not hall.ready.is_set(), "rooms": hall.open_rooms, "in_memory": len(hall.rooms)}
        )

    async def table(ws: WebSocket) -> None:
        await serve_socket(hall, ws)

    return [
        Route("/", lobby),
        Route("/api/health", health),
        Route("/api/rooms", make_room, methods=["POST"]),
        Route("/room/{room}", room_html),
        Route("/api/rooms/{room}", room_json),
        Route("/api/rooms/{room}/replay", replay),
        WebSocketRoute("/ws/{room}", table),
        asset_route(ASSETS),
    ]
