"""``trailwright publish --only tabletop,play`` writes just the two virtual tables; make print makes them too."""

import json

from generator.cli import main
from generator.publish.settings import load_settings
from tests.test_publish_select import TILESET, standin  # noqa: F401  (the stand-in art fixture)


def test_only_tabletop_and_play_writes_just_those_with_file_urls(tmp_path, capsys, standin):  # noqa: F811
    out = tmp_path / "my kit"
    assert main(["publish", TILESET, "--out", str(out), "--only", "tabletop,play"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["kit.json", "play", "tabletop"]  # kit.json: what made it
    saved = json.loads((out / "tabletop" / "Trailwright.json").read_text())
    base = (out / "tabletop").resolve().as_uri() + "/"
    urls = [t["CustomImage"]["ImageURL"] for t in saved["ObjectStates"][1]["ContainedObjects"]]
    assert all(u.startswith(base) and (out / "tabletop" / u[len(base) :]).is_file() for u in urls)
    assert "%20" in base  # the space in the folder's name is escaped
    assert (out / "play" / "index.html").stat().st_size > 10_000
    listing = capsys.readouterr().out
    assert "README.txt says how to load it" in listing and "play/index.html" in listing


def test_asset_url_on_the_command_line(tmp_path, capsys, standin):  # noqa: F811
    out = tmp_path / "out"
    assert (
        main(
            [
                "publish",
                TILESET,
                "--out",
                str(out),
                "--only",
                "tabletop",
                "--asset-url",
                "https://example.org/game/tabletop",
            ]
        )
        == 0
    )
    saved = json.loads((out / "tabletop" / "Trailwright.json").read_text())
    assert saved["ObjectStates"][0]["CustomImage"]["ImageURL"] == "https://example.org/game/tabletop/images/board.png"
    status = main(["publish", TILESET, "--out", str(tmp_path / "bad"), "--asset-url", "ftp://x/"])
    err = capsys.readouterr().err
    assert status == 2 and "asset URL 'ftp://x/'" in err and err.count("\n") == 1
    assert not (tmp_path / "bad").exists()


def test_make_print_makes_both():
    assert {"tabletop", "play"} <= set(load_settings().documents)
