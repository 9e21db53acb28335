"""The Tabletop Simulator saved object: schema, GUIDs, images, scale and slots, checked offline."""

import copy
import io
import json
import math
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources

import pytest
from PIL import Image

from generator.board import neighbour
from generator.errors import TrailwrightError
from generator.play import default_rules
from generator.table import tabletop_files
from generator.table.tabletop import check_asset_base
from generator.table.tabletop_art import TILE_UNITS_AT_SCALE_1, tile_image
from tests.table_helpers import BOARDS, HOSTILE_IDS, table_art

jsonschema = pytest.importorskip("jsonschema")

BASE = "file:///tmp/kit/tabletop/"
HEX_ASPECT = 2 / math.sqrt(3)
CLEARANCE_MM = 0.5  # the board's slots are this much larger than a tile on every side (render_board's default)


@lru_cache(maxsize=4)
def made(board: str) -> dict:
    """The TTS folder for a board (other boards' tiles at a lower resolution, for speed)."""
    return tabletop_files(table_art(board=board), BASE, **({} if board == "classic" else {"tile_dpi": 60}))


@pytest.fixture(scope="module")
def files():
    return made("classic")


def saved(files) -> dict:
    name = next(n for n in files if n.endswith(".json"))
    return json.loads(files[name])


def objects(data):
    """Every object, the bag's contents included."""
    for obj in data["ObjectStates"]:
        yield obj
        yield from obj.get("ContainedObjects", [])


def schema():
    return json.loads(resources.files("generator.table").joinpath("tts-saved-object.schema.json").read_text())


def png(files, url: str) -> Image.Image:
    assert url.startswith(BASE), url
    return Image.open(io.BytesIO(files["tabletop/" + url[len(BASE) :]]))


def test_the_saved_object_matches_the_schema_and_the_schema_bites(files):
    validator = jsonschema.Draft202012Validator(schema())
    data = saved(files)
    validator.validate(data)
    broken = copy.deepcopy(data)
    broken["ObjectStates"][1]["ContainedObjects"][3]["CustomImage"]["CustomTile"]["Typ"] = 1
    assert not validator.is_valid(broken)
    broken = copy.deepcopy(data)
    broken["ObjectStates"][0]["GUID"] = "XYZ"
    assert not validator.is_valid(broken)


def test_every_object_has_a_unique_guid_a_nickname_and_a_transform(files):
    data = saved(files)
    everything = list(objects(data))
    guids = [o["GUID"] for o in everything]
    assert len(everything) == 1 + 1 + 20 + 4 + 1  # mat, bag, tiles, pawns, die
    assert len(set(guids)) == len(guids)
    assert all(o["Nickname"] and set(o["Transform"]) >= {"posX", "rotY", "scaleZ"} for o in everything)


def test_tiles_are_double_sided_hex_tiles_in_a_bag_named_by_id_and_faces(files):
    table = table_art()
    bag = next(o for o in saved(files)["ObjectStates"] if o["Name"] == "Bag")
    tiles = bag["ContainedObjects"]
    assert [t["Name"] for t in tiles] == ["Custom_Tile"] * len(table.tileset)
    for tile, obj in zip(table.tileset, tiles, strict=True):
        image = obj["CustomImage"]
        assert image["CustomTile"]["Type"] == 1 and image["CustomTile"]["Thickness"] > 0
        assert image["ImageURL"].endswith("-front.png") and image["ImageSecondaryURL"].endswith("-back.png")
        assert obj["Nickname"] == f"Tile {tile.id} ({tile.id}F / {tile.id}B)"
        assert str(tile.front) in obj["Description"] and str(tile.back) in obj["Description"]
    # the art is the print kit's: tile 3's back is the layout stage's drawing of it, pixel for pixel
    third = png(files, tiles[2]["CustomImage"]["ImageSecondaryURL"]).convert("RGB")
    assert third.tobytes() == tile_image(table, table.tileset.tiles[2], "back", 200).tobytes()


def test_every_image_exists_is_rgb_within_the_limit_and_has_the_stated_size(files):
    table = table_art()
    data = saved(files)
    urls = [
        o["CustomImage"][k]
        for o in objects(data)
        if "CustomImage" in o
        for k in ("ImageURL", "ImageSecondaryURL")
        if o["CustomImage"][k]
    ]
    assert len(urls) == 2 * 20 + 1
    readme = files["tabletop/README.txt"].decode()
    mat_w_in, mat_h_in = map(float, re.search(r"board mat is\s+([\d.]+) x ([\d.]+) in", readme).groups())
    for url in urls:
        image = png(files, url)
        assert image.mode == "RGB" and max(image.size) <= 4096
        dpi = image.info["dpi"][0]
        w_mm, h_mm = image.width / dpi * 25.4, image.height / dpi * 25.4
        assert abs(image.width / image.height - HEX_ASPECT) < 1.5 / image.height  # a flat-topped hex's box
        if url.endswith("board.png"):
            assert abs(w_mm / 25.4 - mat_w_in) < 0.01 and abs(h_mm / 25.4 - mat_h_in) < 0.01
        else:  # the printed tile, corner to corner
            assert abs(w_mm - table.style.tile_width_mm) < 0.2
    assert f"{table.style.tile_width_mm:g} mm" in readme and "1 TTS unit = 1 inch" in readme


def local_to_world(p: dict, t: dict) -> tuple[float, float]:
    """Unity: positive rotY turns clockwise seen from above; local points are scaled first."""
    a = math.radians(t["rotY"])
    x, z = p["x"] * t["scaleX"], p["z"] * t["scaleZ"]
    return (t["posX"] + x * math.cos(a) + z * math.sin(a), t["posZ"] - x * math.sin(a) + z * math.cos(a))


@pytest.mark.parametrize("board", BOARDS)
def test_slots_line_up_with_the_board_geometry_and_the_tiles_fit_them(board):
    table, files = table_art(board=board), made(board)
    jsonschema.Draft202012Validator(schema()).validate(saved(files))
    board, style = table.board, table.style
    mat = saved(files)["ObjectStates"][0]
    assert mat["Locked"] and mat["Name"] == "Custom_Tile"
    centres = [local_to_world(s["Position"], mat["Transform"]) for s in mat["AttachedSnapPoints"]]
    assert len(centres) == len(board.slots)
    slot_r_in = (style.tile_width_mm / 2 + 2 * CLEARANCE_MM / math.sqrt(3)) / 25.4
    for i, h in enumerate(board.slots):  # every neighbour is one slot pitch away, in its direction
        for d in range(6):
            j = board.slot_at(neighbour(h, d))
            if j is None:
                continue
            dx, dz = centres[j][0] - centres[i][0], centres[j][1] - centres[i][1]
            pitch = math.sqrt(3) * slot_r_in
            assert abs(dx - pitch * math.sin(math.radians(60 * d))) < 1e-3  # x to the right
            assert abs(dz - pitch * math.cos(math.radians(60 * d))) < 1e-3  # N is away from the first seat
    # the mat's picture shows an empty slot at each of those places
    image = png(files, mat["CustomImage"]["ImageURL"]).convert("RGB")
    t = mat["Transform"]
    px_per_unit = image.height / (t["scaleZ"] * TILE_UNITS_AT_SCALE_1)
    slot_colour = tuple(int(style.board_slot[k : k + 2], 16) for k in (1, 3, 5))
    for x, z in centres:
        u, v = image.width / 2 + x * px_per_unit, image.height / 2 - z * px_per_unit
        for du, dv in ((0, -0.55), (0.5, 0.2), (-0.5, 0.2)):  # clear of the slot number at the centre
            pixel = image.getpixel((round(u + du * slot_r_in * px_per_unit), round(v + dv * slot_r_in * px_per_unit)))
            assert max(abs(a - b) for a, b in zip(pixel, slot_colour, strict=True)) <= 3, (x, z, pixel)
    # a tile is the printed size and fits its slot with the board's clearance on every side
    tile = saved(files)["ObjectStates"][1]["ContainedObjects"][0]
    tile_png = png(files, tile["CustomImage"]["ImageURL"])
    tile_w_in = tile["Transform"]["scaleZ"] * TILE_UNITS_AT_SCALE_1 * tile_png.width / tile_png.height
    assert abs(tile_w_in - style.tile_width_mm / 25.4) < 0.01
    assert abs((2 * slot_r_in - tile_w_in) - 2 * 2 * CLEARANCE_MM / math.sqrt(3) / 25.4) < 0.01


def test_one_pawn_per_player_colour_on_the_hut_and_a_die(files):
    table = table_art()
    data = saved(files)
    pawns = [o for o in data["ObjectStates"] if o["Name"] == "PlayerPawn"]
    assert len({json.dumps(p["ColorDiffuse"]) for p in pawns}) == len(pawns) == 4
    hut_slots = [s.slot for lm in table.board.landmarks if lm.name == "Hut" for s in lm.sides]
    mat = data["ObjectStates"][0]
    snaps = [local_to_world(mat["AttachedSnapPoints"][s]["Position"], mat["Transform"]) for s in hut_slots]
    pitch = math.sqrt(3) * (table.style.tile_width_mm / 2 + 2 * CLEARANCE_MM / math.sqrt(3)) / 25.4
    for p in pawns:  # the Hut is the hex one pitch from each of its slots
        at = (p["Transform"]["posX"], p["Transform"]["posZ"])
        assert all(abs(math.dist(at, s) - pitch) < 0.4 for s in snaps)
    assert [o["Name"] for o in data["ObjectStates"]].count("Die_6") == 1


@pytest.mark.parametrize(
    ("die", "dice", "readme"),
    [
        (8, ["Die_8", "Die_6"], "two dice (8 sides for steps, 6 for a new tile's turn)"),
        (7, ["Die_6"], "the rules' steps die has 7 sides"),
    ],
)
def test_the_rules_own_die_start_and_seats_set_the_table(die, dice, readme):
    table = table_art()
    rules = replace(default_rules(table.board), die=die, start="Well", players_max=3, players_default=2)
    made = tabletop_files(replace(table, rules=rules), BASE, tile_dpi=30, board_dpi=20)
    data = saved(made)
    jsonschema.Draft202012Validator(schema()).validate(data)
    assert [o["Name"] for o in data["ObjectStates"] if o["Name"].startswith("Die_")] == dice
    pawns = [o for o in data["ObjectStates"] if o["Name"] == "PlayerPawn"]
    assert [p["Nickname"] for p in pawns] == ["Red explorer", "Blue explorer", "Yellow explorer"]
    mat = data["ObjectStates"][0]
    well = [lm for lm in table.board.landmarks if lm.name == "Well"][0]
    snaps = [local_to_world(mat["AttachedSnapPoints"][s.slot]["Position"], mat["Transform"]) for s in well.sides]
    pitch = math.sqrt(3) * (table.style.tile_width_mm / 2 + 2 * CLEARANCE_MM / math.sqrt(3)) / 25.4
    for p in pawns:  # the Well is the hex one pitch from each of its slots
        at = (p["Transform"]["posX"], p["Transform"]["posZ"])
        assert all(abs(math.dist(at, s) - pitch) < 0.4 for s in snaps)
    text = made["tabletop/README.txt"].decode()
    assert "3 pawns (Red, Blue, Yellow) on the Well" in text and readme in text
    assert "roll the six-sided die for its turn" in text


def test_hostile_ids_give_valid_output_safe_names_and_the_same_bytes_twice():
    table = replace(table_art(hostile=True), title="../My <Game>")
    made = tabletop_files(table, BASE, tile_dpi=40, board_dpi=20)
    assert made == tabletop_files(table, BASE, tile_dpi=40, board_dpi=20)
    for name in made:
        assert re.fullmatch(r"tabletop/(images/)?[A-Za-z0-9_-]+(\.[a-z]+)", name), name
    data = saved(made)
    assert "tabletop/My-Game.json" in made and data["SaveName"] == "../My <Game>"
    jsonschema.Draft202012Validator(schema()).validate(data)
    nicknames = [o["Nickname"] for o in objects(data) if o["Name"] == "Custom_Tile" and "Tile " in o["Nickname"]]
    assert [n[len("Tile ") :].rsplit(" (", 1)[0] for n in nicknames] == HOSTILE_IDS
    assert len([n for n in made if n.startswith("tabletop/images/tile-")]) == 2 * len(HOSTILE_IDS)


def test_asset_url_addresses_the_same_files_by_url():
    table = table_art(hostile=True)
    hosted = tabletop_files(
        table, "https://example.org/my game/tabletop".replace(" ", "%20"), tile_dpi=40, board_dpi=20
    )
    data = saved(hosted)
    for obj in objects(data):
        for key in ("ImageURL", "ImageSecondaryURL"):
            url = obj.get("CustomImage", {}).get(key)
            if url:
                assert url.startswith("https://example.org/my%20game/tabletop/images/")
                assert "tabletop/" + url.split("/tabletop/", 1)[1] in hosted
    assert "upload the images/ folder" in hosted["tabletop/README.txt"].decode()


@pytest.mark.parametrize("url", ["ftp://example.org/x/", "https://", "https://a b/", "example.org/x", "https://x/'y"])
def test_a_bad_asset_url_is_one_clear_error(url):
    with pytest.raises(TrailwrightError, match="asset URL"):
        check_asset_base(url)
