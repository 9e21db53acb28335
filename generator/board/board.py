"""Boards as data: tile slots, landmarks and connector hexes, loaded from TOML.

Glossary
--------
slot       a hex where a tile is laid, numbered 1.. in the order the board file lists them.
end        one end of a join: a tile side ``SlotSide(slot, direction)`` or a landmark.
join       two ends that meet: neighbouring slots, a connector's two sides, or a slot side
           facing a landmark. The scorer's graph has an edge for every join.
landmark   a named place printed on the board (one or more hexes) that players travel to.
connector  a trail printed on an empty border hex, joining two tile sides.
wall       every other tile side.
geometry   the board file's ``[tiles]`` table (``generator.model.geometry``): the tiles' shape, ends per
           edge, trails and faces; absent, the classic game's. A hex board names cells ``[q, r]`` in
           offset coordinates, a square board ``[x, y]`` (y down). A join, a landmark side and a
           connector name tile *edges*; with two ends per edge each edge join joins both ends, each
           with its mirror end (``TileGeometry.facing_end``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

from generator.board.geometry import Hex
from generator.errors import TrailwrightError
from generator.inputs import Text, check_keys, load_toml
from generator.model.geometry import CLASSIC, TileGeometry
from generator.model.tiles import Direction

FORMAT = "hexmaze-board/1"
MAX_EXTENT = 60  # |q| and |r| of any hex: a board at most 121 hexes across
MAX_SLOTS = 1000
_NAME = Text(60)
_TITLE = Text(255)


@dataclass(frozen=True)
class SlotSide:
    """Edge ``direction`` of the tile lying in slot ``slot`` (0-based)."""

    slot: int
    direction: Direction


@dataclass(frozen=True)
class LandmarkEnd:
    """The landmark with index ``landmark``."""

    landmark: int


End = SlotSide | LandmarkEnd


@dataclass(frozen=True)
class Join:
    """Two ends that meet; ``kind`` is "neighbour", "connector" or "landmark"."""

    a: SlotSide
    b: End
    kind: str


@dataclass(frozen=True)
class Landmark:
    """A named place on one or more hexes, and the slot sides that face it."""

    name: str
    hexes: tuple[Hex, ...]
    sides: tuple[SlotSide, ...]


@dataclass(frozen=True)
class Connector:
    """A trail printed on border hex ``hex`` joining two slot sides."""

    hex: Hex
    a: SlotSide
    b: SlotSide


@dataclass(frozen=True)
class Board:
    """A board: slots in order, landmarks and connectors."""

    name: str
    slots: tuple[Hex, ...]
    landmarks: tuple[Landmark, ...]
    connectors: tuple[Connector, ...]
    title: str = ""
    source: str = field(default="", compare=False, repr=False)  # the file as the user named it; not identity
    printed: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)  # see ``shown``; not identity
    geometry: TileGeometry = field(default=CLASSIC, repr=False)  # in the repr only through ``board_digest``

    def shown(self, name: str = "") -> str:
        """How the pages print landmark ``name`` (its title with no name): a language's name for it
        (``with_printed``), else the name itself; the rules and files keep the names."""
        found = dict(self.printed).get(name)
        return found or (name if name else self.title or self.name)

    def with_printed(self, names: dict[str, str]) -> Board:
        """This board with the printed names of its title (key "") and landmarks (keys: their names)."""
        return replace(self, printed=tuple(sorted(names.items())))

    @property
    def label(self) -> str:
        """How an error names the board: the file as the user gave it, else ``board 'NAME'``."""
        return self.source or f"board {self.name!r}"

    @property
    def tile_count(self) -> int:
        """How many tiles a tile set for this board must have."""
        return len(self.slots)

    def slot_at(self, h: Hex) -> int | None:
        """The slot index at hex ``h``, if any."""
        try:
            return self.slots.index(h)
        except ValueError:
            return None

    def neighbour_joins(self) -> list[Join]:
        """Every pair of neighbouring slots, joined side to side (lower slot first)."""
        joins = []
        g = self.geometry
        for i, h in enumerate(self.slots):
            for d in range(g.edges):
                j = self.slot_at(g.neighbour(h, d))
                if j is not None and j > i:
                    joins.append(Join(SlotSide(i, d), SlotSide(j, g.opposite(d)), "neighbour"))
        return joins

    def connections(self) -> list[Join]:
        """The article's ``connections``: neighbour joins, then connectors."""
        return self.neighbour_joins() + [Join(c.a, c.b, "connector") for c in self.connectors]

    def landmark_joins(self) -> list[Join]:
        """Every slot side that faces a landmark."""
        return [Join(s, LandmarkEnd(k), "landmark") for k, lm in enumerate(self.landmarks) for s in lm.sides]

    def joins(self) -> list[Join]:
        """All joins: the edges of the scorer's graph before simplification."""
        return self.connections() + self.landmark_joins()

    def landmark_pairs(self) -> list[tuple[int, int]]:
        """Every unordered pair of landmarks, in the article's order."""
        return list(combinations(range(len(self.landmarks)), 2))

    def pair_names(self) -> list[str]:
        """Names like ``"Hut-Well"`` for each landmark pair."""
        return [f"{self.landmarks[a].name}-{self.landmarks[b].name}" for a, b in self.landmark_pairs()]

    def wall_sides(self) -> list[SlotSide]:
        """Slot sides that face neither a slot, a landmark nor a connector."""
        used = {j.a for j in self.joins()} | {j.b for j in self.joins() if isinstance(j.b, SlotSide)}
        edges = self.geometry.edges
        return [SlotSide(i, d) for i in range(len(self.slots)) for d in range(edges) if SlotSide(i, d) not in used]


# --- loading -------------------------------------------------------------------------------


_CELL_WORDS = {"hex": ("hex", "hexes", "[q, r]"), "square": ("cell", "cells", "[x, y]")}


def _cell_words(geometry: TileGeometry) -> tuple[str, str, str]:
    """How errors name a cell on this board: the word, its plural and its coordinates."""
    return _CELL_WORDS[geometry.shape]


def _hex(value: Any, where: str, geometry: TileGeometry = CLASSIC) -> Hex:
    cell, _, form = _cell_words(geometry)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise TrailwrightError(f"{where}: expected a {cell} {form}, got {value!r}")
    if max(abs(value[0]), abs(value[1])) > MAX_EXTENT:
        axes = form[1:-1].replace(", ", " and ")
        raise TrailwrightError(
            f"{where}: {cell} {value!r} is outside the largest board ({axes} from -{MAX_EXTENT} to {MAX_EXTENT})"
        )
    return (value[0], value[1])


def _direction(value: Any, where: str, geometry: TileGeometry = CLASSIC) -> Direction:
    names = geometry.edge_names
    if not isinstance(value, str) or value not in names:
        raise TrailwrightError(f"{where}: unknown direction {value!r} (expected one of {' '.join(names)})")
    return names.index(value)


def _tables(data: dict, key: str) -> list:
    """The ``[[key]]`` array of tables (empty when absent); anything else is an error naming the key."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise TrailwrightError(f"'{key}' must be an array of tables [[{key}]], got {value!r}")
    return value


def board_from_dict(data: dict, default_name: str = "board") -> Board:
    """Validate a parsed board file and build the board."""
    check_keys(data, {"format", "name", "title", "tiles", "slots", "landmark", "connector"}, "board")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise TrailwrightError(f"format {fmt!r} is not {FORMAT!r}")
    name = _TITLE(data.get("name", default_name), "name")
    title = _TITLE(data.get("title", name), "title")
    g = TileGeometry.from_dict(data["tiles"]) if "tiles" in data else CLASSIC
    slots = _slots(data.get("slots"), g)
    taken: dict[Hex, str] = {h: f"slot {i + 1}" for i, h in enumerate(slots)}  # who holds each hex so far
    landmarks = [_landmark(table, k, slots, taken, g) for k, table in enumerate(_tables(data, "landmark"))]
    names = [lm.name for lm in landmarks]
    for n in names:
        if names.count(n) > 1:
            raise TrailwrightError(f"landmark {n!r} is named twice")
    connectors = [_connector(table, k, slots, taken, g) for k, table in enumerate(_tables(data, "connector"))]
    return Board(name, tuple(slots), tuple(landmarks), tuple(connectors), title, geometry=g)


def _slots(raw: Any, g: TileGeometry) -> list[Hex]:
    _, cells, form = _cell_words(g)
    if not isinstance(raw, list) or not raw:
        raise TrailwrightError(f"'slots' must be a non-empty list of {cells} {form}")
    if len(raw) > MAX_SLOTS:
        raise TrailwrightError(f"'slots': {len(raw)} slots, at most {MAX_SLOTS}")
    slots: list[Hex] = []
    for i, value in enumerate(raw):
        h = _hex(value, f"slot {i + 1}", g)
        if h in slots:
            raise TrailwrightError(f"slot {i + 1} at {list(h)} overlaps slot {slots.index(h) + 1}")
        slots.append(h)
    return slots


def _landmark(table: Any, k: int, slots: list[Hex], taken: dict[Hex, str], g: TileGeometry) -> Landmark:
    where = f"landmark #{k + 1}"
    check_keys(table, {"name", "hexes", "sides"}, where)
    if "name" not in table:
        raise TrailwrightError(f"{where}: needs a 'name'")
    name = _NAME(table["name"], f"{where} name")
    if "-" in name:  # pair names join two landmark names with "-": "A-B"+"C" would be "A"+"B-C"
        raise TrailwrightError(
            f"{where} name {name!r}: a landmark name may not contain '-' "
            "(pair names like 'Hut-Well' join two names with it)"
        )
    where = f"landmark {name!r}"
    raw_hexes = table.get("hexes")
    if not isinstance(raw_hexes, list) or not raw_hexes:
        _, cells, form = _cell_words(g)
        raise TrailwrightError(f"{where}: 'hexes' must be a non-empty list of {cells} {form}")
    hexes = tuple(_hex(v, where, g) for v in raw_hexes)
    for h in hexes:
        if h in taken:
            raise TrailwrightError(f"{where} at {list(h)} overlaps {taken[h]}")
        taken[h] = where
    if "sides" in table:
        sides = _landmark_sides(table["sides"], where, hexes, slots, g)
    else:
        sides = [SlotSide(i, d) for i, s in enumerate(slots) for d in range(g.edges) if g.neighbour(s, d) in hexes]
        if not sides:
            raise TrailwrightError(f"{where}: no side faces a slot")
    return Landmark(name, hexes, tuple(sides))


def _landmark_sides(
    raw: Any, where: str, hexes: tuple[Hex, ...], slots: list[Hex], g: TileGeometry = CLASSIC
) -> list[SlotSide]:
    """A landmark's ``sides`` list: each ``[q, r, edge]`` (``[x, y, edge]`` on a square board) of one of its cells,
    facing a slot."""
    side_form = _cell_words(g)[2][:-1] + ", edge]"
    if not isinstance(raw, list) or not raw:
        raise TrailwrightError(f"{where}: 'sides' must be a non-empty list of sides {side_form}, got {raw!r}")
    sides = []
    for value in raw:
        if not isinstance(value, list) or len(value) != 3:
            raise TrailwrightError(f"{where}: a side is {side_form} (edge: {', '.join(g.edge_names)}), got {value!r}")
        h = _hex(value[:2], where, g)
        d = _direction(value[2], where, g)
        if h not in hexes:
            raise TrailwrightError(f"{where}: side {value!r} is not on one of its hexes")
        slot = next((i for i, s in enumerate(slots) if s == g.neighbour(h, d)), None)
        if slot is None:
            raise TrailwrightError(f"{where}: side {value[2]} of {list(h)} faces no slot")
        sides.append(SlotSide(slot, g.opposite(d)))
    return sides


def _connector(table: Any, k: int, slots: list[Hex], taken: dict[Hex, str], g: TileGeometry) -> Connector:
    where = f"connector #{k + 1}"
    check_keys(table, {"hex", "joins"}, where)
    h = _hex(table.get("hex"), where, g)
    where = f"connector at {list(h)}"
    if h in taken:
        raise TrailwrightError(f"{where} overlaps {taken[h]}")
    taken[h] = where
    joined = table.get("joins")
    if not isinstance(joined, list) or len(joined) != 2:
        _, cells, form = _cell_words(g)
        raise TrailwrightError(f"{where}: 'joins' must name two slot {cells} [{form}, {form}]")
    ends = []
    for value in joined:
        s = _hex(value, where, g)
        if s not in slots:
            raise TrailwrightError(f"{where}: {_cell_words(g)[0]} {list(s)} is not a slot")
        slot = slots.index(s)
        facing = next((d for d in range(g.edges) if g.neighbour(s, d) == h), None)
        if facing is None:
            raise TrailwrightError(f"{where}: slot {slot + 1} at {list(s)} does not touch it")
        ends.append(SlotSide(slot, facing))
    if ends[0] == ends[1]:
        raise TrailwrightError(f"{where}: joins a slot side to itself")
    return Connector(h, ends[0], ends[1])


def builtin_boards() -> list[str]:
    """The names of the boards shipped with the package."""
    return sorted(p.name[:-5] for p in resources.files("generator.board.boards").iterdir() if p.name.endswith(".toml"))


def board_data(board: Board) -> dict:
    """A board as the table a board file holds (``board_from_dict`` reads it back)."""

    g = board.geometry

    def side(s):  # a landmark side: [q, r, direction] of the landmark hex facing the slot
        h = g.neighbour(board.slots[s.slot], s.direction)
        return [h[0], h[1], g.edge_names[g.opposite(s.direction)]]

    tiles = {} if g.is_classic else {"tiles": g.to_dict()}
    return {
        "format": FORMAT,
        "name": board.name,
        "title": board.title,
        **tiles,
        "slots": [list(h) for h in board.slots],
        "landmark": [
            {"name": lm.name, "hexes": [list(h) for h in lm.hexes], "sides": [side(s) for s in lm.sides]}
            for lm in board.landmarks
        ],
        "connector": [
            {"hex": list(c.hex), "joins": [list(board.slots[c.a.slot]), list(board.slots[c.b.slot])]}
            for c in board.connectors
        ],
    }


def load_board(name_or_path: str | Path = "classic") -> Board:
    """A built-in board by name, or a board file by path; errors name the file."""
    text_path = str(name_or_path)
    if not text_path.strip():
        raise TrailwrightError(f"an empty board name (built-in: {', '.join(builtin_boards())}; or a board file)")
    if text_path in builtin_boards():
        source = f"board {text_path!r}"
        data = load_toml(resources.files("generator.board.boards") / f"{text_path}.toml", source)
    else:
        path = Path(text_path)
        source = str(path)
        if not path.exists():
            known = ", ".join(builtin_boards())
            raise TrailwrightError(f"no such board file or built-in board {text_path!r} (built-in: {known})")
        data = load_toml(path, source)
    try:
        return replace(board_from_dict(data, Path(text_path).stem), source=source)
    except TrailwrightError as err:
        raise err.within(source) from None
