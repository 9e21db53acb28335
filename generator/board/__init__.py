"""Boards as data: slots, landmarks and connectors (see ``board`` for the glossary)."""

from generator.board.board import (
    Board,
    Connector,
    End,
    Join,
    Landmark,
    LandmarkEnd,
    SlotSide,
    board_from_dict,
    builtin_boards,
    load_board,
)
from generator.board.geometry import Hex, centre, neighbour

__all__ = [
    "Board",
    "Connector",
    "End",
    "Join",
    "Landmark",
    "LandmarkEnd",
    "SlotSide",
    "board_from_dict",
    "builtin_boards",
    "load_board",
    "Hex",
    "centre",
    "neighbour",
]
