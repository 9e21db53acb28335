"""The studio and the game server as real processes on loopback: uvicorn's own answer to a malformed request
carries the page headers, and Ctrl-C or SIGTERM stops either one promptly with one line and no traceback, a search's
cluster included (under 2 s on a quiet machine: ``python -m benchmarks soak`` measures it; here the bound is loose,
so a busy machine does not fail it). Bounded in requests and seconds; every process is always stopped."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from generator.web.guard import SECURITY_HEADERS
from tests.conftest import EXAMPLES
from tests.host_helpers import TOKEN, free_port

pytestmark = pytest.mark.slow
EXE = str(Path(sys.executable).with_name("trailwright"))
PROMPT = 8.0  # seconds: well under Dask's own close timeouts (10 s and more), which a stop used to wait on


def raw_request(port: int, data: bytes) -> bytes:
    """What the server answers to ``data`` sent as is (until it closes the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


def stopped(proc: subprocess.Popen, sig: int) -> tuple[float, str, str]:
    """Send ``sig``; the seconds until the process ended, and its standard output and error."""
    began = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    return time.monotonic() - began, out.decode(), err.decode()


def serving(cmd: list[str], url: str) -> subprocess.Popen:
    """``cmd`` started with its output kept, once ``url`` answers."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"the server did not start: {proc.communicate()[1].decode()[-2000:]}") from None
            time.sleep(0.2)


def test_the_host_answers_a_malformed_request_with_the_page_headers_and_stops_on_sigterm(tmp_path):
    port = free_port()
    cmd = [EXE, "host", str(EXAMPLES / "best-known.json"), "--db", str(tmp_path / "g.db"), "--port", str(port)]
    proc = serving([*cmd, "--token", TOKEN], f"http://127.0.0.1:{port}/api/health")
    try:
        answer = raw_request(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nno colon here\r\n\r\n".encode())
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.lower().split(b"\r\n")
        assert lines[0].startswith(b"http/1.1 400")
        for name, value in SECURITY_HEADERS:
            assert name + b": " + value.lower() in lines, name
        assert body.count(b"\n") == 1  # one line
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10).status == 200
    finally:
        seconds, out, err = stopped(proc, signal.SIGTERM)
    assert seconds < PROMPT
    assert out.splitlines()[-1] == "Trailwright game server stopped."
    assert "Traceback" not in err and "Error" not in err


def test_the_studio_starts_no_cluster_until_a_search_and_stops_promptly_after_one(tmp_path):
    from generator.cli import main

    assert main(["new", str(tmp_path / "p")]) == 0
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [EXE, "studio", str(tmp_path / "p"), "--port", str(port), "--no-browser", "--token", "tok", "--workers", "1"]
    proc = serving(cmd, f"{url}/api/health?token=tok")
    headers = {"x-trailwright-token": "tok", "content-type": "application/json", "x-trailwright": "1"}

    def call(name: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{url}/api/search/{name}", data=data, headers=headers)
        return json.loads(urllib.request.urlopen(req, timeout=60).read())

    try:
        assert call("state")["warm"] is False  # no search yet: no cluster
        call("start", {"seconds": 2, "seed": 1})
        deadline = time.monotonic() + 120
        while (state := call("state"))["state"] in ("running", "stopping") and time.monotonic() < deadline:
            time.sleep(0.5)
        assert state["state"] == "done" and state["warm"] is True  # the cluster stays for the next search
    finally:
        seconds, out, err = stopped(proc, signal.SIGINT)
    assert seconds < PROMPT
    assert out.splitlines()[-1] == "Trailwright studio stopped."
    assert "Traceback" not in err and "Error" not in err
