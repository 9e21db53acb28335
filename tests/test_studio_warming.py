"""The studio while its engines warm up (a first start compiles them): its state answers at once with the tiles
and the score, says it is warming up, and leaves the games to their own call."""

from __future__ import annotations

from starlette.testclient import TestClient

from generator.studio import server
from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio

BASE = "http://127.0.0.1:8766"


def test_the_state_says_warming_and_leaves_the_games_to_their_own_call_until_the_engines_are_ready(
    tmp_path, monkeypatch
):
    from generator.cli import main

    monkeypatch.setattr(server, "WARM_WAIT", 0.1)  # the engines are never warmed here (no lifespan)
    folder = tmp_path / "maze"
    assert main(["new", str(folder), "--seed", "2"]) == 0
    guard = create_app(Studio(folder), "tok", {BASE})
    client = TestClient(guard, base_url=BASE)  # no lifespan: nothing warms the engines up
    client.cookies.set(COOKIE, "tok")
    state = client.get("/api/state").json()
    assert state["warming"] is True and state["figures"]["games"] is None and state["tiles"]
    games = client.get("/api/games").json()  # the page asks for them next: played on their own call
    assert games["games"] > 0
    assert client.get("/api/state").json()["figures"]["games"] == games["games"]  # kept: in the state from now on
