"""The game server: Starlette on uvicorn, websockets for the table, SQLite for the record. The hall
(``generator.host.hall``) holds the rooms, the routes (``generator.host.routes``) answer HTTP and the table's
websocket (``generator.host.sockets``), all behind the guard (``generator.web.guard``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading

from starlette.applications import Starlette

from generator.host.hall import Hall, Limits
from generator.host.routes import routes
from generator.web.guard import HTTP_ERRORS, Guard

__all__ = ["Hall", "Limits", "create_app", "lifespan", "routes"]


def lifespan(hall: Hall):
    """The app's life: the bots warmed up in a worker thread; restored rooms whose turn is a bot's go on, and
    rooms are put away, while it runs; the bots and timers stop when it stops."""

    @contextlib.asynccontextmanager
    async def life(app):
        threading.Thread(target=hall.warm, name="trailwright-warm-up", daemon=True).start()
        sweeper = asyncio.get_running_loop().create_task(hall.sweep())
        for room in list(hall.rooms.values()):
            hall.kick_bots(room)
            hall.watch_turn(room)
        yield
        for task in (sweeper, *hall.bots.values(), *hall.timers.values()):
            task.cancel()

    return life


def create_app(hall: Hall, origins: set[str], trusted: frozenset[str] = frozenset()) -> Guard:
    """The ASGI app: the routes behind the guard (``origins``: the addresses served; ``trusted``: the proxies
    whose forwarding header is believed)."""
    app = Starlette(routes=routes(hall), lifespan=lifespan(hall), exception_handlers=HTTP_ERRORS)
    return Guard(app, origins, trusted=trusted)
