"""Is it a good game? Measures of a list of game logs, each with its standard error (after Browne's LUDI).

Glossary (n players; rounds from 0, the set-up, to T, the round the game is won in)
--------
progress(p, t)  after round t, the pair (required landmarks p has ticked, -d): d is the steps of the
                shortest route over the tiles laid so far (through landmarks) from p's place to the
                nearest required landmark p still needs, or to the goal once all are ticked; 0 when p
                stands on one, infinite when no route is known. Pairs compare lexicographically.
leaders(t)      the players of the highest progress after round t (a tie shares the lead).
lead change     a round t at which leaders(t) is one player who differs from the most recent single
                leader before t (a shared lead changes nothing; the first single leader is no change).
drama           the share of finished games whose winner is not in leaders(ceil(2T/3)).
settled share   (T - t*) / T, t* the first round from which the winner is in leaders(t) for good.
luck share      1 - (w - 1/n) / (1 - 1/n), w the win rate of one explorer among n-1 rivals.
downtime        the share of a player's turns with no step taken.
completion      the share of games finished before the round cap.

Everything here is a pure function of the logs, the board, the rules and the tile set; the reference
engine's ``Table`` replays the laid tiles, so the routes are the game's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.board import Board
from generator.model import TileSet
from generator.play.game import Geometry, Table, geometry
from generator.play.gamelog import GameLog, place_of
from generator.play.logrows import BEGIN, CHASE, END, LAY, STEP, TURN, check_rows, to_rows
from generator.play.policies import explorer_rank, opens_way, plan
from generator.play.rules import Rules

INF = math.inf


@dataclass(frozen=True)
class Measure:
    """A measure's value over the games it applies to, its standard error and that number of games."""

    value: float
    se: float
    games: int


@dataclass(frozen=True)
class Measures:
    """The game-quality measures of a set of logs (``None`` where no game qualifies)."""

    games: int
    completion: Measure
    duration: Measure | None  # rounds of the finished games
    lead_changes: Measure | None  # per finished game
    drama: Measure | None
    settled_share: Measure | None
    downtime: Measure
    seat_advantage: float  # the largest |win rate - 1/n| over the seats
    choices: Measure | None = None  # per explorer turn, when counted
    actions: Measure | None = None  # legal actions per turn, when counted


# --- one game -----------------------------------------------------------------------------------


def route_length(table: Table, p: int) -> float:
    """Steps of player ``p``'s shortest route over the laid tiles to a landmark it needs: the explorer's own
    breadth-first ``plan``, walking through every landmark and counting only landmarks as targets."""
    here = table.pawns[p]
    if here[0] == "landmark" and here[1] in table.needed(p):
        return 0
    found = plan(table, p, avoid=False, informed=False)
    return found.rank[1] if found is not None and found.rank[0] == 0 else INF


def _rank(table: Table, p: int) -> float:
    """The explorer's rank as the fast engine's single number (tier, kind, score -> 10**6, 10**5, 1)."""
    found = explorer_rank(table, p)
    return INF if found is None else found[0] * 1_000_000 + found[1] * 100_000 + found[2]


def _door_value(table: Table, p: int, door) -> float:
    """The explorer's value of one step through ``door``: 1 + its rank from behind it."""
    needed = table.needed(p)
    if door[0] == "slot" and door[1] not in table.laid:
        return 100_001 + min(table.geo.slot_landmark_distance[door[1]][k] for k in needed)
    if door[0] == "landmark" and door[1] in needed:
        return 1
    here = table.pawns[p]
    table.pawns[p] = ("landmark", door[1]) if door[0] == "landmark" else ("trail", door[1], table.trail_at(*door[1:3]))
    value = _rank(table, p) + 1
    table.pawns[p] = here
    return value


def choices(table: Table, p: int) -> tuple[int, int]:
    """(choices, legal actions) at the start of ``p``'s turn: the actions are each door out of its place and
    each tile turn the rules allow; the choices are those the explorer values within one step of the best
    (every one, when none leads anywhere)."""
    values = [_door_value(table, p, door) for door in table.doors(table.pawns[p])]
    values += [opens_way(table, p, slot, sixths, _rank) for slot, sixths in table.turns_allowed(p)]
    best = min(values, default=INF)
    return sum(v <= best + 1 or best == INF for v in values), len(values)


@dataclass(frozen=True)
class GameMeasures:
    """One game's readings (the lead ones only for a finished game); per seat its turns, and the choices and
    legal actions summed over them when they were counted."""

    finished: bool
    length: int
    lead_changes: int
    drama: bool
    settled_share: float
    turns: int
    idle_turns: int
    seat_turns: tuple[int, ...]
    seat_choices: tuple[int, ...] = ()
    seat_actions: tuple[int, ...] = ()


def replay(
    log: GameLog, geo: Geometry, rules: Rules, tiles: TileSet, count_choices: bool = False
) -> tuple[list[list[tuple[int, float]]], GameMeasures]:
    """``progress[t][p]`` for every round t from 0 to T, and the game's readings, replaying its events."""
    table = Table(geo, rules, tiles, None, log.players, faces=[(t.front, t.back) for t in tiles])
    table.pawns = [place_of(place, geo.slots, geo.tile.ends) for place in log.rounds[0].places]
    table.visited = [frozenset()] * log.players
    rows: list[list[tuple[int, float]]] = []
    seat = np.zeros((log.players, 3), np.int64)
    moved, stepped = 0, False
    for kind, p, a, b, c, d in to_rows(log).tolist():
        if kind == BEGIN:
            seat[p, 0] += 1
            stepped = False
            if count_choices:
                seat[p, 1:] += choices(table, p)
        elif kind in (STEP, CHASE):
            moved += kind == STEP and not stepped
            stepped = stepped or kind == STEP
            table.pawns[p] = place_of(a, geo.slots, geo.tile.ends)
            if table.pawns[p][0] == "landmark" and table.pawns[p][1] in geo.required:
                table.visited[p] = table.visited[p] | {table.pawns[p][1]}
        elif kind == LAY:
            table.laid[a] = [b, c, d]
        elif kind == TURN:
            table.rotate(a, b)
        elif kind == END:
            table.pawns[p] = place_of(a, geo.slots, geo.tile.ends)
            table.visited[p] = frozenset(k for k in geo.required if (b >> k) & 1)
            if p == log.players - 1:
                rows.append([(bin(t).count("1"), -route_length(table, q)) for q, t in enumerate(_ticks(table, geo))])
    lead = [leaders(row) for row in rows]
    T, winner = log.length, log.winner
    finished = winner >= 0
    turns = int(seat[:, 0].sum())
    return rows, GameMeasures(
        finished,
        T,
        lead_changes(lead),
        finished and winner not in lead[math.ceil(2 * T / 3)],
        (T - settled_round(lead, winner)) / T if finished and T > 0 else 0.0,
        turns,
        turns - moved,
        tuple(int(x) for x in seat[:, 0]),
        tuple(int(x) for x in seat[:, 1]) if count_choices else (),
        tuple(int(x) for x in seat[:, 2]) if count_choices else (),
    )


def _ticks(table: Table, geo: Geometry) -> list[int]:
    return [sum(1 << k for k in v) for v in table.visited]


def progress(log: GameLog, geo: Geometry, rules: Rules, tiles: TileSet) -> list[list[tuple[int, float]]]:
    """``progress[t][p]`` for every round t from 0 to T, replaying the laid tiles from the log."""
    return replay(log, geo, rules, tiles)[0]


def leaders(row: Sequence[tuple[int, float]]) -> frozenset[int]:
    """The players of the highest progress in one round."""
    best = max(row)
    return frozenset(p for p, value in enumerate(row) if value == best)


def lead_changes(lead: Sequence[frozenset[int]]) -> int:
    """Rounds at which a single leader differs from the most recent single leader before it."""
    changes, last = 0, None
    for group in lead:
        if len(group) == 1:
            (who,) = group
            if last is not None and who != last:
                changes += 1
            last = who
    return changes


def settled_round(lead: Sequence[frozenset[int]], winner: int) -> int:
    """t*: the first round from which ``winner`` leads (alone or shared) in every later round."""
    t = len(lead)
    while t > 0 and winner in lead[t - 1]:
        t -= 1
    return t


def game_measures(
    log: GameLog, geo: Geometry, rules: Rules, tiles: TileSet, count_choices: bool = False
) -> GameMeasures:
    """Read one game."""
    return replay(log, geo, rules, tiles, count_choices)[1]


# --- many games ---------------------------------------------------------------------------------


def mean_of(values: Sequence[float]) -> Measure | None:
    """The mean over games and its standard error (None: no game)."""
    if not values:
        return None
    x = np.asarray(values, dtype=float)
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0
    return Measure(float(x.mean()), se, len(x))


def ratio_of(num: np.ndarray, den: np.ndarray) -> Measure | None:
    """sum(num) / sum(den) over games, with the games as clusters (a ratio estimator's standard error)."""
    total = float(den.sum())
    if not total:
        return None
    r = float(num.sum()) / total
    n = len(den)
    resid = num - r * den
    se = float(math.sqrt((resid**2).sum() * n / (n - 1)) / total) if n > 1 else 0.0
    return Measure(r, se, n)


def summarise(each: Sequence[GameMeasures], winners: Sequence[int], seats: Sequence[str]) -> Measures:
    """The measures of many games' readings (``winners``: each game's winning seat or -1). Choices per turn are
    the explorer seats'; legal actions per turn every seat's."""
    done = [m for m in each if m.finished]
    players = len(seats)
    wins = np.bincount([w for w in winners if w >= 0], minlength=players) / len(each)
    explorers = [q for q, name in enumerate(seats) if name == "explorer"]
    counted = bool(each[0].seat_choices)

    def per_turn(field: str, which: Sequence[int]) -> Measure | None:
        if not counted or not which:
            return None
        num = np.array([sum(getattr(m, field)[q] for q in which) for m in each], float)
        return ratio_of(num, np.array([sum(m.seat_turns[q] for q in which) for m in each], float))

    return Measures(
        games=len(each),
        completion=mean_of([float(m.finished) for m in each]) or Measure(0.0, 0.0, 0),
        duration=mean_of([m.length for m in done]),
        lead_changes=mean_of([m.lead_changes for m in done]),
        drama=mean_of([float(m.drama) for m in done]),
        settled_share=mean_of([m.settled_share for m in done]),
        downtime=ratio_of(np.array([m.idle_turns for m in each], float), np.array([m.turns for m in each], float))
        or Measure(0.0, 0.0, len(each)),
        seat_advantage=float(np.max(np.abs(wins - 1 / players))),
        choices=per_turn("seat_choices", explorers),
        actions=per_turn("seat_actions", range(players)),
    )


def measures(
    logs: Sequence[GameLog], board: Board, rules: Rules, tiles: TileSet, count_choices: bool = False
) -> Measures:
    """The measures of ``logs``: pure, and the same for the same logs in any order or seat labelling (the
    plain reference; ``measures_of_games`` reads an engine's compact logs, compiled)."""
    if not logs:
        raise ValueError("no games to measure")
    geo = geometry(board, rules)
    each = [game_measures(log, geo, rules, tiles, count_choices) for log in logs]
    return summarise(each, [log.winner for log in logs], logs[0].seats)


PART = 32  # games a thread replays at a time; every game is replayed alone, so the parts cannot disagree


def _replay_all(G, rows, offsets, won, players, table, per_seat, threads: int) -> int:
    """``fastmeasures.measure_rows`` over every game, parts of ``PART`` games on ``threads`` threads (the compiled
    replay releases the GIL; each part writes only its own games' rows): -1, or the first row a game's state
    forbids."""
    from generator.play import fastmeasures as fm
    from generator.play.parallel import in_threads

    def part(lo: int) -> int:
        hi = min(lo + PART, len(won))
        return fm.measure_rows(G, rows, offsets[lo : hi + 1], won[lo:hi], players, table[lo:hi], per_seat[lo:hi])

    found = in_threads(part, range(0, len(won), PART), threads)
    return min((bad for bad in found if bad >= 0), default=-1)


def games_of_rows(
    rows: np.ndarray,
    offsets: np.ndarray,
    winners: Sequence[int] | np.ndarray,
    players: int,
    board: Board,
    rules: Rules,
    tiles: TileSet,
    count_choices: bool = False,
    threads: int = 1,
) -> list[GameMeasures]:
    """Each game's readings of compact logs (game g's rows are ``rows[offsets[g]:offsets[g + 1]]``, as
    ``simulate.play(..., log=True)`` gives them): what ``game_measures`` reads of the same games, by the
    compiled replay of ``fastmeasures`` (on ``threads`` threads: the same numbers)."""
    from generator.play import fastmeasures as fm
    from generator.play.arrays import game_arrays

    n = len(offsets) - 1
    if n < 1:
        raise ValueError("no games to measure")
    table = np.zeros((n, fm.COLUMNS), np.int64)
    per_seat = np.zeros((n, players, 3 if count_choices else 1), np.int64)
    won = np.asarray(winners[:n], np.int64)
    if np.any((won < -1) | (won >= players)):
        raise ValueError(f"a winner is not a seat of {players}")
    check_rows(
        rows, offsets, players, len(board.slots), len(tiles), len(board.landmarks), rules.round_cap, board.geometry
    )
    bad = _replay_all(game_arrays(tiles, board, rules), rows, offsets, won, players, table, per_seat, threads)
    if bad >= 0:
        raise ValueError(f"row {bad}: {rows[bad].tolist()} turns a tile in an empty slot")
    return [
        GameMeasures(
            finished=bool(row[fm.FINISHED]),
            length=row[fm.LENGTH],
            lead_changes=row[fm.LEAD_CHANGES],
            drama=bool(row[fm.DRAMA]),
            settled_share=(row[fm.LENGTH] - row[fm.SETTLED_AT]) / row[fm.LENGTH] if row[fm.FINISHED] else 0.0,
            turns=row[fm.TURNS],
            idle_turns=row[fm.IDLE],
            seat_turns=tuple(seat[fm.SEAT_TURNS] for seat in by_seat),
            seat_choices=tuple(seat[fm.CHOICES] for seat in by_seat) if count_choices else (),
            seat_actions=tuple(seat[fm.ACTIONS] for seat in by_seat) if count_choices else (),
        )
        for row, by_seat in zip(table.tolist(), per_seat.tolist(), strict=True)
    ]


def measures_of_rows(
    rows: np.ndarray,
    offsets: np.ndarray,
    winners: Sequence[int] | np.ndarray,
    seats: Sequence[str],
    board: Board,
    rules: Rules,
    tiles: TileSet,
    count_choices: bool = False,
    threads: int = 1,
) -> Measures:
    """The measures of compact logs (``games_of_rows``' readings summed up): the same numbers as ``measures`` on
    the same games."""
    each = games_of_rows(rows, offsets, winners, len(seats), board, rules, tiles, count_choices, threads)
    return summarise(each, np.asarray(winners[: len(each)], np.int64).tolist(), seats)


def luck_share(win_rate: float, win_se: float, players: int) -> Measure:
    """1 - (w - 1/n) / (1 - 1/n): 0 when the better player always wins, 1 when it wins as often as chance."""
    scale = 1 - 1 / players
    return Measure(1 - (win_rate - 1 / players) / scale, win_se / scale, 0)
