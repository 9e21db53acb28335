"""The game server on other tile geometries (issue 44): a square room's page, board and tiles, places named by end,
a game of bots to the end and its record; a geometry the game does not play is refused in one line."""

import json
import math
import re
from types import SimpleNamespace

import pytest

from generator.host.hall import Hall, Limits
from generator.host.rooms import GameSpec, Room
from generator.host.store import Store
from generator.host.views import describe, end_xy, feed_lines, room_page, state
from generator.play.rules import default_rules
from tests.table_helpers import ROOT, any_table_art


@pytest.fixture(scope="module")
def art():
    return any_table_art("square-pathways")


def test_a_square_room_page_draws_square_slots_front_art_and_turns_by_quarters(art):
    html = room_page(art, "r" * 16)
    data = json.loads(re.search(r'id="trailwright-data">(.*?)</script>', html).group(1))
    assert data["geometry"]["step"] == 90 and data["geometry"]["ends"] == 8 and data["room"] == "r" * 16
    slots = re.findall(r'<polygon class="slot" data-slot="\d+" points="([^"]+)"', html)
    assert len(slots) == 36 and all(len(p.split()) == 4 for p in slots)
    assert 'id="side-5-front"' in html and 'id="side-5-back"' not in html
    assert "style=" not in html.split("<body>", 1)[1]  # the room's CSP allows no inline style


def test_an_end_lies_on_its_slots_outline_at_its_place_along_the_edge(art):
    frame, g = art.frame, art.board.geometry
    cx, cy = frame.at(art.board.slots[0])
    half = frame.radius_mm * 2**-0.5  # a square slot's half side
    x, y = end_xy(art, 0, g.end_names.index("N1"))
    assert (x, y) == pytest.approx((cx - half / 3, cy - half))  # a third along the top edge, from its left corner
    x, y = end_xy(art, 0, g.end_names.index("W2"))
    assert (x, y) == pytest.approx((cx - half, cy - half / 3))


def test_the_feed_names_a_place_by_its_slot_or_landmark_on_eight_ends_a_tile(art):
    room = SimpleNamespace(seats=[SimpleNamespace(name="Ada")], spec=SimpleNamespace(tiles=art.tileset))
    assert describe(room, art, 0, ("step", 0, 8 * 3 + 7)) == "Ada steps to slot 4"
    assert describe(room, art, 0, ("step", 0, 8 * 36 + 1)) == "Ada steps to East"


def test_bots_play_a_square_room_to_the_end_and_its_record_replays_it(art, tmp_path):
    spec = GameSpec(art.tileset, art.board, default_rules(art.board))
    hall = Hall(spec, art, Store(tmp_path / "g.db"), "t" * 32, Limits(), 0.0)
    room, owner = hall.create(2, 5)
    for seat in range(2):
        room.add_bot(seat, "explorer", owner)
    for _ in range(5000):
        if room.bot_move() is None:
            break
    assert room.match.over
    seen = state(room, art, 0)
    lines = feed_lines(room, art, [])  # the whole feed (a state carries its last lines)
    assert lines[-1].endswith("wins!") and any(" lays tile " in line for line in lines)
    assert any(line.endswith(" steps to East") or line.endswith(" steps to South") for line in lines)
    for _slot, _tile, _face, rot in seen["laid"]:
        assert rot in range(4)  # quarter turns
    winner = seen["pawns"][seen["winner"]]
    goal = art.frame.at(art.board.landmarks[-1].hexes[0])  # the West gate: the goal
    assert math.dist(winner, goal) < art.frame.radius_mm
    again = Room.restore(hall.store.room(room.id), hall.store)
    assert again.match.actions == room.match.actions and state(again, art, 0)["pawns"] == seen["pawns"]


def test_host_refuses_tiles_of_another_geometry_than_the_boards_in_one_line(capsys):
    from generator.cli import main

    assert main(["host", str(ROOT / "examples" / "best-known.json"), "--board", "square-pathways"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "has hex tiles, one end per edge" in err and "takes square tiles" in err


@pytest.mark.slow
def test_a_person_plays_a_square_room_against_a_bot_in_a_browser(tmp_path):
    import sys
    from pathlib import Path

    from tests.browser_helpers import headless_chromium
    from tests.host_helpers import TOKEN, free_port, post_room, running, wait_for
    from tests.test_host_browser import by_css, click, status, take_turn, texts

    port = free_port()
    exe = Path(sys.executable).with_name("trailwright")
    tiles = ROOT / "examples" / "optimized-square-pathways.json"
    cmd = [str(exe), "host", str(tiles), "--board", "square-pathways", "--db", str(tmp_path / "g.db")]
    cmd += ["--port", str(port), "--token", TOKEN, "--bot-delay", "0.05"]
    with running(cmd, f"http://127.0.0.1:{port}/?token={TOKEN}"), headless_chromium() as d:
        made = post_room(port, players=2, seed=5)
        d.get(f"http://127.0.0.1:{port}{made['url']}#owner={made['owner']}")
        wait_for(lambda: texts(d, "#seat-list li"))
        by_css(d, "#name")[0].send_keys("Ann")
        by_css(d, "#sit button")[0].click()
        wait_for(lambda: texts(d, "#seat-list li.you"))
        wait_for(lambda: click(d, ".seat-bot"))
        for _ in range(6):
            wait_for(lambda: "your turn" in status(d) or "wins" in status(d), 20)
            take_turn(d)
        turns = d.execute_script(
            "return [...document.querySelectorAll('#tiles .tile')].map(t => t.getAttribute('transform'))"
        )
        assert turns and all(re.search(r"rotate\((90|180|270)\)$", t) or "rotate" not in t for t in turns)
        assert any(" lays tile " in line for line in texts(d, "#feed li"))
        assert [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []


def test_two_steps_into_one_square_slot_are_drawn_apart_by_the_ends_they_arrive_at(art, tmp_path):
    from generator.host.views import _targets

    spec = GameSpec(art.tileset, art.board, default_rules(art.board))
    hall = Hall(spec, art, Store(tmp_path / "g.db"), "t" * 32, Limits(), 0.0)
    seen = 0
    for seed in range(40):
        room, owner = hall.create(2, seed)
        for seat in range(2):
            room.add_bot(seat, "explorer", owner)
        for _ in range(400):
            doors = room.match.doors() if room.match.pips else []
            steps = [d for d in doors if d[0] == "slot"]
            if len({d[1] for d in steps}) < len(steps):  # two doors into one slot
                targets = [t for t in _targets(room, art) if "slot" in t]
                assert len({tuple(t["at"]) for t in targets}) == len(targets)
                for t in targets:
                    _, slot, end, _ = doors[t["action"][1]]
                    assert math.dist(t["at"], end_xy(art, slot, end)) < 0.5 * art.frame.radius_mm
                seen += 1
            if room.bot_move() is None:
                break
        if seen:
            return
    pytest.fail("no turn had two doors into one slot")
