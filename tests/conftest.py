"""Shared fixtures: the built-in boards and a few tile sets."""

from pathlib import Path

import pytest

from generator.board import load_board
from generator.model import read_tileset

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def classic():
    return load_board("classic")


@pytest.fixture(scope="session")
def hexagon37():
    return load_board("hexagon37")


@pytest.fixture(scope="session")
def random20():
    """20 random tiles (2 to 4 trails a side)."""
    return read_tileset(EXAMPLES / "random-20.json")
