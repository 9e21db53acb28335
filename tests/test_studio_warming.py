"""The studio while its engines warm up (a first start compiles them): its state answers at once with the tiles
and the score, says it is warming up, and leaves the games to their own call."""

from __future__ import annotations

from starlette.testclient import TestClient

from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio

BASE = "http://127.0.0.1:8766"


def test_the_state_says_warming_and_leaves_the_games_to_their_own_call_until_the_engines_are_ready(tmp_path):
    from generator.cli import main

    folder = tmp_path / "maze"
    assert main(["new", str(folder), "--seed", "2"]) == 0
    studio = Studio(folder)
    guard = create_app(studio, "tok", {BASE})
    client = TestClient(guard, base_url=BASE)  # no lifespan: nothing warms the engines or the bots up
    client.cookies.set(COOKIE, "tok")
    state = client.get("/api/state").json()  # at once: the tiles, no figures yet, and the warm-up said
    assert state["warming"] and state["figures"] is None and state["tiles"]
    assert client.get("/api/games").json()["games"] is None
    studio.warm_up()  # what the lifespan does in the background
    state = client.get("/api/state").json()  # the bots still warming: the score, and the games on their own call
    assert state["warming"] is True and state["figures"]["fitness"] > 0
    games = client.get("/api/games").json()
    assert games["games"] > 0
    assert client.get("/api/state").json()["figures"]["games"] == games["games"]  # kept: in the state from now on
