"""The game server on other tile geometries (issue 44): what does not need the play engine (the room's board and
tiles, places named by end) works on square tiles; a room is refused in one line until the engine plays them."""

import json
import re
from types import SimpleNamespace

import pytest

from generator.host.hall import Hall, Limits
from generator.host.rooms import GameSpec, RoomError, unplayable
from generator.host.store import Store
from generator.host.views import describe, end_xy, room_page
from generator.play.rules import default_rules
from tests.table_helpers import any_table_art


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


def test_a_room_of_square_tiles_is_refused_in_one_line_until_the_game_plays_them(art, tmp_path):
    spec = GameSpec(art.tileset, art.board, default_rules(art.board))
    hall = Hall(spec, art, Store(tmp_path / "g.db"), "t" * 32, Limits(), 0.0)
    hall.warm()  # nothing to warm, and no error logged: ready at once
    assert hall.ready.is_set()
    why = unplayable(art.board.geometry)
    if not why:
        pytest.skip("the game server plays square tiles now (ANY_GEOMETRY_STAGES has host)")
    assert why.startswith("host: square tiles, two ends per edge") and "\n" not in why
    with pytest.raises(RoomError, match="^host: square tiles"):
        hall.create(2)
