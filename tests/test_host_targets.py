"""Move targets you can hit (issue 50): where an edge has two ends, a room draws every step at the end it crosses,
a finger wide and apart from its neighbour. The browser test renders a room's targets in Debian's Chromium and
measures them; set TRAILWRIGHT_SCREENSHOTS=docs/images to refresh docs/geometry.md's picture of them."""

from __future__ import annotations

import math
import os
import re
from importlib import resources
from pathlib import Path

import pytest

from generator.board import builtin_boards, load_board
from generator.host.hall import Hall, Limits
from generator.host.rooms import GameSpec
from generator.host.store import Store
from generator.host.views import _targets, room_page, state, target_radius
from generator.play.rules import default_rules
from generator.table.playtable import TARGET_EM, least_size
from generator.web.assets import script, stylesheet
from tests.table_helpers import any_table_art, table_art

FINGER_PX = 44  # the least touch target (CSS px): Apple's and WCAG 2.5.5's 44
GAP_PX = 2  # the least bare ground between two targets' outlines (CSS px)
TWO_ENDS = [b for b in builtin_boards() if load_board(b).geometry.ends_per_edge > 1]


def test_the_built_in_boards_with_two_ends_an_edge_are_the_square_and_hex_pairs():
    assert TWO_ENDS == ["hex-pairs", "square-pathways"]


def _end_points(art) -> list[tuple[float, float]]:
    """Every end of every slot in board mm, each point once (two slots' ends meet at one point)."""
    frame, g = art.frame, art.board.geometry
    points = set()
    for cell in art.board.slots:
        (cx, cy), r = frame.at(cell), frame.radius_mm
        points |= {(round(cx + r * x, 6), round(cy + r * y, 6)) for x, y in map(g.end_point, range(g.ends))}
    return sorted(points)


@pytest.mark.parametrize("board", TWO_ENDS)
def test_no_two_end_targets_on_the_board_can_overlap_and_each_is_a_finger_wide_at_the_least_size(board):
    art = any_table_art(board)
    r = target_radius(art)
    points = _end_points(art)
    least = min(math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1 :])
    assert 2 * r <= 0.8 * least + 1e-5  # every two ends' targets keep a fifth of their distance bare
    em = re.search(r'data-least="min-width: ([\d.]+)em', room_page(art, "r" * 16)).group(1)
    assert float(em) / art.frame.width_mm * 2 * r >= TARGET_EM - 0.01  # at the least size a target is 3 em wide


def test_one_end_an_edge_keeps_its_targets_and_least_size():
    classic, jungle = table_art(), any_table_art("square-jungle")
    assert target_radius(classic) is None and target_radius(jungle) is None
    for art in (classic, jungle):  # a step is drawn by its slot, and the room is as large as the play table
        assert _least(room_page(art, "r" * 16)) == least_size(art.frame, art.style)


def _least(page: str) -> str:
    return re.search(r'data-least="([^"]+)"', page).group(1)


@pytest.mark.slow  # about 4 s: a studio and its playtest room
def test_the_studios_playtest_room_is_drawn_as_large_as_the_hosts(tmp_path):
    from starlette.testclient import TestClient

    from generator.studio.server import COOKIE, create_app
    from generator.studio.session import Studio
    from tests.test_studio import PROOF, TOKEN
    from tests.test_studio_geometry import square_project

    project = square_project(tmp_path / "sq")
    with TestClient(create_app(Studio(project), TOKEN, {"testserver"}), headers=PROOF) as client:
        client.cookies.set(COOKIE, TOKEN)
        made = client.post("/api/playtest", json={"players": 2})
        page = client.get(made.json()["url"].split("#")[0]).text
    assert (
        _least(page)
        == _least(room_page(any_table_art("square-pathways"), "r" * 16))
        != _least(room_page(any_table_art("square-jungle"), "r" * 16))
    )


def _room(art, seed: int):
    """A room of two explorer bots on ``art``'s board."""
    spec = GameSpec(art.tileset, art.board, default_rules(art.board))
    hall = Hall(spec, art, Store(":memory:"), "t" * 32, Limits(), 0.0)
    room, owner = hall.create(2, seed)
    for seat in range(2):
        room.add_bot(seat, "explorer", owner)
    return room


def first_steps(art):
    """A room whose first player has rolled at the start landmark: a step into every slot end beside it."""
    room = _room(art, 3)
    room.act_for(0, ["roll"])
    return room


def u_turn(art):
    """A room played by its bots until the mover's trail turns back to the edge it left by: two steps into one
    slot, one by each end of an edge."""
    room, g = _room(art, 0), art.board.geometry
    for _ in range(400):
        edges = [(slot, g.edge_of(end)) for slot, end in end_cells(room)]
        on_trail = room.match.table.pawns[room.match.current][0] == "trail"
        if room.match.pips and on_trail and len(set(edges)) < len(edges):
            return room
        room.bot_move()
    pytest.fail("no trail turned back to its edge")


def end_cells(room) -> list[tuple[int, int]]:
    """The (slot, end) each of the mover's doors crosses, in the doors' order."""
    table = room.match.table
    place = table.pawns[room.match.current]
    if place[0] == "landmark":
        return [(door[1], door[2]) for door in table.doors(place)]
    return [(place[1], e) for e in table.trail_edges(place[1], place[2]) if (place[1], e) in table.geo.across]


def end_mm(art, slot: int, end: int) -> list[float]:
    """Where end ``end`` of slot ``slot`` lies in board mm, from the geometry alone."""
    (cx, cy), (x, y), r = art.frame.at(art.board.slots[slot]), art.board.geometry.end_point(end), art.frame.radius_mm
    return [cx + r * x, cy + r * y]


@pytest.mark.parametrize("board", TWO_ENDS)
@pytest.mark.parametrize("playing", [first_steps, u_turn])
def test_a_step_is_drawn_at_the_end_it_crosses(board, playing):
    art = any_table_art(board)
    room = playing(art)
    g, targets, doors = art.board.geometry, _targets(room, art), room.match.doors()
    assert len(targets) == len(doors) >= 2
    crossed = end_cells(room)
    for t in targets:
        slot, end = crossed[t["action"][1]]
        assert t["at"] == pytest.approx(end_mm(art, slot, end), abs=1e-3)
        assert t["r"] == pytest.approx(target_radius(art), abs=1e-3)
        door = doors[t["action"][1]]
        if door[0] == "slot":  # the end the step arrives at, in the slot it enters: the same point
            assert t["at"] == pytest.approx(end_mm(art, door[1], door[2]), abs=1e-3) and t["slot"] == door[1]
    edges = [(slot, g.edge_of(end)) for slot, end in crossed]
    assert len(set(edges)) < len(edges)  # both ends of one edge: the targets that overlapped


def standalone(art, room_id: str) -> str:
    """The room page with its script and styles inline, to open as a file (no server: states are drawn by hand)."""

    def asset(package: str, name: str) -> str:
        folder = {"host": ("generator.host", "static"), "table": ("generator.table", "")}[package]
        return resources.files(folder[0]).joinpath(folder[1], name).read_text(encoding="utf-8")

    html = room_page(art, room_id)
    html = html.replace(stylesheet("host", "host.css"), f"<style>{asset('host', 'host.css')}</style>")
    for package, name in (("host", "host.js"), ("table", "names.js")):
        html = html.replace(script(package, name), f"<script>{asset(package, name)}</script>")
    return html


MEASURE = """
const svg = document.getElementById('table'), m = svg.getScreenCTM();
const at = (x, y) => {
  const p = svg.createSVGPoint(); p.x = x; p.y = y; const q = p.matrixTransform(m); return [q.x, q.y];
};
return [...document.querySelectorAll('#targets circle.target')].map((c) => {
  const b = c.getBoundingClientRect(), action = c.getAttribute('data-action');
  return {action: action, x: b.x + b.width / 2, y: b.y + b.height / 2, w: b.width, h: b.height,
          stroke: parseFloat(getComputedStyle(c).strokeWidth) * m.a, end: at(...arguments[0][action])};
});
"""  # each target's box and centre, its outline's width and its end's point, in CSS px
IN_SIGHT = """
const v = document.getElementById('board-view').getBoundingClientRect();
return [...document.querySelectorAll('#targets .target')].some((c) => {
  const b = c.getBoundingClientRect();
  return b.left >= v.left && b.right <= v.right && b.top >= v.top && b.bottom <= v.bottom;
});
"""  # whether a step target lies whole in the board's view


@pytest.mark.parametrize("board", TWO_ENDS)
def test_a_rooms_end_targets_measured_in_chromium_are_a_finger_wide_apart_and_at_their_ends(board, tmp_path):
    from tests.browser_helpers import headless_chromium

    shots = os.environ.get("TRAILWRIGHT_SCREENSHOTS")
    art = any_table_art(board, real_art=bool(shots))
    with headless_chromium() as d:
        for playing in (first_steps, u_turn):
            room = playing(art)
            ends = {f"step {i}": end_mm(art, *cell) for i, cell in enumerate(end_cells(room))}
            page = tmp_path / f"{playing.__name__}.html"
            page.write_text(standalone(art, room.id), encoding="utf-8")
            for size in ((1400, 1000), (390, 844)):  # a laptop's window and a phone's
                d.set_window_size(*size)
                d.get(page.as_uri())
                d.execute_script("window.trailwright.render(arguments[0])", state(room, art, room.match.current))
                seen = d.execute_script(MEASURE, ends)
                assert sorted(t["action"] for t in seen) == sorted(ends)
                assert d.execute_script(IN_SIGHT), size  # the board's view scrolled to them
                for t in seen:
                    assert t["w"] >= FINGER_PX and t["h"] >= FINGER_PX, (size, t)
                    assert math.dist((t["x"], t["y"]), t["end"]) < 1.0, (size, t)  # centred on its end's point
                for i, a in enumerate(seen):
                    for b in seen[i + 1 :]:
                        bare = math.dist((a["x"], a["y"]), (b["x"], b["y"])) - (a["w"] + b["w"]) / 2 - a["stroke"]
                        assert bare >= GAP_PX, (size, a, b)
        if shots:
            picture(d, seen, Path(shots) / "geometry" / f"targets-{board}.png")


def picture(driver, seen: list[dict], path: Path) -> None:
    """The board round the targets, at the laptop's window: the picture in docs/geometry.md."""
    import io

    from PIL import Image

    driver.set_window_size(1400, 1000)
    driver.execute_script(
        "document.querySelector('#targets .target').scrollIntoView({block: 'center', inline: 'center'})"
    )
    seen = driver.execute_script(MEASURE, {t["action"]: [0, 0] for t in seen})
    x, y = sum(t["x"] for t in seen) / len(seen), sum(t["y"] for t in seen) / len(seen)
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png()))
    box = (max(0, int(x - 360)), max(0, int(y - 200)), int(x + 360), int(y + 200))
    path.parent.mkdir(parents=True, exist_ok=True)
    shot.crop(box).save(path, optimize=True)
