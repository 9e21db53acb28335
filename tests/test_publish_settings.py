"""Publish settings as validated data: papers, profiles and options, with one-line errors."""

import pytest

from generator.errors import TrailwrightError
from generator.publish.settings import (
    PublishSettings,
    load_paper,
    load_profile,
    load_settings,
    paper_names,
    settings_from_dict,
)


def test_the_packaged_settings_file_matches_the_defaults():
    assert load_settings() == PublishSettings()


@pytest.mark.parametrize(
    "name,size",
    [
        ("a4", (210, 297)),
        ("letter", (215.9, 279.4)),
        ("a5", (148, 210)),
        ("a3", (297, 420)),
        ("tabloid", (279.4, 431.8)),
    ],
)
def test_papers(name, size):
    paper = load_paper(name)
    assert (paper.width_mm, paper.height_mm) == size
    assert (paper.landscape().width_mm, paper.landscape().height_mm) == size[::-1]
    for big in paper.large:
        assert big in paper_names()


def test_the_medium_hex_profile_is_the_game_crafters():
    p = load_profile("thegamecrafter-medium-hex")
    assert p.trim_width_mm == pytest.approx(63.5)
    assert p.bleed_mm == pytest.approx(3.175)
    assert (p.pixel_width, p.pixel_height, p.dpi) == (825, 750, 300)


@pytest.mark.parametrize(
    "data,message",
    [
        ({"papers": ["a4", "b9"]}, "unknown paper 'b9'"),
        ({"profile": "acme"}, "unknown manufacturer profile 'acme'"),
        ({"margin_mm": 4}, "margin_mm = 4 is under the printer-safe 10 mm"),
        ({"mark_width_pt": 0.1}, "mark_width_pt = 0.1 is under 0.25 pt"),
        ({"bleed": 3}, "unknown key 'bleed'"),
        ({"cut_lines": "yes"}, "cut_lines: 'yes' is not true or false"),
        ({"papers": []}, "papers: \\[\\] is not a non-empty list"),
    ],
)
def test_bad_settings_name_the_file_key_and_value(data, message):
    with pytest.raises(TrailwrightError, match=f"^my.toml: .*{message}"):
        settings_from_dict(data, "my.toml")


def test_a_settings_file_is_read_and_checked(tmp_path):
    path = tmp_path / "print.toml"
    path.write_text('title = "Mazewood"\npapers = ["letter"]\ncut_lines = true\n')
    settings = load_settings(path)
    assert settings.title == "Mazewood" and settings.papers == ("letter",) and settings.cut_lines
    path.write_text("title = \n")
    with pytest.raises(TrailwrightError, match="print.toml: malformed TOML"):
        load_settings(path)
