"""The reference engine's game loop: rounds of turns until a pawn wins or the round cap."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from generator.model import TileSet
from generator.play.game import Geometry, Table, Tally, new_table
from generator.play.gamelog import GameLog, Recorder
from generator.play.policies import Policy, way_out
from generator.play.rng import draw, game_rng
from generator.play.rules import Rules

TALLY_FIELDS = tuple(f.name for f in fields(Tally))
HEAT_KINDS = ("turning", "trapped", "lost")  # turns spent turning, turns trapped, steps lost: by place


@dataclass(frozen=True)
class GameResult:
    """One game: rounds played, the winning seat (-1 if unfinished), per-seat tallies, and traces.

    ``tallies[p]`` follows ``TALLY_FIELDS``; ``heat[kind, place]`` follows ``HEAT_KINDS`` and
    places numbered slots first, then landmarks. ``trace`` hashes every move, ``laid`` counts tiles.
    """

    rounds: int
    winner: int
    tallies: np.ndarray
    heat: np.ndarray
    laid: int
    trace: int
    log: GameLog | None = None  # the game round by round, when asked for


def _check_trapped(table: Table, p: int, place: int) -> None:
    """Count a turn begun with no known way out, and whether even one tile turn would not open one."""
    if way_out(table, p):
        return
    tally = table.tallies[p]
    tally.trapped_turns += 1
    table.heat[1, place] += 1
    stuck = True
    for slot, sixths in table.turns_allowed(p):
        table.rotate(slot, sixths)
        opened = way_out(table, p)
        table.rotate(slot, -sixths)
        if opened:
            stuck = False
            break
    tally.stuck_turns += stuck


def begin_turn(table: Table, p: int) -> None:
    """Player ``p``'s turn begins: counted, logged, and checked for a way out."""
    table.tallies[p].turns += 1
    if table.recorder:
        table.recorder.begin_turn(p)
    _check_trapped(table, p, table.place_index(table.pawns[p]))


def turn_instead(table: Table, p: int, slot: int, sixths: int) -> None:
    """``p`` turns the tile in ``slot`` by ``sixths`` instead of rolling."""
    table.tallies[p].turning_turns += 1
    table.heat[0, table.place_index(table.pawns[p])] += 1
    table.turn_tile(p, slot, sixths)


def roll(table: Table, p: int) -> int:
    """``p`` rolls the die: the pips to walk."""
    pips = draw(table.rng, table.rules.die) + 1
    table.tallies[p].pips += pips
    if table.recorder:
        table.recorder.add("roll", p, pips)
    return pips


def take_step(table: Table, p: int, door_index: int, left: int) -> bool:
    """``p`` steps through door ``door_index`` of its place with ``left`` pips left (this one included); True when
    the move ends, the pips left lost."""
    ended = table.step(p, table.doors(table.pawns[p])[door_index])
    table.note(10_000 * p + table.place_index(table.pawns[p]))
    if ended:
        table.tallies[p].steps_lost += left - 1
        table.heat[2, table.place_index(table.pawns[p])] += left - 1
    return ended


def end_turn(table: Table, p: int) -> bool:
    """``p``'s turn ends; True when ``p`` has won."""
    table.last_turn[p] = table.clock
    table.clock += 1
    return table.won(p)


def play_turn(table: Table, p: int, policy: Policy) -> bool:
    """Player ``p`` turns a tile or rolls and walks, as ``policy`` chooses; True when ``p`` has won."""
    begin_turn(table, p)
    choice = policy.turn(table, p, table.rng)
    if choice is not None:
        turn_instead(table, p, *choice)
    elif table.doors(table.pawns[p]):
        pips = roll(table, p)
        for used in range(pips):
            if take_step(table, p, policy.step(table, p, pips - used, table.rng), pips - used):
                break
    return end_turn(table, p)


def play_game(
    tiles: TileSet, geo: Geometry, rules: Rules, policies: tuple[Policy, ...], seed: int, game: int, log: bool = False
) -> GameResult:
    """Game number ``game`` of a run seeded ``seed``, played by ``policies`` (one per seat); with ``log``,
    its ``GameLog`` too (the same game: logging draws nothing)."""
    rng = game_rng(seed, game)
    table = new_table(geo, rules, tiles, len(policies), rng)
    table.heat = np.zeros((len(HEAT_KINDS), geo.slots + len(geo.landmarks)), dtype=np.int64)
    recorder = table.recorder = Recorder(geo.slots, geo.tile.ends) if log else None
    if recorder:
        recorder.end_round(table.pawns, table.visited, geo.required)  # round 0: the set-up
    winner, rounds = -1, rules.round_cap
    for rnd in range(1, rules.round_cap + 1):
        for p, policy in enumerate(policies):
            if play_turn(table, p, policy):
                winner, rounds = p, rnd
                if recorder:
                    recorder.add("win", p)
                break
        if recorder:
            recorder.end_round(table.pawns, table.visited, geo.required)
        if winner >= 0:
            break
    tallies = np.array([[getattr(t, f) for f in TALLY_FIELDS] for t in table.tallies], dtype=np.int64)
    game_log = recorder.log(tuple(p.name for p in policies), winner) if recorder else None
    return GameResult(rounds, winner, tallies, table.heat, len(table.laid), table.trace, game_log)
