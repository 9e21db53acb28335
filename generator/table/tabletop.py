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
from urllib.parse import urlsplit

from PIL import Image

from generator import __version__
from generator.errors import TrailwrightError
from generator.render.raster import png_bytes
from generator.table.scene import TableArt, face_letter, slug, stem
from generator.table.tabletop_art import TILE_UNITS_AT_SCALE_1, Mat, mat_image, tile_image, tile_shape
from generator.table.tabletop_guide import DIE_USES, dice, readme, turn_die
from generator.units import MM_PER_IN

FOLDER = "tabletop"
TILE_THICKNESS = 0.1  # units (about 2.5 mm)
MAT_THICKNESS = 0.2
TABLE_Y = 1.0  # the height objects rest at on a TTS table
MAT_ROT_Y = 180.0  # TTS shows an image upright to the first seat at rotY 180
BAG_SCRIPT = "function onLoad() self.shuffle() end"  # TTS shuffles the pile each time the object is loaded


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
    ts, on_table = table.tileset, dice(table)
    keys = ["board", "bag"] + [key for key, _, _ in on_table] + [f"tile\0{t.id}" for t in ts]
    guid = guids(keys + [f"pawn\0{name}" for name, _ in table.players])
    objects = [
        _mat_state(table, mat, guid["board"], asset_base),
        _bag_state(table, asset_base, mat, tile_scale, guid),
        *_pawn_states(table, mat, guid),
        *_dice_states(on_table, mat, guid),
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
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }


def _bag_state(table: TableArt, asset_base: str, mat: Mat, tile_scale: float, guid: dict[str, str]) -> dict:
    """The draw pile: a bag of every tile, left of the mat, shuffled when the object loads."""
    ts, faces = table.tileset, tile_shape(table).faces
    urls = {(i, f): f"{asset_base}images/{stem(i, t.id)}-{f}.png" for i, t in enumerate(ts) for f in faces}
    tiles = [_tile_state(table, i, t, urls, guid[f"tile\0{t.id}"], tile_scale) for i, t in enumerate(ts)]
    return {
        "Name": "Bag",
        "GUID": guid["bag"],
        "Transform": transform(-mat.size_in[0] / 2 - 2.5, TABLE_Y, 0.0),
        "Nickname": f"Draw pile: {len(ts)} tiles (shuffled on load; R shuffles again)",
        "Description": "Shuffle (R), then draw one tile for each slot a trail reaches: "
        + ("toss a coin for its face and " if len(faces) == 2 else "")
        + f"roll {turn_die(table)} for its turn, as the rules booklet says.",
        "Locked": False,
        "ColorDiffuse": _rgb(table.style.board_wall),
        "ContainedObjects": tiles,
        "LuaScript": BAG_SCRIPT,
    }


def _pawn_states(table: TableArt, mat: Mat, guid: dict[str, str]) -> list[dict]:
    """A pawn for each player, around the start."""
    hx, hz = mat.world(table.start()[1])
    return [
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


def _dice_states(on_table: list[tuple[str, str, str]], mat: Mat, guid: dict[str, str]) -> list[dict]:
    """TTS's own dice (``tabletop_guide.dice``), right of the mat."""
    return [
        {
            "Name": name,
            "GUID": guid[key],
            "Transform": transform(mat.size_in[0] / 2 + 2.0, TABLE_Y + 0.5, 1.5 * k),
            "Nickname": nickname,
            "Description": DIE_USES[key],
            "Locked": False,
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        }
        for k, (key, name, nickname) in enumerate(on_table)
    ]


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
