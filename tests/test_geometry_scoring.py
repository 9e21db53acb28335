"""Scoring on any geometry: the compiled engine equals the networkx reference layout by layout, on a
small square board, the Tsuro-like board, the hex board with paired trails and a double-sided square
board with two ends an edge; on the classic board the engine for any geometry equals the classic kernel."""

from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from generator.board import board_from_dict, load_board
from generator.errors import TrailwrightError
from generator.model import Side, Tile, TileSet, read_tileset
from generator.model.designs import sides
from generator.scoring import kernel, stream
from generator.scoring.score import layout_scores, score
from generator.scoring.stream import Counts
from generator.scoring.tables import board_arrays, tile_tables

SMALL_SQUARE = {
    "name": "small-square",
    "tiles": {"shape": "square", "ends_per_edge": 1, "trails": "any", "faces": 2},
    "slots": [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2]],
    "landmark": [
        {"name": "Pond", "hexes": [[1, 1]]},
        {"name": "Hut", "hexes": [[-1, 0], [-1, 1]]},
        {"name": "Mill", "hexes": [[3, 1]]},
    ],
    "connector": [{"hex": [2, 2], "joins": [[2, 1], [1, 2]]}],
}
SQUARE_TWO_ANY = {
    "name": "square-two-any",
    "tiles": {"shape": "square", "ends_per_edge": 2, "trails": "any", "faces": 2},
    "slots": [[x, y] for y in range(3) for x in range(3)],
    "landmark": [{"name": "North", "hexes": [[1, -1]]}, {"name": "East", "hexes": [[3, 0], [3, 1]]}],
}


def _random_set(board, seed: int) -> TileSet:
    """A tile set of random sides of the board's geometry."""
    rng = np.random.default_rng(seed)
    pool = sides(board.geometry)
    pick = lambda: pool[int(rng.integers(len(pool)))]  # noqa: E731
    if board.geometry.faces == 1:
        return TileSet(tuple(Tile.single(str(i + 1), pick()) for i in range(board.tile_count)))
    return TileSet(tuple(Tile(str(i + 1), pick(), pick()) for i in range(board.tile_count)))


BOARDS = [
    pytest.param(lambda: board_from_dict(SMALL_SQUARE), id="small-square"),
    pytest.param(lambda: load_board("square-pathways"), id="tsuro-like"),
    pytest.param(lambda: load_board("hex-pairs"), id="hex-pairs"),
    pytest.param(lambda: load_board("square-jungle"), id="jungle"),
    pytest.param(lambda: board_from_dict(SQUARE_TWO_ANY), id="square-two-any"),
]


@pytest.mark.parametrize("make", BOARDS)
def test_engine_equals_reference_layout_by_layout(make):
    board = make()
    for seed in (1, 2):
        tiles = _random_set(board, seed)
        fast = layout_scores(tiles, board, 150, seed, "fast")
        ref = layout_scores(tiles, board, 150, seed, "reference")
        assert np.array_equal(fast.extra, ref.extra)
        assert np.array_equal(fast.mask, ref.mask)
        assert np.array_equal(fast.joined, ref.joined)
        assert fast.joined.max() > 0  # some pairs are joined: the test sees the landmarks


@pytest.mark.parametrize("make", BOARDS[:3])
def test_given_layouts_and_streamed_counts_agree(make):
    board = make()
    tiles = _random_set(board, 5)
    table, arrays = tile_tables(tiles), board_arrays(board)
    perm, flip, rot = kernel.board_layouts(arrays, 300, 9)
    assert flip.max() == board.geometry.faces - 1 and rot.max() == board.geometry.rotations - 1
    given = kernel.score_layouts(table, arrays, perm, flip, rot)
    drawn = kernel.sample_and_score(table, arrays, 300, 9)
    assert all(np.array_equal(a, b) for a, b in zip(given, drawn, strict=True))
    one = stream.accumulate(table, arrays, 300, 9)
    threaded = stream.accumulate(table, arrays, 300, 9, threads=2, chunk=16)
    expected = Counts.of(arrays, *drawn)
    for counts in (one, threaded):
        assert np.array_equal(counts.hist, expected.hist) and np.array_equal(counts.hits, expected.hits)


def test_the_general_body_equals_the_classic_specialisation_on_the_classic_board():
    board = load_board("classic")
    table, arrays = tile_tables(read_tileset("examples/best-known.json")), board_arrays(board)
    classic = kernel.sample_and_score(table, arrays, 2000, 3)
    args = (arrays.ends_a, arrays.ends_b, arrays.attach, arrays.same_ends, arrays.pair_a, arrays.pair_b)
    flat = np.ascontiguousarray(table, dtype=np.uint8).ravel()
    general = kernel._sample_and_score(flat, 6, 12, 20, arrays.landmarks, 2000, np.uint64(3), args)  # not _classic
    assert all(np.array_equal(a, b) for a, b in zip(classic, general, strict=True))


def test_a_single_sided_tile_is_never_flipped():
    board = load_board("square-pathways")
    _, flip, rot = kernel.board_layouts(board_arrays(board), 500, 1)
    assert not flip.any() and set(np.unique(rot)) == {0, 1, 2, 3}


def test_two_ends_of_an_edge_meet_their_mirror_ends():
    """Two square tiles side by side: a U-turn on the shared edge of one and straight pairs on the other."""
    board = board_from_dict(
        {
            "tiles": {"shape": "square", "ends_per_edge": 2, "trails": "pairs", "faces": 1},
            "slots": [[0, 0], [1, 0]],
            "landmark": [{"name": "A", "hexes": [[-1, 0]]}, {"name": "B", "hexes": [[2, 0]]}],
        }
    )
    g = board.geometry
    straight = {"N1": "S2", "N2": "S1", "E1": "W2", "E2": "W1"}
    east = [g.end_names.index(n) for n in ("E1", "E2")]
    assert [g.facing_end(e) for e in east] == [g.end_names.index("W2"), g.end_names.index("W1")]
    plain = Side.from_names([[a, b] for a, b in straight.items()], g)
    tiles = TileSet((Tile.single("1", plain), Tile.single("2", plain)))
    joined = layout_scores(tiles, board, 64, 0, "fast").joined
    # the E-W pairs go straight across whatever the turns: A meets B in every layout
    assert joined.min() == 1


def test_a_tile_set_of_another_geometry_is_refused_with_one_line():
    board = load_board("square-jungle")
    tiles = read_tileset("examples/best-known.json")
    with pytest.raises(TrailwrightError, match="has hex tiles, one end per edge.*takes square tiles"):
        score(tiles, board, 10)


def test_holes_say_where_they_apply_and_why_not_elsewhere():
    from generator.model.geometry import CLASSIC, TileGeometry, bell
    from generator.scoring.holes import unavailable

    assert [bell(n) for n in (1, 4, 6, 8, 12)] == [1, 15, 203, 4_140, 4_213_597]
    assert unavailable(CLASSIC) is None
    assert unavailable(TileGeometry("square", 1, "any", 1)) is None  # 15 partitions by 7 designs
    big = unavailable(TileGeometry("hex", 2, "pairs", 2))
    assert big is not None and "4,213,597 partitions" in big and "1,799 designs" in big
    small = unavailable(TileGeometry("square", 2, "pairs", 1))
    assert small is not None and "4,140 partitions by 35 designs" in small and "six ends" in small


def _root(parent: dict, x):
    """The root of ``x`` in a plain union-find."""
    while parent.setdefault(x, x) != x:
        x = parent[x]
    return x


def _by_points(board, tiles, perm, flip, rot):
    """An independent scorer: placed ends meet where they lie in the plane (no join lists, no mirror rule).

    A slot end and another slot's end at the same point are joined; a slot end at a point where a landmark
    cell has an end joins the landmark. Boards without connectors only.
    """
    g = board.geometry

    def where(cell, end):
        (x, y), (ex, ey) = g.cell_centre(cell), g.end_point(end)
        return (round(x + ex, 5), round(y + ey, 5))

    marks = {where(c, k): f"L{i}" for i, lm in enumerate(board.landmarks) for c in lm.hexes for k in range(g.ends)}
    out = []
    for i in range(len(perm)):
        at: dict = {}
        edges = set()
        for s, cell in enumerate(board.slots):
            tile = tiles.tiles[int(perm[i, s])]
            side = (tile.back if flip[i, s] else tile.front).rotated(int(rot[i, s]))
            for k in range(g.ends):
                p, v = where(cell, k), (s, side.trail_of(k))
                if p in marks:
                    edges.add(frozenset((v, marks[p])))
                if p in at:
                    edges.add(frozenset((v, at[p])))
                at[p] = v
        parent: dict = {}
        find = partial(_root, parent)
        for a, b in (tuple(e) for e in edges):
            parent[find(a)] = find(b)
        roots = {find(v) for v in parent}
        extra = len(edges) - (len(parent) - len(roots))
        names = [f"L{k}" for k in range(len(board.landmarks))]
        joined = [
            a in parent and b in parent and find(a) == find(b)
            for a, b in ((names[p], names[q]) for p, q in board.landmark_pairs())
        ]
        out.append((extra, sum(joined)))
    return out


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: load_board("square-pathways"), id="tsuro-like"),
        pytest.param(lambda: replace(load_board("hex-pairs"), connectors=()), id="hex-pairs-no-connectors"),
        pytest.param(lambda: board_from_dict(SQUARE_TWO_ANY), id="square-two-any"),
    ],
)
def test_engine_equals_a_scorer_that_joins_ends_by_where_they_lie(make):
    board = make()
    tiles = _random_set(board, 11)
    arrays = board_arrays(board)
    perm, flip, rot = kernel.board_layouts(arrays, 120, 4)
    extra, _, joined = kernel.score_layouts(tile_tables(tiles), arrays, perm, flip, rot)
    assert _by_points(board, tiles, perm, flip, rot) == list(zip(extra.tolist(), joined.tolist(), strict=True))
