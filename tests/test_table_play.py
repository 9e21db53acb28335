"""The play table page, offline: the seeded pile, escaping, self-containment, the board as printed."""

import json
import re
from collections import Counter
from dataclasses import replace
from random import Random

import pytest

from generator.board import load_board
from generator.play import default_rules
from generator.table import draw_pile, mulberry32, play_files, play_table_html
from generator.table.playtable import script_json
from tests.table_helpers import BOARDS, HOSTILE_IDS, ROOT, table_art


def test_the_pile_is_a_shuffle_with_a_coin_and_a_die_per_tile_and_the_seed_fixes_it():
    for seed in (0, 1, 7, 2**32 - 1, 123456789):
        pile = draw_pile(20, seed)
        assert sorted(d.tile for d in pile) == list(range(20))
        assert all(d.face in ("front", "back") and 0 <= d.rot <= 5 for d in pile)
        assert pile == draw_pile(20, seed)
    assert draw_pile(20, 7) != draw_pile(20, 8)
    assert draw_pile(20, 2**32 + 7) == draw_pile(20, 7)  # seeds are unsigned 32-bit, as in the page


def test_the_pile_is_fair():
    """Over 3,000 seeds the first tile, its face and its turn are uniform (chi-square, far from any edge)."""
    seeds = Random(37).sample(range(2**32), 3000)
    first = [draw_pile(6, s)[0] for s in seeds]
    for counts, k in (
        (Counter(d.tile for d in first), 6),
        (Counter(d.face for d in first), 2),
        (Counter(d.rot for d in first), 6),
    ):
        expected = len(first) / k
        chi2 = sum((counts[v] - expected) ** 2 / expected for v in counts)
        assert len(counts) == k and chi2 < 25, counts  # 25 is beyond p = 0.0002 for 5 degrees of freedom


def test_mulberry32_is_a_32_bit_generator_in_0_1():
    rand = mulberry32(1)
    values = [rand() for _ in range(1000)]
    assert all(0 <= v < 1 for v in values) and len(set(values)) == 1000
    assert all(v * 2**32 == int(v * 2**32) for v in values)  # exactly a 32-bit integer over 2**32


def page_data(html: str) -> dict:
    body = re.search(r'<script type="application/json" id="trailwright-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(body)


def test_hostile_ids_cannot_break_out_of_the_page():
    html = play_table_html(replace(table_art(hostile=True), title="</title><script>x()</script>"), 7)
    assert "&lt;/title&gt;&lt;script&gt;x()" in html  # the game's name is escaped too
    assert html.count("<script") == 3 and html.count("</script>") == 3  # the data, play.js and names.js: no more
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # its <title>
    assert [t["id"] for t in page_data(html)["tiles"]] == HOSTILE_IDS
    assert html.count('<g id="side-') == 2 * len(HOSTILE_IDS)  # ids by position, never by tile id
    assert script_json({"id": "</script><b>&"}) == '{"id":"\\u003c/script\\u003e\\u003cb\\u003e\\u0026"}'


def test_the_page_is_self_contained_and_the_same_for_the_same_input():
    table = table_art()
    files = play_files(table, 7)
    assert list(files) == ["play/index.html"]
    html = files["play/index.html"].decode()
    assert files == play_files(table, 7)
    assert not re.search(r"\bsrc\s*=", html)  # no script, image or frame is loaded from anywhere
    assert set(re.findall(r"\bhref\s*=\s*\"([^\"]*)\"", html)) <= {"data:,"}
    assert set(re.findall(r"https?://[^\s\"'<>]+", html)) <= {"http://www.w3.org/2000/svg"}
    assert "@import" not in html and "url(" not in html


@pytest.mark.parametrize("board", BOARDS)
def test_the_board_is_the_printed_board_with_a_target_on_every_slot(board):
    table = table_art(board=board)
    html = play_table_html(table, 7)
    data = page_data(html)
    start = next(lm for lm in table.board.landmarks if lm.name in ("Hut", table.board.landmarks[0].name))
    assert data["start"] == [round(c, 3) for c in table.frame.at(start.hexes[0])]  # the pawns start there
    assert data["slots"] == [[round(x, 3), round(y, 3)] for x, y in table.slot_centres()]
    assert [lm["name"] for lm in data["landmarks"]] == [lm.name for lm in table.board.landmarks]
    assert len(data["joins"]) == len(table.board.joins())
    assert html.count('class="slot"') == len(table.board.slots)
    assert data["seed"] == 7 and len(data["tiles"]) == len(table.tileset)


def test_the_page_says_the_rules_game_in_a_paragraph_with_its_names_escaped():
    html = play_table_html(table_art(), 7)
    assert (
        '<p id="the-game">Start on the <b>Hut</b>; visit the <b>Well</b>, the <b>Spring</b> and the <b>Orchard</b> in '
        "any order, then reach the <b>Exit</b>. Stepping into the <b>Lair</b>, roll at once: on 1, 2 or 3 go to the "
        "<b>Hut</b>. 2 to 4 players.</p>"
    ) in html
    board = load_board(str(ROOT / "tests" / "data" / "camp-board.toml"))
    names = {lm.name: f"<i>{lm.name}</i>" for lm in board.landmarks}
    board = replace(board, landmarks=tuple(replace(lm, name=names[lm.name]) for lm in board.landmarks))
    rules = replace(default_rules(board), required=(), hazards=(), players_min=3, players_max=3, players_default=3)
    html = play_table_html(
        replace(table_art(board=str(ROOT / "tests" / "data" / "camp-board.toml")), board=board, rules=rules), 7
    )
    para = html[html.index('<p id="the-game">') :]
    para = para[: para.index("</p>")]
    assert "<i>" not in para and para.count("&lt;i&gt;") == 2 and para.endswith("3 players.")
    assert ", then" not in para and "reach the <b>&lt;i&gt;" in para
