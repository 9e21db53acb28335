"""The one guard in front of both servers (``generator.web.guard``): exact origins, the change proof, client
addresses, page headers and refusals, each proved on the game server and on the studio alike."""

from __future__ import annotations

import logging

import pytest
from starlette.testclient import TestClient

from generator.web.clients import RefusalLog, client_address
from generator.web.guard import CSP, Guard, RateLimit, parse_origin, served_origins
from tests.conftest import EXAMPLES

BASE = "http://127.0.0.1:8766"
SERVED = served_origins("127.0.0.1", 8766)
TOKEN = "guard-test-token"


@pytest.fixture(scope="module")
def host_app(tmp_path_factory):
    from generator.cli.host import spec_and_art
    from generator.host.server import Hall, Limits, create_app
    from generator.host.store import Store

    spec, art = spec_and_art(str(EXAMPLES / "best-known.json"), "classic", None)
    store = Store(tmp_path_factory.mktemp("host") / "games.db")
    yield create_app(Hall(spec, art, store, TOKEN, Limits(), 0.0), SERVED)
    store.close()


@pytest.fixture(scope="module")
def studio_app(tmp_path_factory):
    from generator.cli import main
    from generator.studio.server import create_app
    from generator.studio.session import Studio

    folder = tmp_path_factory.mktemp("studio") / "maze"
    assert main(["new", str(folder), "--seed", "2"]) == 0
    return create_app(Studio(folder), TOKEN, SERVED)


def as_client(app, **kw) -> TestClient:
    c = TestClient(app, base_url=BASE, **kw)
    c.cookies.set("trailwright_studio", TOKEN)
    return c


# a change each app takes: (path, JSON body, extra headers)
CHANGES = {
    "host": ("/api/rooms", {"players": 2}, {"authorization": f"Bearer {TOKEN}"}),
    "studio": ("/api/undo", {}, {}),
}


@pytest.fixture(params=["host", "studio"])
def app_and_change(request, host_app, studio_app):
    return (host_app if request.param == "host" else studio_app), request.param


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1",  # port-less: port 80, any local dev server
        "http://localhost",
        "https://127.0.0.1:8766",  # another scheme
        "evil://127.0.0.1:8766",
        "http://127.0.0.1:8767",  # another port
        "http://127.0.0.1:8766.evil.example",
        "http://user@127.0.0.1:8766",
        "null",
        "",
        "http://127.0.0.1:8766/",  # spellings a browser never sends: a path, a leading zero, a trailing dot
        "http://127.0.0.1:08766",
        "http://127.0.0.1.:8766",
        "http://localhost.:8766",
        "http://127.0.0.1:8766?",
        "http://127.0.0.1:8766#",
        "http://[::ffff:127.0.0.1]:8766",
        "http://127.0.0.1:8766@evil.example",
    ],
)
def test_only_the_exact_served_origin_may_send_a_change_or_open_a_socket(app_and_change, origin):
    app, name = app_and_change
    path, body, headers = CHANGES[name]
    with as_client(app) as c:
        r = c.post(path, json=body, headers={"x-trailwright": "1", "origin": origin, **headers})
        assert r.status_code == 403 and "may not use this server" in r.json()["error"]
        from starlette.websockets import WebSocketDisconnect

        with (
            pytest.raises(WebSocketDisconnect) as err,
            c.websocket_connect("ws://127.0.0.1:8766/ws/" + "A" * 22, headers={"origin": origin}) as ws,
        ):
            ws.receive_json()
        assert err.value.code == 4403 and "may not use this server" in err.value.reason


def test_the_served_origins_pass(app_and_change):
    app, name = app_and_change
    path, body, headers = CHANGES[name]
    with as_client(app) as c:
        for origin in ("http://127.0.0.1:8766", "http://localhost:8766", "http://[::1]:8766", "HTTP://LOCALHOST:8766"):
            r = c.post(path, json=body, headers={"x-trailwright": "1", "origin": origin, **headers})
            assert r.status_code in (200, 201), (origin, r.text)


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "localhost",
        "127.0.0.1:80",
        "127.0.0.1:8767",
        "evil.example:8766",
        "",
        "127.0.0.1:08766",
        "127.0.0.1.:8766",
    ],
)
def test_a_host_header_naming_another_address_is_refused(app_and_change, host):
    app, _ = app_and_change
    with as_client(app) as c:
        r = c.get("/api/rooms/" + "A" * 22, headers={"host": host})
        assert r.status_code == 403 and "is not served here" in r.json()["error"]


def test_a_change_without_the_proof_header_is_refused_as_a_cross_site_page_would_send_it(studio_app):
    """A no-cors fetch or a form from a page elsewhere can carry the cookie and a CORS-safelisted body, never a
    custom header; a same-site page's fetch says so in Sec-Fetch-Site."""
    with as_client(studio_app) as c:
        before = c.get("/api/state").json()
        for headers in (
            {"content-type": "text/plain"},
            {"content-type": "text/plain", "origin": BASE},  # even from the page itself: the header is the proof
            {"x-trailwright": "1", "sec-fetch-site": "same-site"},
            {"x-trailwright": "1", "sec-fetch-site": "cross-site"},
        ):
            r = c.post(
                "/api/edit", content=b'{"op": "rotate", "tile": 0, "face": "front", "sixths": 1}', headers=headers
            )
            assert r.status_code == 403 and r.text.count("\n") == 1, headers
        assert c.get("/api/state").json()["tiles"] == before["tiles"]  # nothing changed
        ok = c.post(
            "/api/edit",
            json={"op": "rotate", "tile": 0, "face": "front", "sixths": 1},
            headers={"x-trailwright": "1", "sec-fetch-site": "same-origin"},
        )
        assert ok.status_code == 200


def test_every_answer_carries_the_page_headers(app_and_change):
    app, _ = app_and_change
    with as_client(app) as c:
        for r in (c.get("/"), c.get("/no/such/page"), c.get("/api/rooms/" + "A" * 22), c.get("/static/host/host.js")):
            assert r.headers["content-security-policy"] == CSP
            assert r.headers["x-frame-options"] == "DENY" and r.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in CSP and "frame-ancestors 'none'" in CSP and "unsafe-inline" not in CSP


def test_a_websockets_handshake_answer_carries_the_page_headers_accepted_or_refused():
    import asyncio

    async def app(scope, receive, send):
        await send({"type": "websocket.accept"})

    def handshake(origin: str) -> list[dict]:
        sent: list[dict] = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message)

        headers = [(b"host", b"127.0.0.1:8766"), (b"origin", origin.encode())]
        scope = {"type": "websocket", "path": "/ws/x", "headers": headers, "client": ("127.0.0.1", 5)}
        asyncio.run(Guard(app, SERVED)(scope, receive, send))
        return sent

    for origin, closed in ((BASE, False), ("http://evil.example", True)):
        sent = handshake(origin)
        assert (
            sent[0]["type"] == "websocket.accept" and (b"content-security-policy", CSP.encode()) in sent[0]["headers"]
        )
        assert (len(sent) == 2 and sent[1]["code"] == 4403) == closed


def test_the_pages_have_no_inline_script_or_style(host_app, studio_app):
    import re

    with as_client(host_app) as c:
        room = c.post("/api/rooms", json={"players": 2}, headers={"authorization": f"Bearer {TOKEN}"}).json()
        pages = [c.get(f"/?token={TOKEN}").text, c.get(room["url"]).text]
        scripts = re.findall(r'<script src="(/static/[^"]+)"', pages[1])
        assert len(scripts) == 2 and all(c.get(s).status_code == 200 for s in scripts)
    with as_client(studio_app) as c:
        pages.append(c.get("/").text)
        assert c.get("/static/studio/studio.js").headers["content-type"].startswith("text/javascript")
        assert c.get("/static/studio/../server.py").status_code == 404 and c.get("/static/host/x.js").status_code == 404
    for page in pages:
        inline = re.findall(r"<script(?![^>]*\b(?:src|type=\"application/json\"))[^>]*>", page)
        assert not inline and "<style" not in page and not re.search(r"\son[a-z]+=", page)


def test_forwarding_headers_are_ignored_unless_the_peer_is_a_trusted_proxy():
    scope = {"client": ("127.0.0.1", 5), "headers": [(b"x-forwarded-for", b"203.0.113.9, 198.51.100.7")]}
    assert client_address(scope, frozenset()) == "127.0.0.1"
    assert client_address(scope, frozenset({"127.0.0.1"})) == "198.51.100.7"  # the proxy's own hop, never the first
    assert client_address({**scope, "client": ("10.0.0.9", 5)}, frozenset({"127.0.0.1"})) == "10.0.0.9"
    bad = {"client": ("127.0.0.1", 5), "headers": [(b"x-forwarded-for", b"not-an-address")]}
    assert client_address(bad, frozenset({"127.0.0.1"})) == "127.0.0.1"
    # a proxy that adds its hop as a line of its own, after the client's: the last line's is the client
    lines = {
        "client": ("127.0.0.1", 5),
        "headers": [(b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-for", b"10.9.8.7")],
    }
    assert client_address(lines, frozenset({"127.0.0.1"})) == "10.9.8.7"
    others = [(b"x-real-ip", b"203.0.113.9"), (b"forwarded", b"for=203.0.113.9")]  # never read, trusted or not
    assert client_address({**scope, "headers": others}, frozenset({"127.0.0.1"})) == "127.0.0.1"


def test_a_client_sending_a_new_forwarded_for_each_time_meets_the_rate_limit(host_app):
    host_app.rate = RateLimit(per_second=0.001, burst=5)
    try:
        with as_client(host_app) as c:
            codes = [
                c.get("/api/rooms/" + "A" * 22, headers={"x-forwarded-for": f"10.0.{i}.1"}).status_code
                for i in range(8)
            ]
    finally:
        host_app.rate = RateLimit()
    assert codes == [404] * 5 + [429] * 3


def test_behind_a_trusted_proxy_each_player_has_their_own_budget():
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    async def who(request):
        return PlainTextResponse(request.client.host)

    app = Starlette(routes=[Route("/", who)])

    guard = Guard(app, SERVED, rate=RateLimit(per_second=0.001, burst=2), trusted={"testclient"})
    with TestClient(guard, base_url=BASE) as c:
        seen = [c.get("/", headers={"x-forwarded-for": f"spoofed, 10.0.0.{i % 4}"}) for i in range(8)]
    assert [r.text for r in seen[:4]] == ["10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert [r.status_code for r in seen] == [200] * 8


def test_a_streamed_body_past_the_limit_is_413_on_both_apps(app_and_change):
    app, name = app_and_change
    path, _, headers = CHANGES[name]

    def chunks():
        for _ in range(40):
            yield b" " * 4096

    with as_client(app) as c:
        r = c.post(path, content=chunks(), headers={"x-trailwright": "1", **headers})
    assert r.status_code == 413 and "at most" in r.json()["error"]


def test_the_refusal_log_says_the_first_few_then_one_line_a_minute(caplog):
    refusals = RefusalLog(logging.getLogger("test.refusals"), first=3)
    with caplog.at_level(logging.WARNING, logger="test.refusals"):
        for i in range(1000):
            refusals.say("10.0.0.1", f"bad message {i}", now=i * 0.01)
        refusals.say("10.0.0.2", "another client", now=5.0)
        assert len(caplog.records) == 4
        refusals.say("10.0.0.1", "a minute later", now=61.0)
    lines = [r.getMessage() for r in caplog.records]
    assert "997 more time(s)" in lines[4] and "a minute later" in lines[5] and len(lines) == 6


def test_a_request_naming_two_origins_or_two_hosts_is_refused(app_and_change):
    app, name = app_and_change
    path, body, headers = CHANGES[name]
    good, evil = ("origin", "http://127.0.0.1:8766"), ("origin", "http://evil.example")
    with as_client(app) as c:
        for two in ([good, evil], [evil, good], [("host", "127.0.0.1:8766"), ("host", "evil.example")]):
            r = c.post(path, json=body, headers=[("x-trailwright", "1"), *two, *headers.items()])
            assert r.status_code == 403 and "not two" in r.json()["error"], two


def test_origins_are_parsed_whole():
    assert parse_origin("http://LOCALHOST") == ("http", "localhost", 80)
    assert parse_origin("https://games.example.org") == ("https", "games.example.org", 443)
    assert parse_origin("http://[::1]:8766") == ("http", "[::1]", 8766)
    assert parse_origin("http://game_box:8080") == (
        "http",
        "game_box",
        8080,
    )  # a name browsers take, underscore and all
    for bad in ("null", "file://", "http://x:99999", "http://x/path", "ws://127.0.0.1:8766", "127.0.0.1:8766"):
        assert parse_origin(bad) is None, bad
    assert served_origins("0.0.0.0", 9) >= {"http://127.0.0.1:9", "http://localhost:9"}  # the printed address works
    assert "https://games.example.org" in served_origins("0.0.0.0", 9, ["games.example.org"])


def test_the_web_servers_own_lines_are_quieted_when_they_repeat():
    from generator.web.clients import QuietRepeats

    now = [0.0]
    quiet = QuietRepeats(first=2, clock=lambda: now[0])
    passed = []
    for i in range(50):
        now[0] = i * 0.1
        record = logging.LogRecord("uvicorn.error", logging.WARNING, "x", 1, "Invalid HTTP request received.", (), None)
        if quiet.filter(record):
            passed.append(record.getMessage())
    now[0] = 61.0
    record = logging.LogRecord("uvicorn.error", logging.WARNING, "x", 1, "Invalid HTTP request received.", (), None)
    assert quiet.filter(record) and "48 more like it" in record.getMessage()
    assert passed == ["Invalid HTTP request received."] * 2
