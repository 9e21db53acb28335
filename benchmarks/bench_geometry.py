"""Scoring speed per tile geometry (issue 44): nanoseconds per layout of the compiled engine on each example
board, and per join of the board's end-level joins, so geometries of different sizes compare.

Rows:
- the classic board with the kernel as the classic game runs it (its body compiled for six ends and twelve
  turns as constants) and with the same body compiled for any ends and turns, to show what the
  specialisation is worth: it stays only while it pays (at least 1.2 times, issue 51);
- the three example boards of other geometries (``examples/optimized-*.json``).

Target: the specialisation at least 1.2 times as fast as the general body on the classic board. Each figure
is the best of ``--repeats`` runs of one-thread CPU time (see ``bench_scoring``).
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
RATIO_TARGET = 1.2


def main(argv: list[str]) -> int:
    """Measure and print; exit status 1 when the target is missed."""
    import numpy as np

    from benchmarks.bench_scoring import best_rate
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.scoring import kernel
    from generator.scoring.tables import board_arrays, tile_tables

    parser = argparse.ArgumentParser(prog="bench_geometry")
    parser.add_argument("--samples", type=int, default=400_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    def engine_ns(table, arrays, general: bool) -> float:
        flat = np.ascontiguousarray(table, dtype=np.uint8).ravel()
        board = (arrays.ends_a, arrays.ends_b, arrays.attach, arrays.same_ends, arrays.pair_a, arrays.pair_b)
        if general:  # the entry compiled for ends and turns given at run time, not the classic one
            run = lambda n: kernel._sample_and_score(  # noqa: E731
                flat, arrays.ends, arrays.turns, arrays.slots, arrays.landmarks, n, np.uint64(1), board
            )
        else:
            run = lambda n: kernel.sample_and_score(table, arrays, n, 1)  # noqa: E731
        run(8)  # compiled (or loaded from the disk cache) before the clock
        return 1e9 / best_rate(run, args.samples, args.repeats)

    rows = []
    classic = load_board("classic")
    table, arrays = tile_tables(read_tileset(EXAMPLES / "best-known.json")), board_arrays(classic)
    special = engine_ns(table, arrays, general=False)
    general = engine_ns(table, arrays, general=True)
    speed = f"{special:7.0f} ns/layout  {special / len(arrays.ends_a):5.1f} ns/join"
    rows.append(("classic, as the game runs it", speed, "", True))
    rows.append(
        (
            "classic, the general body",
            f"{general:7.0f} ns/layout  {general / len(arrays.ends_a):5.1f} ns/join",
            f"specialised {general / special:.2f}x >= {RATIO_TARGET}",
            general / special >= RATIO_TARGET,
        )
    )
    for name, board_name in OTHERS:
        board = load_board(board_name)
        table, arrays = tile_tables(read_tileset(EXAMPLES / name)), board_arrays(board)
        ns = engine_ns(table, arrays, general=False)
        rows.append(
            (
                f"{board_name} ({board.geometry})",
                f"{ns:7.0f} ns/layout  {ns / len(arrays.ends_a):5.1f} ns/join",
                "",
                True,
            )
        )
    return print_rows("scoring per geometry (one thread, best of the repeats):", rows)
