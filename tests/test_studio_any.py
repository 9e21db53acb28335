"""The studio's search, random maze and forbidden designs on the three example geometries (issue 44), driven by its
API: a square or paired project searches, draws its maze and forbids a design as the classic one does."""

from __future__ import annotations

import json
import re
import time
import tomllib
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from generator.cli import main
from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio
from tests.test_studio import PROOF, TOKEN

# hex-pairs draws each of its 1,799 designs by a search the first time (``render.sidesearch``): seconds on a busy
# machine, so its mazes and searches are the slow tier's
EXAMPLES = ["square-jungle", "square-pathways", pytest.param("hex-pairs", marks=pytest.mark.slow)]


def new_project(folder: Path, board: str) -> Path:
    """``trailwright new --board BOARD``: a random set of the board's tiles."""
    assert main(["new", str(folder), "--board", board, "--seed", "2"]) == 0
    return folder


def client_of(project: Path) -> TestClient:
    client = TestClient(create_app(Studio(project), TOKEN, {"testserver"}, workers=1), headers=PROOF)
    client.cookies.set(COOKIE, TOKEN)
    return client


def few_designs(project: Path, kinds: int = 3) -> Path:
    """The project's tiles as copies of its first ``kinds`` (ids kept): a maze of them draws a few designs, where a
    random hex-pairs set's first maze searches some forty drawings on a machine that has none kept."""
    path = project / "tileset.json"
    data = json.loads(path.read_text())
    tiles = data["tiles"]
    data["tiles"] = [{**tiles[k % kinds], "id": tile["id"]} for k, tile in enumerate(tiles)]
    path.write_text(json.dumps(data))
    return project


@pytest.mark.parametrize("board", EXAMPLES)
def test_the_random_maze_lays_the_edited_set_on_the_board_in_its_own_tiles(tmp_path, board):
    with client_of(few_designs(new_project(tmp_path / "p", board))) as client:
        state = client.get("/api/state").json()
        assert "maze" not in state["limits"]
        g, ids = state["geometry"], [t["id"] for t in state["tiles"]]
        one, deadline = client.get("/maze.svg?seed=7"), time.monotonic() + 60
        while one.status_code == 503 and time.monotonic() < deadline:  # the first drawing of many designs may
            time.sleep(1)  # outlast a call's 30 s: it finishes by itself
            one = client.get("/maze.svg?seed=7")
        assert one.status_code == 200 and one.headers["content-type"] == "image/svg+xml"
        assert client.get("/maze.svg?seed=7").content == one.content  # the seed decides
        meta = json.loads(one.text.split("<metadata>")[1].split("</metadata>")[0])
        (layout,) = meta["layouts"]
        assert meta["board"] == board and meta["seed"] == 7 and sorted(layout["tiles"]) == sorted(ids)
        assert set(layout["rot"]) <= set(range(g["turns"])) and one.text.count('class="board-slot"') == len(ids)
        if g["faces"] == 1:
            assert set(layout["flip"]) == {0}  # a single-sided tile is never turned over
        tile = ids.index(layout["tiles"][0])  # the first slot's tile, edited: the maze shows the edit
        face = "back" if layout["flip"][0] else "front"
        a, b = (0, 2) if g["trails"] == "pairs" else (0, 1)
        edited = client.post("/api/edit", json={"op": "join", "tile": tile, "face": face, "a": a, "b": b})
        if edited.status_code == 400:  # those ends were joined already: a dead end, or turned, changes it too
            op = {"op": "rotate", "sixths": 1} if g["trails"] == "pairs" else {"op": "split", "a": a}
            edited = client.post("/api/edit", json={**op, "tile": tile, "face": face})
        assert edited.status_code == 200, edited.json()
        assert client.get("/maze.svg?seed=7").content != one.content
        assert client.get("/maze.svg?seed=x").status_code == 400


@pytest.mark.parametrize("board", EXAMPLES)
def test_forbidding_a_design_writes_it_in_the_tiles_end_names_and_the_optimizer_obeys(tmp_path, board):
    from generator.model import Side
    from generator.optimize.space import make_problem
    from generator.scoring.objective import load_objective

    project = new_project(tmp_path / "p", board)
    with client_of(project) as client:
        state = client.get("/api/state").json()
        assert "forbid" not in state["limits"]
        front = state["tiles"][0]["sides"]["front"]
        state = client.post("/api/forbid", json={"tile": 0, "face": "front", "on": True}).json()
        forbidden = [(t["id"], t["sides"]["front"]["forbidden"]) for t in state["tiles"]]
        same = [t["id"] for t in state["tiles"] if t["sides"]["front"]["design"] == front["design"]]
        assert [i for i, on in forbidden if on] == same  # every side of that design, up to a turn, and no other
        studio = Studio(project)  # the file every command reads, with the board's end names
        side = Side.of(front["trails"], studio.board.geometry)
        written = load_objective(project / "objective.toml")
        assert written.forbid == (side.canonical.trails,)
        text = tomllib.loads((project / "objective.toml").read_text())
        assert text["forbid"] == [side.canonical.names()]  # named by these tiles' ends (``N1``, ``E`` ...)
        problem = make_problem(studio.board, written, studio.current)
        assert problem.space.design_of(side) not in problem.allowed  # the search never puts it on a tile
        r = client.post("/api/pin", json={"tile": 0, "on": True})  # a pinned tile with a forbidden design: refused
        assert r.status_code == 400 and "has a forbidden design" in r.json()["error"]
        client.post("/api/forbid", json={"tile": 0, "face": "front", "on": False})
        assert load_objective(project / "objective.toml").forbid == ()


@pytest.mark.parametrize("board", ["square-jungle", EXAMPLES[2]])  # single- and double-sided tiles (the search
# itself is the optimizer's, tested on every geometry in test_geometry_optimize.py)
def test_a_search_of_these_tiles_streams_progress_and_its_result_is_accepted(tmp_path, board):
    with client_of(new_project(tmp_path / "p", board)) as client:
        before = client.get("/api/state").json()
        assert "search" not in before["limits"]
        assert client.post("/api/search/start", json={"seconds": 2, "seed": 1}).json()["state"] == "running"
        deadline = time.monotonic() + 180
        with client.stream("GET", "/api/search/events") as events:
            views = [json.loads(line[6:]) for line in events.iter_lines() if line.startswith("data: ")]
            assert time.monotonic() < deadline
        assert views[-1]["state"] == "done", views[-1]["error"]
        offer = views[-1]["offer"]
        assert any(v["history"] for v in views[:-1]) and offer["before"]["fitness"] == before["figures"]["fitness"]
        assert offer["figures"]["fitness"] > offer["before"]["fitness"]  # a search from a random set improves it
        assert offer["changed"] and {face for _, face in offer["changed"]} <= set(before["faces"])
        t, face = offer["changed"][0]
        assert client.get(f"/side/{t}/{face}.svg?of=offer").content != client.get(f"/side/{t}/{face}.svg").content
        after = client.post("/api/search/accept", json={}).json()
        assert [tile["sides"]["front"]["trails"] for tile in after["tiles"]] == [x["front"] for x in offer["trails"]]
        assert after["figures"]["fitness"] == offer["figures"]["fitness"] and after["figures"]["undo"] == 1


def free_beside_a_slot(board) -> tuple[list[int], list[int], str]:
    """A wall cell next to a slot, that slot, and the wall cell's edge facing it (by the board's own grid)."""
    g, taken = board.geometry, set(board.slots) | {h for lm in board.landmarks for h in lm.hexes}
    taken |= {c.hex for c in board.connectors}
    for slot in board.slots:
        for edge in range(g.edges):
            cell = g.neighbour(slot, edge)
            if cell not in taken:
                return list(cell), list(slot), g.edge_names[g.opposite(edge)]
    raise AssertionError("no wall cell beside a slot")


@pytest.mark.parametrize("board", ["square-jungle", "square-pathways", "hex-pairs"])
def test_the_board_of_these_tiles_is_painted_on_its_own_grid_checked_and_saved_with_the_set_resized(tmp_path, board):
    from generator.board import load_board
    from generator.model import read_tileset

    project = new_project(tmp_path / "p", board)
    before, text = load_board(project / "board.toml"), (project / "board.toml").read_text()
    g, cell = before.geometry, "a hex is [q, r]" if before.geometry.shape == "hex" else "a cell is [x, y]"
    with client_of(project) as client:
        assert client.get("/api/state").json()["limits"] == {}
        view = client.get("/api/board/state").json()
        assert view["error"] == "" and view["slots"] == view["tiles"] == before.tile_count
        picture = client.get("/board.svg")  # drawn by the renderer of these tiles: a slot of the grid's shape each
        slots = re.findall(r'<polygon class="board-slot" points="([^"]*)"', picture.text)
        assert len(slots) == before.tile_count and {len(p.split()) for p in slots} == {g.edges}
        here, slot, edge = free_beside_a_slot(before)
        said = client.post("/api/board/paint", json={"hex": here, "kind": "landmark", "name": "Ford"}).json()["said"]
        facing = sum(g.neighbour(tuple(here), e) in before.slots for e in range(g.edges))
        assert said == f"{here}: wall → landmark 'Ford'; Ford faces {facing} slot side(s)"
        view = client.post("/api/board/pin", json={"hex": here, "slot": slot}).json()
        assert view["said"] == f"Ford: side {edge} of {here} pinned; Ford faces its 1 pinned side(s) only"
        assert {"hex": here, "kind": "landmark", "label": "Ford", "pinned": [edge]} in view["cells"]
        r = client.post("/api/board/paint", json={"hex": [1, "x"], "kind": "slot"})
        assert r.status_code == 400 and r.json()["error"] == f"hex: {cell}, whole numbers from -60 to 60"
        far = [40, 40]  # a connector joining no slots: marked on its hex, and the board cannot be saved
        view = client.post("/api/board/paint", json={"hex": far, "kind": "connector", "joins": [[41, 40], [40, 41]]})
        assert any(p["hex"] == far for p in view.json()["problems"]) and view.json()["error"]
        assert client.post("/api/board/save", json={"confirm": True}).status_code == 422
        client.post("/api/board/paint", json={"hex": far, "kind": "slot"})  # a slot more: the set gains a tile
        r = client.post("/api/board/save", json={})
        assert r.status_code == 409 and f"{before.tile_count + 1} slots" in r.json()["error"]
        saved = client.post("/api/board/save", json={"confirm": True}).json()["saved"]
        assert saved == f"1 tile(s) added at random: t{before.tile_count + 1}"
    after, tiles = load_board(project / "board.toml"), read_tileset(project / "tileset.json")
    assert after.geometry == g and after.tile_count == len(tiles) == before.tile_count + 1 and tiles.geometry == g
    (ford,) = [lm for lm in after.landmarks if lm.name == "Ford"]
    assert len(ford.sides) == 1 and after.slots[ford.sides[0].slot] == tuple(slot)
    comments = [line for line in text.splitlines() if line.startswith("#")]
    written = (project / "board.toml").read_text()
    assert [line for line in written.splitlines() if line.startswith("#")] == comments and "[tiles]" in written


def test_a_forbidden_side_of_other_tiles_written_by_hand_is_the_banner_naming_objective_toml(tmp_path):
    project = new_project(tmp_path / "p", "square-jungle")
    with client_of(project) as client:
        client.post("/api/forbid", json={"tile": 0, "face": "front", "on": True})
        kept = client.get("/api/state").json()["tiles"][0]["sides"]["front"]["forbidden"]
        (project / "objective.toml").write_text('forbid = [[["N", "S"], ["NE", "SW"], ["SE", "NW"]]]\n')
        (problem,) = client.get("/api/watch").json()["problems"]
        assert problem["file"] == "objective.toml" and "\n" not in problem["error"]
        assert "forbid: N-S | NE-SW | SE-NW is a side of 6 ends, and this board's tiles have 4" in problem["error"]
        assert kept and client.get("/api/state").json()["tiles"][0]["sides"]["front"]["forbidden"]  # the last good
