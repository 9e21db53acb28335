"""Read and write tile sets in the ``hexmaze-tileset/1`` JSON format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.inputs import Text, check_keys, load_json
from generator.model.tiles import FACES, Side, Tile, TileSet

FORMAT = "hexmaze-tileset/1"
MAX_ID_LENGTH = 1000  # file names stay short whatever the id (see ``generator.model.ids``)
_TILE_ID = Text(MAX_ID_LENGTH)


def tileset_from_dict(data: Any, source: str = "tile set") -> TileSet:
    """Validate parsed JSON and build a tile set; errors name ``source`` and the item."""
    if not isinstance(data, dict):
        raise TrailwrightError("expected a JSON object with a 'tiles' list", source)
    check_keys(data, {"format", "meta", "tiles"}, "", source)
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise TrailwrightError(f"format {fmt!r} is not {FORMAT!r}", source)
    tiles_data = data.get("tiles")
    if not isinstance(tiles_data, list) or not tiles_data:
        raise TrailwrightError("'tiles' must be a non-empty list", source)
    tiles = []
    seen: set[str] = set()
    for index, item in enumerate(tiles_data):
        if not isinstance(item, dict):
            raise TrailwrightError(f"tile #{index + 1} must be an object", source)
        check_keys(item, {"id", "front", "back"}, f"tile #{index + 1}", source)
        raw_id = item.get("id", index + 1)
        if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)):
            raise TrailwrightError(
                f"tile #{index + 1}: 'id' must be a string or a whole number, got {raw_id!r}", source
            )
        tile_id = _TILE_ID(str(raw_id), f"tile #{index + 1} id", source)
        where = f"tile {tile_id!r}"
        if tile_id in seen:
            raise TrailwrightError(f"duplicate tile id {tile_id!r}", source)
        seen.add(tile_id)
        faces = {}
        for face in FACES:
            if face not in item:
                raise TrailwrightError(f"{where} has no {face!r}", source)
            try:
                faces[face] = Side.from_names(item[face])
            except TrailwrightError as err:
                raise TrailwrightError(f"{where} {face}: {err}", source) from None
        tiles.append(Tile(tile_id, faces["front"], faces["back"]))
    return TileSet(tuple(tiles), source)


def read_tileset(path: str | Path) -> TileSet:
    """Load a tile set file, with one-line errors naming the file."""
    return tileset_from_dict(load_json(path), str(path))


def read_meta(path: str | Path) -> dict:
    """The ``meta`` block of a tile set file (empty when absent)."""
    try:
        data = load_json(path)
    except TrailwrightError:
        return {}
    meta = data.get("meta", {}) if isinstance(data, dict) else {}
    return meta if isinstance(meta, dict) else {}


def tileset_to_dict(tileset: TileSet, meta: dict | None = None) -> dict:
    """The JSON-ready form of a tile set, with an optional ``meta`` block."""
    data: dict[str, Any] = {"format": FORMAT}
    if meta:
        data["meta"] = meta
    data["tiles"] = [{"id": t.id, "front": t.front.names(), "back": t.back.names()} for t in tileset]
    return data


def dumps_tileset(tileset: TileSet, meta: dict | None = None) -> str:
    """Deterministic JSON text: one tile per line, so diffs stay readable."""
    data = tileset_to_dict(tileset, meta)
    tiles = data.pop("tiles")
    head = dumps_json(data, indent=2, sort_keys=False)[:-2]
    lines = [dumps_json(t, separators=(", ", ": ")) for t in tiles]
    return head + ',\n  "tiles": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n"
