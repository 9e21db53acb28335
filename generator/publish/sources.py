"""What a kit is made from: the tile set, the board, the art drawn in a style, the figures, the booklet's templates
and language, and the record of how it was made (``provenance``).

Glossary
--------
sources     a ``Sources`` value: everything a kit's documents are drawn from, as data (``layout_sources`` draws
            the art with the layout stage, ``generator.render``).
provenance  one line naming the version, the tile set's digest, the board, the tile size and the settings; every
            PDF records it as its subject.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator import __version__
from generator.board import Board
from generator.fileio import dumps_json
from generator.model import TileSet
from generator.play import Rules
from generator.publish import booklet as bk
from generator.publish.language import ENGLISH, Language
from generator.publish.manufacturer import ArtForWidth
from generator.publish.playpage import PlayFigures
from generator.publish.settings import PublishSettings
from generator.render.raster import SideArt
from generator.scoring.figures import Figures, tileset_digest

if TYPE_CHECKING:
    from generator.render.style import Style


@dataclass(frozen=True)
class Sources:
    """What the kit is made from: the model, the art, and where they came from."""

    tileset: TileSet
    board: Board
    art_for_width: ArtForWidth
    tile_width_mm: float
    board_svg: str
    figures: Figures
    source: str
    templates: Path
    rules: Rules | None = None  # the game the booklet words (None: the default rules for the board)
    play: PlayFigures | None = None  # a playtest of the default player count for the designer's page
    style: Style | None = None  # the layout style the art was drawn in (None: the built-in one at tile_width_mm)
    asset_url: str = ""  # where Tabletop Simulator loads tabletop/ from (the CLI: file:// of --out, or --asset-url)
    language: Language = ENGLISH  # the booklet's numbers and phrases (its words: the templates)


def source_name(src: Sources) -> str:
    """The tile set's file as the printed kit names it: its name, not where it lies (that differs between machines
    and would print a home folder into a rules booklet; its sha256 goes beside it, and kit.json keeps the path)."""
    return Path(src.source).name or src.source


def provenance(src: Sources, settings: PublishSettings) -> str:
    """One line recording how the kit was made: version, tile set digest, board, settings."""
    digest = tileset_digest(src.tileset)[:12]
    return (
        f"trailwright {__version__}; tile set {source_name(src)} (sha256 {digest}); board {src.board.name}; "
        f"tile {src.tile_width_mm:g} mm; settings {dumps_json(settings.__dict__, sort_keys=True)}"
    )


def theme_record(src: Sources) -> dict:
    """The theme the art was drawn in, as outputs record it (name, folder, credits); empty without one."""
    return src.style.to_dict().get("theme", {}) if src.style is not None else {}


def title_font(src: Sources) -> str:
    """The face the game's name is drawn in on the kit's pages: the theme's title font, else DejaVu Sans Bold."""
    return bk.theme_fonts(src.style).get("title", "Sans-Bold")


def layout_sources(
    tileset: TileSet,
    board: Board,
    style,
    figures: Figures,
    source: str,
    templates: Path,
    rules: Rules | None = None,
    play=None,
    language: Language = ENGLISH,
) -> Sources:
    """Sources drawn by the layout stage (``generator.render``) in ``style``, the board's names as ``language``
    prints them."""
    from dataclasses import replace

    from generator.render.board import render_board
    from generator.render.raster import layout_art

    board = language.printed_board(board)
    if language.labels():  # the tiles' labels in the kit's language
        style = replace(style, labels=language.labels())

    def art_for_width(width_mm: float, labels: bool = True) -> SideArt:
        drawn = style if width_mm == style.tile_width_mm else replace(style, tile_width_mm=width_mm)
        return layout_art(drawn, labels)

    return Sources(
        tileset,
        board,
        art_for_width,
        style.tile_width_mm,
        render_board(board, style),
        figures,
        source,
        templates,
        rules,
        play,
        style,
        language=language,
    )
