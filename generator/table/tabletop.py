"""A Tabletop Simulator saved object: every tile in a bag, the board mat, pawns and a die.

Glossary
--------
saved object  a TTS save file's structure (``ObjectStates`` and a few empty keys) that TTS lists
              under Objects > Saved Objects; the JSON sits beside its thumbnail PNG.
unit          TTS's length unit, taken as 1 inch (what TTS's own measuring tool shows).
world         TTS coordinates: x to the right and z away from the first seat, y up; the board
              mat's centre is the origin.
local         an object's own coordinates, before its Transform: snap points are stored in the
              mat's local coordinates (``world = R_y(rotY) · (local ∘ scale) + pos``; Unity turns
              clockwise seen from above for a positive ``rotY``).
height rule   how big TTS draws a ``Custom_Tile``: its image's height spans
              ``TILE_UNITS_AT_SCALE_1 * scaleZ`` units and its width follows the image's aspect.
              TTS does not document this, so the mat is padded to the tiles' own aspect (a
              flat-topped hex's box): whichever side TTS measures, tiles and slots scale alike.
tile shape    what TTS is told of a tile (``TileShape``): its box in mm (a flat-topped hex's, or a
              square's on square tiles), ``CustomTile`` type (1 hex, 0 box), faces and turns. A
              single-sided tile has no back image and no coin; the turn die has one side per edge.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from PIL import Image

from generator import __version__
from generator.errors import TrailwrightError
from generator.model import FACES
from generator.render.raster import png_bytes, px, reframe, render_pixels, svg_size_mm
from generator.table.cells import CellFrame, tile_radius
from generator.table.cells import board_svg as cells_board_svg
from generator.table.scene import SQRT3, TableArt, face_letter, slug, stem
from generator.units import MM_PER_IN

FOLDER = "tabletop"
MAX_PX = 4096  # TTS's texture limit, a side
TILE_UNITS_AT_SCALE_1 = 1.318  # see "height rule": measured on a published mod, not documented by TTS
HEX_ASPECT = 2 / SQRT3  # width / height of a flat-topped hexagon's box
TILE_THICKNESS = 0.1  # units (about 2.5 mm)
MAT_THICKNESS = 0.2
TABLE_Y = 1.0  # the height objects rest at on a TTS table
MAT_ROT_Y = 180.0  # TTS shows an image upright to the first seat at rotY 180
TILE_BLEED_MM = 1.0  # art past the cut, so the hex's edge never shows paper


def check_asset_base(url: str) -> str:
    """An image folder URL for TTS (``https://``, ``http://`` or ``file://``), ending in ``/``."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http", "file") or (parts.scheme != "file" and not parts.netloc):
        raise TrailwrightError(f"asset URL {url!r} must start with https://, http:// or file:// and name a host")
    if any(c.isspace() or c in "\"'<>\\" for c in url):
        raise TrailwrightError(f"asset URL {url!r} has a space, quote or backslash: percent-encode it")
    return url if url.endswith("/") else url + "/"


def guids(keys: list[str]) -> dict[str, str]:
    """A 6-hex-digit GUID for each key, from its SHA-256 (rehashed on a clash): same keys, same GUIDs."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for key in keys:
        n = 0
        while True:
            guid = hashlib.sha256(f"{key}\0{n}".encode()).hexdigest()[:6]
            if guid not in taken:
                break
            n += 1
        taken.add(guid)
        out[key] = guid
    return out


def transform(
    x: float = 0.0, y: float = TABLE_Y, z: float = 0.0, rot_y: float = 0.0, scale: float = 1.0, scale_y: float = 1.0
) -> dict:
    """A TTS ``Transform``: position, rotation about y, scale (x and z alike)."""
    return {
        "posX": round(x, 4),
        "posY": round(y, 4),
        "posZ": round(z, 4),
        "rotX": 0.0,
        "rotY": rot_y,
        "rotZ": 0.0,
        "scaleX": round(scale, 5),
        "scaleY": scale_y,
        "scaleZ": round(scale, 5),
    }


def world_to_local(x: float, z: float, t: dict) -> tuple[float, float]:
    """A world point (x, z) in an object's local coordinates (the inverse of its Transform)."""
    a = math.radians(t["rotY"])
    dx, dz = x - t["posX"], z - t["posZ"]
    lx, lz = dx * math.cos(a) - dz * math.sin(a), dx * math.sin(a) + dz * math.cos(a)
    return lx / t["scaleX"], lz / t["scaleZ"]


def _rgb(hex_colour: str) -> dict:
    return {k: round(int(hex_colour[1 + 2 * i : 3 + 2 * i], 16) / 255, 4) for i, k in enumerate("rgb")}


@dataclass(frozen=True)
class TileShape:
    """What TTS is told of a tile: its box (mm, width by height), the box's aspect, ``CustomTile`` type, its faces
    and its turns (edges)."""

    width_mm: float
    height_mm: float
    aspect: float
    tts_type: int  # TTS's CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded box
    faces: tuple[str, ...]
    turns: int

    @property
    def classic(self) -> bool:
        return self.tts_type == 1 and len(self.faces) == 2 and self.turns == 6


@lru_cache(maxsize=16)
def _shape(geometry, width_mm: float) -> TileShape:
    if geometry.is_classic:  # the very numbers the classic kit has always had
        return TileShape(width_mm, width_mm * SQRT3 / 2, HEX_ASPECT, 1, FACES, 6)
    r = tile_radius(geometry, width_mm)
    ys = [y for _, y in geometry.corners()]
    height = r * (max(ys) - min(ys))
    kind = 1 if geometry.shape == "hex" else 0
    return TileShape(width_mm, height, width_mm / height, kind, FACES[: geometry.faces], geometry.rotations)


def tile_shape(table: TableArt) -> TileShape:
    """The table's tiles as TTS is told of them."""
    return _shape(table.board.geometry, table.style.tile_width_mm)


def tile_image(table: TableArt, tile, face: str, dpi: int) -> Image.Image:
    """A side's art through the cut tile's box: RGB, ``2 : sqrt(3)`` like a flat-topped hex (square tiles: 1 : 1)."""
    shape = tile_shape(table)
    w = min(px(shape.width_mm, dpi), MAX_PX)
    svg = reframe(table.art(tile, face, TILE_BLEED_MM), shape.width_mm, shape.height_mm)
    return render_pixels(svg, w, round(w / shape.aspect))


@dataclass(frozen=True, eq=False)
class Mat:
    """The board mat's picture (the board padded to a hexagon's aspect) and where board mm fall on it."""

    image: Image.Image
    dpi: float
    left: int  # where the board's top-left corner lies on the picture, px
    top: int
    px_per_mm: float

    @property
    def size_in(self) -> tuple[float, float]:
        """The mat's width and height in inches (TTS units)."""
        return (self.image.width / self.dpi, self.image.height / self.dpi)

    def world(self, p: tuple[float, float]) -> tuple[float, float]:
        """A point in board mm as world (x, z) in units, with the mat's centre at the origin."""
        u = self.left + p[0] * self.px_per_mm - self.image.width / 2
        v = self.top + p[1] * self.px_per_mm - self.image.height / 2
        return (u / self.dpi, -v / self.dpi)


def mat_board_svg(table: TableArt) -> str:
    """The board the mat shows: the print kit's on the classic board; on other tiles the board drawn on the table's
    own frame (``generator.table.cells``), so every snap point lies on its slot whatever art the kit drew."""
    frame = table.frame
    if isinstance(frame, CellFrame):
        return cells_board_svg(table.board, table.style, frame)
    return table.board_svg


def mat_image(table: TableArt, dpi: int) -> Mat:
    """The board on a canvas of the tiles' aspect, at ``dpi`` or less (within TTS's limit)."""
    aspect = tile_shape(table).aspect
    board_svg = mat_board_svg(table)
    bw, bh = svg_size_mm(board_svg)
    cw, ch = (bh * aspect, bh) if bw / bh < aspect else (bw, bw / aspect)
    scale = min(float(dpi), (MAX_PX - 1) / (cw / MM_PER_IN))  # dots per inch, within TTS's limit
    canvas_w = math.floor(cw / MM_PER_IN * scale)
    canvas_h = round(canvas_w / aspect)
    per_mm = canvas_w / cw
    board = render_pixels(board_svg, round(bw * per_mm), round(bh * per_mm))
    canvas = Image.new("RGB", (canvas_w, canvas_h), table.style.board_ground)
    left, top = (canvas_w - board.width) // 2, (canvas_h - board.height) // 2
    canvas.paste(board, (left, top))
    return Mat(canvas, per_mm * MM_PER_IN, left, top, per_mm)


def _tile_state(table: TableArt, i: int, tile, urls: dict, guid: str, scale: float) -> dict:
    shape = tile_shape(table)
    sides = {f: tile.face(f) for f in shape.faces}
    return {
        "Name": "Custom_Tile",
        "GUID": guid,
        "Transform": transform(rot_y=MAT_ROT_Y, scale=scale),
        "Nickname": f"Tile {tile.id} ({' / '.join(tile.id + face_letter(f) for f in shape.faces)})",
        "Description": "\n".join(f"{f}: {side}" for f, side in sides.items()),
        "Locked": False,
        "ColorDiffuse": _rgb(table.style.trail_edge),
        "CustomImage": {
            "ImageURL": urls[i, "front"],
            "ImageSecondaryURL": urls.get((i, "back"), ""),  # none on a single-sided tile
            "ImageScalar": 1.0,
            "ImageScale": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {"Type": shape.tts_type, "Thickness": TILE_THICKNESS, "Stackable": False, "Stretch": False},
        },
    }


def saved_object(table: TableArt, asset_base: str, mat: Mat, tile_scale: float) -> dict:
    """The saved object's JSON as data."""
    ts = table.tileset
    dice = _dice(table)
    keys = ["board", "bag"] + [key for key, _, _ in dice] + [f"tile\0{t.id}" for t in ts]
    guid = guids(keys + [f"pawn\0{name}" for name, _ in table.players])
    faces = tile_shape(table).faces
    urls = {(i, f): f"{asset_base}images/{stem(i, t.id)}-{f}.png" for i, t in enumerate(ts) for f in faces}
    half_w = mat.size_in[0] / 2
    tiles = [_tile_state(table, i, t, urls, guid[f"tile\0{t.id}"], tile_scale) for i, t in enumerate(ts)]
    bag = {
        "Name": "Bag",
        "GUID": guid["bag"],
        "Transform": transform(-half_w - 2.5, TABLE_Y, 0.0),
        "Nickname": f"Draw pile: {len(ts)} tiles (shuffled on load; R shuffles again)",
        "Description": "Shuffle (R), then draw one tile for each slot a trail reaches: "
        + ("toss a coin for its face and " if len(faces) == 2 else "")
        + f"roll {_turn_die(table)} for its turn, as the rules booklet says.",
        "Locked": False,
        "ColorDiffuse": _rgb(table.style.board_wall),
        "ContainedObjects": tiles,
        "LuaScript": BAG_SCRIPT,
    }
    hx, hz = mat.world(table.start()[1])
    pawns = [
        {
            "Name": "PlayerPawn",
            "GUID": guid[f"pawn\0{name}"],
            "Transform": transform(
                hx + 0.35 * math.cos(k * math.pi / 2), TABLE_Y + 0.5, hz + 0.35 * math.sin(k * math.pi / 2), MAT_ROT_Y
            ),
            "Nickname": f"{name} explorer",
            "Description": "",
            "Locked": False,
            "ColorDiffuse": _rgb(colour),
        }
        for k, (name, colour) in enumerate(table.players)
    ]
    dice_states = [
        {
            "Name": name,
            "GUID": guid[key],
            "Transform": transform(half_w + 2.0, TABLE_Y + 0.5, 1.5 * k),
            "Nickname": nickname,
            "Description": DIE_USES[key],
            "Locked": False,
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        }
        for k, (key, name, nickname) in enumerate(dice)
    ]
    return {
        "SaveName": table.title,
        "GameMode": table.title,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": table.provenance,
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [_mat_state(table, mat, guid["board"], asset_base), bag, *pawns, *dice_states],
        "TabStates": {},
        "VersionNumber": "",
    }


TTS_DICE = (4, 6, 8, 10, 12, 20)  # the sides of Tabletop Simulator's own dice (``Die_N``)
DIE_USES = {
    "die": "Steps to walk; a new tile's turn (1 = as printed)",
    "steps die": "Steps to walk",
    "turn die": "A new tile's turn (1 = as printed)",
}


SIDED = {4: "four-sided", 6: "six-sided"}  # the turn die's sides in words: one a tile edge


def _dice(table: TableArt) -> list[tuple[str, str, str]]:
    """The dice on the table as (key, TTS name, nickname): one die for steps and turns where the rules' die has a
    side for each of a tile's turns (the booklet's six on the classic game); else one for turns (six-sided on hex
    tiles, four-sided on square ones) and the rules' own for steps, where TTS has one (the README says when it has
    not)."""
    turns = tile_shape(table).turns
    if table.die == turns:
        return [("die", f"Die_{turns}", "Die")]
    steps = [("steps die", f"Die_{table.die}", f"Die of {table.die} sides")] if table.die in TTS_DICE else []
    return steps + [("turn die", f"Die_{turns}", SIDED[turns].capitalize() + " die")]


def _turn_die(table: TableArt) -> str:
    """The die a new tile's turn is rolled with, as the booklet names it."""
    turns = tile_shape(table).turns
    return "the die" if table.die == turns else f"the {SIDED[turns]} die"


def _mat_state(table: TableArt, mat: Mat, guid: str, asset_base: str) -> dict:
    """The board mat: the printed board, locked, with a snap point on every slot."""
    board = table.board
    mat_t = transform(rot_y=MAT_ROT_Y, scale=mat.size_in[1] / TILE_UNITS_AT_SCALE_1)
    snaps = []
    for p in table.slot_centres():
        lx, lz = world_to_local(*mat.world(p), mat_t)
        snaps.append({"Position": {"x": round(lx, 5), "y": round(MAT_THICKNESS / 2, 4), "z": round(lz, 5)}})
    return {
        "Name": "Custom_Tile",
        "GUID": guid,
        "Transform": mat_t,
        "Nickname": f"{table.title}: the board",
        "Description": f"{board.title or board.name}; {len(board.slots)} slots (tiles snap to them)",
        "Locked": True,
        "ColorDiffuse": _rgb(table.style.board_ground),
        "CustomImage": {
            "ImageURL": f"{asset_base}images/board.png",
            "ImageSecondaryURL": "",
            "ImageScalar": 1.0,
            "ImageScale": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {"Type": 0, "Thickness": MAT_THICKNESS, "Stackable": False, "Stretch": False},
        },
        "AttachedSnapPoints": snaps,
    }


def _how_to_draw(shape: TileShape, turn_die: str) -> str:
    """The README's lines on drawing a tile: its coin (double-sided tiles), its turn and TTS's rotation snap."""
    step = {6: "one sixth", 4: "one quarter"}[shape.turns]
    coin = ", toss a coin for its face\n   (F flips a held tile)," if len(shape.faces) == 2 else ",\n  "
    return (
        f"   Play by the rules booklet: draw a tile when a trail reaches an empty slot{coin} roll {turn_die} for "
        f"its turn\n   (Q and E turn a held tile; set TTS's rotation snap to {360 // shape.turns} degrees so one "
        f"press is {step}).\n"
    )


BAG_SCRIPT = "function onLoad() self.shuffle() end"  # TTS shuffles the pile each time the object is loaded


def _dice_text(table: TableArt) -> str:
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
        f"{_dice_text(table)} appear.\n"
        "3. The bag shuffles itself when the object loads (hover over it and press R to shuffle again).\n"
        f"{_how_to_draw(shape, _turn_die(table))}"
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


def tabletop_files(table: TableArt, asset_base: str, *, tile_dpi: int = 200, board_dpi: int = 150) -> dict[str, bytes]:
    """Every file of the TTS folder by path (``tabletop/...``): JSON, thumbnail, images, README.txt.

    ``asset_base`` is the URL TTS loads the folder from (``file:///.../tabletop/`` or a host's).
    """
    base = check_asset_base(asset_base)
    made = f"trailwright {__version__}"
    files: dict[str, bytes] = {}
    shape = tile_shape(table)
    for i, tile in enumerate(table.tileset):
        for face in shape.faces:
            image = tile_image(table, tile, face, tile_dpi)
            files[f"{FOLDER}/images/{stem(i, tile.id)}-{face}.png"] = png_bytes(image, tile_dpi, {"Software": made})
    mat = mat_image(table, board_dpi)
    files[f"{FOLDER}/images/board.png"] = png_bytes(mat.image, round(mat.dpi), {"Software": made})
    tile_scale = (shape.height_mm / MM_PER_IN) / TILE_UNITS_AT_SCALE_1
    data = saved_object(table, base, mat, tile_scale)
    name = slug(table.title, "trailwright")
    files[f"{FOLDER}/{name}.json"] = (json.dumps(data, indent=2, ensure_ascii=True) + "\n").encode("ascii")
    thumb = mat.image.resize((256, round(256 / shape.aspect)), Image.Resampling.LANCZOS)
    files[f"{FOLDER}/{name}.png"] = png_bytes(thumb, 72)
    files[f"{FOLDER}/README.txt"] = readme(table, name, base, tile_scale, mat.size_in).encode("utf-8")
    return dict(sorted(files.items()))
