"""The river theme's wall: its pattern repeats without seams at print resolution (the wall art's mortar is painted
under the pattern, and no stone crosses the pattern's edges)."""

import io
from dataclasses import replace
from pathlib import Path

import cairosvg
import numpy as np
from PIL import Image

from generator.board import load_board
from generator.render import load_style, render_board
from generator.render.board import board_frame

RIVER = Path(__file__).resolve().parents[1] / "generator" / "themes" / "river"


def test_the_river_wall_shows_no_seams_at_300_dpi():
    style = replace(load_style(RIVER), board_ground="#ff00ff")  # a seam would show the ground: magenta
    board = load_board("classic")
    png = cairosvg.svg2png(bytestring=render_board(board, style).encode(), dpi=300)
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    frame, px = board_frame(board, style), 300 / 25.4
    tinted = 0
    for h in frame.walls:  # the middle of every wall hex, clear of its outline
        x, y = frame.at(h)
        r = 0.55 * frame.radius_mm
        window = image[int((y - r) * px) : int((y + r) * px), int((x - r) * px) : int((x + r) * px)]
        tinted += int(((window[..., 0] - window[..., 1]) > 40).sum())
    assert len(frame.walls) >= 5 and tinted == 0
