"""Label placement on many threads at once: no shapely prepared geometry is shared between threads
(GEOS prepared geometries are not thread-safe; sharing one segfaulted publish on a 200-tile board): each placement
builds its own."""

import json
import random
import subprocess
import sys
import textwrap

import pytest

from generator.board import load_board
from generator.model import read_tileset
from generator.scoring.tables import check_size
from tests.test_publish_standin import ROOT

DIRECTIONS = ["N", "NE", "SE", "S", "SW", "NW"]


def big_board(folder, columns=20, rows=10):
    """A ``columns`` × ``rows`` board (200 slots) with a landmark at each end, and a random tile set for it."""
    slots = ", ".join(f"[{q}, {r}]" for q in range(columns) for r in range(rows))
    board = folder / "big.toml"
    board.write_text(
        f'format = "hexmaze-board/1"\nname = "big"\nslots = [{slots}]\n'
        f'[[landmark]]\nname = "West"\nhexes = [[-1, 0]]\n'
        f'[[landmark]]\nname = "East"\nhexes = [[{columns}, {rows // 2}]]\n'
    )
    rng = random.Random(5)

    def side():
        dirs, trails = rng.sample(DIRECTIONS, 6), []
        while dirs:
            k = rng.randint(1, min(4, len(dirs)))
            trails, dirs = trails + [dirs[:k]], dirs[k:]
        return trails

    tileset = folder / "big.json"
    tileset.write_text(
        json.dumps(
            {
                "format": "hexmaze-tileset/1",
                "tiles": [{"id": str(i + 1), "front": side(), "back": side()} for i in range(columns * rows)],
            }
        )
    )
    return board, tileset


STRESS = textwrap.dedent("""
    import sys, threading
    from generator.model import read_tileset
    from generator.render.labels import place_label
    from generator.render.style import load_style
    from generator.render.tiles import scale_of, side_layout

    style = load_style(None)
    sides = [t.face(f) for t in read_tileset(sys.argv[1]) for f in ("front", "back")][:int(sys.argv[2])]
    for side in sides:  # four threads place a label on the same side at the same moment
        start = threading.Barrier(4)
        def place():
            start.wait()
            place_label(side, side_layout(side, style), style, scale_of(side.geometry, style), "123 front")
        threads = [threading.Thread(target=place) for _ in range(4)]
        [t.start() for t in threads]
        [t.join() for t in threads]
    print("placed", len(sides))
""")


@pytest.mark.slow
def test_label_placement_on_a_200_tile_board_survives_four_threads_at_once(tmp_path):
    board, tileset = big_board(tmp_path)
    check_size(read_tileset(tileset), load_board(str(board)))  # the set fills the 200-slot board
    run = subprocess.run(
        [sys.executable, "-c", STRESS, str(tileset), "160"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, f"exit {run.returncode} (-11 is a segfault): {run.stderr[-500:]}"
    assert run.stdout.strip() == "placed 160"
