"""The one input layer: strict parsing and declared schemas, one line naming file, item and problem."""

import json

import pytest

from generator.board import load_board
from generator.errors import TrailwrightError
from generator.inputs import MAX_DEPTH, Number, Text, Whole, check_table, load_json, load_toml, read_bytes
from generator.model import read_tileset
from generator.publish.settings import load_settings
from generator.render import load_style
from generator.scoring.objective import load_objective

SIDE = [["N", "S"], ["NE"], ["SE"], ["SW"], ["NW"]]
TILE = {"id": "1", "front": SIDE, "back": SIDE}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@pytest.mark.parametrize(
    "text,problem",
    [
        ('{"tiles": [], "tiles": []}', "duplicate key 'tiles'"),
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"a": 1e999}', "number 1e999 is out of range"),
        ("[" * 5000 + "]" * 5000, f"nested more than {MAX_DEPTH} deep"),
        ("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), f"nested more than {MAX_DEPTH} deep"),
        ('{"a": "bell\\u0007"}', "a: control character U\\+0007"),
        ('{"a": ["\\ud800"]}', "a\\[1\\]: control character U\\+D800"),
        ('{"a": 1' + "0" * 5000 + "}", "malformed JSON"),
    ],
)
def test_strict_json_is_one_line_naming_the_file(tmp_path, text, problem):
    path = write(tmp_path, "t.json", text)
    with pytest.raises(TrailwrightError, match=f"^{tmp_path}/t.json: .*{problem}") as info:
        load_json(path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text,problem",
    [
        ("a = nan", "a: nan is not a finite number"),
        ("a = -inf", "a: -inf is not a finite number"),
        ("a = " + "[" * 3000 + "]" * 3000, f"nested more than {MAX_DEPTH} deep"),
        ('a = "x\\u001b[31m"', "a: control character U\\+001B"),
        ("a = 1\na = 2", "malformed TOML"),
    ],
)
def test_strict_toml(tmp_path, text, problem):
    path = write(tmp_path, "t.toml", text)
    with pytest.raises(TrailwrightError, match=f"^{tmp_path}/t.toml: .*{problem}"):
        load_toml(path)


def test_a_byte_order_mark_is_fine(tmp_path):
    path = write(tmp_path, "t.json", b"\xef\xbb\xbf" + json.dumps({"tiles": [TILE]}).encode())
    assert read_tileset(path).tiles[0].id == "1"
    path = write(tmp_path, "t.toml", b"\xef\xbb\xbfpair_weight = 2.0\n")
    assert load_objective(path).pair_weight == 2.0


def test_a_folder_is_not_a_file(tmp_path):
    with pytest.raises(TrailwrightError, match="is a folder"):
        load_json(tmp_path)


def test_declared_schema_checks_keys_types_and_bounds():
    schema = {"n": Number(0, 1), "k": Whole(1, 9), "t": Text(5)}
    assert check_table({"n": 1, "k": 3, "t": "ab"}, schema) == {"n": 1.0, "k": 3, "t": "ab"}
    for table, problem in [
        ({"x": 1}, "unknown key 'x'"),
        ({"n": float("nan")}, "n: nan is not a number"),
        ({"n": float("inf")}, "n: inf"),
        ({"k": True}, "k: True is not a whole"),
        ({"t": "a\tb"}, "t: control character U\\+0009"),
        ({"t": "abcdef"}, "t: longer than 5"),
    ]:
        with pytest.raises(TrailwrightError, match=f"^f.toml: {problem}"):
            check_table(table, schema, "", "f.toml")


@pytest.mark.parametrize(
    "loader,name,text,problem",
    [
        (
            read_tileset,
            "t.json",
            '{"tiles": [{"id": "a\\u0000b", "front": [], "back": []}]}',
            "tiles\\[1\\].id: control character U\\+0000",
        ),
        (
            read_tileset,
            "t.json",
            '{"tiles": [{"id": "a\\tb", "front": [], "back": []}]}',
            "tile #1 id: control character U\\+0009",
        ),
        (
            read_tileset,
            "t.json",
            '{"tiles": [{"id": "1", "front": [], "back": [], "back": []}]}',
            "duplicate key 'back'",
        ),
        (
            read_tileset,
            "t.json",
            '{"tiles": [{"id": "1", "front": [], "back": [], "colour": 1}]}',
            "tile #1: unknown key 'colour'",
        ),
        (load_board, "b.toml", 'title = "A\\nB"\nslots = [[0, 0]]', "title: control character U\\+000A"),
        (load_board, "b.toml", "slots = [[0, 0], [100000000, 0]]", "slot 2: hex .* is outside the largest board"),
        (
            load_board,
            "b.toml",
            'slots = [[0, 0]]\n[[landmark]]\nname = "A-B"\nhexes = [[1, 0]]',
            "landmark #1 name 'A-B': a landmark name may not contain '-'",
        ),
        (load_objective, "o.toml", "pair_weight = nan", "pair_weight: nan is not a finite number"),
        (load_objective, "o.toml", "pair_weight = 1e300", "pair_weight: 1e\\+300 is not a number from"),
        (load_settings, "s.toml", "dpi = 10000000", "dpi: 10000000 is not a whole number from 1 to 1,200"),
        (load_settings, "s.toml", "seed = 18446744073709551616", "seed: .* is not a whole number"),
        (load_settings, "s.toml", "margin_mm = inf", "margin_mm: inf is not a finite number"),
        (load_settings, "s.toml", 'title = "Maze\\u0007"', "title: control character U\\+0007"),
        (load_style, "st.toml", "[tile]\nwidth_mm = nan", "tile.width_mm: nan is not a finite number"),
    ],
)
def test_every_file_type_goes_through_the_layer(tmp_path, loader, name, text, problem):
    path = write(tmp_path, name, text)
    with pytest.raises(TrailwrightError, match=f"^{tmp_path}/{name}: {problem}") as info:
        loader(path)
    assert "\n" not in str(info.value)


def test_a_file_that_never_ends_is_refused_after_the_limit(tmp_path):
    with pytest.raises(TrailwrightError, match=r"^/dev/zero: too large \(more than 1,000 bytes\)$"):
        read_bytes("/dev/zero", limit=1000)
    small = tmp_path / "small.bin"
    small.write_bytes(b"x" * 1000)
    assert read_bytes(small, limit=1000) == b"x" * 1000  # exactly the limit is allowed
    with pytest.raises(TrailwrightError, match="cannot read the art: "):
        read_bytes(tmp_path / "missing.svg", what="the art")
