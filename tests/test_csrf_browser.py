"""A page elsewhere on this machine tries to drive the studio from a real headless Chromium: served on another
port of 127.0.0.1 (same site as the studio, so its SameSite=Strict cookie goes along) and, where this machine
lets a test listen there, on port 80 (the port-less origin ``http://127.0.0.1``). Its no-cors POSTs and its
websocket change nothing; the studio's own page still may."""

from __future__ import annotations

import contextlib
import http.server
import json
import socket
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from generator.cli import main
from generator.model import read_tileset
from tests.browser_helpers import headless_chromium
from tests.host_helpers import free_port, running, wait_for

pytestmark = pytest.mark.slow
TOKEN = "csrf-test-token"

ATTACK = """<!DOCTYPE html><html><body><p id="done">no</p><script>
const studio = "http://127.0.0.1:PORT";
const edit = JSON.stringify({op: "rotate", tile: TILE, face: "front", sixths: 1});
const tries = [
  fetch(studio + "/api/edit", {method: "POST", mode: "no-cors", credentials: "include", body: edit}),
  fetch(studio + "/api/edit", {method: "POST", mode: "no-cors", credentials: "include", body: edit,
                               headers: {"Content-Type": "text/plain"}}),
  fetch(studio + "/api/save", {method: "POST", mode: "no-cors", credentials: "include", body: "{}"}),
  fetch(studio + "/api/edit", {method: "POST", credentials: "include", body: edit,
                               headers: {"X-Trailwright": "1"}}).catch(() => "refused by CORS"),
];
const ws = new WebSocket("ws://127.0.0.1:PORT/ws/AAAAAAAAAAAAAAAAAAAAAA");
const closed = new Promise((ok) => ws.addEventListener("close", (e) => ok(e.code + " " + e.reason)));
Promise.allSettled(tries).then(() => closed).then((why) => { document.getElementById("done").textContent = why; });
</script></body></html>"""


@contextlib.contextmanager
def attacker(port: int, studio_port: int, tile: int):
    """A plain HTTP server on ``port`` serving the attack page (stopped when the block ends)."""
    page = ATTACK.replace("PORT", str(studio_port)).replace("TILE", str(tile)).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        httpd.shutdown()
        httpd.server_close()


def port_80_free() -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", 80))
        except OSError:
            return False
    return True


def tiles(port: int) -> list:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/state", headers={"X-Trailwright-Token": TOKEN})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())["tiles"]


def test_a_page_elsewhere_cannot_drive_the_studio(tmp_path):
    folder = tmp_path / "maze"
    assert main(["new", str(folder), "--seed", "2"]) == 0
    saved = (folder / "tileset.json").read_bytes()
    sides = [t.face("front") for t in read_tileset(folder / "tileset.json").tiles]
    tile = next(i for i, side in enumerate(sides) if side.rotated(1) != side)  # an edit that changes something
    port = free_port()
    exe = str(Path(sys.executable).with_name("trailwright"))
    cmd = [exe, "studio", str(folder), "--no-browser", "--port", str(port), "--token", TOKEN]
    ready = f"http://127.0.0.1:{port}/api/state"
    with running(cmd, ready, {"X-Trailwright-Token": TOKEN}), headless_chromium() as page:
        before = tiles(port)
        page.get(f"http://127.0.0.1:{port}/?token={TOKEN}")  # the designer's cookie, as every visit has it
        elsewhere = [free_port(), *([80] if port_80_free() else [])]
        for attack_port in elsewhere:
            with attacker(attack_port, port, tile):
                page.get(f"http://127.0.0.1:{attack_port}/" if attack_port != 80 else "http://127.0.0.1/")
                why = wait_for(
                    lambda: page.execute_script("return document.getElementById('done').textContent") != "no"
                )
                assert why
                done = page.execute_script("return document.getElementById('done').textContent")
                assert done.startswith("4403 origin"), done
        assert tiles(port) == before and (folder / "tileset.json").read_bytes() == saved
        # the studio's own page may: the same edit, with the header its script sends
        page.get(f"http://127.0.0.1:{port}/")
        status = page.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/api/edit', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-Trailwright': '1'},"
            "body: JSON.stringify({op: 'rotate', tile: arguments[0], face: 'front', sixths: 1})})"
            ".then((r) => done(r.status));",
            tile,
        )
        assert status == 200 and tiles(port) != before
