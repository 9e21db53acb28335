"""What a Tabletop Simulator folder tells its players: the dice on the table (TTS has dice of a few sides only) and
the README that says how to load the saved object, play it and scale it (``tabletop`` makes the rest)."""

from __future__ import annotations

from generator.table.scene import TableArt
from generator.table.tabletop_art import TILE_UNITS_AT_SCALE_1, TileShape, tile_shape
from generator.units import MM_PER_IN

TTS_DICE = (4, 6, 8, 10, 12, 20)  # the sides of Tabletop Simulator's own dice (``Die_N``)
DIE_USES = {
    "die": "Steps to walk; a new tile's turn (1 = as printed)",
    "steps die": "Steps to walk",
    "turn die": "A new tile's turn (1 = as printed)",
}


SIDED = {4: "four-sided", 6: "six-sided"}  # the turn die's sides in words: one a tile edge


def dice(table: TableArt) -> list[tuple[str, str, str]]:
    """The dice on the table as (key, TTS name, nickname): one die for steps and turns where the rules' die has a
    side for each of a tile's turns (the booklet's six on the classic game); else one for turns (six-sided on hex
    tiles, four-sided on square ones) and the rules' own for steps, where TTS has one (the README says when it has
    not)."""
    turns = tile_shape(table).turns
    if table.die == turns:
        return [("die", f"Die_{turns}", "Die")]
    steps = [("steps die", f"Die_{table.die}", f"Die of {table.die} sides")] if table.die in TTS_DICE else []
    return steps + [("turn die", f"Die_{turns}", SIDED[turns].capitalize() + " die")]


def turn_die(table: TableArt) -> str:
    """The die a new tile's turn is rolled with, as the booklet names it."""
    turns = tile_shape(table).turns
    return "the die" if table.die == turns else f"the {SIDED[turns]} die"


def how_to_draw(shape: TileShape, turn_die: str) -> str:
    """The README's lines on drawing a tile: its coin (double-sided tiles), its turn and TTS's rotation snap."""
    step = {6: "one sixth", 4: "one quarter"}[shape.turns]
    coin = ", toss a coin for its face\n   (F flips a held tile)," if len(shape.faces) == 2 else ",\n  "
    return (
        f"   Play by the rules booklet: draw a tile when a trail reaches an empty slot{coin} roll {turn_die} for "
        f"its turn\n   (Q and E turn a held tile; set TTS's rotation snap to {360 // shape.turns} degrees so one "
        f"press is {step}).\n"
    )


def dice_text(table: TableArt) -> str:
    """The dice as the README names them, and what to do when TTS has no die of the rules' sides."""
    turns = tile_shape(table).turns
    if table.die == turns:
        return "a die"
    if table.die in TTS_DICE:
        return f"two dice ({table.die} sides for steps, {turns} for a new tile's turn)"
    sides = ", ".join(map(str, TTS_DICE))
    return (
        f"a {SIDED[turns]} die for a new tile's turn (the rules' steps die has {table.die} sides,\n"
        f"   and TTS has dice of {sides} sides only: roll yours at the table, or use the play table's)"
    )


def readme(table: TableArt, name: str, asset_base: str, tile_scale: float, mat_size_in: tuple[float, float]) -> str:
    """How to load the saved object in TTS, its scale, and how it was made."""
    w_in = table.style.tile_width_mm / MM_PER_IN
    shape = tile_shape(table)
    local = asset_base.startswith("file:")
    where = (
        "Its images are files on this computer (file:// addresses), so only you see them in TTS.\n"
        "For a game online, put this folder on a web host (or TTS's Cloud Manager) and publish again\n"
        "with --asset-url https://your.host/path/to/tabletop/ : the same files, addressed by URL.\n"
        "Moved this folder? Publish again into the new place; the file addresses are absolute.\n"
        if local
        else f"Its images are addressed at {asset_base}images/ : upload the images/ folder there.\n"
    )
    return (
        f"{table.title}: a Tabletop Simulator saved object\n"
        f"{'=' * (len(table.title) + 36)}\n\n"
        f"1. Copy {name}.json and {name}.png into TTS's Saved Objects folder:\n"
        "     Windows: Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects\\\n"
        "     macOS:   ~/Library/Tabletop Simulator/Saves/Saved Objects/\n"
        "     Linux:   ~/.local/share/Tabletop Simulator/Saves/Saved Objects/\n"
        f"2. In TTS: Objects > Saved Objects > {name}. The board (locked), a bag of {len(table.tileset)} tiles,\n"
        f"   {len(table.players)} pawns ({', '.join(n for n, _ in table.players)}) on the {table.start()[0]} and "
        f"{dice_text(table)} appear.\n"
        "3. The bag shuffles itself when the object loads (hover over it and press R to shuffle again).\n"
        f"{how_to_draw(shape, turn_die(table))}"
        "   A tile dropped near a slot snaps to the slot's centre.\n\n"
        f"{where}\n"
        "Scale: 1 TTS unit = 1 inch. A tile is "
        f"{table.style.tile_width_mm:g} mm ({w_in:.3f} in) {'corner to corner' if shape.tts_type == 1 else 'across'}, "
        "as printed; the board mat is\n"
        f"{mat_size_in[0]:.2f} x {mat_size_in[1]:.2f} in (the printed board, padded to "
        f"{'a hexagon' if shape.tts_type == 1 else 'a tile'}'s aspect).\n"
        f"Tiles and the mat are Custom_Tile objects sized on the assumption that TTS draws a Custom_Tile's\n"
        f"image {TILE_UNITS_AT_SCALE_1} units tall at scale 1 (tile scale {tile_scale:.4f}). TTS does not document\n"
        "this; if everything looks too big or too small, scale the mat and the tiles by the same factor:\n"
        "tiles still fit the slots, because both images have the same aspect.\n\n"
        f"Made by: {table.provenance}\n"
    )
