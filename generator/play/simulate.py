"""Many games at once: ``simulate`` plays them with either engine and sums them up in a ``PlayReport``.

Game ``g`` of a run seeded ``s`` draws from its own generator (``rng.game_rng(s, g)``), so the
engines, any chunking and any single game replayed alone all agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.play.game import geometry
from generator.play.gamelog import GameLog
from generator.play.logrows import ROW, ROW_TYPE, from_rows, most_rows, to_rows
from generator.play.measures import Measures, measures_of_rows
from generator.play.policies import POLICIES, get_policy
from generator.play.reference import HEAT_KINDS, TALLY_FIELDS, play_game
from generator.play.rng import game_seed
from generator.play.rules import Rules, check_rules
from generator.stats import equal_shares

ENGINES = ("fast", "reference")
CHUNK = 100  # games per call into the fast engine: a thread plays a chunk, and the progress bar moves by one


@dataclass(frozen=True)
class Games:
    """Raw results of a run: per game rounds, winner, tiles laid and move trace; tallies and summed heat."""

    rounds: np.ndarray  # (games,)
    winners: np.ndarray  # (games,) seat, or -1 when the cap was reached
    laid: np.ndarray  # (games,)
    traces: np.ndarray  # (games,) uint64
    tallies: np.ndarray  # (games, players, len(TALLY_FIELDS))
    heat: np.ndarray  # (len(HEAT_KINDS), places), summed over games
    rows: np.ndarray | None = None  # with ``log``: every game's compact log (``logrows``), game after game
    offsets: np.ndarray | None = None  # (games + 1,): game g's rows are rows[offsets[g]:offsets[g + 1]]

    def log(self, g: int, seats: Sequence[str], slots: int) -> GameLog:
        """Game ``g``'s log (the run must have been logged)."""
        assert self.rows is not None and self.offsets is not None, "a run played without log=True"
        return from_rows(self.rows[self.offsets[g] : self.offsets[g + 1]], tuple(seats), slots, int(self.winners[g]))


def check_players(players: int, rules: Rules) -> None:
    """A one-line error when the rules do not allow this many players."""
    if not rules.players_min <= players <= rules.players_max:
        raise TrailwrightError(f"players = {players}: the rules allow {rules.seats()}")


MAX_GAMES = 1_000_000  # every game's tallies are kept (a few hundred bytes each)


def check_games(games: int) -> None:
    """A one-line error for a number of games to play that is not from 1 to ``MAX_GAMES``."""
    if not 1 <= games <= MAX_GAMES:
        raise TrailwrightError(f"{games:,} games: play from 1 to {MAX_GAMES:,}")


def play(
    tiles: TileSet,
    board: Board,
    rules: Rules,
    policies: Sequence[str],
    games: int,
    seed: int = 0,
    engine: str = "fast",
    progress: Callable[[int], None] | None = None,
    log: bool = False,
    threads: int = 1,
) -> Games:
    """Play ``games`` games with one policy name per seat; ``progress(n)`` is called as games finish; with
    ``log``, every game's compact log too (the same games: logging draws nothing). The fast engine plays on
    ``threads`` threads (the same games)."""
    if engine not in ENGINES:
        raise TrailwrightError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    check_games(games)
    if tiles.geometry != board.geometry:
        raise TrailwrightError(
            f"has {tiles.geometry} but {board.label} takes {board.geometry}", tiles.source or "the tile set"
        )
    if len(tiles) != len(board.slots):
        raise TrailwrightError(
            f"has {len(tiles)} tiles but {board.label} has {len(board.slots)} slots", tiles.source or "the tile set"
        )
    check_rules(rules, board)
    check_players(len(policies), rules)
    chosen = tuple(get_policy(name) for name in policies)
    players, places = len(chosen), len(board.slots) + len(board.landmarks)
    out = Games(
        np.zeros(games, np.int64),
        np.zeros(games, np.int64),
        np.zeros(games, np.int64),
        np.zeros(games, np.uint64),
        np.zeros((games, players, len(TALLY_FIELDS)), np.int64),
        np.zeros((len(HEAT_KINDS), places), np.int64),
        np.zeros((0, ROW), ROW_TYPE) if log else None,
        np.zeros(games + 1, np.int64) if log else None,
    )
    if engine == "reference":
        rows = _play_reference(out, tiles, board, rules, chosen, seed, progress)
    else:
        codes = np.array([p.code for p in chosen], np.int64)
        rows = _play_fast(out, tiles, board, rules, codes, seed, progress, threads)
    return replace(out, rows=rows)


def _play_reference(out: Games, tiles, board, rules, chosen, seed, progress) -> np.ndarray | None:
    """Fill ``out`` game by game; the logs' rows when ``out`` is logged."""
    geo = geometry(board, rules)
    logged = out.offsets is not None
    pieces = []
    for g in range(len(out.rounds)):
        r = play_game(tiles, geo, rules, chosen, seed, g, log=logged)
        out.rounds[g], out.winners[g], out.laid[g], out.traces[g] = r.rounds, r.winner, r.laid, r.trace
        out.tallies[g] = r.tallies
        out.heat[...] += r.heat
        if r.log is not None and out.offsets is not None:
            pieces.append(to_rows(r.log))
            out.offsets[g + 1] = out.offsets[g] + len(pieces[-1])
        if progress:
            progress(1)
    return np.concatenate(pieces) if logged else None


def _play_fast(out: Games, tiles, board, rules, codes, seed, progress, threads: int = 1) -> np.ndarray | None:
    """Fill ``out`` a chunk of ``CHUNK`` games at a time, the chunks on ``threads`` threads. Game ``g`` is seeded
    by ``game_seed(seed, g)`` whatever its chunk, and each chunk keeps its own heat and log, added up in order
    afterwards: the same games and numbers on any number of threads."""
    from generator.play.arrays import game_arrays
    from generator.play.fast import play_games
    from generator.play.parallel import in_threads

    arrays = game_arrays(tiles, board, rules)
    games, logged = len(out.rounds), out.offsets is not None
    room = most_rows(rules.round_cap, len(codes), rules.die)

    def chunk(lo: int):
        hi = min(games, lo + CHUNK)
        heat, offsets = np.zeros_like(out.heat), np.zeros(hi - lo + 1, np.int64)
        buffer = np.zeros(1 + ROW * (room + 80 * len(codes) * (hi - lo)) if logged else 0, ROW_TYPE)
        done = 0
        while done < hi - lo:
            done = play_games(
                arrays,
                codes,
                np.uint64(game_seed(seed, lo)),
                out.rounds[lo:hi],
                out.winners[lo:hi],
                out.tallies[lo:hi],
                heat,
                out.laid[lo:hi],
                out.traces[lo:hi],
                buffer,
                offsets,
                done,
            )
            if done < hi - lo:  # the log is full: double it and go on from the next game
                buffer = np.concatenate([buffer, np.zeros(len(buffer), ROW_TYPE)])
        if progress:  # from the chunk's thread (a rich progress bar takes its own lock)
            progress(hi - lo)
        return heat, buffer[1 : 1 + ROW * int(buffer[0])].reshape(-1, ROW) if logged else None, offsets

    parts = in_threads(chunk, range(0, games, CHUNK), threads)
    pieces = []
    for k, (heat, rows, offsets) in enumerate(parts):
        out.heat[...] += heat
        if rows is not None and out.offsets is not None:
            lo = k * CHUNK
            out.offsets[lo + 1 : lo + len(offsets)] = out.offsets[lo] + offsets[1:]
            pieces.append(rows)
    return np.concatenate(pieces) if logged else None


def _quantile(sorted_values: np.ndarray, q: float) -> float:
    """The ``q`` quantile by nearest rank (a whole number of rounds, as a designer reads it)."""
    return float(sorted_values[min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))])


@dataclass(frozen=True)
class PlayReport:
    """What a playtest found: game length, lost turns, rule firings, seats, traps; and the settings.

    Per-game figures are means over games ("per game"), shares are of turns or games as named.
    ``heat[kind][place]`` follows ``HEAT_KINDS`` and ``places`` (slots "1".., then landmark names).
    """

    board: str
    policies: tuple[str, ...]
    games: int
    seed: int
    engine: str
    round_cap: int
    rounds: tuple[int, ...]
    rounds_median: float
    rounds_p10: float
    rounds_p90: float
    rounds_mean: float
    unfinished: float
    win_rate: tuple[float, ...]
    win_se: tuple[float, ...]
    turning_turns: float
    steps_lost: float
    pips_lost_share: float
    lair_entries: float
    chases: float
    connector_crossings: float
    tiles_laid: float
    trapped_share: float
    stuck_turns: float
    stuck_games: float
    places: tuple[str, ...]
    heat: tuple[tuple[int, ...], ...]
    turning_share: float = 0.0  # share of turns spent turning a tile instead of rolling
    turns: int = 0  # turns played, every seat and game
    pips: int = 0  # pips rolled, every seat and game
    quality: Measures | None = None  # the game-quality measures, when asked for (``measures``)
    seat_p: float = 1.0  # the p-value that every seat wins as often (``stats.equal_shares`` of the wins by seat)

    @property
    def players(self) -> int:
        """How many seats played."""
        return len(self.policies)

    def to_dict(self, per_game: bool = True) -> dict:
        """Plain JSON-ready values (no NaN); ``per_game=False`` leaves out the per-game rounds."""
        data = asdict(self)
        data["players"] = self.players
        data["heat"] = {
            kind: dict(zip(self.places, row, strict=True)) for kind, row in zip(HEAT_KINDS, self.heat, strict=True)
        }
        del data["places"], data["quality"]  # written by ``readings.to_dict``, with its readings
        if not per_game:
            del data["rounds"]
        return data


def report(
    games: Games,
    board: Board,
    rules: Rules,
    policies: Sequence[str],
    seed: int,
    engine: str,
    quality: Measures | None = None,
) -> PlayReport:
    """Sum up raw games."""
    n = len(games.rounds)
    fields = {name: games.tallies[:, :, i] for i, name in enumerate(TALLY_FIELDS)}
    per_game = lambda name: float(fields[name].sum() / n)  # noqa: E731
    rounds = np.sort(games.rounds)
    finished = games.winners >= 0
    wins = [float(np.mean(games.winners == p)) for p in range(len(policies))]
    turns, pips = fields["turns"].sum(), fields["pips"].sum()
    return PlayReport(
        board=board.name,
        policies=tuple(policies),
        games=n,
        seed=seed,
        engine=engine,
        round_cap=rules.round_cap,
        rounds=tuple(int(r) for r in games.rounds),
        rounds_median=float(np.median(rounds)),
        rounds_p10=_quantile(rounds, 0.1),
        rounds_p90=_quantile(rounds, 0.9),
        rounds_mean=float(rounds.mean()),
        unfinished=float(np.mean(~finished)),
        win_rate=tuple(wins),
        win_se=tuple(math.sqrt(w * (1 - w) / n) for w in wins),
        turning_turns=per_game("turning_turns"),
        steps_lost=per_game("steps_lost"),
        pips_lost_share=float(fields["steps_lost"].sum() / pips) if pips else 0.0,
        lair_entries=per_game("lair_entries"),
        chases=per_game("chases"),
        connector_crossings=per_game("connector_crossings"),
        tiles_laid=float(games.laid.mean()),
        trapped_share=float(fields["trapped_turns"].sum() / turns) if turns else 0.0,
        stuck_turns=per_game("stuck_turns"),
        stuck_games=float(np.mean(fields["stuck_turns"].sum(axis=1) > 0)),
        places=tuple(str(i + 1) for i in range(len(board.slots))) + tuple(lm.name for lm in board.landmarks),
        heat=tuple(tuple(int(v) for v in row) for row in games.heat),
        turning_share=float(fields["turning_turns"].sum() / turns) if turns else 0.0,
        turns=int(turns),
        pips=int(pips),
        quality=quality,
        seat_p=equal_shares(np.bincount(games.winners[finished], minlength=len(policies))),
    )


def simulate(
    tiles: TileSet,
    board: Board,
    rules: Rules,
    players: int | None = None,
    games: int = 1000,
    policies: Sequence[str] | None = None,
    seed: int = 0,
    engine: str = "fast",
    progress: Callable[[int], None] | None = None,
    measured: int = 0,
    threads: int = 1,
) -> PlayReport:
    """Play ``games`` games and report. ``policies``: one name per seat, or one name for every seat
    (default ``explorer``); ``players`` defaults to the rules' default or to the number of policies. The
    first ``measured`` games are logged and read for the game-quality measures, choices per turn included.
    ``threads``: how many threads play and measure (the same report on any number)."""
    policies = tuple(policies or ("explorer",))
    players = players or (len(policies) if len(policies) > 1 else rules.players_default)
    if len(policies) == 1:
        policies = policies * players
    if len(policies) != players:
        raise TrailwrightError(f"{len(policies)} policies for {players} players: name one, or one per seat")
    raw = play(tiles, board, rules, policies, games, seed, engine, progress, log=measured > 0, threads=threads)
    quality = None
    if measured > 0 and raw.rows is not None and raw.offsets is not None:
        upto = min(measured, games)
        quality = measures_of_rows(
            raw.rows,
            raw.offsets[: upto + 1],
            raw.winners,
            policies,
            board,
            rules,
            tiles,
            count_choices=True,
            threads=threads,
        )
    return report(raw, board, rules, policies, seed, engine, quality)


@dataclass(frozen=True)
class SkillGap:
    """One ``strong`` player among ``weak`` ones, seated in turn at every seat: its win rate against luck."""

    strong: str
    weak: str
    players: int
    games: int
    win_rate: float
    win_se: float
    luck: float

    @property
    def gap(self) -> float:
        """Win rate above the 1/n of pure luck."""
        return self.win_rate - self.luck


def skill_gap(
    tiles: TileSet,
    board: Board,
    rules: Rules,
    players: int,
    games: int,
    strong: str = "explorer",
    weak: str = "greedy",
    seed: int = 0,
    engine: str = "fast",
    progress: Callable[[int], None] | None = None,
    threads: int = 1,
) -> SkillGap:
    """Play ``games`` games split evenly over the strong player's seats; the strong player's win rate."""
    for name in (strong, weak):
        get_policy(name)
    check_players(players, rules)
    wins = played = 0
    for seat in range(players):
        share = games // players + (seat < games % players)
        if share == 0:
            continue
        seats = [weak] * players
        seats[seat] = strong
        raw = play(tiles, board, rules, seats, share, seed + 7919 * (seat + 1), engine, progress, threads=threads)
        wins += int(np.sum(raw.winners == seat))
        played += share
    rate = wins / played
    return SkillGap(strong, weak, players, played, rate, math.sqrt(rate * (1 - rate) / played), 1 / players)


__all__ = ["ENGINES", "POLICIES", "Games", "PlayReport", "SkillGap", "play", "report", "simulate", "skill_gap"]
