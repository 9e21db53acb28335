"""Scoring speed per tile geometry (issue 44): nanoseconds per layout of the compiled engine on each example
board, and per join of the board's end-level joins, so geometries of different sizes compare.

Rows:
- the classic board with the classic kernel (its tuned code: four layouts at once, three stores a tile)
  and with the engine for any geometry (one layout at a time), to show what the tuning is worth and that
  the classic game keeps its kernel;
- the three example boards of other geometries (``examples/optimized-*.json``).

Target: the engine for any geometry within 5 times the classic kernel on the classic board (the
classic kernel is what the classic game runs; this keeps the other engine honest). Each figure is the
best of ``--repeats`` runs of one-thread CPU time (see ``bench_scoring``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import print_rows

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--samples", "2000", "--repeats", "1"]

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
OTHERS = (
    ("optimized-square-jungle.json", "square-jungle"),
    ("optimized-square-pathways.json", "square-pathways"),
    ("optimized-hex-pairs.json", "hex-pairs"),
)
RATIO_TARGET = 5.0


def main(argv: list[str]) -> int:
    """Measure and print; exit status 1 when the target is missed."""
    import numpy as np

    from benchmarks.bench_scoring import best_rate
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.scoring import kernel, kernel_any
    from generator.scoring.tables import board_arrays, tile_tables

    parser = argparse.ArgumentParser(prog="bench_geometry")
    parser.add_argument("--samples", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    def engine_ns(table, arrays, untuned: bool) -> float:
        flat = np.ascontiguousarray(table, dtype=np.uint8).ravel()
        board = (arrays.ends_a, arrays.ends_b, arrays.attach, arrays.same_ends, arrays.pair_a, arrays.pair_b)
        if untuned:
            run = lambda n: kernel_any._sample_and_score(  # noqa: E731
                flat, arrays.ends, arrays.turns, arrays.slots, arrays.landmarks, n, 1, board
            )
        else:
            run = lambda n: kernel.sample_and_score(table, arrays, n, 1)  # noqa: E731
        run(8)  # compiled (or loaded from the disk cache) before the clock
        return 1e9 / best_rate(run, args.samples, args.repeats)

    rows = []
    classic = load_board("classic")
    table, arrays = tile_tables(read_tileset(EXAMPLES / "best-known.json")), board_arrays(classic)
    tuned = engine_ns(table, arrays, untuned=False)
    untuned = engine_ns(table, arrays, untuned=True)
    rows.append(
        ("classic, classic kernel", f"{tuned:7.0f} ns/layout  {tuned / len(arrays.ends_a):5.1f} ns/join", "", True)
    )
    rows.append(
        (
            "classic, engine for any geometry",
            f"{untuned:7.0f} ns/layout  {untuned / len(arrays.ends_a):5.1f} ns/join",
            f"ratio {untuned / tuned:.2f} <= {RATIO_TARGET}",
            untuned / tuned <= RATIO_TARGET,
        )
    )
    for name, board_name in OTHERS:
        board = load_board(board_name)
        table, arrays = tile_tables(read_tileset(EXAMPLES / name)), board_arrays(board)
        ns = engine_ns(table, arrays, untuned=True)
        rows.append(
            (
                f"{board_name} ({board.geometry})",
                f"{ns:7.0f} ns/layout  {ns / len(arrays.ends_a):5.1f} ns/join",
                "",
                True,
            )
        )
    return print_rows("scoring per geometry (one thread, best of the repeats):", rows)
