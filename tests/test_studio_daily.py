"""The studio as a designer's daily tool: a board painter that takes any stroke on the way to a valid board,
saves that change only what changed in the designer's files, files on disk that do not load named until fixed,
an honest search clock, and the small things a designer trips on (issue 42)."""

from __future__ import annotations

import difflib
import json
import os
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.board import load_board
from generator.board.board import builtin_boards
from generator.cli import main
from generator.studio.boards import BoardDraft
from generator.studio.errors import EditError
from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio, _board_toml

TOKEN = "studio-token-for-tests"
BOARDS = Path(__file__).resolve().parents[1] / "generator" / "board" / "boards"


def changed_lines(before: str, after: str) -> list[str]:
    """The lines a diff adds or removes."""
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def saved(path: Path, stroke: dict) -> tuple[BoardDraft, str]:
    """The board file at ``path`` after one stroke and a save."""
    draft = BoardDraft(load_board(path))
    draft.paint(stroke)
    return draft, _board_toml(path, draft.check(), draft.original, draft.data)


@pytest.mark.parametrize("name", builtin_boards())  # square boards and paired hex tiles too
def test_a_board_save_changes_only_the_hex_painted_in_every_builtin_board(name):
    path = BOARDS / f"{name}.toml"
    text, board = path.read_text(), load_board(path)
    comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
    joined = {board.slots[e.slot] for c in board.connectors for e in (c.a, c.b)}  # walled, a connector breaks
    last = list(next(s for s in reversed(board.slots) if s not in joined))
    free = next(
        [q, r]
        for q in range(-2, 30)
        for r in range(-2, 30)
        if (q, r) not in board.slots
        and all((q, r) not in lm.hexes for lm in board.landmarks)
        and all((q, r) != c.hex for c in board.connectors)
    )
    for stroke, expected in (
        ({"hex": free, "kind": "slot"}, 1),  # a slot added: one line more
        ({"hex": last, "kind": "wall"}, 2),  # the last free slot walled: its row changes, nothing else
    ):
        draft, out = saved(path, stroke)
        lines = changed_lines(text, out)
        assert len(lines) == expected, lines
        assert load_board_text(out, path.parent) == draft.check()
        assert [line for line in out.splitlines() if line.lstrip().startswith("#")] == comments  # every comment
        assert "sides" not in out  # the landmarks keep following their neighbours: no sides written for them


def alert(d):
    """The page's open dialog, or None."""
    from selenium.common.exceptions import NoAlertPresentException

    try:
        return d.switch_to.alert
    except NoAlertPresentException:
        return None


def load_board_text(text: str, where: Path):
    import tomllib

    from generator.board.board import board_from_dict

    return board_from_dict(tomllib.loads(text), "board")


def test_a_landmark_added_and_removed_is_one_table_and_a_pinned_side_stays_pinned(tmp_path):
    text = (BOARDS / "classic.toml").read_text()
    pinned = text.replace('name = "Lair"\nhexes = [[3, 4]]', 'name = "Lair"\nhexes = [[3, 4]]\nsides = [[3, 4, "N"]]')
    path = tmp_path / "board.toml"
    path.write_text(pinned)
    draft, out = saved(path, {"hex": [5, 0], "kind": "landmark", "name": "Tower"})
    assert changed_lines(pinned, out) == ["+", "+[[landmark]]", '+name = "Tower"', "+hexes = [[5, 0]]"]
    draft, out = saved(path, {"hex": [1, -1], "kind": "wall"})  # the Hut painted over
    assert changed_lines(pinned, out) == ["-", "-[[landmark]]", '-name = "Hut"', "-hexes = [[1, -1]]"]
    assert 'sides = [[3, 4, "N"]]' in out  # the designer's pin is theirs


def test_a_side_pinned_on_the_board_page_is_one_line_of_the_file_and_unpinned_follows_again(tmp_path):
    path = tmp_path / "board.toml"
    text = (BOARDS / "classic.toml").read_text()
    path.write_text(text)
    draft = BoardDraft(load_board(path))
    draft.pin({"hex": [3, 4], "slot": [4, 4]})  # the Lair's side towards slot 20
    assert draft.said == "Lair: side NE of [3, 4] pinned; Lair faces its 1 pinned side(s) only"
    lair = next(lm for lm in draft.check().landmarks if lm.name == "Lair")
    assert [(s.slot, s.direction) for s in lair.sides] == [(19, 4)]  # slot 20 faces the Lair across its SW side
    assert {"hex": [3, 4], "kind": "landmark", "label": "Lair", "pinned": ["NE"]} in draft.cells()
    out = _board_toml(path, draft.check(), draft.original, draft.data)
    assert changed_lines(text, out) == ['+sides = [[3, 4, "NE"]]']
    draft.pin({"hex": [3, 4], "slot": [4, 4]})
    lair_table = next(lm for lm in draft.data["landmark"] if lm["name"] == "Lair")
    assert "follows its neighbours again (3 slot side(s))" in draft.said and "sides" not in lair_table
    for bad, says in (({"hex": [0, 0], "slot": [0, 1]}, "no landmark"), ({"hex": [3, 4], "slot": [9, 9]}, "no slot")):
        with pytest.raises(EditError, match=says):
            draft.pin(bad)


def test_an_edit_made_while_the_engines_warm_up_is_kept_and_its_figures_come_once_warm(project):
    from generator.studio.server import App

    studio = Studio(project)  # not warmed yet: no kernel compiled for it
    app = App(studio, TOKEN)
    state = app.state()
    assert state["figures"] is None and state["warming"]["expected"] >= 3 and app.games()["games"] is None
    app.edit({"op": "rotate", "tile": 3, "face": "front"})
    assert app.state()["edits"] == {"dirty": True, "undo": 1, "redo": 0}
    studio.warm_up()
    state = app.state()
    assert state["figures"]["undo"] == 1 and state["figures"]["difference"] != 0 and state["figures"]["games"] == 1000


def test_the_strokes_of_the_hand_are_taken_and_each_says_what_it_did():
    """The issue's strokes on the classic board: a slot beside the Lair walled, then painted as Lair, is valid at
    once (no word of a side facing no slot); a stroke that breaks a connector is shown on the connector's hex,
    and the stroke that mends it makes the board valid again."""
    draft = BoardDraft(load_board("classic"))
    draft.paint({"hex": [4, 4], "kind": "wall"})
    draft.check()  # valid: the Lair follows its neighbours
    assert draft.said.startswith("[4, 4]: slot 20 → wall") and "Lair faces 2 slot side(s) (was 3)" in draft.said
    draft.paint({"hex": [4, 4], "kind": "landmark", "name": "Lair"})
    lair = next(lm for lm in draft.check().landmarks if lm.name == "Lair")
    assert lair.hexes == ((3, 4), (4, 4)) and "[4, 4]: wall → landmark 'Lair'" in draft.said
    draft.paint({"hex": [0, 3], "kind": "wall"})  # the connector at [-1, 2] joins it: wrong for now
    assert draft.problems("x") == [{"hex": [-1, 2], "problem": "the connector joins [0, 3], which is no slot"}]
    assert "the connector at [-1, 2] joins [0, 3], which is no slot now" in draft.said
    draft.paint({"hex": [0, 3], "kind": "slot"})
    assert draft.problems() == [] and len(draft.check().slots) == 19
    draft.paint({"hex": [9, 9], "kind": "landmark", "name": "Far"})  # faces nothing yet: marked on its hex
    assert draft.problems() == [{"hex": [9, 9], "problem": "landmark 'Far' faces no slot"}]
    draft.paint({"hex": [9, 8], "kind": "slot"})
    assert draft.problems() == [] and "Far faces 1 slot side(s) (was 0)" in draft.said


def test_a_pinned_side_whose_slot_goes_is_dropped_and_said():
    draft = BoardDraft(load_board("classic"))
    lair = next(lm for lm in draft.data["landmark"] if lm["name"] == "Lair")
    lair["sides"] = [[3, 4, "NE"], [3, 4, "N"]]  # NE of [3, 4] is [4, 4], slot 20
    draft.paint({"hex": [4, 4], "kind": "wall"})
    assert "Lair loses 1 pinned side(s)" in draft.said and lair["sides"] == [[3, 4, "N"]]
    draft.check()
    draft.paint({"hex": [3, 3], "kind": "wall"})  # its last pinned side: it follows its neighbours again
    assert "sides" not in lair and draft.check()


# the reference below numbers a slot's ends six a slot, as the classic game's tiles have them
CLASSIC_TILE_BOARDS = [b for b in builtin_boards() if load_board(b).geometry.is_classic]


@pytest.mark.parametrize("name", CLASSIC_TILE_BOARDS)
def test_the_boards_duplicate_join_rows_equal_the_plain_quadratic_reference(name):
    """``board_arrays`` finds earlier joins between the same two places by a dict (the studio's big boards
    compile in milliseconds); the plain reference compares every pair of joins."""
    import numpy as np

    from generator.board import LandmarkEnd
    from generator.scoring.tables import board_arrays

    board = load_board(name)
    n = len(board.slots)

    def end(e) -> int:
        return 6 * n + e.landmark if isinstance(e, LandmarkEnd) else 6 * e.slot + e.direction

    def place(e) -> tuple:
        return ("landmark", e.landmark) if isinstance(e, LandmarkEnd) else ("slot", e.slot)

    joins, same = board.joins(), []
    for i, j in enumerate(joins):
        earlier = [k for k in joins[:i] if {place(j.a), place(j.b)} == {place(k.a), place(k.b)}]
        same += [(end(j.a), end(j.b), end(k.a), end(k.b), int(m == len(earlier) - 1)) for m, k in enumerate(earlier)]
    assert np.array_equal(board_arrays(board).same_ends, np.asarray(same, dtype=np.uint16).reshape(-1, 5))
    assert len(same) > 0  # the board has landmarks of two hexes or slots joined twice: the rows are tested


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "maze"
    assert main(["new", str(folder), "--seed", "2"]) == 0
    return folder


def test_a_file_on_disk_that_does_not_load_is_named_until_it_is_fixed(project):
    """One state: the watch, the Tiles view's state and the Board view all carry the file's one-line error while
    it lasts, and nothing once the file is fixed."""
    with TestClient(create_app(Studio(project), TOKEN, {"testserver"}), headers={"x-trailwright": "1"}) as c:
        c.cookies.set(COOKIE, TOKEN)
        assert c.get("/api/watch").json()["problems"] == []
        board = project / "board.toml"
        good = board.read_text()
        board.write_text(good.replace('name = "Hut"', "name = 3"))
        problems = c.get("/api/watch").json()["problems"]
        assert [p["file"] for p in problems] == ["board.toml"] and "\n" not in problems[0]["error"]
        assert c.get("/api/state").json()["problems"] == problems
        view = c.get("/api/board/state").json()
        assert view["disk"] == problems and view["error"] == ""  # the draft is fine; the page weighs both
        tiles = project / "tileset.json"
        kept = tiles.read_text()
        tiles.write_text(kept[:-40])
        assert [p["file"] for p in c.get("/api/watch").json()["problems"]] == ["tileset.json", "board.toml"]
        board.write_text(good)
        tiles.write_text(kept)
        assert c.get("/api/watch").json()["problems"] == []

        # an edit answers with its score at once; its games come from /api/games, for the version they were played on
        first = c.post("/api/edit", json={"op": "rotate", "tile": 3, "face": "front"}).json()
        assert first["figures"]["games"] is None and first["figures"]["fitness"] > 0
        games = c.get("/api/games").json()
        assert games["version"] == first["version"] and sum(games["histogram"]) == games["games"] == 1000
        back = c.post("/api/undo", json={}).json()  # a version played already: its games come with the score
        assert back["figures"]["games"] == 1000 and back["version"] != first["version"]

        # the small confusions: a dead end clicked twice says so; a tile by the id the page shows
        side = c.get("/api/state").json()["tiles"][0]["sides"]["front"]
        dead = next((t[0] for t in side["trails"] if len(t) == 1), None)
        body = {"op": "split", "tile": 0, "face": "front", "a": dead if dead is not None else 0}
        if dead is None:
            assert c.post("/api/edit", json=body).status_code == 200
            dead = 0
        r = c.post("/api/edit", json=body)
        assert r.status_code == 400 and "is a dead end already" in r.json()["error"]
        tile_id = c.get("/api/state").json()["tiles"][4]["id"]  # "5": the page's name for the tile at place 4
        before = c.get("/api/state").json()["tiles"][4]["sides"]["back"]["trails"]
        turned = c.post("/api/edit", json={"op": "rotate", "tile": tile_id, "face": "back"}).json()
        assert turned["tiles"][4]["sides"]["back"]["trails"] != before
        # two bots of a kind have two names; the designer's seat 0 is kept for them (no bot buttons there)
        made = c.post("/api/playtest", json={"players": 3, "policy": "explorer"}).json()
        assert made["url"].endswith("&seat=0")
        seats = c.get("/api/playtests").json()["rooms"][0]["seats"]
        assert seats == [None, "explorer bot 2", "explorer bot 3"]


def test_the_search_best_never_goes_down_and_accept_says_what_it_did(project):
    from generator.optimize.chain import Progress
    from generator.studio.search import Search

    studio = Studio(project)
    search = Search(studio=studio)
    search.began = time.monotonic()

    def report(chain: int, best: float) -> None:
        search._progress(Progress(chain, 1, 1.0, 100, 100, 0, best, 0, 0, 0, None, None))

    report(0, 15.9549)
    report(0, 15.9528)  # a re-score lowered the chain's best
    assert [h["best"] for h in search.history] == [15.9549, 15.9549]
    assert search.history[-1]["lowered"] == 15.9528 and search.history[0]["lowered"] is None
    search._result, search.offer = studio.current, {"fitness": 15.9549}
    search.accept()
    view = search.view()
    assert view["offer"] is None and view["last"].startswith("Accepted the result (fitness 15.9549)")


@pytest.mark.slow
def test_every_message_is_in_view_and_a_broken_file_is_never_valid(project):
    """Headless Chromium at a laptop's 1366×768: a stroke's words, a refusal, the toast of a save, the banner of
    a broken file are each in the viewport when they appear; the board is never "valid" beside a broken file;
    the board saved from the page differs from the file by the one hex."""
    import sys

    from tests.browser_helpers import headless_chromium
    from tests.host_helpers import free_port, running, wait_for

    port = free_port()
    exe = Path(sys.executable).with_name("trailwright")
    cmd = [str(exe), "studio", str(project), "--no-browser", "--port", str(port), "--token", TOKEN]
    ready = f"http://127.0.0.1:{port}/api/watch"
    in_view = """const e = document.getElementById(arguments[0]); const r = e.getBoundingClientRect();
        return !e.hidden && e.textContent.length > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
            && r.bottom <= window.innerHeight && r.right <= window.innerWidth;"""
    text = "return document.getElementById(arguments[0]).textContent"
    board = project / "board.toml"
    original = board.read_text()
    shots = os.environ.get("TRAILWRIGHT_SCREENSHOTS")
    with running(cmd, ready, {"x-trailwright-token": TOKEN}), headless_chromium("1366,768") as d:
        d.get(f"http://127.0.0.1:{port}/?token={TOKEN}")
        wait_for(lambda: d.execute_script("return document.querySelectorAll('[data-side]').length") == 40, 60)
        tiles = json.loads(d.execute_script("return JSON.stringify(window.studio.state().tiles)"))
        tile, face, dead = next(  # a side with a dead end
            (i, f, t[0])
            for i, tile in enumerate(tiles)
            for f in ("front", "back")
            for t in tile["sides"][f]["trails"]
            if len(t) == 1
        )
        d.execute_script(f"document.querySelector('[data-side=\"{tile}-{face}\"]').click()")
        wait_for(lambda: d.execute_script("return document.getElementById('hex').dataset.side") == f"{tile}-{face}")
        click = f"document.querySelector('circle[data-exit=\"{dead}\"]').dispatchEvent(new MouseEvent('click'))"
        for _ in range(2):  # a dead end clicked twice: the page says why nothing changed
            d.execute_script(click)
        wait_for(lambda: "dead end already" in d.execute_script(text, "message"))
        assert d.execute_script(in_view, "message")

        # tileset.json changed on disk while edits are unsaved: declined once, it still loads once they are undone
        d.execute_script(
            f"document.querySelector('circle[data-exit=\"{(dead + 1) % 6}\"]').dispatchEvent(new MouseEvent('click'))"
        )
        d.execute_script(click)  # the exit after the dead end joins it: an edit
        wait_for(lambda: d.execute_script(text, "status") == "edited, not saved")
        tileset = project / "tileset.json"
        tileset.write_text(json.dumps(json.loads(tileset.read_text())))  # the same tiles, other bytes
        wait_for(lambda: alert(d), 10).dismiss()
        assert d.execute_script(text, "status") == "edited, not saved"
        d.execute_script("document.getElementById('undo').click()")
        wait_for(lambda: "tileset.json changed on disk: loaded" in d.execute_script(text, "message"), 10)
        assert d.execute_script(text, "status") == "saved"

        d.execute_script("document.querySelector('[data-view=\"board\"]').click()")
        wait_for(lambda: d.execute_script("return document.querySelectorAll('.bd-hex').length") > 40)
        d.execute_script("window.scrollTo(0, document.body.scrollHeight)")  # wherever the designer has scrolled
        d.execute_script("document.querySelector('input[name=bd-tool][value=landmark]').click()")
        d.execute_script("document.querySelector('[data-hex=\"5,2\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(lambda: "needs a name" in d.execute_script(text, "message"))
        assert d.execute_script(in_view, "message")  # the refusal, in view
        d.execute_script("window.scrollTo(0, 0)")
        d.execute_script("document.querySelector('input[name=bd-tool][value=wall]').click()")
        d.execute_script("document.querySelector('[data-hex=\"0,3\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(lambda: d.execute_script(text, "bd-said").startswith("[0, 3]: slot 4 → wall"))
        assert d.execute_script(in_view, "bd-said") and d.execute_script(in_view, "bd-error")
        assert "Not a valid board yet" in d.execute_script(text, "bd-error")
        assert d.execute_script("return document.querySelectorAll('.bd-wrong').length") == 1  # on the connector
        d.execute_script("document.querySelector('input[name=bd-tool][value=slot]').click()")
        d.execute_script("document.querySelector('[data-hex=\"0,3\"]').dispatchEvent(new MouseEvent('click'))")
        d.execute_script("document.querySelector('[data-hex=\"5,0\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(lambda: d.execute_script(text, "bd-error") == "The board is valid.")

        # a long name fits its hex (shrunk, then cut), however long
        d.execute_script("document.querySelector('input[name=bd-tool][value=landmark]').click()")
        d.execute_script("document.getElementById('bd-name').value = 'The Mountain of the Great Old Ones'")
        d.execute_script("document.querySelector('[data-hex=\"6,6\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(
            lambda: d.execute_script("return document.querySelector('[data-hex=\"6,6\"]').dataset.kind") == "landmark"
        )
        widths = d.execute_script(
            "const hex = document.querySelector('[data-hex=\"6,6\"]').getBBox();"
            "const t = [...document.querySelectorAll('#bd-grid text')]"
            ".find((t) => t.textContent.startsWith('The Mount'));"
            "return [t.getBBox().width, hex.width];"
        )
        assert 0 < widths[0] <= 0.9 * widths[1]
        d.execute_script("document.querySelector('input[name=bd-tool][value=wall]').click()")
        d.execute_script("document.querySelector('[data-hex=\"6,6\"]').dispatchEvent(new MouseEvent('click'))")
        wait_for(lambda: d.execute_script(text, "bd-error") == "The board is valid.")

        board.write_text(original.replace('name = "Hut"', "name = 3"))  # another program breaks the file
        wait_for(lambda: "board.toml on disk does not load" in d.execute_script(text, "banner"), 10)
        assert d.execute_script(in_view, "banner") and "does not load" in d.execute_script(text, "bd-error")
        assert "does not load" in d.execute_script(text, "status")
        if shots:
            d.save_screenshot(str(Path(shots) / "studio-banner.png"))
        board.write_text(original)
        wait_for(lambda: d.execute_script("return document.getElementById('banner').hidden"), 10)
        wait_for(lambda: d.execute_script(text, "bd-error") == "The board is valid.")

        d.execute_script("document.getElementById('bd-save').click()")  # 21 slots: asked, then saved
        wait_for(lambda: alert(d), 10).accept()
        wait_for(lambda: "Board saved" in d.execute_script(text, "message"), 20)
        assert d.execute_script(in_view, "message")
    # the board file as the designer wrote it, comments and all, with slot 4 walled and painted again (now the
    # last slot but one) and a slot more
    assert changed_lines(original, board.read_text()) == [
        "-  [0, 0], [0, 1], [0, 2], [0, 3],   #  1..4",
        "+  [0, 0], [0, 1], [0, 2],   #  1..4",
        "+  [0, 3],",
        "+  [5, 0],",
    ]


@pytest.mark.slow
@pytest.mark.heavy
def test_a_first_start_answers_at_once_says_it_is_warming_up_and_takes_an_edit_meanwhile(project, tmp_path):
    """With numba's cache empty (a fresh install) the real command's page answers within a second of the address
    being printed, says it is warming up with the seconds it expects, answers every call within a second while
    the engines compile, and keeps an edit made meanwhile: its figures come once the engines are warm."""
    import subprocess
    import sys
    import tempfile
    import urllib.request

    from tests.browser_helpers import headless_chromium
    from tests.host_helpers import free_port, stop, wait_for

    port = free_port()
    exe = Path(sys.executable).with_name("trailwright")
    cmd = [str(exe), "studio", str(project), "--no-browser", "--port", str(port), "--token", TOKEN]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-numba-cache")}

    def get(path: str) -> tuple[float, dict]:
        """The seconds a call took, and its answer (a picture's: its size)."""
        began = time.monotonic()
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"x-trailwright-token": TOKEN})
        body = urllib.request.urlopen(request, timeout=60).read()
        return time.monotonic() - began, json.loads(body) if path.startswith("/api/") else {"bytes": len(body)}

    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=env, text=True)
        try:
            assert proc.stdout is not None
            while "open: http" not in proc.stdout.readline():
                assert proc.poll() is None, "the studio stopped before printing its address"
            printed = time.monotonic()
            state = wait_for(lambda: _answer(get, "/api/state"), 1.0)  # within a second of the address
            assert time.monotonic() - printed < 1.0
            assert state["figures"] is None and state["warming"]["expected"] >= 10  # a first start: seconds
            with headless_chromium("1366,768") as d:
                d.get(f"http://127.0.0.1:{port}/?token={TOKEN}")
                wait_for(lambda: "first start compiles the engines (about" in _text(d, "banner"), 10)
                assert d.execute_script("return !document.getElementById('banner').hidden")
                d.execute_script("document.querySelector('[data-side=\"3-front\"]').click()")
                wait_for(lambda: d.execute_script("return document.getElementById('hex').dataset.side") == "3-front")
                d.execute_script("document.getElementById('rotate').click()")  # an edit during the warm-up
                wait_for(lambda: _text(d, "status") == "edited, not saved", 10)
                edited = get("/api/state")[1]
                assert edited["figures"] is None and edited["edits"] == {"dirty": True, "undo": 1, "redo": 0}
                seconds: list[tuple[float, str]] = []
                while True:  # the calls answer while the engines compile (a busy machine: within seconds)
                    paths = ("/api/state", "/api/watch", "/api/games", "/side/5/back.svg", "/api/board/state")
                    answers = [get(path) for path in paths]
                    seconds += [(t, path) for (t, _), path in zip(answers, paths, strict=True)]
                    if answers[0][1]["figures"] is not None:
                        break
                    assert time.monotonic() - printed < 400, "the engines did not warm up"
                    time.sleep(0.3)
                # a call that waited on the compile would take a minute; a busy spell of a shared machine (the
                # search's cluster starting once the engines are warm) a few seconds
                seconds.sort()
                assert seconds[len(seconds) // 2][0] < 0.5 and seconds[-1][0] < 15.0, seconds[-5:]
                wait_for(lambda: "±" in _text(d, "figure-table"), 20)  # the edit's figures, once warm
                wait_for(lambda: d.execute_script("return document.getElementById('banner').hidden"), 120)
                final = get("/api/state")[1]
                assert final["version"] == edited["version"] and final["figures"]["undo"] == 1  # the edit kept
                assert [e for e in d.get_log("browser") if e["level"] == "SEVERE"] == []
        finally:
            stop(proc)


def _answer(get, path: str):
    try:
        return get(path)[1]
    except OSError:
        return None


def _text(d, element: str) -> str:
    return d.execute_script("return document.getElementById(arguments[0]).textContent", element)
