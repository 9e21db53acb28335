"""The studio's web app: Starlette behind ``generator.web.guard``, a session token on every request.

Glossary
--------
playtest       the game server (``generator.host``) shares this app: the studio's Playtest view makes a room that
               plays the tile set as edited now, with bots in every seat but the designer's, and the room page,
               its websocket and its replay are the host's own routes. Its games go to ``output/games.db``.
session token  printed when the studio starts (``/?token=...``, as Jupyter does). The first visit turns it into
               an HttpOnly, SameSite=Strict cookie; every API call needs the cookie or the
               ``X-Trailwright-Token`` header. With the guard's Host and Origin checks, a page elsewhere can
               neither read nor drive the studio.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from generator.errors import TrailwrightError
from generator.host.rooms import BOTS, GameSpec, RoomError
from generator.host.server import Hall, Limits, lifespan
from generator.host.server import routes as host_routes
from generator.host.store import Store
from generator.model import FACES
from generator.studio.boards import BoardDraft
from generator.studio.errors import Conflict, EditError
from generator.studio.jobs import Job, events
from generator.studio.publishing import KIT, PAGES, Publish, served
from generator.studio.search import Search
from generator.studio.session import Studio
from generator.studio.views import page
from generator.web.guard import BodyTooLarge, Guard, RateLimit, error_response, same_secret

COOKIE = "trailwright_studio"


GAMES_DB = "output/games.db"  # the playtests' record, inside the project


def playtest_hall(studio: Studio, token: str) -> Hall:
    """The game server of the studio's playtests, its rooms restored from the project's games file."""
    from generator.project import project_file
    from generator.publish.settings import load_settings
    from generator.render.style import load_style
    from generator.table.scene import layout_table_art

    style = load_style(project_file(studio.folder, "style"))
    title = load_settings(project_file(studio.folder, "settings")).title
    art = layout_table_art(studio.current, studio.board, style, title, "studio")
    path = studio.folder / GAMES_DB
    path.parent.mkdir(parents=True, exist_ok=True)
    return Hall(GameSpec(studio.current, studio.board, studio.rules), art, Store(path), token, Limits(), 0.4)


def playtest(hall: Hall, studio: Studio, data: dict) -> dict[str, Any]:
    """A room that plays the tile set as edited now: the designer's seat 0, bots (``policy``) in the others."""
    policy = data.get("policy", "explorer")
    if policy not in BOTS:
        raise EditError(f"bots play {' or '.join(BOTS)}, not {str(policy)[:40]!r}")
    room, owner = hall.create(
        data.get("players", studio.rules.players_default), None, GameSpec(studio.current, studio.board, studio.rules)
    )
    for seat in range(1, room.players):
        room.add_bot(seat, policy, owner)
    return {"room": room.id, "url": f"/room/{room.id}#owner={owner}"}


def playtests(hall: Hall) -> list[dict[str, Any]]:
    """The studio's rooms, newest last: who sits where, the round, and the winner once it is over."""
    out = []
    for room in hall.rooms.values():
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


def create_app(studio: Studio, token: str, hosts: set[str]) -> Guard:
    """The studio's ASGI app for ``studio``, the game server's rooms included."""
    hall = playtest_hall(studio, token)
    search, publish = Search(studio=studio), Publish(studio=studio)
    draft = BoardDraft(studio.board)

    @functools.cache
    def drawn_style():
        """The project's style (read once)."""
        from generator.project import project_file
        from generator.render.style import load_style

        return load_style(project_file(studio.folder, "style"))

    def allowed(request: Request) -> bool:
        return same_secret(request.cookies.get(COOKIE) or request.headers.get("x-trailwright-token"), token)

    def state() -> dict[str, Any]:
        return {
            "project": studio.folder.name,
            "board": studio.board.name,
            "tiles": [
                {"id": t.id, "sides": {f: studio.side_info(i, f) for f in FACES}} for i, t in enumerate(studio.current)
            ],
            "figures": studio.figures(),
            "changed_on_disk": studio.changed_on_disk(),
            "players": [studio.rules.players_min, studio.rules.players_max, studio.rules.players_default],
        }

    async def body(request: Request) -> Any:
        try:
            data = json.loads(await request.body() or b"{}")
        except BodyTooLarge as err:
            raise EditError(str(err)) from None
        except ValueError:
            raise EditError("the body is not JSON") from None
        if not isinstance(data, dict):
            raise EditError("the body is a JSON object")
        return data

    async def home(request: Request) -> Response:
        given = request.query_params.get("token")
        if given is not None:
            if not same_secret(given, token):
                return error_response(403, "that is not this studio's token")
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
            return response
        if not allowed(request):
            return error_response(403, "open the address the studio printed (it carries the session token)")
        return HTMLResponse(page(studio), headers={"Cache-Control": "no-store"})

    async def api(request: Request) -> Response:
        nonlocal draft
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        name = request.path_params["name"]
        try:
            if request.method == "GET" and name == "state":
                return JSONResponse(state())
            if request.method == "GET" and name == "playtests":
                return JSONResponse({"rooms": playtests(hall)})
            if request.method == "GET" and name == "watch":
                return JSONResponse(
                    {
                        "changed_on_disk": studio.changed_on_disk(),
                        "dirty": studio.dirty,
                        "disk": studio.disk_now()[:16],
                        "files_changed": studio.files_changed(),
                    }
                )
            if request.method != "POST":
                return error_response(405, f"{request.method} /api/{name} is not served")
            data = await body(request)
            if name == "edit":
                op = data.get("op")
                if op == "trails":
                    studio.edit_trails(data.get("tile"), data.get("face"), data.get("trails"))
                else:
                    studio.edit(str(op), data)
            elif name == "pin":
                studio.pin(data.get("tile"), data.get("on"))
            elif name == "forbid":
                studio.forbid(data.get("tile"), data.get("face"), data.get("on"))
            elif name == "undo":
                studio.undo()
            elif name == "redo":
                studio.redo()
            elif name == "save":
                studio.save(overwrite=data.get("overwrite") is True)
            elif name == "reload":
                studio.reload()
            elif name == "reload-files":
                studio.reload_files()
                draft = BoardDraft(studio.board)
            elif name == "playtest":
                return JSONResponse(playtest(hall, studio, data), status_code=201)
            else:
                return error_response(404, f"no such call: /api/{name[:40]}")
        except (EditError, RoomError) as err:
            return error_response(400, str(err))
        except Conflict as err:
            return error_response(409, str(err))
        except TrailwrightError as err:
            return error_response(422, str(err))
        return JSONResponse(state())

    async def side_svg(request: Request) -> Response:
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        from generator.render.tiles import render_side

        face = request.path_params["face"]
        try:
            tile = int(request.path_params["tile"])
            studio.side(tile, face)
        except (ValueError, EditError):
            return error_response(404, "no such side")
        style = drawn_style()
        offered = search.offered() if request.query_params.get("of") == "offer" else None
        if request.query_params.get("of") == "offer" and offered is None:
            return error_response(404, "no search result")
        side = (offered or studio.current).tiles[tile]
        drawn = [side.id, [list(t) for t in side.face(face).trails]]
        keyed = request.query_params.get("t") == json.dumps(drawn, separators=(",", ":"), ensure_ascii=False)
        svg = render_side(side, face, style, bleed_mm=0.0)
        # an address naming the side's trails always shows that picture: the browser may keep it
        cache = "private, max-age=86400" if keyed else "no-store"
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": cache})

    async def maze(request: Request) -> Response:
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        from generator.render import render_sheet

        seed = request.query_params.get("seed", "0")
        if not seed.isdigit() or int(seed) >= 2**32:
            return error_response(400, "seed: a whole number from 0 to 2**32 - 1")
        style = drawn_style()
        svg = render_sheet(studio.current, studio.board, style, int(seed), 1, highlight=True)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    # the host's routes but its lobby (the studio's page makes the rooms): room pages, websockets, replays
    def job_calls(job: Job, calls: dict[str, Callable[[dict], Any]]):
        """A job's endpoint: GET state and events (server-sent), POST its ``calls`` (the reply: the job's view,
        unless the call returns another)."""

        async def endpoint(request: Request) -> Response:
            if not allowed(request):
                return error_response(403, "the studio needs its session token")
            action, where = request.path_params["action"], request.url.path.rsplit("/", 1)[0]
            if request.method == "GET" and action in ("state", "events"):
                if action == "events":
                    return StreamingResponse(events(job), media_type="text/event-stream")
                return JSONResponse(job.view())
            if request.method != "POST" or action not in calls:
                return error_response(404, f"no such call: {request.method} {where}/{action[:20]}")
            try:
                reply = calls[action](await body(request))
            except EditError as err:
                return error_response(400, str(err))
            return JSONResponse(job.view() if reply is None else reply)

        return endpoint

    def accepted() -> dict[str, Any]:
        search.accept()
        return state()

    search_calls = {
        "start": lambda d: search.start(d.get("seconds", 20), d.get("seed", 0)),
        "stop": lambda d: search.stop(),
        "accept": lambda d: accepted(),
        "discard": lambda d: search.discard(),
    }
    publish_calls = {"start": lambda d: publish.start(), "stop": lambda d: publish.stop()}

    def board_view(saved: str = "") -> dict[str, Any]:
        try:
            board, error = draft.check(), ""
        except TrailwrightError as err:
            board, error = None, str(err)
        return {
            "cells": draft.cells(),
            "error": error,
            "slots": len(board.slots) if board else len(draft.data["slots"]),
            "tiles": len(studio.saved),
            "saved": saved,
        }

    async def board_api(request: Request) -> Response:
        nonlocal draft
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        action = request.path_params["action"]
        if request.method == "GET" and action == "state":
            return JSONResponse(board_view())
        if request.method != "POST" or action not in ("paint", "save", "revert"):
            return error_response(404, f"no such call: {request.method} /api/board/{action[:20]}")
        try:
            data = await body(request)
            if action == "paint":
                draft.paint(data)
            elif action == "revert":
                draft = BoardDraft(studio.board)
            else:
                words = studio.save_board(draft.check(), confirmed=data.get("confirm") is True)
                draft = BoardDraft(studio.board)
                return JSONResponse(board_view(words))
        except EditError as err:
            return error_response(400, str(err))
        except Conflict as err:
            return error_response(409, str(err))
        except TrailwrightError as err:
            return error_response(422, str(err))
        return JSONResponse(board_view())

    async def board_svg(request: Request) -> Response:
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        from generator.render.board import render_board

        try:
            board = draft.check()
        except TrailwrightError as err:
            return error_response(422, str(err))
        return Response(
            render_board(board, drawn_style()), media_type="image/svg+xml", headers={"Cache-Control": "no-store"}
        )

    async def kit_file(request: Request) -> Response:
        if not allowed(request):
            return error_response(403, "the studio needs its session token")
        where = KIT if request.url.path.startswith("/kit/") else PAGES
        path = served(studio.folder, where, request.path_params["name"])
        if path is None:
            return error_response(404, "no such file in the kit")
        return FileResponse(path, headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})

    @contextlib.asynccontextmanager
    async def life(app):
        async with lifespan(hall)(app):
            yield
        await asyncio.gather(asyncio.to_thread(search.shut), asyncio.to_thread(publish.shut))

    routes = [r for r in host_routes(hall) if getattr(r, "path", "") != "/"] + [
        Route("/", home),
        Route("/api/search/{action}", job_calls(search, search_calls), methods=["GET", "POST"]),
        Route("/api/publish/{action}", job_calls(publish, publish_calls), methods=["GET", "POST"]),
        Route("/api/board/{action}", board_api, methods=["GET", "POST"]),
        Route("/board.svg", board_svg),
        Route("/kit/{name:path}", kit_file),
        Route("/kit-pages/{name:path}", kit_file),
        Route("/maze.svg", maze),
        Route("/api/{name}", api, methods=["GET", "POST"]),
        Route("/side/{tile}/{face}.svg", side_svg),
    ]
    # one designer's browser: a page loads every side's picture at once, so the rate is a local one
    return Guard(Starlette(routes=routes, lifespan=life), hosts, rate=RateLimit(per_second=200.0, burst=600.0))
