"""Tile geometry as data: ends, rotations, mirror ends, sides and designs per geometry, minimum crossings
against a brute-force drawing search, the tile set format for any geometry, and square boards."""

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.board import SlotSide, board_from_dict, load_board
from generator.errors import TrailwrightError
from generator.model import Side, Tile, TileSet, dumps_tileset, tileset_from_dict
from generator.model.designs import designs, sides
from generator.model.geometry import CLASSIC, TileGeometry
from generator.model.tiles import mirror

HEX_ANY = CLASSIC
SQUARE_ANY = TileGeometry("square", 1, "any", 1)
SQUARE_PAIRS = TileGeometry("square", 2, "pairs", 1)
HEX_PAIRS = TileGeometry("hex", 2, "pairs", 2)
SQUARE_2_ANY = TileGeometry("square", 2, "any", 2)
GEOMETRIES = [HEX_ANY, SQUARE_ANY, SQUARE_PAIRS, HEX_PAIRS, SQUARE_2_ANY]

# the domain brief, "Other path-tile games" (docs/geometry.md): sides and designs up to rotation
COUNTS = {HEX_ANY: (203, 43), SQUARE_ANY: (15, 7), SQUARE_PAIRS: (105, 35), HEX_PAIRS: (10_395, 1_799)}
COUNTS[SQUARE_2_ANY] = (4_140, 1_084)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_side_and_design_counts(geometry):
    assert (len(sides(geometry)), len(designs(geometry))) == COUNTS[geometry]
    assert len(set(sides(geometry))) == len(sides(geometry))


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_the_designs_are_every_sides_canonical_form(geometry):
    """``designs`` turns each design's sides once; the plain reference takes every side's ``canonical``."""
    assert designs(geometry) == tuple(sorted({side.canonical for side in sides(geometry)}))


def test_faces_do_not_change_sides_or_designs():
    single = TileGeometry("hex", 1, "any", 1)
    assert [s.trails for s in designs(single)] == [s.trails for s in designs(CLASSIC)]


@st.composite
def geometry_sides(draw):
    geometry = draw(st.sampled_from(GEOMETRIES))
    return draw(st.sampled_from(sides(geometry)))


@settings(max_examples=120, deadline=None)
@given(geometry_sides(), st.integers(-13, 13))
def test_canonical_form_is_invariant_under_rotation(side, steps):
    g = side.geometry
    turned = side.rotated(steps)
    assert turned.canonical == side.canonical
    assert side.canonical in {side.rotated(k) for k in range(g.rotations)}
    assert side.rotated(g.rotations) == side
    assert turned.min_crossings == side.min_crossings
    assert sorted(map(len, turned.trails)) == sorted(map(len, side.trails))


@settings(max_examples=80, deadline=None)
@given(geometry_sides())
def test_a_turn_moves_every_end_one_edge(side):
    g = side.geometry
    for trail in side.trails:
        moved = tuple(sorted(g.turned(d, 1) for d in trail))
        assert moved in side.rotated(1).trails
        assert all(g.edge_of(g.turned(d, 1)) == (g.edge_of(d) + 1) % g.edges for d in trail)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_mirror_end_meets_its_neighbour_at_the_same_point(geometry):
    """Across every shared edge, an end and its mirror end on the neighbour are one point of the plane."""
    for cell in [(0, 0), (1, 0), (2, 3), (3, 2)]:
        x, y = geometry.cell_centre(cell)
        for end in range(geometry.ends):
            other = geometry.neighbour(cell, geometry.edge_of(end))
            facing = geometry.facing_end(end)
            assert geometry.edge_of(facing) == geometry.opposite(geometry.edge_of(end))
            assert geometry.facing_end(facing) == end
            ex, ey = geometry.end_point(end)
            ox, oy = geometry.cell_centre(other)
            fx, fy = geometry.end_point(facing)
            assert (x + ex, y + ey) == pytest.approx((ox + fx, oy + fy), abs=1e-9)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=str)
def test_mirror_end_is_the_reflection_about_the_vertical_axis(geometry):
    for end in range(geometry.ends):
        x, y = geometry.end_point(end)
        assert geometry.end_point(geometry.mirror_end(end)) == pytest.approx((-x, y), abs=1e-9)
    assert [CLASSIC.mirror_end(d) for d in range(6)] == [mirror(d) for d in range(6)]


def test_ends_are_numbered_clockwise_from_the_top_left_corner():
    for geometry in GEOMETRIES:
        first = _angle(geometry.corners()[0], 0)
        angles = [_angle(geometry.end_point(k), first) for k in range(geometry.ends)]
        assert angles == sorted(angles), geometry
        assert geometry.end_point(0)[1] < 0  # on the top edge


def _angle(point, start):
    """The angle of ``point`` from ``start`` degrees, growing clockwise on screen (y down)."""
    import math

    return (math.degrees(math.atan2(point[1], point[0])) - start) % 360


# --- minimum crossings against a brute-force drawing search -----------------------------------


def _cross(p, q, r, s) -> bool:
    """Whether segments pq and rs cross at a point inside both (they share no end here)."""

    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 1e-12) - (v < -1e-12)

    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def _hubs(geometry):
    """Candidate branch points of a trail: a grid over the tile's inside."""
    steps = [i / 4 - 0.75 for i in range(7)]
    return [(x, y) for x in steps for y in steps if x * x + y * y < 0.55]


def _path(points):
    """The segments of a path through ``points`` in order."""
    return [(points[i], points[i + 1]) for i in range(len(points) - 1)]


def _drawn_crossings(side, hubs) -> int:
    """The fewest crossings over drawings of ``side``: every trail of two or more ends drawn as a star of
    straight segments from one of ``hubs``, or as a path of straight segments through its ends in their
    clockwise order, from any of them (with two ends: the straight chord)."""
    g = side.geometry
    options: list[list] = []
    for i, trail in enumerate(side.trails):
        points = [g.end_point(d) for d in trail]
        if len(points) == 1:
            options.append([[]])  # a stub ends at the outline: it crosses nothing
            continue
        own = [(x + 0.0123 * (i + 1), y + 0.0071 * (i + 1)) for x, y in hubs]  # in general position
        stars = [[(c, p) for p in points] for c in own]
        paths = [_path(points[k:] + points[:k]) for k in range(len(points))]
        options.append(stars + paths)
    best = 1 << 30
    for drawing in itertools.product(*options):
        count = 0
        for a, b in itertools.combinations(drawing, 2):
            count += sum(_cross(p, q, r, s) for p, q in a for r, s in b)
        best = min(best, count)
        if best == 0:
            break
    return best


@pytest.mark.parametrize(
    ("geometry", "stride"),
    [
        (SQUARE_ANY, 1),
        (HEX_ANY, 1),
        (SQUARE_2_ANY, 97),
        pytest.param(SQUARE_2_ANY, 1, marks=[pytest.mark.slow, pytest.mark.heavy]),
    ],
    ids=str,
)
def test_min_crossings_match_a_drawing_search(geometry, stride):
    """Every design of the small geometries and of square/2/any (1,084, about a minute: ``make test-heavy``;
    every 97th in ``make test``): the count is a lower bound (``generator.model.crossings``), and a drawing
    that reaches it makes it exact."""
    hubs = _hubs(geometry)
    for side in designs(geometry)[::stride]:
        if max(map(len, side.trails)) >= 3 and sum(len(t) >= 3 for t in side.trails) == 2:
            found = _drawn_crossings(side, hubs)
        else:
            found = _drawn_crossings(side, hubs[::3])
        assert found == side.min_crossings, side


@pytest.mark.parametrize("geometry", [SQUARE_PAIRS, HEX_PAIRS], ids=str)
def test_paired_trails_drawn_straight_cross_exactly_min_crossings_times(geometry):
    """Straight chords are a drawing with the fewest crossings (two chords that interleave must cross)."""
    for side in sides(geometry)[:: 1 if geometry.ends <= 8 else 7]:
        chords = [(geometry.end_point(a), geometry.end_point(b)) for a, b in side.trails]
        straight = sum(_cross(*c, *d) for c, d in itertools.combinations(chords, 2))
        assert straight == side.min_crossings
        assert side.needs_bridge == (straight > 0)


def test_a_square_side_with_two_interleaved_pairs_needs_one_bridge():
    side = Side.from_names([["N", "S"], ["E", "W"]], SQUARE_ANY)
    assert side.min_crossings == 1 and side.needs_bridge
    assert Side.from_names([["N", "E"], ["S", "W"]], SQUARE_ANY).min_crossings == 0


# --- sides and tile sets per geometry ----------------------------------------------------------


def test_pairs_sides_refuse_a_trail_that_is_not_a_pair():
    with pytest.raises(TrailwrightError, match="trail N1-N2-E1 has 3 ends"):
        Side.from_names([["N1", "N2", "E1"], ["E2"], ["S1", "S2"], ["W1", "W2"]], SQUARE_PAIRS)
    with pytest.raises(TrailwrightError, match="unknown end 'NE'"):
        Side.from_names([["N", "NE"]], SQUARE_ANY)
    with pytest.raises(TrailwrightError, match="end W missing"):
        Side.from_names([["N", "E", "S"]], SQUARE_ANY)


def _square_set():
    a = Side.from_names([["N1", "S2"], ["N2", "S1"], ["E1", "W2"], ["E2", "W1"]], SQUARE_PAIRS)
    b = Side.from_names([["N1", "N2"], ["E1", "E2"], ["S1", "S2"], ["W1", "W2"]], SQUARE_PAIRS)
    return TileSet((Tile.single("1", a), Tile.single("2", b), Tile.single("3", b.rotated(1))))


def test_single_sided_set_counts_fronts_only():
    tiles = _square_set()
    assert len(tiles.sides()) == 3
    assert tiles.dup_score == 1 + 4  # a design shown once, one shown twice
    assert tiles.crossings == 4 and tiles.bridges == 1


def test_tileset_format_for_any_geometry_round_trips():
    tiles = _square_set()
    text = dumps_tileset(tiles)
    data = json.loads(text)
    assert data["format"] == "trailwright-tileset/2"
    assert data["geometry"] == {"shape": "square", "ends_per_edge": 2, "trails": "pairs", "faces": 1}
    assert "back" not in data["tiles"][0]
    again = tileset_from_dict(data)
    assert again == tiles and again.geometry == SQUARE_PAIRS


def test_classic_sets_keep_the_classic_format():
    side = Side.from_names([["N", "S"], ["NE"], ["SE", "SW", "NW"]])
    text = dumps_tileset(TileSet((Tile("1", side, side.rotated(1)),)))
    assert json.loads(text)["format"] == "hexmaze-tileset/1" and "geometry" not in json.loads(text)


def test_tileset_format_errors_are_one_line():
    data: dict = {"format": "trailwright-tileset/2", "tiles": [{"id": 1, "front": [["N", "S"], ["E", "W"]]}]}
    with pytest.raises(TrailwrightError, match="needs a 'geometry'"):
        tileset_from_dict(data)
    data["geometry"] = {"shape": "triangle"}
    with pytest.raises(TrailwrightError, match="shape 'triangle' is not one of hex, square"):
        tileset_from_dict(data)
    data["geometry"] = {"shape": "square", "faces": 1}
    data["tiles"][0]["back"] = [["N", "S"], ["E", "W"]]
    with pytest.raises(TrailwrightError, match="unknown key 'back'"):
        tileset_from_dict(data)


def test_a_set_may_not_mix_geometries():
    square = Side.from_names([["N", "S"], ["E", "W"]], SQUARE_ANY)
    hexagon = Side.from_names([["N", "S"], ["NE", "SE", "SW", "NW"]])
    with pytest.raises(TrailwrightError, match="another geometry"):
        TileSet((Tile.single("1", square), Tile("2", hexagon, hexagon)))


# --- boards ------------------------------------------------------------------------------------


def test_square_board_joins_follow_the_square_grid():
    board = board_from_dict(
        {
            "tiles": {"shape": "square"},
            "slots": [[0, 0], [1, 0], [0, 1]],
            "landmark": [{"name": "Hut", "hexes": [[1, 1]]}, {"name": "Gate", "hexes": [[-1, 0], [-1, 1]]}],
        }
    )
    names = board.geometry.edge_names
    joins = [(j.a, j.b) for j in board.neighbour_joins() if isinstance(j.b, SlotSide)]
    pairs = {(a.slot, names[a.direction], b.slot, names[b.direction]) for a, b in joins}
    assert pairs == {(0, "E", 1, "W"), (0, "S", 2, "N")}
    assert {(s.slot, names[s.direction]) for s in board.landmarks[0].sides} == {(1, "S"), (2, "E")}
    assert {(s.slot, names[s.direction]) for s in board.landmarks[1].sides} == {(0, "W"), (2, "W")}
    assert len(board.wall_sides()) == 3 * 4 - 4 - 4


def test_board_tiles_table_errors_are_one_line():
    with pytest.raises(TrailwrightError, match="tiles: unknown key 'sides'"):
        board_from_dict({"tiles": {"sides": 4}, "slots": [[0, 0]]})
    with pytest.raises(TrailwrightError, match="expected a cell"):
        board_from_dict({"tiles": {"shape": "square"}, "slots": [[0, 0, 1]]})
    with pytest.raises(TrailwrightError, match="unknown direction 'NE' \\(expected one of N E S W\\)"):
        board_from_dict(
            {
                "tiles": {"shape": "square"},
                "slots": [[0, 0]],
                "landmark": [{"name": "A", "hexes": [[0, 1]], "sides": [[0, 1, "NE"]]}],
            }
        )


@pytest.mark.parametrize("name", ["square-jungle", "square-pathways", "hex-pairs"])
def test_builtin_example_boards_load_with_their_geometry(name):
    board = load_board(name)
    assert not board.geometry.is_classic
    assert all(lm.sides for lm in board.landmarks)
    assert load_board("classic").geometry == CLASSIC


def test_a_boards_digest_is_unchanged_for_the_classic_game_and_names_other_geometries():
    from dataclasses import replace

    from generator.scoring.figures import board_digest

    classic = load_board("classic")
    # the digest of the classic board before tile geometries existed (meta blocks written then still match)
    assert board_digest(classic) == "6498bcf2b47aa3fd1a9b36018a4a5dc0bc594a738e7353e8ca6f3ae07f4df122"
    assert board_digest(replace(classic, geometry=TileGeometry("hex", 1, "any", 1))) != board_digest(classic)
