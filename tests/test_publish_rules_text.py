"""The booklet words the rules data: every landmark name from the board and the rules, the
readings of the text, and the claims publish checks against a playtest."""

import io
import re
from dataclasses import replace
from importlib import resources
from types import SimpleNamespace

import pdfplumber
import pytest

from generator.board import load_board
from generator.play import default_rules, load_rules
from generator.publish import booklet as bk
from generator.publish.art import ArtCache
from generator.publish.bookletkit import booklet_context, make_booklet
from generator.publish.rulesbook import false_claims, rules_context, spans
from generator.publish.settings import load_settings
from tests.test_publish_standin import FIGURES, ROOT, TILE_MM, standin_sources

OLD = ("Hut", "Well", "Spring", "Lair", "Orchard", "Exit")  # the classic board's names, in board order
NEW = ("Cabin", "Fountain", "Brook", "Den", "Vineyard", "Harbour")
RENAME = dict(zip(OLD, NEW, strict=True))


def _renamed(text: str) -> str:
    return re.sub('"(' + "|".join(OLD) + ')"', lambda m: f'"{RENAME[m.group(1)]}"', text)


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    """The classic board and the default rules, every landmark renamed, as files."""
    folder = tmp_path_factory.mktemp("renamed")
    board_text = (resources.files("generator.board.boards") / "classic.toml").read_text(encoding="utf-8")
    rules_text = (resources.files("generator.play") / "rules.toml").read_text(encoding="utf-8")
    (folder / "board.toml").write_text(_renamed(board_text), encoding="utf-8")
    (folder / "rules.toml").write_text(_renamed(rules_text), encoding="utf-8")
    board = load_board(folder / "board.toml")
    assert [lm.name for lm in board.landmarks] == list(NEW)
    return board, load_rules(folder / "rules.toml", board)


def _sources(board, rules=None, **changes):
    pairs = tuple(
        (f"{RENAME[a]}-{RENAME[b]}", v) for (a, _, b), v in ((name.partition("-"), v) for name, v in FIGURES.pairs)
    )
    return replace(standin_sources(), board=board, rules=rules, figures=replace(FIGURES, pairs=pairs), **changes)


def _markup_text(src) -> str:
    markup = bk.render_markup(src.templates, booklet_context(src, load_settings()))
    bk.parse_markup(markup, src.templates)  # well formed
    return re.sub(r" ([,.;:])", r"\1", " ".join(re.sub(r"<[^>]+>", " ", markup).split()))


def _words(text: str, names) -> set[str]:
    return {n for n in names if re.search(rf"\b{n}\b", text)}


def test_every_landmark_name_in_the_printed_booklet_comes_from_the_board_and_rules(renamed):
    board, rules = renamed
    src = _sources(board, rules)
    settings = load_settings()
    art = ArtCache.covering(src.art_for_width(TILE_MM), TILE_MM, settings.dpi, settings.bleed_mm)
    reading, _ = make_booklet(src, settings, art, src.board_svg)
    with pdfplumber.open(io.BytesIO(reading)) as doc:
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in doc.pages)
    assert _words(text, NEW) == set(NEW)
    assert _words(text, OLD) == set()
    assert "puts a pawn on the Cabin" in text
    assert "Visit the Fountain, the Brook and the Vineyard in any order, then walk out through the Harbour" in text
    assert "On 1–3 you are chased back to the Cabin" in text


def test_the_default_rules_follow_a_renamed_board_by_order(renamed):
    board, _ = renamed
    text = _markup_text(_sources(board))  # no rules file: the default rules, mapped by board order
    assert _words(text, NEW) == set(NEW) and _words(text, OLD) == set()


def test_another_board_names_its_own_landmarks(hexagon37):
    text = _markup_text(replace(standin_sources(), board=hexagon37))
    names = [lm.name for lm in hexagon37.landmarks]
    assert _words(text, names) == set(names)
    assert _words(text, OLD) == set()


def test_the_readings_a_player_needs_are_printed():
    text = _markup_text(standin_sources())
    assert "Whenever a pawn steps into an empty slot, that slot gets a tile at once" in text
    assert "No tile is laid at setup" in text  # not from the Hut's printed trails
    assert "Do not undo the turn another player has just made" in text  # the tug-of-war loophole
    assert "Any player may, instead of rolling, turn a tile" in text
    assert "If it does not, your pawn stays" not in text  # the rule that could never fire
    assert "Every edge of every tile belongs to a trail" in text
    assert "Dead ends block:" in text  # offered as a variant


def test_the_dead_end_variant_becomes_the_rule_when_the_rules_say_so(classic):
    rules = replace(default_rules(classic), stub_blocks=True)
    text = _markup_text(replace(standin_sources(), rules=rules))
    assert "If that trail is a dead end" in text and "your move ends at once" in text
    assert "Dead ends block:" not in text  # no longer a variant


def test_other_rules_values_reach_the_text(classic):
    base = default_rules(classic)
    rules = replace(
        base,
        die=8,
        move_ending=("Hut", "Lair", "Exit"),
        players_min=3,
        players_max=3,
        hazards=(replace(base.hazards[0], rolls=(1, 2)),),
        turning=replace(base.turning, steps=2, next_to_pawn=False),
    )
    ctx = rules_context(rules, classic)
    assert ctx["move_enders"] == ["Hut", "Lair", "Exit"]
    assert ctx["pass_through"] == ["Well", "Spring", "Orchard"]
    assert ctx["hazards"] == [{"name": "Lair", "chase": "1 or 2", "escape": "3–8", "to": "Hut"}]
    text = _markup_text(replace(standin_sources(), rules=rules))
    assert "an 8-sided die for moving" in text and "3 players" in text
    assert "On 1 or 2 you are chased back to the Hut; on 3–8 you slip through" in text
    assert "The Well, the Spring and the Orchard do not" in text
    assert "by two sixths" in text and "It may be any laid tile on the board" in text


def test_the_turning_rule_is_the_same_in_the_guide_and_the_booklet():
    readme = " ".join((ROOT / "docs" / "guide" / "publish.md").read_text(encoding="utf-8").split())
    text = _markup_text(standin_sources())
    assert (
        "any player may turn a laid tile with no pawn on it, next to their pawn's tile or landmark, one sixth "
        "either way" in readme
    )
    assert (
        "Any player may, instead of rolling, turn a tile: rotate one laid tile by one sixth, either way, "
        "as long as no pawn stands on it" in text
    )
    assert "stuck on a landmark may turn" not in readme


@pytest.mark.parametrize(
    "values, words",
    [
        ([1, 2, 3], "1–3"),
        ([4, 5, 6], "4–6"),
        ([1, 2, 5], "1, 2 or 5"),
        ([5, 6], "5 or 6"),
        ([1, 2, 4, 5, 6], "1, 2 or 4–6"),
        ([3], "3"),
    ],
)
def test_die_faces_are_worded_as_runs(values, words):
    assert spans(values) == words


def test_publish_names_each_false_claim_once():
    text = "A turn always opens a way on, so no explorer is\never stuck for good."
    stuck = SimpleNamespace(no_way_out=3, games=400)
    [line] = false_claims(text, stuck)
    assert "'no explorer is ever stuck for good'" in line and "3 of 400 simulated games" in line
    assert false_claims(text, SimpleNamespace(no_way_out=0, games=400)) == []
    assert false_claims("Turn tiles when stuck.", stuck) == []  # a claim the text does not make
    assert "stuck for good" not in _markup_text(standin_sources())  # the shipped text no longer makes it


def test_publish_rejects_rules_that_do_not_fit_the_board_in_one_line(capsys, tmp_path):
    from generator.cli import main

    rules = tmp_path / "rules.toml"
    rules.write_text('start = "Hut"\nrequired = ["Well"]\ngoal = "Castle"\n', encoding="utf-8")
    status = main(
        ["publish", str(ROOT / "examples" / "random-20.json"), "--rules", str(rules), "--out", str(tmp_path / "out")]
    )
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1
    assert str(rules) in err and "'Castle' is not a landmark of board 'classic'" in err
    assert not (tmp_path / "out").exists()
