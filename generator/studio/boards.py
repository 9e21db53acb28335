"""The studio's board editor: a draft of the project's board, painted hex by hex, checked after every stroke by the
same loader every command uses, and saved with the tile set resized to match.

Glossary
--------
draft      the board as the table a board file holds (``board_data``), changed by ``paint``. It may be wrong
           while the designer paints; ``check`` gives the board, or the loader's one-line error.
paint      make one hex a ``slot`` (numbered after the others), part of a named ``landmark`` (several hexes
           may share a name), a ``connector`` joining two slot hexes next to it, or ``wall`` (nothing).
           A landmark whose hexes change faces every slot side next to them again (its listed sides go).
resize     a saved board with another slot count changes the tile set: new tiles are drawn at random from
           the designs the objective allows, or the last tiles that are not pinned are removed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.board import Board
from generator.board.board import MAX_SLOTS, board_data, board_from_dict
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.scoring.objective import Objective
from generator.studio.errors import EditError

KINDS = ("slot", "landmark", "connector", "wall")
REACH = 60  # the furthest hex from the origin a draft may paint (a board of 1,000 slots fits well inside)


def _hex(value: Any, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and -REACH <= v <= REACH for v in value)
    ):
        raise EditError(f"{what}: a hex is [q, r], whole numbers from {-REACH} to {REACH}")
    return int(value[0]), int(value[1])


class BoardDraft:
    """A board being painted (see the module glossary)."""

    def __init__(self, board: Board):
        self.data = board_data(board)

    def _clear(self, h: tuple[int, int]) -> None:
        """Hex ``h`` made wall: out of the slots, its landmark and any connector on it."""
        d = self.data
        d["slots"] = [s for s in d["slots"] if tuple(s) != h]
        for lm in d["landmark"]:
            if h in (tuple(x) for x in lm["hexes"]):
                lm["hexes"] = [x for x in lm["hexes"] if tuple(x) != h]
                lm.pop("sides", None)
        d["landmark"] = [lm for lm in d["landmark"] if lm["hexes"]]
        d["connector"] = [c for c in d["connector"] if tuple(c["hex"]) != h]

    def paint(self, args: dict[str, Any]) -> None:
        """One stroke (see the module glossary); ``EditError`` for a stroke that cannot be read."""
        h, kind = _hex(args.get("hex"), "hex"), args.get("kind")
        if kind not in KINDS:
            raise EditError(f"paint a hex as {', '.join(KINDS)}, not {str(kind)[:20]!r}")
        if kind == "slot" and h in (tuple(s) for s in self.data["slots"]):
            return  # it stays the slot it is, with its number
        if kind == "slot" and len(self.data["slots"]) >= MAX_SLOTS:
            raise EditError(f"a board has at most {MAX_SLOTS} slots")
        if kind == "landmark":
            name = args.get("name")
            if not isinstance(name, str) or not name.strip() or len(name) > 60:
                raise EditError("a landmark needs a name (1 to 60 characters)")
            name = name.strip()
        if kind == "connector":
            joins = [list(_hex(j, "a connector's slot")) for j in (args.get("joins") or [None, None])[:3]]
            if len(joins) != 2:
                raise EditError("a connector joins two slot hexes")
        self._clear(h)
        if kind == "slot":
            self.data["slots"].append(list(h))
        elif kind == "landmark":
            same = next((lm for lm in self.data["landmark"] if lm["name"] == name), None)
            if same is None:
                self.data["landmark"].append({"name": name, "hexes": [list(h)]})
            else:
                same["hexes"].append(list(h))
                same.pop("sides", None)
        elif kind == "connector":
            self.data["connector"].append({"hex": list(h), "joins": joins})

    def check(self) -> Board:
        """The draft as a board, or the board loader's one-line error (a ``TrailwrightError``)."""
        return board_from_dict(self.data, self.data.get("name", "board"))

    def cells(self) -> list[dict[str, Any]]:
        """Every painted hex: where, what, and its slot number or landmark name (for the page's grid)."""
        d = self.data
        out: list[dict[str, Any]] = [{"hex": s, "kind": "slot", "label": str(i + 1)} for i, s in enumerate(d["slots"])]
        out += [{"hex": h, "kind": "landmark", "label": lm["name"]} for lm in d["landmark"] for h in lm["hexes"]]
        out += [{"hex": c["hex"], "kind": "connector", "label": "", "joins": c["joins"]} for c in d["connector"]]
        return out


def resized(tiles: TileSet, slots: int, objective: Objective, seed: int = 0) -> tuple[TileSet, str]:
    """``tiles`` fitted to ``slots`` (see the module glossary), and what changed in words."""
    from dataclasses import replace

    from generator.optimize.space import allowed_designs, random_tileset

    count = len(tiles)
    if slots == count:
        return tiles, "the tile set keeps its tiles"
    if slots > count:
        fresh = random_tileset(slots - count, allowed_designs(objective), np.random.default_rng([seed, slots]))
        taken, new = {t.id for t in tiles}, []
        number = count
        for tile in fresh:
            number += 1
            while f"t{number:02d}" in taken:
                number += 1
            new.append(replace(tile, id=f"t{number:02d}"))
        ids = ", ".join(t.id for t in new)
        return TileSet(tiles.tiles + tuple(new)), f"{slots - count} tile(s) added at random: {ids}"
    keep = list(tiles.tiles)
    removed = []
    for tile in reversed(tiles.tiles):
        if len(keep) == slots:
            break
        if tile.id not in objective.pinned:
            keep.remove(tile)
            removed.append(tile.id)
    if len(keep) != slots:
        raise TrailwrightError(f"the board has {slots} slots but {len(keep)} tiles are pinned: unpin some first")
    return TileSet(tuple(keep)), f"{count - slots} tile(s) removed: {', '.join(reversed(removed))}"
