"""The reference engine: the article's graph built with networkx, written for clarity, on any geometry.

It is the oracle the fast kernel is tested against, layout by layout.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from generator.board import Board, LandmarkEnd, SlotSide
from generator.model import Side, TileSet


def placed_sides(tileset: TileSet, perm, flip, rot) -> list[Side]:
    """The side showing in each slot: tile ``perm[s]``, flipped if ``flip[s]``, turned ``rot[s]`` edges."""
    sides = []
    for s in range(len(perm)):
        tile = tileset.tiles[int(perm[s])]
        face = tile.back if flip[s] else tile.front
        sides.append(face.rotated(int(rot[s])))
    return sides


def layout_graph(board: Board, sides: list[Side]) -> nx.Graph:
    """The article's simple graph: a vertex per (slot, trail) and per landmark, an edge per join."""

    g = board.geometry

    def vertex(end, position: int):
        if isinstance(end, LandmarkEnd):
            return board.landmarks[end.landmark].name
        assert isinstance(end, SlotSide)
        return (end.slot, sides[end.slot].trail_of(g.end_at(end.direction, position)))

    graph = nx.Graph()  # each join of two edges joins their ends, end p of the one with end m-1-p of the other
    graph.add_edges_from(
        (vertex(j.a, p), vertex(j.b, g.meeting(p))) for j in board.joins() for p in range(g.ends_per_edge)
    )
    return graph


def score_layout(board: Board, sides: list[Side]) -> tuple[int, int, int]:
    """(extra edges, joined-pair mask, joined-pair count) of one layout."""
    graph = layout_graph(board, sides)
    components = nx.number_connected_components(graph)
    extra = graph.number_of_edges() - (graph.number_of_nodes() - components)
    mask = joined = 0
    names = [lm.name for lm in board.landmarks]
    for bit, (a, b) in enumerate(board.landmark_pairs()):
        if nx.has_path(graph, names[a], names[b]):
            mask |= 1 << bit
            joined += 1
    return extra, mask, joined


def score_layouts(tileset: TileSet, board: Board, perm, flip, rot):
    """Score every given layout: ``(extra, mask, joined)`` arrays, like the fast kernel."""
    count = len(perm)
    extra = np.zeros(count, np.int16)
    masks = np.zeros(count, np.uint64)
    joined = np.zeros(count, np.int8)
    for i in range(count):
        extra[i], masks[i], joined[i] = score_layout(board, placed_sides(tileset, perm[i], flip[i], rot[i]))
    return extra, masks, joined
