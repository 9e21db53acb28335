"""The play table in a real browser: Debian's headless Chromium driven by Selenium (one browser for the module).

Skips, saying how to install one, when Chromium, its driver or Selenium is missing. Set
TRAILWRIGHT_SCREENSHOTS=docs/images to refresh the README's picture of a half-played table.
"""

import io
import math
import os
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from generator.board import load_board
from generator.play import default_rules
from generator.table import draw_pile, play_files
from tests.browser_helpers import headless_chromium
from tests.table_helpers import table_art


@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The play table for the best-known set, in its real art, as a file."""
    folder = tmp_path_factory.mktemp("play")
    path = folder / "index.html"
    path.write_bytes(play_files(table_art(real_art=True), 1)["play/index.html"])
    return path


def open_page(browser, page: Path, seed: int | None):
    browser.get(page.as_uri() + (f"?seed={seed}" if seed is not None else ""))
    browser.get_log("browser")  # start each test with an empty console


def by_css(browser, selector):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, selector)


def hut_slot() -> int:
    board = table_art().board
    return next(lm for lm in board.landmarks if lm.name == "Hut").sides[0].slot


def test_the_page_loads_offline_with_no_console_errors(browser, page):
    open_page(browser, page, None)
    assert by_css(browser, "#seed").text == "1" and by_css(browser, "#left").text == "20"
    by_css(browser, f'.slot[data-slot="{hut_slot()}"]').click()
    by_css(browser, "#highlight").click()
    by_css(browser, "#roll").click()
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []


@pytest.mark.parametrize("seed", [7, 2024, 4294967295])
def test_the_slot_by_the_hut_gets_the_tile_the_seed_predicts(browser, page, seed):
    ts = table_art().tileset
    first, second = draw_pile(len(ts), seed)[:2]
    open_page(browser, page, seed)
    by_css(browser, f'.slot[data-slot="{hut_slot()}"]').click()
    laid = by_css(browser, f'.tile[data-slot="{hut_slot()}"]')
    got = (laid.get_attribute("data-tile"), laid.get_attribute("data-face"), int(laid.get_attribute("data-rot")))
    assert got == (ts.tiles[first.tile].id, first.face, first.rot)
    by_css(browser, '.slot[data-slot="10"]').click()
    assert by_css(browser, '.tile[data-slot="10"]').get_attribute("data-tile") == ts.tiles[second.tile].id


def test_a_laid_tile_turns_by_a_sixth_either_way(browser, page):
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(browser, page, 7)
    by_css(browser, '.slot[data-slot="5"]').click()
    tile = by_css(browser, '.tile[data-slot="5"]')
    rot = int(tile.get_attribute("data-rot"))
    tile.click()
    assert int(tile.get_attribute("data-rot")) == (rot + 1) % 6
    assert f"rotate({60 * ((rot + 1) % 6)})" in tile.get_attribute("transform")
    ActionChains(browser).context_click(tile).perform()
    ActionChains(browser).context_click(tile).perform()
    assert int(tile.get_attribute("data-rot")) == (rot - 1) % 6


def test_the_die_gives_one_to_six(browser, page):
    open_page(browser, page, 7)
    values = []
    for _ in range(3):  # a real click or three, then 300 more from the page's side (round trips are slow)
        by_css(browser, "#roll").click()
        values.append(int(by_css(browser, "#die-value").text))
    values += browser.execute_script(
        "const v = []; for (let i = 0; i < 300; i++) { document.getElementById('roll').click();"
        " v.push(Number(document.getElementById('die-value').textContent)); } return v;"
    )
    assert set(values) == {1, 2, 3, 4, 5, 6}  # each face has p < 1e-23 of never showing in 303 rolls


def test_the_rules_own_die_start_and_seats_set_the_table(browser, tmp_path):
    rules = replace(default_rules(load_board("classic")), die=8, start="Well", players_max=3, players_default=3)
    table = replace(table_art(), rules=rules)
    page = tmp_path / "index.html"
    page.write_bytes(play_files(table, 1)["play/index.html"])
    open_page(browser, page, 7)
    assert by_css(browser, "#roll").text == "Roll the die (8 sides)"
    values = browser.execute_script(
        "const v = []; for (let i = 0; i < 400; i++) { document.getElementById('roll').click();"
        " v.push(Number(document.getElementById('die-value').textContent)); } return v;"
    )
    assert set(values) == set(range(1, 9))  # each face has p < 1e-22 of never showing in 400 rolls
    assert by_css(browser, "#die-face").text == ""  # the die-face glyphs are six-sided
    well = table.frame.at(next(lm for lm in table.board.landmarks if lm.name == "Well").hexes[0])
    pawns = browser.execute_script(
        "return Array.from(document.querySelectorAll('#pawns .pawn')).map((p) => p.getAttribute('transform'))"
    )
    assert len(pawns) == 3
    for transform in pawns:  # each pawn a little way round the Well's centre
        x, y = map(float, transform[transform.index("(") + 1 : transform.index(")")].replace(",", " ").split()[:2])
        assert math.dist((x, y), well) < table.style.tile_width_mm * 0.4


def test_a_new_maze_is_another_seed_and_an_empty_board(browser, page):
    open_page(browser, page, 7)
    by_css(browser, '.slot[data-slot="3"]').click()
    by_css(browser, "#new-maze").click()
    seed = int(by_css(browser, "#seed").text)
    assert seed != 7 and by_css(browser, "#left").text == "20"
    assert browser.current_url.endswith(f"index.html?seed={seed}")  # the address to send the other players
    assert browser.execute_script("return document.querySelectorAll('.tile').length") == 0
    pile = browser.execute_script("return window.trailwright.state().pile")
    assert [(d["tile"], d["face"], d["rot"]) for d in pile] == [(d.tile, d.face, d.rot) for d in draw_pile(20, seed)]


def test_the_reach_highlight_joins_what_the_scorer_joins(browser, page):
    """With every slot filled and a few tiles turned, the page's joined landmarks are the scorer's graph's."""
    import networkx as nx

    from generator.scoring.reference import layout_graph, placed_sides

    table = table_art()
    board, n = table.board, len(table.board.slots)
    open_page(browser, page, 11)
    browser.execute_script(
        "const click = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
        "document.querySelectorAll('.slot').forEach(click);"
        "for (const s of [0, 3, 7, 12, 19]) click(document.querySelector(`.tile[data-slot='${s}']`));"
    )
    laid = browser.execute_script(
        "return [...document.querySelectorAll('.tile')].map((t) => "
        "[+t.dataset.slot, +t.dataset.tileIndex, t.dataset.face, +t.dataset.rot])"
    )
    by_slot = {s: (t, f, r) for s, t, f, r in laid}
    assert sorted(by_slot) == list(range(n))
    perm, flip, rot = (
        [by_slot[s][0] for s in range(n)],
        [by_slot[s][1] == "back" for s in range(n)],
        [by_slot[s][2] for s in range(n)],
    )
    graph = layout_graph(board, placed_sides(table.tileset, perm, flip, rot))
    names = [lm.name for lm in board.landmarks]
    groups = browser.execute_script("return window.trailwright.groups()")
    assert len(set(groups)) < len(groups)  # some landmarks are joined: the comparison below is not vacuous
    for a, b in board.landmark_pairs():
        expected = names[a] in graph and names[b] in graph and nx.has_path(graph, names[a], names[b])
        assert (groups[a] == groups[b]) == expected, (names[a], names[b])


def test_pawns_can_be_dragged(browser, page):
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(browser, page, 7)
    pawn = by_css(browser, '.pawn[data-player="Red"]')
    before = pawn.rect
    ActionChains(browser).drag_and_drop_by_offset(pawn, 120, 80).perform()
    after = pawn.rect
    assert abs(after["x"] - before["x"] - 120) < 3 and abs(after["y"] - before["y"] - 80) < 3


def test_a_half_played_table_with_its_reach_highlighted(browser, page, tmp_path):
    """Ten tiles laid around the Hut, pawns moved, the highlight on; the picture the README shows."""
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(browser, page, 7)
    for slot in (0, 4, 8, 1, 5, 9, 12, 2, 6, 13):
        by_css(browser, f'.slot[data-slot="{slot}"]').click()
    for name, (dx, dy) in (("Red", (-40, 110)), ("Blue", (90, 160))):
        ActionChains(browser).drag_and_drop_by_offset(by_css(browser, f'.pawn[data-player="{name}"]'), dx, dy).perform()
    by_css(browser, "#roll").click()
    by_css(browser, "#highlight").click()
    coloured = browser.execute_script(
        "return [...document.querySelectorAll('.tile .sand-stroke')].filter(e => e.style.stroke).length"
    )
    assert coloured > 0
    assert browser.execute_script("return document.querySelectorAll('#legend li').length") >= 1
    shot = browser.get_screenshot_as_png()
    image = Image.open(io.BytesIO(shot))
    assert image.size[0] >= 1000 and len(image.convert("RGB").getcolors(1 << 20)) > 500  # a drawn table, not blank
    (tmp_path / "play-table.png").write_bytes(shot)
    if os.environ.get("TRAILWRIGHT_SCREENSHOTS"):
        target = Path(os.environ["TRAILWRIGHT_SCREENSHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        image.convert("RGB").save(target / "play-table.png", optimize=True)


@pytest.mark.parametrize("board", ["classic", "hexagon217"])
def test_no_tile_is_drawn_too_small_to_play_and_a_small_board_fits_the_window(browser, tmp_path, board):
    """On a short window a 217-slot board keeps tiles a finger can turn (the page scrolls); the classic board
    still fits the window's height."""
    path = tmp_path / "index.html"
    path.write_bytes(play_files(table_art(board=board), 1)["play/index.html"])
    size = browser.get_window_size()
    browser.set_window_size(1280, 700)
    try:
        open_page(browser, path, 3)
        tile = browser.execute_script("return document.querySelector('.slot').getBoundingClientRect().width")
        board_box = browser.execute_script("return document.getElementById('table').getBoundingClientRect()")
        viewport = browser.execute_script("return window.innerHeight")
    finally:
        browser.set_window_size(size["width"], size["height"])
    assert tile >= 44  # 3 em at 15 px: the slot's own polygon, a little wider than the tile
    if board == "classic":
        assert board_box["bottom"] <= viewport and tile > 60  # fitted to the window, larger than the least


@pytest.mark.parametrize("board", ["classic", "hexagon217"])
def test_the_landmarks_names_are_readable_on_screen_and_centred_on_their_discs(browser, tmp_path, board):
    """A name printed 9 pt high is 4 px on the classic table and 3 px on a 217-slot one; on screen it grows to
    12 px, on the disc's centre line, with a halo of the disc's colour."""
    path = tmp_path / "index.html"
    path.write_bytes(play_files(table_art(board=board), 1)["play/index.html"])
    open_page(browser, path, 3)
    names = browser.execute_script(
        "const px = document.getElementById('table').getScreenCTM().a;"
        "return [...document.querySelectorAll('text.landmark-name')].map(t => {"
        "  let disc = t.previousElementSibling;"
        "  while (disc.getAttribute('fill') === 'none') disc = disc.previousElementSibling;"
        "  const b = t.getBoundingClientRect(), d = disc.getBoundingClientRect();"
        "  return {name: t.textContent, px: Number(t.getAttribute('font-size')) * px, halo: t.getAttribute('stroke'),"
        "          disc: disc.getAttribute('fill'), off: (b.top + b.bottom) / 2 - (d.top + d.bottom) / 2};"
        "})"
    )
    assert sorted(n["name"] for n in names) == sorted(lm.name for lm in table_art(board=board).board.landmarks)
    for n in names:
        assert n["px"] == pytest.approx(12, abs=0.05), n
        assert n["halo"] == n["disc"], n
        assert abs(n["off"]) < 2.5, n  # the text's box centred on the disc, within a couple of pixels
    assert not browser.get_log("browser")


@pytest.mark.parametrize("board", ["square-pathways", "square-jungle", "hex-pairs"])
def test_a_table_of_other_tiles_lays_the_predicted_tiles_turns_them_by_an_edge_and_joins_what_the_scorer_joins(
    browser, tmp_path, board
):
    """Issue 44: the page of another geometry deals the Python pile, turns by one edge, and its reach highlight
    is the scorer's graph (end by end) with every slot filled and some tiles turned."""
    import networkx as nx

    from generator.scoring.reference import layout_graph, placed_sides
    from tests.table_helpers import any_table_art

    table = any_table_art(board)
    n, g = len(table.board.slots), table.board.geometry
    page = tmp_path / "index.html"
    page.write_bytes(play_files(table, 1)["play/index.html"])
    open_page(browser, page, 9)
    by_css(browser, '.slot[data-slot="0"]').click()
    tile = by_css(browser, '.tile[data-slot="0"]')
    first = draw_pile(n, 9, faces=g.faces, turns=g.rotations)[0]
    assert (int(tile.get_attribute("data-tile-index")), tile.get_attribute("data-face")) == (first.tile, first.face)
    assert int(tile.get_attribute("data-rot")) == first.rot and (g.faces == 2 or first.face == "front")
    tile.click()
    turns = g.rotations
    assert int(tile.get_attribute("data-rot")) == (first.rot + 1) % turns
    assert f"rotate({360 // turns * ((first.rot + 1) % turns)})" in tile.get_attribute("transform")
    browser.execute_script(
        "const click = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true}));"
        "document.querySelectorAll('.slot').forEach(click);"
        "for (const s of [1, 4, 8, 13, 20]) click(document.querySelector(`.tile[data-slot='${s}']`));"
    )
    laid = browser.execute_script(
        "return [...document.querySelectorAll('.tile')]"
        ".map((t) => [+t.dataset.slot, +t.dataset.tileIndex, t.dataset.face, +t.dataset.rot])"
    )
    by_slot = {s: (t, f == "back", r) for s, t, f, r in laid}
    assert sorted(by_slot) == list(range(n))
    perm, flip, rot = ([by_slot[s][k] for s in range(n)] for k in range(3))
    assert any(flip) == (g.faces == 2)
    graph = layout_graph(table.board, placed_sides(table.tileset, perm, flip, rot))
    names = [lm.name for lm in table.board.landmarks]
    groups = browser.execute_script("return window.trailwright.groups()")
    for a, b in table.board.landmark_pairs():
        expected = names[a] in graph and names[b] in graph and nx.has_path(graph, names[a], names[b])
        assert (groups[a] == groups[b]) == expected, (names[a], names[b])
    assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
