"""Every sentence of the booklet is true of the game it describes: the booklet of every built-in board, and of
boards written here for the test (other shapes, ends and faces, landmarks of many cells that share a shape), in
English and in French, read against the board's geometry. The rules of the reading come from the geometry and the
board alone, never from a board's name, so they hold for boards nobody wrote yet."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from generator.board import board_from_dict, builtin_boards, load_board
from generator.optimize import random_tileset
from generator.optimize.space import allowed_designs
from generator.publish.bookletkit import rendered_templates
from generator.publish.claims import markup_text
from generator.publish.language import load_language
from generator.publish.settings import load_settings
from generator.publish.sources import layout_sources
from generator.render.style import load_style
from generator.scoring.figures import Figures
from generator.scoring.objective import ARTICLE

TEMPLATES = Path(__file__).resolve().parents[1] / "generator" / "publish" / "booklet" / "templates"
FIGURES = Figures(-1.0, 0.5, 0.9, 9.0, 1000, 1, ())
NUMBER = {"en": {2: "two", 3: "three", 4: "four"}, "fr": {2: "deux", 3: "trois", 4: "quatre"}}
# a square board of paired two-end tiles, double-sided, with two 3-cell landmarks that share a shape
TRIPLES = {
    "name": "triples",
    "tiles": {"shape": "square", "ends_per_edge": 2, "trails": "pairs", "faces": 2},
    "slots": [[x, y] for y in range(3) for x in range(3)],
    "landmark": [
        {"name": "Forge", "hexes": [[-1, 0], [-1, 1], [-1, 2]]},
        {"name": "Mill", "hexes": [[3, 0], [3, 1], [3, 2]]},
    ],
}
BOARDS = {**{name: name for name in builtin_boards()}, "triples": TRIPLES}


@cache
def board_of(name: str):
    spec = BOARDS[name]
    return load_board(spec) if isinstance(spec, str) else board_from_dict(spec)


@cache
def booklet(name: str, lang: str) -> str:
    """The words of ``name``'s booklet in ``lang`` (its templates rendered: the words the PDF sets)."""
    import numpy as np

    board = board_of(name)
    g = board.geometry
    tiles = random_tileset(board.tile_count, allowed_designs(ARTICLE.on(board), g), np.random.default_rng(1), g)
    language = load_language(TEMPLATES, lang)
    style = replace(load_style(), tile_width_mm=50.0)
    src = layout_sources(tiles, board, style, FIGURES, f"{name}.json", language.templates, language=language)
    return markup_text(rendered_templates(src, load_settings()))


def language_name(lang: str, name: str) -> str:
    """A landmark's name as the language prints it."""
    return load_language(TEMPLATES, lang).name(name)


def phrases(lang: str, **words: str) -> str:
    return words[lang]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", list(BOARDS))
def test_the_booklet_speaks_the_boards_own_game(name, lang):
    board, text = board_of(name), booklet(name, lang)
    g = board.geometry
    low = text.lower()
    sixth, quarter = phrases(lang, en="sixth", fr="sixième"), phrases(lang, en="quarter", fr="quart")
    assert (sixth in low) == (g.edges == 6) and (quarter in low) == (g.edges == 4)  # a turn in the tiles' unit
    dead_end, fork = phrases(lang, en="dead end", fr="cul-de-sac"), phrases(lang, en="fork", fr="bifurqu")
    can_stub = g.trails != "pairs"
    assert (dead_end in low) == can_stub and (fork in low) == can_stub  # only where the tiles can have them
    if g.ends_per_edge == 2:  # which end you step onto
        assert phrases(lang, en="end that faces the end you left by", fr="extrémité qui fait face") in text
    if g.faces == 1:  # a face, counted as tiles
        front_back = phrases(
            lang,
            en=r"\bits back\b|front and back|side of (a|every) tile|, front\b",
            fr=r"\bverso\b|\brecto\b|face d'une tuile|face de chaque tuile",
        )
        assert not re.search(front_back, low), re.search(front_back, low)
        assert (
            phrases(lang, en=f"of the {board.tile_count} tiles have bridges", fr=f"des {board.tile_count} tuiles ont")
            in text
        )
    groups: dict[int, list[str]] = {}
    for lm in board.landmarks:
        if len(lm.hexes) > 1:
            groups.setdefault(len(lm.hexes), []).append(lm.name)
    for cells, names in groups.items():  # one paragraph a shape, with its true number of cells
        count = NUMBER[lang].get(cells, str(cells))
        said = re.findall(rf"{count} (?:spaces|emplacements)", text)
        assert len(said) == 1, (cells, names, said)
        paragraph = text[text.index(said[0]) - 200 : text.index(said[0])]
        assert all(language_name(lang, n) in paragraph for n in names), (paragraph, names)
        assert phrases(lang, en="disc", fr="disque") in text  # as every board draws it (``render.board``)
    if not groups:
        assert not re.search(r"(spaces|emplacements) ?:", text) or g.is_classic
