"""An ASGI guard in front of every Trailwright server: the Host and Origin headers, body sizes and request
rates, each refused with a one-line JSON 4xx while the server keeps serving.

Glossary
--------
allowed hosts   the ``host[:port]`` values a request's Host header may name (the address it listens on, and
                ``localhost`` for a loopback one; ``--allow-host`` adds a public name behind a proxy). A page
                elsewhere that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name: refused.
origin          a browser names the page that makes a request or opens a websocket; only pages of an allowed
                host may. A request with no Origin (curl, a test client) passes this check and still needs
                the server's own tokens.
rate            a token bucket per client address: ``burst`` requests at once, then ``per_second``.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

log = logging.getLogger("trailwright.web")

MAX_BODY = 64 * 1024  # bytes: every request body the servers take is small JSON


def loads(text: str | bytes):
    """JSON a client sent: ``ValueError`` for anything that is not JSON, nesting too deep to parse included (the
    parser recurses: a body of thousands of ``[`` is within any size limit)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def refuse_body(status: int, message: str) -> bytes:
    """The one-line JSON error every refusal carries (the guard's and the apps' alike)."""
    return json.dumps({"error": " ".join(str(message).split())}, ensure_ascii=True).encode("ascii") + b"\n"


def error_response(status: int, message: str):
    """An app's refusal: ``status`` with the one-line JSON error."""
    from starlette.responses import Response

    return Response(refuse_body(status, message), status_code=status, media_type="application/json")


async def _http_error(request, exc):
    """Starlette's own refusals (no such route, a method not served) as the same one-line JSON error."""
    return error_response(exc.status_code, f"{exc.detail}: {request.method} {request.url.path[:60]}")


# Starlette's ``exception_handlers`` for both apps: every 4xx a client meets is one line of JSON
HTTP_ERRORS = {404: _http_error, 405: _http_error}


def same_secret(given, secret: str) -> bool:
    """Whether ``given`` is ``secret`` (text, compared in constant time)."""
    return isinstance(given, str) and secrets.compare_digest(given.encode(), secret.encode())


async def send_error(send, status: int, message: str) -> None:
    """Answer an HTTP request with ``status`` and a one-line JSON error."""
    body = refuse_body(status, message)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def default_hosts(bind: str, port: int) -> set[str]:
    """The Host values a server listening on ``bind:port`` answers to."""
    names = {bind, f"{bind}:{port}"}
    if bind in ("127.0.0.1", "::1", "localhost"):
        names |= {f"{n}:{port}" for n in ("127.0.0.1", "localhost", "[::1]")} | {"127.0.0.1", "localhost"}
    return names


@dataclass
class Bucket:
    """A token bucket."""

    tokens: float
    stamp: float


@dataclass
class RateLimit:
    """``burst`` requests at once per client, refilled at ``per_second``."""

    per_second: float = 20.0
    burst: float = 60.0
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def allow(self, client: str, now: float | None = None) -> bool:
        """Whether ``client`` may make one more request now (it spends a token)."""
        now = time.monotonic() if now is None else now
        b = self.buckets.get(client)
        if b is None:
            if len(self.buckets) > 10_000:  # forget the oldest clients rather than grow without bound
                for key in sorted(self.buckets, key=lambda k: self.buckets[k].stamp)[:5_000]:
                    del self.buckets[key]
            b = self.buckets[client] = Bucket(self.burst, now)
        b.tokens = min(self.burst, b.tokens + (now - b.stamp) * self.per_second)
        b.stamp = now
        if b.tokens < 1:
            return False
        b.tokens -= 1
        return True


def header(scope, name: bytes) -> str | None:
    """A request header's value (the first), decoded as Latin-1, or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def client_of(scope) -> str:
    """The client's address (the proxy's, behind one: the guard limits what reaches it)."""
    client = scope.get("client")
    return client[0] if client else "?"


class Guard:
    """ASGI middleware: refuses a request whose Host or Origin is not allowed, whose body is too large, or
    that comes too fast, before the app sees it."""

    def __init__(self, app, hosts: Iterable[str], rate: RateLimit | None = None, max_body: int = MAX_BODY):
        self.app, self.hosts = app, {h.lower() for h in hosts}
        self.rate, self.max_body = rate or RateLimit(), max_body

    def problem(self, scope) -> tuple[int, str] | None:
        """The status and reason to refuse ``scope`` with, or None."""
        host = (header(scope, b"host") or "").lower()
        if host not in self.hosts:
            return 403, f"host {host!r} is not served here"
        origin = header(scope, b"origin")
        if origin is not None and (urlsplit(origin).netloc.lower() not in self.hosts or origin == "null"):
            return 403, f"origin {origin!r} may not use this server"
        if scope["type"] == "http":
            length = header(scope, b"content-length")
            if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > self.max_body):
                return 413, f"a request body is at most {self.max_body} bytes"
        if not self.rate.allow(client_of(scope)):
            return 429, "too many requests: slow down"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        found = self.problem(scope)
        if found is not None:
            status, reason = found
            log.warning("refused %s %s from %s: %s", scope["type"], scope.get("path"), client_of(scope), reason)
            if scope["type"] == "http":
                await send_error(send, status, reason)
            else:
                await receive()  # the websocket.connect message
                await send({"type": "websocket.close", "code": 4000 + status, "reason": reason[:120]})
            return
        if scope["type"] == "http":
            receive = self._limited(receive)
        await self.app(scope, receive, send)

    def _limited(self, receive):
        """``receive`` that stops a body streamed past ``max_body`` (no Content-Length needed)."""
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(self.max_body)
            return message

        return limited


class BodyTooLarge(Exception):
    """A streamed body passed the limit (the app answers 413)."""

    def __init__(self, limit: int):
        super().__init__(f"a request body is at most {limit} bytes")
