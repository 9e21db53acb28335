"""Nothing drawn from a designer's input runs in the studio's own process: a day's actions with a themed project
(sides, the maze, the board, a playtest, a publish and its check) never open a cairo surface there. The drawing
happens in child processes (the publish, the check, a theme's bounded test drawing), so a theme whose text cairo
cannot draw cannot poison the studio."""

from __future__ import annotations

import json
import os

from starlette.testclient import TestClient

from generator.cli import main
from generator.studio.server import COOKIE, create_app
from generator.studio.session import Studio

TOKEN = "studio-draws-nothing"


def test_a_themed_day_in_the_studio_opens_no_cairo_surface_in_its_process(tmp_path, monkeypatch):
    import cairosvg.surface

    folder = tmp_path / "p"
    assert main(["new", str(folder)]) == 0
    settings = folder / "settings.toml"
    kept = [ln for ln in settings.read_text().splitlines() if not ln.startswith(("theme ", "documents "))]
    settings.write_text('theme = "river"\ndocuments = ["tiles", "sheets"]\n' + "\n".join(kept) + "\n")
    here, opened = os.getpid(), []
    real = cairosvg.surface.Surface.__init__

    def watched(self, *args, **kwargs):
        if os.getpid() == here:  # a forked child (a theme's test drawing) draws as it must
            opened.append(type(self).__name__)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cairosvg.surface.Surface, "__init__", watched)
    app = create_app(Studio(folder), TOKEN, {"testserver"})
    with TestClient(app, headers={"x-trailwright": "1"}) as c:
        c.cookies.set(COOKIE, TOKEN)
        assert c.get("/api/state").status_code == 200
        for path in ("/side/0/front.svg", "/side/3/back.svg", "/maze.svg?seed=4", "/board.svg"):
            assert c.get(path).status_code == 200, path
        assert c.post("/api/edit", json={"op": "rotate", "tile": 2, "face": "front", "sixths": 1}).status_code == 200
        assert c.post("/api/playtest", json={"policy": "explorer"}).status_code == 201
        assert c.post("/api/save", json={}).status_code == 200
        assert c.post("/api/publish/start", json={}).json()["state"] == "running"
        with c.stream("GET", "/api/publish/events") as events:
            done = [json.loads(line[6:]) for line in events.iter_lines() if line.startswith("data: ")][-1]
        assert done["state"] == "done", done["error"]
        assert done["checks"]["summary"].startswith("check: ")  # the kit was drawn and checked, elsewhere
    assert opened == []
