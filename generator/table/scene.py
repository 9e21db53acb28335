"""What both virtual tables are made of: the print kit's art, where each slot lies, safe names.

Glossary
--------
table art     everything a virtual table is drawn from (``TableArt``): the model, the layout
              style, the print kit's side art and board SVG, the title and how they were made.
board mm      the board SVG's own coordinates: mm, origin at its top-left corner, y down.
slot centre   where a slot's centre lies in board mm (the layout stage's ``board_frame``),
              the same place the printed board shows it.
stem          a file name made from a tile's position in the set and its id, safe on any
              file system whatever the id holds (``tile-07-ab_c``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.play.rules import Rules, default_rules
from generator.render.board import BoardFrame, board_frame, render_board
from generator.render.raster import SideArt, layout_art
from generator.render.style import Style
from generator.table.words import WORDS

# one pawn per player colour: (name, sRGB hex); the names are Tabletop Simulator's seat colours
PLAYERS = (("Red", "#db1a18"), ("Blue", "#1f87ff"), ("Yellow", "#e7e52c"), ("Green", "#31b32b"))


@dataclass(frozen=True)
class TableArt:
    """What a virtual table is drawn from: the same art and board the print kit uses."""

    tileset: TileSet
    board: Board
    style: Style
    art: SideArt  # the print kit's side art, at ``style.tile_width_mm``
    board_svg: str  # the layout stage's board, drawn with ``board_frame(board, style)``
    title: str
    provenance: str
    rules: Rules | None = None  # the game the table is set for (None: the default rules for the board)
    words: dict = field(default_factory=dict, compare=False)  # the table's words (playtable.WORDS' keys): English
    lang: str = "en"  # the page's language (its html lang)

    def __post_init__(self):
        object.__setattr__(self, "words", {**WORDS, **self.words})

    @cached_property
    def game(self) -> Rules | None:
        """The rules the table is set for: its own, else the board's default game (None on a board that has
        none: fewer than two landmarks)."""
        if self.rules is not None:
            return self.rules
        try:
            return default_rules(self.board)
        except TrailwrightError:
            return None

    @property
    def players(self) -> tuple[tuple[str, str], ...]:
        """A pawn (name, colour) for each seat the rules allow."""
        return PLAYERS[: self.game.players_max] if self.game else PLAYERS

    @property
    def die(self) -> int:
        """How many sides the die of steps has."""
        return self.game.die if self.game else 6

    @cached_property
    def frame(self) -> BoardFrame:
        """Where every cell of the board lies, in board mm: the layout stage's frame (worked out once)."""
        return board_frame(self.board, self.style)

    def slot_centres(self) -> list[tuple[float, float]]:
        """Each slot's centre in board mm, in slot order."""
        frame = self.frame
        return [frame.at(h) for h in self.board.slots]

    def start(self) -> tuple[str, tuple[float, float]]:
        """Where the pawns start, by name and in board mm: the rules' start landmark (on a board without a game,
        its first landmark, else slot 1)."""
        places = [(lm.name, lm.hexes[0]) for lm in self.board.landmarks if self.game and lm.name == self.game.start]
        places += [(lm.name, lm.hexes[0]) for lm in self.board.landmarks] + [("slot 1", self.board.slots[0])]
        name, h = places[0]
        return name, self.frame.at(h)


def layout_table_art(
    tiles: TileSet, board: Board, style: Style, title: str, provenance: str, rules: Rules | None = None
) -> TableArt:
    """Table art in the layout stage's own look, on every geometry: its side art (labelled) and its board, drawn
    in ``style``."""
    art, board_svg = layout_art(style, True), render_board(board, style)
    return TableArt(tiles, board, style, art, board_svg, title, provenance, rules)


def stem(index: int, tile_id: str) -> str:
    """``tile-07-<id made safe>``: unique by position, readable when the id allows, never a path."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", tile_id).strip("_-")[:24]
    return f"tile-{index + 1:02d}" + (f"-{slug}" if slug else "")


def slug(text: str, fallback: str) -> str:
    """``text`` as a safe file name stem (letters, digits, ``-``, ``_``), or ``fallback`` when nothing is left."""
    out = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-_")[:40]
    return out or fallback


def face_letter(face: str) -> str:
    """``F`` or ``B``, as on the printed labels."""
    return face[0].upper()


def side_inner(svg: str) -> str:
    """The elements of a side's SVG without its root and metadata, for placing inside another SVG."""
    inner = svg[svg.index(">", svg.index("<svg")) + 1 : svg.rindex("</svg>")]
    return re.sub(r"<metadata>.*?</metadata>", "", inner, flags=re.S)
