"""Read and write tile sets: ``hexmaze-tileset/1`` for the classic game, ``trailwright-tileset/2`` for any geometry.

A ``trailwright-tileset/2`` file adds a ``geometry`` object (the board file's ``[tiles]`` table:
``shape``, ``ends_per_edge``, ``trails``, ``faces``) and names ends as that geometry does (``N``,
``E``, ... with one end an edge; ``N1``, ``N2``, ... with two). Single-sided tiles have no ``back``.
A classic tile set is always written as ``hexmaze-tileset/1``, byte for byte as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.inputs import Text, check_keys, load_json
from generator.model.geometry import CLASSIC, TileGeometry
from generator.model.tiles import FACES, Side, Tile, TileSet

FORMAT = "hexmaze-tileset/1"
FORMAT_ANY = "trailwright-tileset/2"
MAX_ID_LENGTH = 1000  # file names stay short whatever the id (see ``generator.model.ids``)
_TILE_ID = Text(MAX_ID_LENGTH)


def tileset_from_dict(data: Any, source: str = "tile set") -> TileSet:
    """Validate parsed JSON and build a tile set; errors name ``source`` and the item."""
    if not isinstance(data, dict):
        raise TrailwrightError("expected a JSON object with a 'tiles' list", source)
    geometry = _geometry(data, source)
    faces = FACES if geometry.faces == 2 else FACES[:1]
    tiles_data = data.get("tiles")
    if not isinstance(tiles_data, list) or not tiles_data:
        raise TrailwrightError("'tiles' must be a non-empty list", source)
    tiles = []
    seen: set[str] = set()
    for index, item in enumerate(tiles_data):
        if not isinstance(item, dict):
            raise TrailwrightError(f"tile #{index + 1} must be an object", source)
        check_keys(item, {"id", *faces}, f"tile #{index + 1}", source)
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
        shown = {}
        for face in faces:
            if face not in item:
                raise TrailwrightError(f"{where} has no {face!r}", source)
            try:
                shown[face] = Side.from_names(item[face], geometry)
            except TrailwrightError as err:
                raise TrailwrightError(f"{where} {face}: {err}", source) from None
        tiles.append(Tile(tile_id, shown["front"], shown.get("back", shown["front"])))
    return TileSet(tuple(tiles), source)


def _geometry(data: dict, source: str) -> TileGeometry:
    """The geometry a tile set file declares, once its top-level keys are checked."""
    if data.get("format", FORMAT) == FORMAT_ANY:
        check_keys(data, {"format", "geometry", "meta", "tiles"}, "", source)
        if "geometry" not in data:
            raise TrailwrightError(f"a {FORMAT_ANY!r} file needs a 'geometry' object", source)
        try:
            return TileGeometry.from_dict(data["geometry"], "geometry")
        except TrailwrightError as err:
            raise err.within(source) from None
    check_keys(data, {"format", "meta", "tiles"}, "", source)
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise TrailwrightError(f"format {fmt!r} is not {FORMAT!r} or {FORMAT_ANY!r}", source)
    return CLASSIC


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
    geometry = tileset.geometry
    data: dict[str, Any] = {"format": FORMAT if geometry.is_classic else FORMAT_ANY}
    if not geometry.is_classic:
        data["geometry"] = geometry.to_dict()
    if meta:
        data["meta"] = meta
    if geometry.faces == 1:
        data["tiles"] = [{"id": t.id, "front": t.front.names()} for t in tileset]
    else:
        data["tiles"] = [{"id": t.id, "front": t.front.names(), "back": t.back.names()} for t in tileset]
    return data


def dumps_tileset(tileset: TileSet, meta: dict | None = None) -> str:
    """Deterministic JSON text: one tile per line, so diffs stay readable."""
    data = tileset_to_dict(tileset, meta)
    tiles = data.pop("tiles")
    head = dumps_json(data, indent=2, sort_keys=False)[:-2]
    lines = [dumps_json(t, separators=(", ", ": ")) for t in tiles]
    return head + ',\n  "tiles": [\n    ' + ",\n    ".join(lines) + "\n  ]\n}\n"
