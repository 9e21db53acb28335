"""The studio on other tile geometries (issue 44): a square side edited by clicking its ends in a real browser,
paired trails kept perfect matchings, single-sided tiles kept single, and a square board painted cell by cell."""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.model import read_tileset
from generator.studio.errors import EditError
from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio
from tests.test_studio import PROOF, TOKEN

ROOT = Path(__file__).resolve().parent.parent


def square_project(folder: Path, board: str = "square-pathways") -> Path:
    """A project of an example board of another geometry and its example set."""
    folder.mkdir()
    shutil.copy(ROOT / "generator" / "board" / "boards" / f"{board}.toml", folder / "board.toml")
    shutil.copy(ROOT / "examples" / f"optimized-{board}.json", folder / "tileset.json")
    return folder


@pytest.fixture
def client(tmp_path):
    project = square_project(tmp_path / "sq")
    with TestClient(create_app(Studio(project), TOKEN, {"testserver"}), headers=PROOF) as c:
        c.cookies.set(COOKIE, TOKEN)
        c.project = project  # type: ignore[attr-defined]
        yield c


def front(client, tile: int = 0) -> list[list[int]]:
    return client.get("/api/state").json()["tiles"][tile]["sides"]["front"]["trails"]


def test_pairing_two_ends_pairs_their_old_partners_and_a_dead_end_is_refused(client):
    state = client.get("/api/state").json()
    assert state["faces"] == ["front"] and state["geometry"]["endNames"][:2] == ["N1", "N2"]
    assert state["geometry"]["endPoints"][2] == [0.70711, -0.2357]  # E1: a third down the east edge
    assert front(client) == [[0, 4], [1, 2], [3, 7], [5, 6]]
    r = client.post("/api/edit", json={"op": "join", "tile": 0, "face": "front", "a": 0, "b": 2})
    assert r.status_code == 200 and front(client) == [[0, 2], [1, 4], [3, 7], [5, 6]]
    for body, says in (
        ({"op": "split", "tile": 0, "face": "front", "a": 3}, "every end joins exactly one other"),
        ({"op": "join", "tile": 0, "face": "front", "a": 0, "b": 2}, "ends N1 and E1 are paired already"),
        ({"op": "join", "tile": 0, "face": "front", "a": 0, "b": 8}, "an end number from 0 (N1) to 7 (W2)"),
        ({"op": "trails", "tile": 0, "face": "front", "trails": [[0, 1, 2], [3, 4, 5, 6, 7]]}, "every trail joins two"),
    ):
        r = client.post("/api/edit", json=body)
        assert r.status_code == 400 and says in r.json()["error"] and "\n" not in r.json()["error"], r.json()
    assert front(client) == [[0, 2], [1, 4], [3, 7], [5, 6]]
    client.post("/api/edit", json={"op": "rotate", "tile": 0, "face": "front", "sixths": 1})  # a quarter here
    assert front(client) == [[0, 7], [1, 5], [2, 4], [3, 6]]  # each end two on: k + 2
    client.post("/api/save", json={})
    saved = read_tileset(client.project / "tileset.json")
    assert saved.tiles[0].front.trails == ((0, 7), (1, 5), (2, 4), (3, 6)) and saved.geometry.faces == 1


def test_every_part_of_the_studio_takes_these_tiles_and_the_games_are_played(client):
    assert client.get("/api/state").json()["limits"] == {}  # search, maze, forbid, board: tests/test_studio_any.py
    assert client.post("/api/board/paint", json={"hex": [0, 0], "kind": "slot"}).status_code == 200
    assert client.get("/maze.svg?seed=1").status_code == 200
    games = client.get("/api/games").json()  # the play engine walks square tiles: the explorer games are played
    assert games["games"] == 1000 and sum(games["histogram"]) == 1000
    side = client.get("/side/0/front.svg")  # the side as the one renderer draws it: square, every trail drawn
    assert side.status_code == 200 and 'width="63.5mm" height="63.5mm"' in side.text
    meta = json.loads(html.unescape(re.search(r"<metadata>(.*?)</metadata>", side.text).group(1)))
    assert side.text.count('class="trail"') == len(meta["trails"]) and meta["face"] == "front"


def test_a_playtest_room_of_square_tiles_opens_with_the_tiles_as_edited(client):
    client.post("/api/edit", json={"op": "join", "tile": 0, "face": "front", "a": 0, "b": 2})
    made = client.post("/api/playtest", json={"players": 2})
    assert made.status_code == 201, made.json()
    page = client.get(made.json()["url"].split("#")[0])
    assert page.status_code == 200 and '"step":90.0' in page.text and 'id="side-0-front"' in page.text


def test_branching_square_sides_are_joined_and_split_by_end(tmp_path):
    studio = Studio(square_project(tmp_path / "jungle", "square-jungle"))
    for tile in (0, 1):  # the sides the edits start from, whatever the example set holds
        studio.edit_trails(tile, "front", [[0], [1, 2, 3]])
    assert str(studio.side(0, "front")) == "N | E-S-W"
    studio.edit("split", {"tile": 0, "face": "front", "a": 1})
    assert str(studio.side(0, "front")) == "N | E | S-W" and studio.current.tiles[0].back == studio.side(0, "front")
    studio.edit("join", {"tile": 0, "face": "front", "a": 0, "b": 1})
    assert str(studio.side(0, "front")) == "N-E | S-W"
    assert str(studio.side(1, "front")) == "N | E-S-W"
    with pytest.raises(EditError, match="exit N is a dead end already"):
        studio.edit("split", {"tile": 1, "face": "front", "a": 0})
    with pytest.raises(EditError, match="an end number from 0 \\(N\\) to 3 \\(W\\)"):
        studio.edit("join", {"tile": 1, "face": "front", "a": 0, "b": 4})


@contextlib.contextmanager
def served(project: Path):
    """The studio of ``project`` on a free loopback port, in this process (uvicorn in a thread), until the block
    ends: the command's app and guard, without the command's start-up."""
    import threading

    import uvicorn

    from generator.web.guard import served_origins
    from tests.host_helpers import free_port, wait_for

    port = free_port()
    app = create_app(Studio(project), TOKEN, served_origins("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="studio-under-test", daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started or not thread.is_alive())
        assert server.started, "the studio did not start"
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.mark.slow  # about 10 s: a studio, a browser, an edit's figures and games
def test_a_designer_pairs_the_ends_of_a_square_side_by_clicks(tmp_path):
    from tests.browser_helpers import headless_chromium
    from tests.host_helpers import wait_for

    with served(square_project(tmp_path / "sq")) as port, headless_chromium() as d:
        d.get(f"http://127.0.0.1:{port}/?token={TOKEN}")
        wait_for(lambda: d.execute_script("return document.querySelectorAll('[data-side]').length") == 36)
        d.execute_script("document.querySelector('[data-side=\"0-front\"]').click()")
        wait_for(lambda: d.execute_script("return document.getElementById('hex').dataset.side") == "0-front")
        # the outline and the ends come from the geometry: a square, two ends on each edge at its thirds
        outline = d.execute_script("return document.querySelector('#hex .tile-outline').getAttribute('points')")
        assert len(outline.split()) == 4
        ends = d.execute_script(
            "return [...document.querySelectorAll('#hex circle.exit')].map(c => [+c.getAttribute('cx'), "
            "+c.getAttribute('cy'), c.querySelector('title').textContent])"
        )
        assert [name for _, _, name in ends] == ["N1", "N2", "E1", "E2", "S1", "S2", "W1", "W2"]
        assert ends[0][:2] == pytest.approx([-55 * 0.2357, -55 * 0.70711], abs=0.01)
        trails = "return window.studio.state().tiles[0].sides.front.trails"
        click = "document.querySelector('circle[data-exit=\"{}\"]').dispatchEvent(new MouseEvent('click'))"
        d.execute_script(click.format(3))  # a click on one end twice is no dead end on paired trails: nothing
        d.execute_script(click.format(3))
        for end in (0, 2):  # N1 then E1: paired, and their partners S1 and N2 with each other
            d.execute_script(click.format(end))
            time.sleep(0.2)
        wait_for(lambda: d.execute_script(trails) == [[0, 2], [1, 4], [3, 7], [5, 6]])
        assert "edited, not saved" in d.execute_script("return document.getElementById('status').textContent")
        assert d.execute_script("return document.getElementById('rotate').textContent") == "Turn a quarter"
        games_drawn = "return !document.getElementById('figures').classList.contains('playing')"
        wait_for(lambda: d.execute_script(games_drawn))  # the explorer games of the edit, on square tiles
        assert "(1000 games," in d.execute_script("return document.getElementById('games').textContent")
        # the Board view: a square grid of cells, painted by a click as a hex is on the classic board
        d.execute_script("document.querySelector('[data-view=\"board\"]').click()")
        wait_for(lambda: d.execute_script("return document.querySelectorAll('.bd-hex').length") > 36)
        cells = "return [...document.querySelectorAll('.bd-hex')].map(p => p.getAttribute('points').split(' ').length)"
        assert set(d.execute_script(cells)) == {4}
        kind = "return document.querySelector('[data-hex=\"7,2\"]').dataset.kind"
        assert d.execute_script(kind) == "wall"
        d.execute_script("document.querySelector('[data-hex=\"7,2\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(lambda: d.execute_script(kind) == "slot")
        assert d.execute_script("return document.getElementById('bd-said').textContent") == (
            "[7, 2]: wall → slot 37; East faces 3 slot side(s) (was 2)"  # [6, 2] of East: its E edge now faces a slot
        )
        shots = os.environ.get("TRAILWRIGHT_SCREENSHOTS")
        if shots:
            d.save_screenshot(str(Path(shots) / "studio-square-board.png"))
        assert [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
