"""An ASGI guard in front of every Trailwright server: who may ask (Host and Origin, compared exactly), the
same-origin proof a change needs, body sizes and request rates, each refused with one line while the server
keeps serving; and the security headers every answer carries.

Glossary
--------
served origins  the exact ``scheme://host:port`` addresses a server answers to: the address it listens on (and,
                for a loopback or wildcard one, ``127.0.0.1``, ``localhost`` and ``[::1]`` on the same port),
                plus the public names given behind a proxy (``https://NAME``). Scheme, host and port are
                compared as a whole, a missing port meaning the scheme's own (80, 443): ``http://127.0.0.1``
                is port 80, not the studio's, and is refused, as are ``https://`` and any other scheme where
                ``http://`` is served.
host check      the Host header names a served origin's host and port (a page elsewhere that rebinds its own
                name to 127.0.0.1 sends its own name: refused).
origin check    a browser names the page that makes a request or opens a websocket; only a served origin may.
                A request with no Origin (curl, a test client) passes this check and still needs the server's
                own tokens.
change proof    a request that may change something (any method but GET, HEAD and OPTIONS) carries one of
                ``PROOF_HEADERS`` (the pages send ``X-Trailwright: 1``). A page elsewhere cannot: a cross-site
                ``fetch`` may send such a header only after a CORS preflight this server never grants, and a
                ``no-cors`` one or a form cannot send it at all. A browser's ``Sec-Fetch-Site`` other than
                ``same-origin`` (or ``none``: typed by the user) is refused too.
rate            a token bucket per client address (``generator.web.clients``): ``burst`` requests at once,
                then ``per_second``.
page headers    every HTTP answer carries ``SECURITY_HEADERS``: a strict Content-Security-Policy (scripts,
                styles, pictures and connections from this server only, no inline script, no framing), and
                ``X-Frame-Options: DENY``, ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from generator.web.clients import RefusalLog, client_address

log = logging.getLogger("trailwright.web")

MAX_BODY = 64 * 1024  # bytes: every request body the servers take is small JSON
DEFAULT_PORTS = {"http": 80, "https": 443}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PROOF_HEADERS = (b"x-trailwright", b"authorization", b"x-trailwright-token")  # none is CORS-safelisted
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode("ascii")),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)


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


async def close_socket(send, status: int, reason: str) -> None:
    """Refuse a websocket with a reason the client can read: accepted, then closed at once with code
    ``4000 + status`` (4403, 4404, 4429) and the one-line reason (a refusal before accepting reaches a browser as a
    bare HTTP 403)."""
    await send({"type": "websocket.accept"})
    text = " ".join(str(reason).split()).encode("ascii", "replace")[:120].decode("ascii")
    await send({"type": "websocket.close", "code": 4000 + status, "reason": text})


Origin = tuple[str, str, int]  # scheme, host, port


# an origin as a browser serializes it: scheme, "://", a host (a name, dotted numbers or a bracketed IPv6 address)
# and an optional port written plainly; nothing else (no path, no "/", no "?" or "#", no userinfo, no leading zero)
_ORIGIN = re.compile(
    r"(?P<scheme>[a-z]+)://(?P<host>\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*)(?::(?P<port>[1-9][0-9]{0,4}))?"
)


def parse_origin(text: str) -> Origin | None:
    """An Origin header's (or a served address's) scheme, host and port, the port made explicit; None for
    anything that is not exactly ``http(s)://host[:port]`` as a browser writes it (see ``_ORIGIN``; a trailing dot,
    a trailing slash, a port with a leading zero are other spellings a browser never sends: refused)."""
    found = _ORIGIN.fullmatch(text.strip().lower())
    if found is None or found["scheme"] not in DEFAULT_PORTS:
        return None
    port = int(found["port"]) if found["port"] else DEFAULT_PORTS[found["scheme"]]
    return (found["scheme"], found["host"], port) if port <= 65535 else None


def served_origins(bind: str, port: int, public: Iterable[str] = ()) -> set[str]:
    """The origins a server listening on ``bind:port`` answers to (see the module glossary); ``public`` are names
    behind a TLS proxy (``NAME`` or ``NAME:PORT``: https) or whole origins (``http://NAME:PORT``)."""
    names = {f"[{bind}]" if ":" in bind else bind}
    if bind in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "::"):
        names = (names - {"0.0.0.0", "[::]"}) | {"127.0.0.1", "localhost", "[::1]"}
    out = {f"http://{n}:{port}" for n in names}
    for name in public:
        out.add(name if "://" in name else f"https://{name}")
    return out


def origin_set(origins: Iterable[str]) -> set[Origin]:
    """The served origins parsed (a bare ``host[:port]`` is http's); ``ValueError`` names one that is no address."""
    out = set()
    for o in origins:
        found = parse_origin(o if "://" in o else f"http://{o}")
        if found is None:
            raise ValueError(f"{o!r} is not an address a server can serve (scheme://host[:port])")
        out.add(found)
    return out


def header(scope, name: bytes) -> str | None:
    """A request header's value (the first), decoded as Latin-1, or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def client_of(scope) -> str:
    """The client's address as the guard settled it (``generator.web.clients``)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


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


REFUSALS = RefusalLog(log)  # one per process: the guard's and the servers' refusals share each client's share


class Guard:
    """ASGI middleware: settles the client's address, refuses a request that fails a check of the module glossary
    before the app sees it, and adds the page headers to every answer."""

    def __init__(
        self,
        app,
        origins: Iterable[str],
        rate: RateLimit | None = None,
        max_body: int = MAX_BODY,
        trusted: Iterable[str] = (),
    ):
        self.app, self.origins = app, origin_set(origins)
        self.rate, self.max_body, self.trusted = rate or RateLimit(), max_body, frozenset(trusted)

    def host_ok(self, host: str) -> bool:
        """Whether a Host header names a served origin's host and port (no port: the scheme's own)."""
        found = parse_origin(f"http://{host}")
        if found is None or not host or any(c in host for c in "/?#@"):
            return False
        explicit = host.rsplit("]", 1)[-1].count(":") == 1
        return any(h == found[1] and (p == found[2] if explicit else p == DEFAULT_PORTS[s]) for s, h, p in self.origins)

    def problem(self, scope) -> tuple[int, str] | None:
        """The status and reason to refuse ``scope`` with, or None."""
        for name in (b"host", b"origin"):
            if sum(key == name for key, _ in scope.get("headers", ())) > 1:
                return 403, f"a request names one {name.decode().title()}, not two"
        host = header(scope, b"host") or ""
        if not self.host_ok(host):
            return 403, f"host {host[:80]!r} is not served here"
        origin = header(scope, b"origin")
        if origin is not None and parse_origin(origin) not in self.origins:
            return 403, f"origin {origin[:80]!r} may not use this server"
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            if not any(header(scope, name) for name in PROOF_HEADERS):
                return 403, "a change needs the X-Trailwright header (the server's own pages send it)"
            if header(scope, b"sec-fetch-site") not in (None, "same-origin", "none"):
                return 403, "a change may come only from this server's own pages"
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
        client = scope.get("client")
        scope = {**scope, "client": (client_address(scope, self.trusted), client[1] if client else 0)}
        found = self.problem(scope)
        if found is not None:
            status, reason = found
            REFUSALS.say(client_of(scope), f"{scope['type']} {str(scope.get('path'))[:60]}: {reason}")
            if scope["type"] == "http":
                await send_error(_secured(send), status, reason)
            else:
                await receive()  # the websocket.connect message
                await close_socket(_secured(send), status, reason)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, _secured(send))
            return
        started = False
        secured = _secured(send)

        async def tracked(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await secured(message)

        try:
            await self.app(scope, self._limited(receive), tracked)
        except BodyTooLarge as err:  # a streamed body passed the limit: 413, whatever the app was doing
            if started:
                raise
            REFUSALS.say(client_of(scope), f"http {str(scope.get('path'))[:60]}: {err}")
            await send_error(secured, 413, str(err))

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


def _secured(send):
    """``send`` that adds the page headers (``SECURITY_HEADERS``) to an HTTP answer and to a websocket's handshake
    answer (accepted or denied)."""

    async def secured(message):
        if message["type"] in ("http.response.start", "websocket.accept", "websocket.http.response.start"):
            names = {k.lower() for k, _ in message.get("headers", ())}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
            message = {**message, "headers": [*message.get("headers", ()), *extra]}
        await send(message)

    return secured


class BodyTooLarge(Exception):
    """A streamed body passed the limit (the guard answers 413)."""

    def __init__(self, limit: int):
        super().__init__(f"a request body is at most {limit} bytes")
