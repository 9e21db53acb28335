"""The printed game, plainly: the ``reference`` engine, written to be read.

Glossary
--------
place     where a pawn stands: ``("trail", slot, t)``, trail ``t`` of the tile laid in ``slot``
          (numbered as on the tile's unturned face, so turning a tile never renumbers its trails),
          or ``("landmark", k)``. A wide landmark is one place.
end       a trail end on a tile's outline (``TileGeometry``): on the classic tiles one per edge, so the
          ends are the six directions N..NW; with two ends an edge, ``N1 N2 E1 ...`` clockwise.
door      where a step arrives: ``("slot", slot, end, by_connector)``, entering ``slot`` at its ``end``
          (a step crosses one tile edge: from end ``e`` to the neighbour's ``facing_end(e)``), or
          ``("landmark", k)``. A trail's doors are its ends that do not face the wall, in end order;
          a landmark's doors are the ends of its printed sides, in board order, then clockwise.
lay       stepping into an empty slot lays the top tile of the pile: face by coin (0 front; no coin
          for single-sided tiles), then turned ``dR - 1`` steps clockwise, ``R`` the geometry's
          rotations (a d6 on hex tiles, a d4 on square ones).
turn      instead of rolling, turning one laid tile by ``sixths`` steps (one edge each) either way.

Both engines draw from ``rng.draw`` in the same order: the pile's shuffle (Fisher-Yates from the
top down), then per turn the policy's draws, the die, and per step the policy's draw, the coin
and the turn die of a laid tile, the hazard's die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.board import Board, LandmarkEnd
from generator.model import TileSet
from generator.model.geometry import CLASSIC, TileGeometry
from generator.play.rng import draw
from generator.play.rules import Rules

MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Geometry:
    """What the reference engine needs to know about a board and rules, by index."""

    slots: int
    landmarks: tuple[str, ...]
    across: dict  # (slot, end) -> door
    landmark_doors: tuple[tuple, ...]  # per landmark, its doors
    next_to: tuple[tuple[int, ...], ...]  # per slot, then per landmark: the slots next to it
    start: int
    goal: int
    required: frozenset
    ends_move: tuple[bool, ...]
    hazard_rolls: tuple[frozenset, ...]
    hazard_to: tuple[int, ...]
    slot_landmark_distance: tuple[tuple[int, ...], ...]  # steps from a slot to the nearest cell of a landmark
    tile: TileGeometry = CLASSIC  # the tiles' shape: ends, rotations, faces

    def rotated(self, rot: int, steps: int) -> int:
        """A tile's rotation ``rot`` turned ``steps`` edges further (either way)."""
        return (rot + steps) % self.tile.rotations


def geometry(board: Board, rules: Rules) -> Geometry:
    """The board's joins as doors (end to end: end ``p`` of an edge meets end ``m - 1 - p`` of the other, as
    ``TileGeometry.meeting`` says), and the rules' landmarks as indices."""
    g = board.geometry
    index = {lm.name: k for k, lm in enumerate(board.landmarks)}
    across: dict[tuple[int, int], tuple] = {}
    for j in board.joins():
        for p in range(g.ends_per_edge):
            end_a = g.end_at(j.a.direction, p)
            if isinstance(j.b, LandmarkEnd):
                across[(j.a.slot, end_a)] = ("landmark", j.b.landmark)
            else:
                conn = j.kind == "connector"
                end_b = g.end_at(j.b.direction, g.meeting(p))
                across[(j.a.slot, end_a)] = ("slot", j.b.slot, end_b, conn)
                across[(j.b.slot, end_b)] = ("slot", j.a.slot, end_a, conn)
    doors = tuple(
        tuple(("slot", s.slot, end, False) for s in lm.sides for end in g.ends_of(s.direction))
        for lm in board.landmarks
    )
    cells = [(h,) for h in board.slots] + [lm.hexes for lm in board.landmarks]
    slot_of = {h: s for s, h in enumerate(board.slots)}
    next_to = tuple(
        tuple(sorted({slot_of[x] for own in mine for d in range(g.edges) if (x := g.neighbour(own, d)) in slot_of}))
        for mine in cells
    )
    hazards = {index[h.landmark]: h for h in rules.hazards}
    return Geometry(
        slots=len(board.slots),
        landmarks=tuple(index),
        across=across,
        landmark_doors=doors,
        next_to=next_to,
        start=index[rules.start],
        goal=index[rules.goal],
        required=frozenset(index[n] for n in rules.required),
        ends_move=tuple(rules.ends_move(lm.name) for lm in board.landmarks),
        hazard_rolls=tuple(frozenset(hazards[k].rolls) if k in hazards else frozenset() for k in range(len(index))),
        hazard_to=tuple(index[hazards[k].to] if k in hazards else -1 for k in range(len(index))),
        slot_landmark_distance=tuple(
            tuple(min(g.distance(h, x) for x in lm.hexes) for lm in board.landmarks) for h in board.slots
        ),
        tile=g,
    )


@dataclass
class Tally:
    """What one player did in one game."""

    turns: int = 0
    turning_turns: int = 0  # turns spent turning a tile instead of rolling
    steps_lost: int = 0  # steps left when a landmark (or a blocking stub) ended a move
    pips: int = 0
    lair_entries: int = 0
    chases: int = 0
    connector_crossings: int = 0
    trapped_turns: int = 0  # turns begun with no known way to a needed landmark or an empty slot
    stuck_turns: int = 0  # ... and no single allowed tile turn opens one


@dataclass
class Table:
    """The state of one game in progress (mutable; one per game)."""

    geo: Geometry
    rules: Rules
    tiles: TileSet
    rng: object
    players: int
    pile: list = field(default_factory=list)
    laid: dict = field(default_factory=dict)  # slot -> [tile, face, rot]
    pawns: list = field(default_factory=list)
    visited: list = field(default_factory=list)
    tallies: list = field(default_factory=list)
    turned_at: dict = field(default_factory=dict)  # slot -> (turn number, player, sixths) of its last turn
    last_turn: list = field(default_factory=list)  # per player, the number of their last turn
    clock: int = 0  # turns played so far
    trace: int = 0  # a hash of every move, to compare engines
    heat: Any = None  # counts by (kind, place), a numpy array: see reference.HEAT_KINDS
    faces: list = field(default_factory=list)  # per tile, its (front, back) sides
    recorder: Any = None  # a gamelog.Recorder when the game is logged

    # --- what a player sees -----------------------------------------------------------------

    def trail_at(self, slot: int, end: int) -> int:
        """The trail of the tile in ``slot`` leaving through ``end``."""
        tile, face, rot = self.laid[slot]
        return self.faces[tile][face].trail_of(self.geo.tile.turned(end, -rot))

    def trail_edges(self, slot: int, t: int) -> list[int]:
        """The ends trail ``t`` of the tile in ``slot`` leaves through, as it lies now."""
        tile, face, rot = self.laid[slot]
        return sorted(self.geo.tile.turned(e, rot) for e in self.faces[tile][face].trails[t])

    def rotate(self, slot: int, steps: int) -> None:
        """Turn the tile in ``slot`` by ``steps`` edges (clockwise when positive), recording nothing."""
        self.laid[slot][2] = self.geo.rotated(self.laid[slot][2], steps)

    def doors(self, place) -> list:
        """Where one step from ``place`` can arrive, in the engines' shared order."""
        if place[0] == "landmark":
            return list(self.geo.landmark_doors[place[1]])
        _, slot, t = place
        return [self.geo.across[(slot, e)] for e in self.trail_edges(slot, t) if (slot, e) in self.geo.across]

    def needed(self, p: int) -> set[int]:
        """The landmarks player ``p`` heads for: the required ones left, else the goal."""
        left = self.geo.required - self.visited[p]
        return set(left) if left else {self.geo.goal}

    def place_index(self, place) -> int:
        """A place as one number: the slot, or slots + landmark."""
        return place[1] if place[0] == "trail" else self.geo.slots + place[1]

    def turns_allowed(self, p: int) -> list[tuple[int, int]]:
        """The tile turns player ``p`` may make: (slot, +sixths or -sixths), slots in order."""
        turning = self.rules.turning
        if not turning.allowed:
            return []
        candidates: Sequence[int] = (
            self.geo.next_to[self.place_index(self.pawns[p])] if turning.next_to_pawn else range(self.geo.slots)
        )
        under = {pl[1] for pl in self.pawns if pl[0] == "trail"}
        return [
            (s, d)
            for s in sorted(candidates)
            if s in self.laid and (turning.under_pawn or s not in under)
            for d in (turning.steps, -turning.steps)
        ]

    def undoes(self, p: int, slot: int, sixths: int) -> bool:
        """Whether turning ``slot`` by ``sixths`` undoes a turn another player made since p's last turn."""
        if slot not in self.turned_at:
            return False
        when, who, how = self.turned_at[slot]
        return who != p and when > self.last_turn[p] and how == -sixths

    # --- what a player does -----------------------------------------------------------------

    def note(self, value: int) -> None:
        """Fold one number into the trace."""
        self.trace = (self.trace * 1_000_003 + value + 1) & MASK64

    def turn_tile(self, p: int, slot: int, sixths: int) -> None:
        """Turn the tile in ``slot`` by ``sixths`` (clockwise when positive)."""
        self.rotate(slot, sixths)
        self.turned_at[slot] = (self.clock, p, sixths)
        self.note(1000 + 10 * slot + sixths % self.geo.tile.rotations)
        if self.recorder:
            self.recorder.add("turn", p, slot, sixths)

    def lay(self, slot: int) -> None:
        """Lay the top tile of the pile in ``slot``: face by coin (double-sided tiles only), turned by a die of
        one face per rotation (a d6 on hex tiles, a d4 on square ones)."""
        face = draw(self.rng, 2) if self.geo.tile.faces == 2 else 0
        rot = draw(self.rng, self.geo.tile.rotations)
        self.laid[slot] = [self.pile.pop(0), face, rot]

    def step(self, p: int, door) -> bool:
        """Move player ``p`` through ``door``; True when the move ends (or the game does)."""
        tally = self.tallies[p]
        if door[0] == "slot":
            _, slot, end, by_connector = door
            tally.connector_crossings += by_connector
            fresh = slot not in self.laid
            if fresh:
                self.lay(slot)
                if self.recorder:
                    self.recorder.add("lay", p, slot, *self.laid[slot])
            t = self.trail_at(slot, end)
            if fresh and self.rules.stub_blocks and len(self.trail_edges(slot, t)) == 1:
                return True
            self.pawns[p] = ("trail", slot, t)
            if self.recorder:
                self.recorder.add("step", p, self.recorder.place(self.pawns[p]))
            return False
        k = door[1]
        self.pawns[p] = ("landmark", k)
        if self.recorder:
            self.recorder.add("step", p, self.recorder.place(self.pawns[p]))
        if k in self.geo.required:
            self.visited[p] = self.visited[p] | {k}
        if k == self.geo.goal and self.geo.required <= self.visited[p]:
            return True
        if self.geo.hazard_rolls[k]:
            tally.lair_entries += 1
            if draw(self.rng, self.rules.die) + 1 in self.geo.hazard_rolls[k]:
                tally.chases += 1
                self.pawns[p] = ("landmark", self.geo.hazard_to[k])
                if self.recorder:
                    self.recorder.add("chase", p, self.recorder.place(self.pawns[p]))
                return True
        return self.geo.ends_move[k]

    def won(self, p: int) -> bool:
        """Whether player ``p`` stands on the goal with every required landmark visited."""
        return self.pawns[p] == ("landmark", self.geo.goal) and self.geo.required <= self.visited[p]


def new_table(geo: Geometry, rules: Rules, tiles: TileSet, players: int, rng) -> Table:
    """A game set up: the pile shuffled, every pawn on the start."""
    pile = list(range(len(tiles)))
    for i in range(len(pile) - 1, 0, -1):
        j = draw(rng, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    return Table(
        geo,
        rules,
        tiles,
        rng,
        players,
        pile=pile,
        pawns=[("landmark", geo.start)] * players,
        visited=[frozenset()] * players,
        tallies=[Tally() for _ in range(players)],
        last_turn=[-1] * players,
        faces=[(t.front, t.back) for t in tiles],
    )
