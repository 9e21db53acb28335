"""A score's figures as a tile set file records them: ``optimize`` writes them into the ``score`` of the
file's ``meta`` block (``score_record``) and ``publish`` reads them back (``figures_from_meta``), so
the designer's page does not score the same tile set again.

The record names what it was computed for: a digest of the tiles and of the board, and (in
``meta.settings.objective``) the weights. Figures are used only when all three match; anything
absent, malformed or different means score again.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, dataclass

from generator.board import Board
from generator.model import TileSet, dumps_tileset
from generator.scoring.objective import ARTICLE, Objective
from generator.scoring.score import Score


@dataclass(frozen=True)
class Figures:
    """The designer's page numbers: from the scorer, or a tile set's ``meta`` block."""

    fitness: float
    fitness_se: float
    pairs_joined: float
    extra_edges: float
    samples: int
    seed: int
    pairs: tuple[tuple[str, float], ...]


def figures_from_score(report: Score) -> Figures:
    """Figures from a ``Score``."""
    return Figures(
        report.fitness,
        report.fitness_se,
        report.path_prob_mean,
        report.extra_edges_mean,
        report.samples,
        report.seed,
        tuple(report.pair_prob.items()),
    )


def tileset_digest(tileset: TileSet) -> str:
    """sha256 of the tile set's canonical JSON (tiles only, no meta)."""
    return hashlib.sha256(dumps_tileset(tileset).encode("utf-8")).hexdigest()


def board_digest(board: Board) -> str:
    """sha256 of the board's full value (slots, landmarks, connectors, and its tiles' geometry unless it is the
    classic game's, so a classic board's digest is what it was before geometries), not just its name."""
    text = repr(board) if board.geometry.is_classic else f"{board!r} {board.geometry!r}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def score_record(report: Score, fitness: float, tileset: TileSet, board: Board) -> dict:
    """The ``score`` of a ``meta`` block: the figures, rounded to 6 places, and what they belong to."""
    return {
        "fitness": round(fitness, 6),
        "fitness_se": round(report.fitness_se, 6),
        "samples": report.samples,
        "seed": report.seed,
        "bridges": report.bridges,
        "dup_score": report.dup_score,
        "fully_connected": report.fully_connected,
        "extra_edges": round(report.extra_edges_mean, 6),
        "pairs_joined": round(report.path_prob_mean * len(report.pair_prob), 6),
        "path_prob": round(report.path_prob_mean, 6),
        "pair_prob": {name: round(p, 6) for name, p in report.pair_prob.items()},
        "tiles_sha256": tileset_digest(tileset),
        "board_sha256": board_digest(board),
    }


def _share(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def figures_from_meta(
    meta, tileset: TileSet, board: Board, objective: Objective = ARTICLE
) -> tuple[Figures | None, str]:
    """The recorded figures when they are for this tile set, board and objective (``objective.on(board)``, as
    ``optimize`` records it: its side count and, on other tiles, its trail limit follow the board); else None and
    why not."""
    score = meta.get("score") if isinstance(meta, dict) else None
    settings = meta.get("settings") if isinstance(meta, dict) else None
    if not isinstance(score, dict) or "pair_prob" not in score:
        return None, "the tile set records no figures"
    if score.get("tiles_sha256") != tileset_digest(tileset):
        return None, "the recorded figures are for other tiles"
    if score.get("board_sha256") != board_digest(board):
        return None, f"the recorded figures are for another board than {board.name!r}"
    wanted = json.loads(json.dumps(asdict(objective.on(board))))  # as optimize records it for this board
    if not isinstance(settings, dict) or settings.get("objective") != wanted:
        return None, "the recorded figures are for another objective"
    pairs = score["pair_prob"]
    ok = (
        isinstance(pairs, dict)
        and list(pairs) == board.pair_names()
        and all(map(_share, pairs.values()))
        and all(_finite(score.get(k)) for k in ("fitness", "fitness_se", "extra_edges"))
        and _share(score.get("path_prob"))
        and all(
            isinstance(score.get(k), int) and not isinstance(score.get(k), bool) and score[k] >= 0
            for k in ("samples", "seed")
        )
        and score["samples"] > 0
    )
    if not ok:
        return None, "the recorded figures are malformed"
    figures = Figures(
        float(score["fitness"]),
        float(score["fitness_se"]),
        float(score["path_prob"]),
        float(score["extra_edges"]),
        score["samples"],
        score["seed"],
        tuple((name, float(p)) for name, p in pairs.items()),
    )
    return figures, f"{figures.samples:,} layouts, seed {figures.seed}"
