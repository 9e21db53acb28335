"""The studio's board editor: a draft of the project's board, painted hex by hex, checked after every stroke by the
same loader every command uses, and saved with the tile set resized to match.

Glossary
--------
grid       the board's own (``TileGeometry.neighbour``): hexes ``[q, r]``, or on a board of square tiles, square
           cells ``[x, y]`` with edges N E S W; every word below about a hex holds for a square cell.
draft      the board as the table a board file holds (``board_data``), changed by ``paint``. It may be wrong
           while the designer paints; ``check`` gives the board, or the loader's one-line error.
paint      make one hex a ``slot`` (numbered after the others), part of a named ``landmark`` (several hexes
           may share a name), a ``connector`` joining two slot hexes next to it, or ``wall`` (nothing). Any
           stroke is taken: the draft may be wrong on the way to a valid board; ``said`` tells what the stroke
           did to the hex and its neighbours, ``problems`` puts each thing wrong on the hex it concerns.
sides      a landmark faces every slot side next to its hexes, and follows its neighbours as they are painted,
           unless it pins a list of ``sides`` (in the file, or by ``pin``): then it faces those only, a pinned side
           whose slot is painted away is dropped (said so), and a landmark whose pinned sides are all gone follows
           its neighbours again.
pin        toggle one side of a landmark, named by the landmark's hex and the slot hex next to it: pinned, the
           landmark faces its pinned sides only; its last side unpinned, it follows its neighbours again.
resize     a saved board with another slot count changes the tile set: new tiles are drawn at random from
           the designs the objective allows, or the last tiles that are not pinned are removed.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np

from generator.board import Board
from generator.board.board import MAX_SLOTS, board_data, board_from_dict
from generator.errors import TrailwrightError, shown
from generator.model import TileSet
from generator.model.geometry import CLASSIC, TileGeometry
from generator.scoring.objective import Objective
from generator.studio.errors import EditError

KINDS = ("slot", "landmark", "connector", "wall")
REACH = 60  # the furthest hex from the origin a draft may paint (a board of 1,000 slots fits well inside)


def _hex(value: Any, what: str, g: TileGeometry = CLASSIC) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and -REACH <= v <= REACH for v in value)
    ):
        cell = "a hex is [q, r]" if g.shape == "hex" else "a cell is [x, y]"
        raise EditError(f"{what}: {cell}, whole numbers from {-REACH} to {REACH}")
    return int(value[0]), int(value[1])


def near(h: tuple[int, int], g: TileGeometry) -> list[tuple[int, int]]:
    """The hexes (cells) across each edge of ``h``, edge by edge."""
    return [g.neighbour(h, d) for d in range(g.edges)]


def facing(slots: list, hexes: list, g: TileGeometry = CLASSIC) -> list[list]:
    """The sides ``[q, r, direction]`` of ``hexes`` that face a slot, in the loader's order."""
    inside = {tuple(h) for h in hexes}
    return [[*h, g.edge_names[g.opposite(d)]] for s in slots for d, h in enumerate(near(tuple(s), g)) if h in inside]


def plain_data(board: Board) -> dict[str, Any]:
    """``board`` as its file's table, a landmark's ``sides`` only where they are not simply the ones it faces."""
    data = board_data(board)
    for lm in data["landmark"]:
        if sorted(map(tuple, lm["sides"])) == sorted(map(tuple, facing(data["slots"], lm["hexes"], board.geometry))):
            del lm["sides"]
    return data


class BoardDraft:
    """A board being painted (see the module glossary); ``original`` is the board file's table as read."""

    def __init__(self, board: Board):
        self.geometry = board.geometry  # the grid (``grid``); a draft's ``[tiles]`` table keeps it
        self.data = plain_data(board)
        self.original = copy.deepcopy(self.data)
        self.said = ""

    def _clear(self, h: tuple[int, int]) -> None:
        """Hex ``h`` made wall: out of the slots, its landmark and any connector on it."""
        d = self.data
        d["slots"] = [s for s in d["slots"] if tuple(s) != h]
        for lm in d["landmark"]:
            lm["hexes"] = [x for x in lm["hexes"] if tuple(x) != h]
        d["landmark"] = [lm for lm in d["landmark"] if lm["hexes"]]
        d["connector"] = [c for c in d["connector"] if tuple(c["hex"]) != h]

    def _follow(self) -> list[str]:
        """Pinned sides that no longer face a slot dropped (see ``sides``); what was dropped, in words."""
        slots, words = {tuple(s) for s in self.data["slots"]}, []
        for lm in self.data["landmark"]:
            if "sides" not in lm:
                continue
            hexes = {tuple(h) for h in lm["hexes"]}
            g = self.geometry
            kept = [
                x
                for x in lm["sides"]
                if (x[0], x[1]) in hexes and g.neighbour((x[0], x[1]), g.edge_names.index(x[2])) in slots
            ]
            if len(kept) != len(lm["sides"]):
                words.append(f"{lm['name']} loses {len(lm['sides']) - len(kept)} pinned side(s)")
            if kept:
                lm["sides"] = kept
            else:
                del lm["sides"]
        return words

    def paint(self, args: dict[str, Any]) -> None:
        """One stroke (see the module glossary); ``EditError`` for a stroke that cannot be read."""
        h, kind = _hex(args.get("hex"), "hex", self.geometry), args.get("kind")
        if kind not in KINDS:
            raise EditError(f"paint a hex as {', '.join(KINDS)}, not {shown(kind, 20)}")
        if kind == "slot" and h in (tuple(s) for s in self.data["slots"]):
            self.said = f"{list(h)} is slot {self.what(h)[5:]} already"
            return  # it stays the slot it is, with its number
        if kind == "slot" and len(self.data["slots"]) >= MAX_SLOTS:
            raise EditError(f"a board has at most {MAX_SLOTS} slots")
        if kind == "landmark":
            name = args.get("name")
            if not isinstance(name, str) or not name.strip() or len(name) > 60:
                raise EditError("a landmark needs a name (1 to 60 characters): type it beside the tools")
            name = name.strip()
        if kind == "connector":
            joins = [
                list(_hex(j, "a connector's slot", self.geometry)) for j in (args.get("joins") or [None, None])[:3]
            ]
            if len(joins) != 2:
                raise EditError("a connector joins two slot hexes")
        before = copy.deepcopy(self.data)
        self._clear(h)
        if kind == "slot":
            self.data["slots"].append(list(h))
        elif kind == "landmark":
            same = next((lm for lm in self.data["landmark"] if lm["name"] == name), None)
            if same is None:
                self.data["landmark"].append({"name": name, "hexes": [list(h)]})
            else:
                same["hexes"].append(list(h))
        elif kind == "connector":
            self.data["connector"].append({"hex": list(h), "joins": joins})
        self.said = self._said(before, h, self._follow())

    def pin(self, args: dict[str, Any]) -> None:
        """Pin or unpin one side of a landmark (see ``pin`` in the module glossary); ``EditError`` when the hexes
        are no landmark hex and a slot next to it."""
        g = self.geometry
        h, slot = _hex(args.get("hex"), "hex", g), _hex(args.get("slot"), "slot", g)
        lm = next((lm for lm in self.data["landmark"] if h in (tuple(x) for x in lm["hexes"])), None)
        if lm is None:
            raise EditError(f"{list(h)} is no landmark: pin a side by a landmark's hex, then the slot next to it")
        towards = [d for d, x in enumerate(near(h, g)) if x == slot]
        if not towards or slot not in (tuple(s) for s in self.data["slots"]):
            raise EditError(f"{list(slot)} is no slot next to {list(h)}: pin a side that faces a slot")
        side, name = [*h, g.edge_names[towards[0]]], lm["name"]
        sides = [list(x) for x in lm.get("sides", [])]
        if side in sides:
            sides.remove(side)
            words = f"{name}: side {side[2]} of {list(h)} unpinned"
        else:
            sides.append(side)
            words = f"{name}: side {side[2]} of {list(h)} pinned"
        if sides:
            lm["sides"] = sides
            self.said = f"{words}; {name} faces its {len(sides)} pinned side(s) only"
        else:
            lm.pop("sides", None)
            count = len(facing(self.data["slots"], lm["hexes"], g))
            self.said = f"{words}; {name} follows its neighbours again ({count} slot side(s))"

    def what(self, h: tuple[int, int], data: dict | None = None) -> str:
        """What hex ``h`` is in ``data`` (the draft): slot N, landmark 'name', connector or wall."""
        d = self.data if data is None else data
        slots = [tuple(s) for s in d["slots"]]
        if h in slots:
            return f"slot {slots.index(h) + 1}"
        lm = next((lm for lm in d["landmark"] if h in (tuple(x) for x in lm["hexes"])), None)
        if lm is not None:
            return f"landmark {lm['name']!r}"
        return "connector" if any(tuple(c["hex"]) == h for c in d["connector"]) else "wall"

    def _said(self, before: dict, h: tuple[int, int], dropped: list[str]) -> str:
        """The stroke at ``h`` in words: what the hex was and is, and what that did to its neighbours."""
        was, now = self.what(h, before), self.what(h)
        words = [f"{list(h)}: {was} → {now}" if was != now else f"{list(h)}: {now}"]
        old_slots, new_slots = before["slots"], self.data["slots"]
        if len(new_slots) < len(old_slots) and old_slots[-1] != list(h):
            words.append(f"slots after {was[5:]} renumbered")
        g = self.geometry
        around = {*near(h, g), h}
        old = {lm["name"]: lm for lm in before["landmark"]}
        for lm in self.data["landmark"]:
            if not around & {tuple(x) for x in lm["hexes"]} and lm["name"] not in old:
                continue
            n1 = len(lm.get("sides") or facing(new_slots, lm["hexes"], g))
            prev = old.get(lm["name"])
            n0 = len(prev.get("sides") or facing(old_slots, prev["hexes"], g)) if prev else 0
            if n1 != n0 or prev is None:
                words.append(f"{lm['name']} faces {n1} slot side(s)" + (f" (was {n0})" if prev else ""))
        for c in self.data["connector"]:
            if list(h) in c["joins"] and list(h) not in new_slots:
                words.append(f"the connector at {c['hex']} joins {list(h)}, which is no slot now")
        return "; ".join(words + dropped)

    def check(self) -> Board:
        """The draft as a board, or the board loader's one-line error (a ``TrailwrightError``)."""
        return board_from_dict(self.data, self.data.get("name", "board"))

    def problems(self, error: str = "") -> list[dict[str, Any]]:
        """What is wrong, hex by hex (see the module glossary); the loader's ``error`` on the hexes it names."""
        d, out, g = self.data, [], self.geometry
        slots = [tuple(s) for s in d["slots"]]
        for lm in d["landmark"]:
            if not lm.get("sides") and not facing(d["slots"], lm["hexes"], g):
                out += [{"hex": h, "problem": f"landmark {lm['name']!r} faces no slot"} for h in lm["hexes"]]
        for c in d["connector"]:
            for j in c["joins"]:
                if tuple(j) not in slots:
                    out.append({"hex": c["hex"], "problem": f"the connector joins {j}, which is no slot"})
                elif tuple(c["hex"]) not in near(tuple(j), g):
                    out.append({"hex": c["hex"], "problem": f"the connector does not touch slot {j}"})
        if error and not out:
            named = {(int(q), int(r)) for q, r in re.findall(r"\[(-?\d+), (-?\d+)", error)}
            out += [{"hex": list(h), "problem": error} for h in sorted(named)]
        return out

    def cells(self) -> list[dict[str, Any]]:
        """Every painted hex: where, what, and its slot number or landmark name (for the page's grid); a landmark's
        hex with pinned sides, their directions (``pinned``)."""
        d = self.data
        out: list[dict[str, Any]] = [{"hex": s, "kind": "slot", "label": str(i + 1)} for i, s in enumerate(d["slots"])]
        for lm in d["landmark"]:
            for h in lm["hexes"]:
                pinned = [x[2] for x in lm.get("sides", []) if list(x[:2]) == list(h)]
                cell = {"hex": h, "kind": "landmark", "label": lm["name"]}
                out.append({**cell, "pinned": pinned} if pinned else cell)
        out += [{"hex": c["hex"], "kind": "connector", "label": "", "joins": c["joins"]} for c in d["connector"]]
        return out


def resized(tiles: TileSet, slots: int, objective: Objective, seed: int = 0) -> tuple[TileSet, str]:
    """``tiles`` fitted to ``slots`` (see the module glossary), and what changed in words; ``objective`` is the
    board's (``Objective.on``), new tiles the set's geometry's."""
    from dataclasses import replace

    from generator.optimize.space import allowed_designs, random_tileset

    count, g = len(tiles), tiles.geometry
    if slots == count:
        return tiles, "the tile set keeps its tiles"
    if slots > count:
        rng = np.random.default_rng([seed, slots])
        fresh = random_tileset(slots - count, allowed_designs(objective, g), rng, g)
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
