"""The tile model: directions, trails, sides, tiles and tile sets (see ``tiles`` for the glossary)."""

from generator.model.tiles import (
    DIRECTION_INDEX,
    DIRECTIONS,
    FACES,
    Side,
    Tile,
    TileSet,
    mirror,
    opposite,
    pair_crossings,
    trails_cross,
)
from generator.model.tileset_io import dumps_tileset, read_meta, read_tileset, tileset_from_dict, tileset_to_dict

__all__ = [
    "DIRECTIONS",
    "DIRECTION_INDEX",
    "FACES",
    "Side",
    "Tile",
    "TileSet",
    "mirror",
    "opposite",
    "pair_crossings",
    "trails_cross",
    "dumps_tileset",
    "read_meta",
    "read_tileset",
    "tileset_from_dict",
    "tileset_to_dict",
]
