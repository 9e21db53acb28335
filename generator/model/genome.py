"""The article's bit-string genome: 2 bits per direction, 12 per side, 24 per tile.

Each direction of a side stores the number (0..3) of the trail it belongs to, most
significant bit first. Decoding drops empty trails and puts each side in canonical form,
exactly as the article's ``postproc`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.errors import TrailwrightError
from generator.model.tiles import DIRECTIONS, Side, Tile, TileSet

BITS_PER_TRAIL = 2
BITS_PER_SIDE = 6 * BITS_PER_TRAIL
BITS_PER_TILE = 2 * BITS_PER_SIDE
MAX_TRAILS = 2**BITS_PER_TRAIL

Genome = tuple[bool, ...]


def encode_side(side: Side) -> Genome:
    """The 12 bits of one side: its trail numbers in listed order."""
    if len(side.trails) > MAX_TRAILS:
        raise TrailwrightError(f"side {side} has {len(side.trails)} trails; the genome holds at most {MAX_TRAILS}")
    bits: list[bool] = []
    for d in range(len(DIRECTIONS)):
        number = side.trail_of(d)
        bits += [bool(number >> shift & 1) for shift in reversed(range(BITS_PER_TRAIL))]
    return tuple(bits)


def decode_side(bits: Sequence[bool]) -> Side:
    """A canonical side from its 12 bits."""
    numbers = [
        sum(
            int(b) << shift
            for b, shift in zip(bits[i : i + BITS_PER_TRAIL], reversed(range(BITS_PER_TRAIL)), strict=True)
        )
        for i in range(0, BITS_PER_SIDE, BITS_PER_TRAIL)
    ]
    trails = [[d for d, n in enumerate(numbers) if n == k] for k in range(MAX_TRAILS)]
    return Side.of(t for t in trails if t).canonical


def encode(tileset: TileSet) -> Genome:
    """The genome of a tile set: fronts and backs, tile by tile."""
    return tuple(bit for tile in tileset for side in (tile.front, tile.back) for bit in encode_side(side))


def decode(bits: Sequence[bool], ids: Sequence[str] | None = None) -> TileSet:
    """A tile set from a genome; tiles are numbered "1", "2", ... unless ``ids`` are given."""
    if len(bits) % BITS_PER_TILE:
        raise TrailwrightError(f"a genome has a multiple of {BITS_PER_TILE} bits, not {len(bits)}")
    count = len(bits) // BITS_PER_TILE
    ids = list(ids) if ids is not None else [str(i + 1) for i in range(count)]
    tiles = []
    for i in range(count):
        chunk = bits[i * BITS_PER_TILE : (i + 1) * BITS_PER_TILE]
        tiles.append(Tile(ids[i], decode_side(chunk[:BITS_PER_SIDE]), decode_side(chunk[BITS_PER_SIDE:])))
    return TileSet(tuple(tiles))
