"""The studio's web app: Starlette behind ``generator.web.guard``, a session token on every request.

Glossary
--------
session token  printed when the studio starts (``/?token=...``, as Jupyter does). The first visit turns it into
               an HttpOnly, SameSite=Strict cookie; every API call needs the cookie or the
               ``X-Trailwright-Token`` header. With the guard's exact Host and Origin checks and the
               ``X-Trailwright`` header every change needs (``generator.web.guard``), a page elsewhere, even one
               on another port of 127.0.0.1 that the cookie counts as the same site, can neither read nor drive
               the studio.
work           each call runs in a worker thread, one at a time, and each picture is drawn in one, each bounded by
               ``WORK_SECONDS``: the event loop never waits on the renderer or the figures.
calls          each API path is a table of calls by name (``GET /api/state``, ``POST /api/edit``, ``POST
               /api/search/start`` ...) answered by ``endpoint``: the token checked, the body read as one JSON
               object, and a refusal turned into a one-line JSON 4xx (``EditError`` and a room's refusal 400, a
               ``Conflict`` 409, a file or board the loaders refuse 422).
playtest       the game server's routes (but its lobby) are this app's too (``studio.playtest``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from generator.errors import TrailwrightError
from generator.host.rooms import RoomError
from generator.host.server import lifespan
from generator.host.server import routes as host_routes
from generator.host.views import ASSETS as HOST_ASSETS
from generator.model import FACES
from generator.render.style import Style
from generator.studio.boards import BoardDraft
from generator.studio.errors import Conflict, EditError
from generator.studio.jobs import events
from generator.studio.pictures import Pictures
from generator.studio.playtest import playtest, playtest_hall, playtests
from generator.studio.publishing import Publish
from generator.studio.search import Search
from generator.studio.session import Studio
from generator.studio.views import ASSETS as STUDIO_ASSETS
from generator.studio.views import page
from generator.web.assets import asset_route
from generator.web.guard import HTTP_ERRORS, BodyTooLarge, Guard, RateLimit, error_response, loads, same_secret

COOKIE = "trailwright_studio"
WORK_SECONDS = 30.0  # the longest a call or a picture may take before its answer is a 503
Calls = dict[str, Callable[[dict], Any]]


async def read_body(request: Request) -> dict:
    """The request's body as one JSON object (empty: ``{}``), or an ``EditError``."""
    try:
        data = loads(await request.body() or b"{}")
    except ValueError:
        raise EditError("the body is not JSON") from None
    if not isinstance(data, dict):
        raise EditError("the body is a JSON object")
    return data


def refusal(err: Exception) -> Response:
    """A refused call as its one-line JSON 4xx (see ``calls`` in the module glossary)."""
    if isinstance(err, BodyTooLarge):
        return error_response(413, str(err))
    if isinstance(err, EditError | RoomError):
        return error_response(400, str(err))
    if isinstance(err, Conflict):
        return error_response(409, str(err))
    if isinstance(err, OSError):  # the system refused a project file: which, and why (the studio carries on)
        return error_response(500, f"{err.filename or 'a project file'}: {err.strerror or err}")
    return error_response(422, str(err))


class App(Pictures):
    """The studio's state behind the routes: the project, its playtest rooms, its search, publish and board draft."""

    def __init__(self, studio: Studio, token: str, workers: int = 2):
        self.studio, self.token = studio, token
        self.hall = playtest_hall(studio, token)
        self.search, self.publish = Search(studio=studio, workers=workers), Publish(studio=studio)
        self.draft = BoardDraft(studio.board)
        self.calls = threading.Lock()  # the calls change the project one at a time

    def allowed(self, request: Request) -> bool:
        """Whether the request carries the session token (cookie or header)."""
        given = request.cookies.get(COOKIE) or request.headers.get("x-trailwright-token")
        return same_secret(given, self.token)

    def endpoint(self, gets: Calls, posts: Calls, reply: Callable[[], Any]) -> Callable[[Request], Awaitable[Response]]:
        """A path's calls (see the module glossary); a POST answers with its call's result, else ``reply()``."""

        async def answer(request: Request) -> Response:
            if not self.allowed(request):
                return error_response(403, "the studio needs its session token")
            name = request.path_params["name"]
            calls, other = (gets, posts) if request.method == "GET" else (posts, gets)
            if name not in calls:
                if name in other:
                    return error_response(405, f"{request.method} {request.url.path[:60]} is not served")
                return error_response(404, f"no such call: {request.method} {request.url.path[:60]}")
            try:
                data = await read_body(request) if request.method == "POST" else {}
                return await self.worked(lambda: self.answer(calls[name], data, reply))
            except (EditError, RoomError, Conflict, TrailwrightError, OSError, BodyTooLarge) as err:
                return refusal(err)

        return answer

    def answer(self, call: Callable[[dict], Any], data: dict, reply: Callable[[], Any]) -> Response:
        """A call's answer (run by ``worked``: one call at a time, in a worker thread)."""
        with self.calls:
            result = call(data)
            if isinstance(result, Response):
                return result
            return JSONResponse(reply() if result is None else result)

    async def worked(self, work: Callable[[], Response]) -> Response:
        """``work()`` in a worker thread, bounded by ``WORK_SECONDS`` (past it: a 503, and the work finishes alone)."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(work), WORK_SECONDS)
        except TimeoutError:
            return error_response(503, f"still working after {WORK_SECONDS:g} s: try again in a moment")

    @functools.cached_property
    def style(self) -> Style:
        """The project's style (read once)."""
        from generator.project import project_style
        from generator.render.style import load_style

        return load_style(project_style(self.studio.folder))

    # --- what the calls answer ---------------------------------------------------------------------

    def state(self, games: bool = True) -> dict[str, Any]:
        """The tiles, their sides and the figures: what the Tiles view draws (without ``games``, the figures' games
        only when they are kept: an edit's reply, its games asked next by ``/api/games``)."""
        from generator.studio.shapes import facts

        studio = self.studio
        designs = studio.design_counts()
        g = studio.board.geometry
        faces = FACES[: g.faces]  # a single-sided tile's front only
        return {
            "project": studio.folder.name,
            "version": studio.version(),
            "board": studio.board.name,
            "geometry": facts(g),  # what the side editor draws from (``studio.shapes``)
            "faces": list(faces),
            "limits": {},  # no part of the studio refuses a geometry's tiles now (kept: the answer's keys stay)
            "tiles": [
                {"id": t.id, "sides": {f: studio.side_info(i, f, designs) for f in faces}}
                for i, t in enumerate(studio.current)
            ],
            "figures": studio.figures(games=games) if studio.warmed.is_set() else None,  # ``studio.warm``
            "edits": {"dirty": studio.dirty, "undo": len(studio.undo_stack), "redo": len(studio.redo_stack)},
            "changed_on_disk": studio.changed_on_disk(),
            "problems": studio.disk_problems(),
            "players": [studio.rules.players_min, studio.rules.players_max, studio.rules.players_default],
            "warming": studio.warming() or (not self.hall.ready.is_set()),  # the engines, then the playtests' bots
        }

    def games(self) -> dict[str, Any]:
        """The edited set's games (``studio.games``), with the version of the set they were played on."""
        studio = self.studio
        if not studio.warmed.is_set():  # asked again once the engines are warm (``studio.warm``)
            return {"version": studio.version(), "games": None, "warming": studio.warming()}
        played = studio.played.get(studio.current, studio.board, studio.rules)
        assert played is not None  # played now when not kept
        return {"version": studio.version(), **played}

    def watch(self, data: dict) -> dict[str, Any]:
        """What changed on disk (the page asks every two seconds)."""
        studio = self.studio
        return {
            "changed_on_disk": studio.changed_on_disk(),
            "dirty": studio.dirty,
            "disk": studio.disk_now()[:16],
            "files_changed": studio.files_changed(),
            "problems": studio.disk_problems(),
        }

    def edit(self, data: dict) -> None:
        """One edit of a side (see ``Studio.edit``)."""
        if data.get("op") == "trails":
            self.studio.edit_trails(data.get("tile"), data.get("face"), data.get("trails"))
        else:
            self.studio.edit(str(data.get("op")), data)

    def reload_files(self, data: dict) -> None:
        """The board, rules and objective read again; the board draft starts from the board read."""
        self.studio.reload_files()
        self.draft = BoardDraft(self.studio.board)

    def board_view(self, saved: str = "") -> dict[str, Any]:
        """The board draft: its hexes, the loader's verdict, its problems hex by hex, what the last stroke did, the
        slot and tile counts, and the project files on disk that do not load (the page's one verdict weighs both)."""
        try:
            board, error = self.draft.check(), ""
        except TrailwrightError as err:
            board, error = None, str(err)
        return {
            "cells": self.draft.cells(),
            "error": error,
            "problems": self.draft.problems(error),
            "said": self.draft.said,
            "disk": self.studio.disk_problems(),
            "slots": len(board.slots) if board else len(self.draft.data["slots"]),
            "tiles": len(self.studio.saved),
            "saved": saved,
        }

    def save_board(self, data: dict) -> dict[str, Any]:
        """The draft saved (with the tile set resized, once confirmed)."""
        draft = self.draft
        words = self.studio.save_board(draft.check(), draft.original, draft.data, confirmed=data.get("confirm") is True)
        self.draft = BoardDraft(self.studio.board)
        return self.board_view(words)

    def revert_board(self, data: dict) -> None:
        self.draft = BoardDraft(self.studio.board)

    def accept(self, data: dict) -> dict[str, Any]:
        """The search's result made the edited set; the Tiles view's state."""
        self.search.accept()
        return self.state(games=False)

    def job_stream(self, job) -> Callable[[dict], Response]:
        return lambda data: StreamingResponse(events(job), media_type="text/event-stream")

    # --- pictures and files --------------------------------------------------------------------------

    async def home(self, request: Request) -> Response:
        given = request.query_params.get("token")
        if given is not None:
            if not same_secret(given, self.token):
                return error_response(403, "that is not this studio's token")
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
            return response
        if not self.allowed(request):
            return error_response(403, "open the address the studio printed (it carries the session token)")
        return HTMLResponse(page(self.studio), headers={"Cache-Control": "no-store"})


def _api(app: App) -> Callable[[Request], Awaitable[Response]]:
    """The calls under ``/api/``: the studio's state, its edits and files, and its games and playtests."""
    studio = app.studio
    return app.endpoint(
        {
            # the engines warm up at start (``lifespan``); on a first start they compile for a minute or more, so
            # while the bots warm up the games wait for their own call: the page draws the tiles and the score and
            # says it is warming up rather than wait on the compiler
            "state": lambda d: app.state(games=app.hall.ready.is_set()),
            "games": lambda d: app.games(),
            "watch": app.watch,
            "playtests": lambda d: {"rooms": playtests(app.hall)},
        },
        {
            "edit": app.edit,
            "pin": lambda d: studio.pin(d.get("tile"), d.get("on")),
            "forbid": lambda d: studio.forbid(d.get("tile"), d.get("face"), d.get("on")),
            "undo": lambda d: studio.undo(),
            "redo": lambda d: studio.redo(),
            "save": lambda d: studio.save(overwrite=d.get("overwrite") is True),
            "reload": lambda d: studio.reload(),
            "reload-files": app.reload_files,
            "playtest": lambda d: JSONResponse(playtest(app.hall, studio, d), status_code=201),
        },
        lambda: app.state(games=False),
    )


def _search_api(app: App) -> Callable[[Request], Awaitable[Response]]:
    """The calls under ``/api/search/``: start, follow, stop, accept or discard a search."""
    search = app.search
    return app.endpoint(
        {"state": lambda d: search.view(), "events": app.job_stream(search)},
        {
            "start": lambda d: search.start(d.get("seconds", 20), d.get("seed", 0)),
            "stop": lambda d: search.stop(),
            "accept": app.accept,
            "discard": lambda d: search.discard(),
        },
        search.view,
    )


def _publish_api(app: App) -> Callable[[Request], Awaitable[Response]]:
    """The calls under ``/api/publish/``: start, follow or stop making the print kit."""
    publish = app.publish
    return app.endpoint(
        {"state": lambda d: publish.view(), "events": app.job_stream(publish)},
        {"start": lambda d: publish.start(), "stop": lambda d: publish.stop()},
        publish.view,
    )


def _board_api(app: App) -> Callable[[Request], Awaitable[Response]]:
    """The calls under ``/api/board/``: the draft board's state, its paint and pins, save and revert."""
    return app.endpoint(
        {"state": lambda d: app.board_view()},
        {
            "paint": lambda d: app.draft.paint(d),
            "pin": lambda d: app.draft.pin(d),
            "save": app.save_board,
            "revert": app.revert_board,
        },
        app.board_view,
    )


def _picture_routes(app: App) -> list[Route]:
    """The routes of the pictures and files: the board, a maze, the print kit's files and a tile's side."""
    return [
        Route("/board.svg", app.picture(lambda r: app.board_svg())),
        Route("/maze.svg", app.picture(lambda r: app.maze_svg(r.query_params.get("seed", "0")))),
        Route("/kit/{name:path}", app.picture(lambda r: app.kit_file(r.url.path, r.path_params["name"]))),
        Route("/kit-pages/{name:path}", app.picture(lambda r: app.kit_file(r.url.path, r.path_params["name"]))),
        Route(
            "/side/{tile}/{face}.svg",
            app.picture(
                lambda r: app.side_svg(
                    r.path_params["tile"], r.path_params["face"], r.query_params.get("of"), r.query_params.get("t")
                )
            ),
        ),
    ]


def routes(app: App) -> list:
    """Every route: the studio's calls and pictures, and the game server's but its lobby."""
    api, searching, publishing, board = _api(app), _search_api(app), _publish_api(app), _board_api(app)
    assets = asset_route({**HOST_ASSETS, **STUDIO_ASSETS})
    return [r for r in host_routes(app.hall) if getattr(r, "path", "") not in ("/", assets.path)] + [
        assets,
        Route("/", app.home),
        Route("/api/search/{name}", searching, methods=["GET", "POST"]),
        Route("/api/publish/{name}", publishing, methods=["GET", "POST"]),
        Route("/api/board/{name}", board, methods=["GET", "POST"]),
        Route("/api/{name}", api, methods=["GET", "POST"]),
        *_picture_routes(app),
    ]


def create_app(studio: Studio, token: str, origins: set[str], background: bool = False, workers: int = 2) -> Guard:
    """The studio's ASGI app for ``studio``, the game server's rooms included (``origins``: the addresses served,
    ``generator.web.guard``); ``background`` serves as the command does: the engines warmed up in the background
    (``studio.warm``: without it, before the app answers). A search's cluster of ``workers`` processes (one chain
    each) starts with the first search (``generator.studio.cluster``)."""
    app = App(studio, token, workers)

    @contextlib.asynccontextmanager
    async def life(starlette):
        if background:
            threading.Thread(target=studio.warm_up, name="studio-warm-up", daemon=True).start()
        else:
            await asyncio.to_thread(studio.warm_up)
        async with lifespan(app.hall)(starlette):
            yield
        await asyncio.gather(asyncio.to_thread(app.search.shut), asyncio.to_thread(app.publish.shut))

    # one designer's browser: a page loads every side's picture at once, so the rate is a local one
    starlette = Starlette(routes=routes(app), lifespan=life, exception_handlers=HTTP_ERRORS)
    return Guard(starlette, origins, rate=RateLimit(per_second=200.0, burst=600.0))
