"""The studio's core: a project's tile set edited side by side, with figures after every edit, undo and redo,
and saves that never overwrite a file changed on disk. No HTTP here: ``server.py`` translates.

Glossary
--------
edit        one change to the tile set being edited: join two exits of a side into one trail, split an exit off
            as a dead end, turn a side, copy a side onto another, swap two sides. Each is checked by the model
            (``Side.of``), so a side with an exit twice, or none, is refused in one line.
rules       the optimizer's pins (tile ids the search keeps) and forbidden designs, kept in ``objective.toml``
            (``pinned``, ``forbid``): a toggle rewrites those two keys and keeps every other line and comment.
saved       the tile set as ``tileset.json`` holds it (read at start, written by ``save``); ``disk_digest`` is
            the file's SHA-256 then. A save finds the file changed by another program refuses (a conflict),
            unless told to overwrite it.
figures     the fitness and its terms, each landmark pair's connectivity, and 1,000 explorer games (median
            rounds, histogram, trapped turns), all on common random numbers: the same layouts and the same
            games for every version, so a difference shows the edit, not noise. The difference from the saved
            version has the standard error of the paired per-layout differences, a Student's t 95 % interval,
            and a verdict (better or worse) only when its paired t-test rejects no change (``stats.paired``;
            a change of the fixed terms alone is exact). The saved set's layout scores are worked out once per
            saved set and board, and none before the engines are warm (``studio.warm``).
parts       the files on disk watched (``studio.disk``), the first start's warm-up (``studio.warm``), the TOML files
            changed in place (``studio.tomledit``), the board draft (``studio.boards``) and the edits of one side
            (``studio.edits``) are modules of their own.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from generator import stats
from generator.board import Board, load_board
from generator.errors import TrailwrightError, shown
from generator.fileio import write_atomic
from generator.model import FACES, Side, Tile, TileSet, read_tileset
from generator.model.tileset_io import dumps_tileset, read_meta
from generator.play import load_rules
from generator.play.rules import Rules
from generator.project import FILES, project_file
from generator.scoring import ARTICLE, Objective, layout_scores, summarise
from generator.scoring.objective import load_objective
from generator.studio.disk import WATCHED, DiskWatch, digest
from generator.studio.edits import design_number, design_total, end_words, rejoined
from generator.studio.errors import Conflict, EditError
from generator.studio.games import Played, games_for  # noqa: F401 (games_for: the studio's name for it too)
from generator.studio.tomledit import board_toml as _board_toml
from generator.studio.tomledit import toml_with
from generator.studio.warm import Warming

SAMPLES = 20_000  # layouts per figure (classic: about 10 ms)
MAX_UNDO = 1000  # edits undo can take back
SEED = 0  # the figures' layouts and games (common random numbers)


@dataclass
class Studio(DiskWatch, Warming):
    """One project folder being edited."""

    folder: Path
    board: Board = field(init=False)
    rules: Rules = field(init=False)
    objective: Objective = field(init=False)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        self.path = self.folder / FILES["tileset"]
        self._problems: tuple[tuple, list[dict[str, str]]] = ((), [])
        self.played = Played()
        self._scored: dict[tuple, Any] = {}  # the saved set's layout scores, by (tiles, board): computed once
        self.warmed, self.warming_since, self.warming_expected = threading.Event(), time.monotonic(), 3.0
        self._read_files()
        self.reload()

    def _read_files(self) -> None:
        """Read the board, the rules and the objective (``TrailwrightError``: one line naming the file)."""
        board = load_board(project_file(self.folder, "board") or "classic")
        rules = load_rules(project_file(self.folder, "rules"), board)
        objective = project_file(self.folder, "objective")
        loaded = load_objective(objective) if objective else ARTICLE
        try:
            on_board = loaded.on(board)
        except TrailwrightError as err:  # a forbidden side of other tiles than the board's: the file named
            raise err.within(str(objective)) from None
        self.board, self.rules, self.objective = board, rules, on_board
        self.file_digests = {kind: digest(self.folder / FILES[kind]) for kind in WATCHED}

    def try_files(self, keep: bool) -> None:
        """Read the board, the rules and the objective (kept only with ``keep``); ``TrailwrightError`` (nothing
        kept) when one does not load, or the board does not fit the tile set."""
        before = (self.board, self.rules, self.objective, self.file_digests)
        try:
            self._read_files()
            if len(self.board.slots) != len(self.current):
                raise TrailwrightError(
                    f"has {len(self.board.slots)} slots but the tile set has {len(self.current)} tiles",
                    FILES["board"],
                )
        except TrailwrightError:
            keep = False
            raise
        finally:
            if not keep:
                self.board, self.rules, self.objective, self.file_digests = before

    def reload_files(self) -> None:
        """Read the board, the rules and the objective again; ``EditError`` (nothing changes) when they do not
        load, or the board no longer fits the tile set."""
        try:
            self.try_files(keep=True)
        except TrailwrightError as err:
            raise EditError(str(err)) from None

    def reload(self) -> None:
        """Read the tile set from disk (the new saved version; the edits and their history are dropped)."""
        tiles = read_tileset(self.path)
        if len(tiles) != len(self.board.slots):
            raise TrailwrightError(
                f"has {len(tiles)} tiles but {self.board.label} has {len(self.board.slots)} slots", str(self.path)
            )
        self.meta = read_meta(self.path)
        self.saved = self.current = tiles
        self.disk_digest = digest(self.path)
        self.undo_stack: list[TileSet] = []
        self.redo_stack: list[TileSet] = []

    def saved_scores(self):
        """The saved set's layout scores (computed once per saved set and board)."""
        key = (self.saved, self.board)
        if key not in self._scored:
            self._scored = {key: layout_scores(self.saved, self.board, SAMPLES, SEED)}
        return self._scored[key]

    # --- edits ---------------------------------------------------------------------------------------

    def side(self, tile: Any, face: Any) -> Side:
        """The side ``face`` of tile number ``tile`` (0-based), or an ``EditError``."""
        where = self.where(tile, face)
        return self.current.tiles[where[0]].face(where[1])

    def where(self, tile: Any, face: Any) -> tuple[int, str]:
        """A side named by its tile (the id the page shows, such as ``"t01"``, or its place from 0) and face."""
        ids = [t.id for t in self.current.tiles]
        if isinstance(tile, str) and tile in ids:
            tile = ids.index(tile)
        if not isinstance(tile, int) or isinstance(tile, bool) or tile not in range(len(self.current)):
            raise EditError(
                f"no tile {shown(tile, 20)}: name a tile by its id as the page shows it (a string, {shown(ids[0])} to "
                f"{shown(ids[-1])}) or by its place (a number, 0 to {len(ids) - 1})"
            )
        if face not in FACES:
            raise EditError(f"no face {shown(face, 20)}: front or back")
        return tile, str(face)

    def _with_side(self, tiles: TileSet, where: tuple[int, str], side: Side) -> TileSet:
        tile, face = where
        old = tiles.tiles[tile]
        if tiles.geometry.faces == 1:  # a single-sided tile shows its front on both faces (``Tile.single``)
            return TileSet(tiles.tiles[:tile] + (Tile.single(old.id, side),) + tiles.tiles[tile + 1 :])
        new = replace(old, front=side) if face == "front" else replace(old, back=side)
        return TileSet(tiles.tiles[:tile] + (new,) + tiles.tiles[tile + 1 :])

    def commit(self, tiles: TileSet) -> None:
        """Make ``tiles`` the edited set: one edit, undone by ``undo``."""
        if tiles != self.current:
            self.undo_stack.append(self.current)
            del self.undo_stack[:-MAX_UNDO]  # a day's edits: the oldest fall off
            self.redo_stack.clear()
            self.current = tiles

    def edit(self, op: str, args: dict[str, Any]) -> None:
        """Apply one edit (see the module glossary); ``EditError`` changes nothing."""
        where = self.where(args.get("tile"), args.get("face"))
        side = self.side(*where)
        if op in ("copy", "swap"):
            other = self.where(args.get("to_tile"), args.get("to_face"))
            tiles = self._with_side(self.current, other, side)
            if op == "swap":
                tiles = self._with_side(tiles, where, self.side(*other))
            self.commit(tiles)
        elif op == "rotate":
            k = args.get("steps", args.get("sixths", 1))  # edges to turn by (``sixths``: its name before any tiles)
            if not isinstance(k, int) or isinstance(k, bool):
                raise EditError("steps is a whole number (edges to turn the side by)")
            self.commit(self._with_side(self.current, where, side.rotated(k % side.geometry.rotations)))
        elif op in ("join", "split"):
            self.commit(self._with_side(self.current, where, rejoined(side, op, args)))
        else:
            raise EditError(f"unknown edit {shown(op, 20)} (join, split, rotate, copy, swap)")

    def edit_trails(self, tile: Any, face: Any, trails: Any) -> None:
        """Set a side's trails outright (lists of direction numbers); the model's one-line error when invalid."""
        where = self.where(tile, face)
        g = self.board.geometry
        if (
            not isinstance(trails, list)
            or len(trails) > g.ends
            or not all(isinstance(t, list) and len(t) <= g.ends for t in trails)
            or not all(type(d) is int and 0 <= d < g.ends for t in trails for d in t)  # no bool: true is no direction
        ):
            raise EditError(f"tile {tile} {face}: trails are lists of {end_words(g, many=True)}")
        try:
            new = Side.of(trails, g)
        except (TrailwrightError, TypeError, ValueError) as err:
            raise EditError(f"tile {tile} {face}: {err}") from None
        self.commit(self._with_side(self.current, where, new))

    def undo(self) -> None:
        """Back one edit (nothing when there is none)."""
        if self.undo_stack:
            self.redo_stack.append(self.current)
            self.current = self.undo_stack.pop()

    def redo(self) -> None:
        """Forward one undone edit."""
        if self.redo_stack:
            self.undo_stack.append(self.current)
            self.current = self.redo_stack.pop()

    # --- the file --------------------------------------------------------------------------------------

    def save(self, overwrite: bool = False) -> None:
        """Write the edited tile set atomically, in the format every command reads; ``Conflict`` when the file
        changed on disk since (unless ``overwrite``)."""
        if self.changed_on_disk() and not overwrite:
            raise Conflict("tileset.json changed on disk since the studio read it: reload it, or save over it")
        write_atomic(self.path, dumps_tileset(self.current, self.meta))
        self.saved, self.disk_digest = self.current, digest(self.path)

    # --- the optimizer's rules -------------------------------------------------------------------------

    def pin(self, tile: Any, on: Any) -> None:
        """Pin tile number ``tile`` for the optimizer (``on``), or unpin it; written to ``objective.toml``."""
        if not isinstance(on, bool):
            raise EditError("on: true or false")
        tile_id = self.current.tiles[self.where(tile, "front")[0]].id
        pinned = [t for t in self.objective.pinned if t != tile_id] + ([tile_id] if on else [])
        self._write_rules(pinned, list(self.objective.forbid))

    def forbid(self, tile: Any, face: Any, on: Any) -> None:
        """Forbid the design of a side (up to rotation) to the optimizer (``on``), or allow it again."""
        if not isinstance(on, bool):
            raise EditError("on: true or false")
        design = self.side(tile, face).canonical.trails
        forbid = [d for d in self.objective.forbid if d != design] + ([design] if on else [])
        self._write_rules(list(self.objective.pinned), forbid)

    def _write_rules(self, pinned: list[str], forbid: list) -> None:
        import tomllib

        from generator.scoring.objective import objective_from_dict

        path = self.folder / FILES["objective"]
        ends = self.board.geometry.end_names
        names = [[[ends[d] for d in trail] for trail in design] for design in forbid]
        try:
            text = toml_with(path.read_text(encoding="utf-8") if path.exists() else "", pinned=pinned, forbid=names)
        except (OSError, ValueError) as err:
            raise EditError(f"{FILES['objective']} cannot be read: {str(err).splitlines()[0]}") from None
        try:
            objective = objective_from_dict(tomllib.loads(text)).on(self.board)
        except TrailwrightError as err:
            raise EditError(f"{FILES['objective']}: {err}") from None
        for tile in self.current:
            for face in FACES:
                if tile.id in objective.pinned and not objective.allows(tile.face(face)):
                    raise EditError(
                        f"tile {tile.id} is pinned and its {face} has a forbidden design: unpin it or allow the design"
                    )
        write_atomic(path, text)
        self.objective, self.file_digests["objective"] = objective, digest(path)

    # --- the board ---------------------------------------------------------------------------------------

    def save_board(self, board: Board, before: dict, after: dict, confirmed: bool = False) -> str:
        """Write ``board`` to ``board.toml`` (its text changed in place from ``before`` to ``after``, the tables
        the draft was read as and left as: ``tomledit``) and the tile set resized to it (``boards.resized``); what
        happened to the tiles, in words. ``Conflict`` (saying what would happen) when the slot count changes
        unconfirmed."""
        from generator.studio.boards import resized

        if self.dirty:
            raise EditError("save or undo your tile edits first: the board's save rewrites tileset.json too")
        try:
            rules = load_rules(project_file(self.folder, "rules"), board)
            tiles, words = resized(self.saved, len(board.slots), self.objective)
        except TrailwrightError as err:
            raise EditError(str(err)) from None
        if len(tiles) != len(self.saved) and not confirmed:
            raise Conflict(f"the board has {len(board.slots)} slots and the set {len(self.saved)} tiles: {words}")
        if self.changed_on_disk() or FILES["board"] in self.files_changed():
            raise Conflict("the tile set or the board changed on disk since the studio read it: reload first")
        write_atomic(self.folder / FILES["board"], _board_toml(self.folder / FILES["board"], board, before, after))
        write_atomic(self.path, dumps_tileset(tiles, self.meta))
        self.board, self.rules = load_board(self.folder / FILES["board"]), rules
        self.file_digests["board"] = digest(self.folder / FILES["board"])
        self.reload()
        return words

    def version(self) -> str:
        """A short name of the edited set's trails (the same set, the same name): what the page's games match."""
        trails = [[t.id, [list(x) for x in t.front.trails], [list(x) for x in t.back.trails]] for t in self.current]
        return hashlib.sha256(repr(trails).encode()).hexdigest()[:16]

    @property
    def dirty(self) -> bool:
        """Whether there are edits not saved."""
        return self.current != self.saved

    # --- what the page shows -----------------------------------------------------------------------------

    def side_info(self, tile: int, face: str, designs: Counter | None = None) -> dict[str, Any]:
        """A side's design number (of the 203), the bridges it needs, how many sides of the set share its design
        (``designs``: the set's count of each, ``design_counts``, counted once for every side)."""
        side = self.current.tiles[tile].face(face)
        design = design_number(side)
        copies = (designs or self.design_counts())[design]
        return {
            "pinned": self.current.tiles[tile].id in self.objective.pinned,
            "forbidden": side.canonical.trails in self.objective.forbid,
            "tile": tile,
            "id": self.current.tiles[tile].id,
            "face": face,
            "trails": [list(t) for t in side.trails],
            "design": design + 1,
            "designs": design_total(side.geometry),
            "bridges": side.min_crossings,
            "copies": copies,
        }

    def design_counts(self) -> Counter:
        """How many sides of the edited set have each design (a single-sided tile's front once)."""
        return Counter(design_number(side) for side in self.current.sides())

    def figures(self, tiles: TileSet | None = None, games: bool = True) -> dict[str, Any]:
        """The edited set's figures (or ``tiles``'), and the difference from the saved set's (see the module
        glossary); without ``games``, the games only when they are kept already (``studio.games``: quick)."""
        tiles = self.current if tiles is None else tiles
        scores = layout_scores(tiles, self.board, SAMPLES, SEED)
        now = summarise(tiles, self.board, scores, SEED, "fast", self.objective)
        saved = self.saved_scores()
        base = summarise(self.saved, self.board, saved, SEED, "fast", self.objective)
        per = self.objective.per_layout
        paired = per(scores.extra.astype(float), scores.joined) - per(saved.extra.astype(float), saved.joined)
        change = stats.paired(paired + (now.fitness - base.fitness - float(paired.mean())))  # per layout, in all
        played = self.played.get(tiles, self.board, self.rules, play_now=games)
        return {
            "fitness": now.fitness,
            "fitness_se": now.fitness_se,
            "difference": now.fitness - base.fitness,
            "difference_se": float(paired.std(ddof=1) / np.sqrt(len(paired))),
            "difference_half": (change[0].high - change[0].low) / 2,  # the 95 % interval's half-width
            "difference_verdict": "" if change[1] > stats.ALPHA else "better" if change[0].value > 0 else "worse",
            "terms": {
                "bridges": now.bridges,
                "dup_score": now.dup_score,
                "fully_connected": now.fully_connected,
                "extra_edges": now.extra_edges_mean,
                "pairs_joined": now.path_prob_mean,
            },
            "pairs": now.pair_prob,
            "samples": SAMPLES,
            **(played or {"games": None}),
            "dirty": self.dirty,
            "undo": len(self.undo_stack),
            "redo": len(self.redo_stack),
        }
