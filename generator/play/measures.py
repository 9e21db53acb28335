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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from generator.board import Board
from generator.model import TileSet
from generator.play.game import Geometry, Table, geometry
from generator.play.gamelog import GameLog
from generator.play.policies import plan
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


# --- one game -----------------------------------------------------------------------------------


def _place(number: int, slots: int) -> tuple:
    return ("landmark", number - 6 * slots) if number >= 6 * slots else ("trail", number // 6, number % 6)


def route_length(table: Table, p: int) -> float:
    """Steps of player ``p``'s shortest route over the laid tiles to a landmark it needs: the explorer's own
    breadth-first ``plan``, walking through every landmark and counting only landmarks as targets."""
    here = table.pawns[p]
    if here[0] == "landmark" and here[1] in table.needed(p):
        return 0
    found = plan(table, p, avoid=False, informed=False)
    return found.rank[1] if found is not None and found.rank[0] == 0 else INF


def progress(log: GameLog, geo: Geometry, rules: Rules, tiles: TileSet) -> list[list[tuple[int, float]]]:
    """``progress[t][p]`` for every round t from 0 to T, replaying the laid tiles from the log."""
    table = Table(geo, rules, tiles, None, log.players, faces=[(t.front, t.back) for t in tiles])
    out = []
    for rnd in log.rounds:
        for event in rnd.events:
            if event[0] == "lay":
                _, _, slot, tile, face, rot = event
                table.laid[slot] = [tile, face, rot]
            elif event[0] == "turn":
                _, _, slot, sixths = event
                table.laid[slot][2] = (table.laid[slot][2] + sixths) % 6
        table.pawns = [_place(place, geo.slots) for place in rnd.places]
        table.visited = [frozenset(k for k in geo.required if (ticked >> k) & 1) for ticked in rnd.ticked]
        out.append([(bin(t).count("1"), -route_length(table, p)) for p, t in enumerate(rnd.ticked)])
    return out


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


@dataclass(frozen=True)
class GameMeasures:
    """One game's readings (the lead ones only for a finished game)."""

    finished: bool
    length: int
    lead_changes: int
    drama: bool
    settled_share: float
    turns: int
    idle_turns: int


def game_measures(log: GameLog, geo: Geometry, rules: Rules, tiles: TileSet) -> GameMeasures:
    """Read one game."""
    lead = [leaders(row) for row in progress(log, geo, rules, tiles)]
    T, winner = log.length, log.winner
    finished = winner >= 0
    drama = finished and winner not in lead[math.ceil(2 * T / 3)]
    settled = (T - settled_round(lead, winner)) / T if finished and T > 0 else 0.0
    turns = idle = 0
    for rnd in log.rounds[1:]:
        stepped = {e[1] for e in rnd.events if e[0] == "step"}
        turns += len(rnd.played)
        idle += sum(p not in stepped for p in rnd.played)
    return GameMeasures(finished, T, lead_changes(lead), drama, settled, turns, idle)


# --- many games ---------------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> Measure | None:
    if not values:
        return None
    x = np.asarray(values, dtype=float)
    se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0
    return Measure(float(x.mean()), se, len(x))


def _ratio(num: np.ndarray, den: np.ndarray) -> Measure:
    """sum(num) / sum(den) over games, with the games as clusters (a ratio estimator's standard error)."""
    total = float(den.sum())
    r = float(num.sum()) / total if total else 0.0
    n = len(den)
    resid = num - r * den
    se = float(math.sqrt((resid**2).sum() * n / (n - 1)) / total) if n > 1 and total else 0.0
    return Measure(r, se, n)


def measures(logs: Sequence[GameLog], board: Board, rules: Rules, tiles: TileSet) -> Measures:
    """The measures of ``logs``: pure, and the same for the same logs in any order or seat labelling."""
    if not logs:
        raise ValueError("no games to measure")
    geo = geometry(board, rules)
    each = [game_measures(log, geo, rules, tiles) for log in logs]
    done = [m for m in each if m.finished]
    players = logs[0].players
    wins = np.bincount([log.winner for log in logs if log.winner >= 0], minlength=players) / len(logs)
    return Measures(
        games=len(logs),
        completion=_mean([float(m.finished) for m in each]) or Measure(0.0, 0.0, 0),
        duration=_mean([m.length for m in done]),
        lead_changes=_mean([m.lead_changes for m in done]),
        drama=_mean([float(m.drama) for m in done]),
        settled_share=_mean([m.settled_share for m in done]),
        downtime=_ratio(np.array([m.idle_turns for m in each], float), np.array([m.turns for m in each], float)),
        seat_advantage=float(np.max(np.abs(wins - 1 / players))),
    )


def luck_share(win_rate: float, win_se: float, players: int) -> Measure:
    """1 - (w - 1/n) / (1 - 1/n): 0 when the better player always wins, 1 when it wins as often as chance."""
    scale = 1 - 1 / players
    return Measure(1 - (win_rate - 1 / players) / scale, win_se / scale, 0)


# --- where they show ------------------------------------------------------------------------------

# the same measures of 600 games of 3 explorers (rival: a naive nearest-goal player) in an independent
# simulator of the game, for scale: set -> (lead changes, drama, settled share, luck share)
REFERENCE_SETS = {
    "best-known": (1.14, 0.19, 0.49, 0.82),
    "random-20": (1.28, 0.20, 0.46, 0.86),
    "straight diameters on every side": (2.15, 0.13, 0.51, 1.03),
}


REPLAY_BUDGET = 150_000  # turns x slots the reference engine replays for the measures (about 5-15 s)


def affordable_games(rounds: Sequence[int], players: int, slots: int, most: int, budget: int = REPLAY_BUDGET) -> int:
    """How many of the first ``most`` games (their ``rounds`` known from a run) fit the replay ``budget`` in turns
    times slots (at least one): a deterministic bound, so long games on a big board do not take hours."""
    cost = count = 0
    for r in rounds[:most]:
        cost += r * players * slots
        if count and cost > budget:
            break
        count += 1
    return count


def logged_games(
    tiles: TileSet,
    board: Board,
    rules: Rules,
    policies: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[GameLog]:
    """The first ``games`` games of a run seeded ``seed``, logged: game g is game g of the same run in either
    engine (both draw game g from its own generator), replayed here by the reference engine."""
    from generator.play.policies import get_policy
    from generator.play.reference import play_game

    geo = geometry(board, rules)
    chosen = tuple(get_policy(name) for name in policies)
    logs = []
    for g in range(games):
        log = play_game(tiles, geo, rules, chosen, seed, g, log=True).log
        assert log is not None
        logs.append(log)
        if progress:
            progress(1)
    return logs


def readings(m: Measures, luck: Measure | None = None) -> list[tuple[str, Measure | None, str]]:
    """Each measure with a one-line plain-language reading: (name, measure, reading)."""

    def pct(x: Measure | None) -> str:
        return "-" if x is None else f"{x.value:.0%}"

    out: list[tuple[str, Measure | None, str]] = [
        ("completion", m.completion, f"{pct(m.completion)} of games end before the round cap"),
    ]
    if m.duration is not None:
        out.append(("duration", m.duration, f"a finished game lasts {m.duration.value:.1f} rounds on average"))
    if m.lead_changes is not None and m.drama is not None and m.settled_share is not None:
        out += [
            ("lead changes", m.lead_changes, f"the lead changes {m.lead_changes.value:.1f} times a game"),
            ("drama", m.drama, f"in {pct(m.drama)} of games the winner was behind at two thirds of the game"),
            (
                "settled share",
                m.settled_share,
                f"the winner leads for good over the last {pct(m.settled_share)} of the game",
            ),
        ]
    if luck is not None:
        verdict = "a lottery" if luck.value >= 0.95 else "mostly luck" if luck.value >= 0.75 else "skill shows"
        out.append(
            (
                "luck share",
                luck,
                f"{luck.value:.2f}: {verdict} (0: the better player always wins; 1: it wins as often as chance)",
            )
        )
    out.append(("downtime", m.downtime, f"{pct(m.downtime)} of turns take no step"))
    return out


def to_dict(m: Measures, luck: Measure | None = None) -> dict:
    """JSON-ready: each measure's value, standard error and games, and the reading."""
    data: dict = {"games": m.games, "seat_advantage": m.seat_advantage}
    for name, measure, reading in readings(m, luck):
        key = name.replace(" ", "_")
        data[key] = None if measure is None else {"value": measure.value, "se": measure.se, "games": measure.games}
        data[key + "_reading"] = reading
    data["reference_sets"] = {
        name: dict(zip(("lead_changes", "drama", "settled_share", "luck_share"), values, strict=True))
        for name, values in REFERENCE_SETS.items()
    }
    return data
