"""The tile model: sides, canonical forms, crossings, the genome and the JSON format."""

import json
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.errors import TrailwrightError
from generator.model import DIRECTIONS, Side, Tile, TileSet, dumps_tileset, genome, read_tileset, tileset_from_dict


def set_partitions(items):
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        for i in range(len(partition)):
            yield partition[:i] + [[first] + partition[i]] + partition[i + 1 :]
        yield [[first]] + partition


ALL_SIDES = [Side.of(p) for p in set_partitions(list(range(6)))]

sides = st.sampled_from(ALL_SIDES)
steps = st.integers(min_value=-12, max_value=12)


@st.composite
def genome_sides(draw):
    """Sides the article's genome can hold: at most four trails."""
    return draw(st.sampled_from([s for s in ALL_SIDES if len(s.trails) <= 4]))


def test_partition_and_design_counts():
    assert len(set(ALL_SIDES)) == 203
    assert len({s.canonical for s in ALL_SIDES}) == 43
    assert len({s.canonical for s in ALL_SIDES if len(s.trails) <= 4}) == 39


@given(sides, steps)
def test_canonical_form_ignores_rotation(side, k):
    assert side.rotated(k).canonical == side.canonical
    assert side.rotated(k).same_design(side)


@given(sides)
def test_six_turns_are_the_identity(side):
    assert side.rotated(6) == side
    assert side.rotated(1).rotated(-1) == side


@given(sides, sides)
def test_crossing_is_symmetric(a, b):
    for t1 in a.trails:
        for t2 in b.trails:
            if not set(t1) & set(t2):
                from generator.model import pair_crossings, trails_cross

                assert trails_cross(t1, t2) == trails_cross(t2, t1)
                assert pair_crossings(t1, t2) == pair_crossings(t2, t1)


def interleave_circularly(t1, t2):
    """Brute force: some a < b < c < d around the circle alternate between the trails."""
    for a, c in combinations(t1, 2):
        for b, d in combinations(t2, 2):
            labels = [label for _, label in sorted([(a, 0), (c, 0), (b, 1), (d, 1)])]
            if labels in ([0, 1, 0, 1], [1, 0, 1, 0]):
                return True
    return False


@given(sides, steps)
def test_needs_bridge_matches_circular_interleaving_and_is_rotation_invariant(side, k):
    expected = any(interleave_circularly(a, b) for a, b in combinations(side.trails, 2))
    assert side.needs_bridge == expected
    assert side.rotated(k).needs_bridge == side.needs_bridge
    assert side.rotated(k).min_crossings == side.min_crossings
    assert (side.min_crossings > 0) == side.needs_bridge


def names(*trails):
    return Side.from_names([t.split() for t in trails])


@pytest.mark.parametrize(
    "side, crossings",
    [
        (names("N S", "NE SW", "SE NW"), 3),  # three diameters
        (names("N SE SW", "NE S NW"), 2),  # two interleaved triples
        (names("N S", "NE SE SW", "NW"), 1),
        (names("N NE", "SE S", "SW NW"), 0),
        (names("N S", "NE", "SE NW", "SW"), 1),
        (names("N SE", "NE", "S NW", "SW"), 0),
        (names("N", "NE", "SE", "S", "SW", "NW"), 0),
        (names("N NE SE S SW NW"), 0),
        (names("N S", "NE SE SW NW"), 1),
    ],
)
def test_min_crossings(side, crossings):
    assert side.min_crossings == crossings


@given(sides)
def test_flipping_twice_is_the_identity(side):
    tile = Tile("1", side, side.rotated(1))
    assert tile.flipped().flipped() == tile
    assert tile.flipped().front == tile.back
    assert tile.rotated(2).rotated(4) == tile


@given(st.lists(st.tuples(genome_sides(), genome_sides()), min_size=1, max_size=8))
def test_genome_round_trip(pairs):
    tileset = TileSet(tuple(Tile(str(i + 1), a, b) for i, (a, b) in enumerate(pairs)))
    bits = genome.encode(tileset)
    assert len(bits) == 24 * len(pairs)
    assert genome.decode(bits) == tileset.canonical()
    assert genome.encode(genome.decode(bits)) == genome.encode(tileset.canonical())


def test_genome_decoding_drops_empty_trails_and_normalises():
    # directions N..NW carry trail numbers 3 3 0 0 0 0: trails 1 and 2 are empty
    bits = [True, True] * 2 + [False, False] * 4
    assert genome.decode_side(bits) == Side.of([[0, 1, 2, 3], [4, 5]]).canonical
    with pytest.raises(TrailwrightError, match="at most 4"):
        genome.encode_side(Side.of([[d] for d in range(6)]))


def test_tileset_scores_terms_match_the_article():
    a = names("N S", "NE SE SW", "NW")  # needs a bridge
    b = names("N NE", "SE S", "SW NW")
    tiles = TileSet((Tile("1", a, b), Tile("2", a.rotated(1), b), Tile("3", names("N NE SE S SW NW"), b)))
    assert tiles.bridges == 2
    assert tiles.dup_score == 2**2 + 3**2 + 1
    assert tiles.fully_connected == 1


def test_json_round_trip(tmp_path, random20):
    path = tmp_path / "t.json"
    path.write_text(dumps_tileset(random20, {"seed": 3}))
    assert read_tileset(path) == random20
    assert json.loads(path.read_text())["meta"] == {"seed": 3}
    assert dumps_tileset(random20) == dumps_tileset(read_tileset(path))


FULL = [["N", "S"], ["NE", "SE", "SW"], ["NW"]]


@pytest.mark.parametrize(
    "tiles, message",
    [
        (
            [{"id": "1", "front": [["N", "X"], ["NE", "SE", "S", "SW", "NW"]], "back": FULL}],
            "tile '1' front: unknown direction 'X'",
        ),
        (
            [{"id": "1", "front": [[["N"]], ["NE", "SE", "S", "SW", "NW"]], "back": FULL}],
            "tile '1' front: unknown direction ['N']",
        ),
        (
            [{"id": "1", "front": [["N", "S"], ["NE", "SE", "SW"]], "back": FULL}],
            "tile '1' front: direction NW missing",
        ),
        (
            [{"id": "1", "front": FULL, "back": [["N", "S"], ["N", "NE", "SE", "SW", "NW"]]}],
            "tile '1' back: direction N repeated",
        ),
        ([{"id": "1", "front": [], "back": FULL}], "tile '1' front: a side must be a non-empty list"),
        ([{"id": "1", "front": FULL}], "tile '1' has no 'back'"),
        ([{"id": "2", "back": FULL}], "tile '2' has no 'front'"),
        ([{"id": "1", "front": FULL, "back": FULL}, {"id": "1", "front": FULL, "back": FULL}], "duplicate tile id '1'"),
        (
            [{"id": "1", "front": [["N", "S"], [], ["NE", "SE", "SW", "NW"]], "back": FULL}],
            "tile '1' front: empty trail",
        ),
    ],
)
def test_bad_tiles_are_named(tiles, message):
    with pytest.raises(TrailwrightError) as err:
        tileset_from_dict({"format": "hexmaze-tileset/1", "tiles": tiles}, "my.json")
    assert str(err.value).startswith(f"my.json: {message}")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("bad_id", [["1"], {"n": 1}, True, 1.5, None])
def test_tile_ids_must_be_strings_or_whole_numbers(bad_id):
    tiles = [{"id": "a", "front": FULL, "back": FULL}, {"id": bad_id, "front": FULL, "back": FULL}]
    with pytest.raises(TrailwrightError) as err:
        tileset_from_dict({"tiles": tiles}, "my.json")
    assert str(err.value) == f"my.json: tile #2: 'id' must be a string or a whole number, got {bad_id!r}"


def test_whole_number_ids_are_read_as_text():
    tiles = [{"id": 7, "front": FULL, "back": FULL}, {"front": FULL, "back": FULL}]
    assert [t.id for t in tileset_from_dict({"tiles": tiles})] == ["7", "2"]


def test_a_tileset_that_is_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"tiles": [], "meta": {"by": "Zoë"}}'.encode("latin-1"))
    with pytest.raises(TrailwrightError, match=r"^.*latin1.json: not UTF-8 text$"):
        read_tileset(path)


def test_malformed_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"tiles": [\n  {"id": "1",,}\n]}')
    with pytest.raises(TrailwrightError, match=r"broken.json: malformed JSON at line 2"):
        read_tileset(path)


def test_directions_are_clockwise_from_north():
    assert DIRECTIONS == ("N", "NE", "SE", "S", "SW", "NW")
    assert names("N S", "NE SE SW", "NW").rotated(1) == names("NE SW", "SE S NW", "N")
