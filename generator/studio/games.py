"""The figures' games: explorer games of a tile set on the project's board and rules, the same games (seed) for
every version, kept for the last few versions so that undo and redo show them at once.

Glossary
--------
games      ``games_for(board)`` explorer games: the median rounds, the share of turns trapped, the games that hit
           the round cap, and a histogram of games by rounds (the last bar holds every longer game too). The
           median and the trapped share come with their standard errors (the games are a sample).
quick      an edit's reply carries the score figures at once and the games when they are kept already; the page
           asks for the games (``/api/games``) after it has drawn the score, so a big board's games never hold
           the fitness back.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from generator.board import Board
from generator.model import TileSet
from generator.play.rules import Rules

GAMES = 1_000  # explorer games per figure, on boards of up to 40 slots (fewer on bigger ones: ``games_for``)
SEED = 0  # the games' seed (common random numbers)
KEPT = 16  # versions whose games are kept


def games_for(board: Board) -> int:
    """Explorer games per figure: ``GAMES`` up to 40 slots, then fewer in proportion (a game's cost grows with the
    board; at least 100), so that an edit's figures keep coming within a second or two on a big board."""
    slots = len(board.slots)
    return GAMES if slots <= 40 else max(100, GAMES * 40 // slots)


def play(tiles: TileSet, board: Board, rules: Rules) -> dict[str, Any]:
    """The games' figures (see the module glossary)."""
    from generator.play.simulate import simulate
    from generator.scoring.stream import available_cores

    count = games_for(board)
    games = simulate(tiles, board, rules, None, count, ("explorer",), SEED, threads=available_cores())
    rounds = np.asarray(games.rounds)
    tail = max(4, int(3 * games.rounds_median))  # longer games share the last bar
    counts = np.bincount(np.minimum(rounds, tail), minlength=tail + 1)
    # the median's standard error: the spread of the middle of the sample (the order statistics' binomial rule)
    half = 0.5 * np.sqrt(count)
    low, high = np.sort(rounds)[[max(0, int(count / 2 - half)), min(count - 1, int(count / 2 + half))]]
    trapped = games.trapped_share
    return {
        "games": count,
        "median_rounds": games.rounds_median,
        "median_rounds_se": float(high - low) / 2,
        "trapped": trapped,
        "histogram": counts.tolist(),  # games by rounds, from 0; the last bar holds every longer game too
        "unfinished": games.unfinished,
        "round_cap": rules.round_cap,
    }


class Played:
    """The games of the last ``KEPT`` versions played (see ``quick``), by tile set."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple, dict[str, Any]] = OrderedDict()

    def get(self, tiles: TileSet, board: Board, rules: Rules, *, play_now: bool = True) -> dict[str, Any] | None:
        """The games of ``tiles`` (played now when they are not kept and ``play_now``; else None)."""
        key = (tiles, board, rules)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if not play_now:
            return None
        out = self._kept[key] = play(tiles, board, rules)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return out
