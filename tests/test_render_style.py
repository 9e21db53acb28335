"""The style as data: defaults, overrides and one-line errors naming the file, key and value."""

from dataclasses import FrozenInstanceError

import pytest

from generator.errors import TrailwrightError
from generator.render import Style, load_style
from generator.render.style import MIN_LINE_PT


def test_the_default_style_is_the_game_crafters_medium_hex():
    style = load_style()
    assert isinstance(style, Style)
    assert style.tile_width_mm == 63.5
    assert style.tile_height_mm == pytest.approx(63.5 * 3**0.5 / 2)
    assert style.trail_width_mm == pytest.approx(6.35)
    assert min(v for k, v in vars(style).items() if k.endswith("_pt")) >= MIN_LINE_PT
    with pytest.raises(FrozenInstanceError):
        style.tile_width_mm = 50


def test_a_style_file_overrides_only_what_it_names(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[tile]\nwidth_mm = 95.25\n[label]\nshow = false\n[preview]\nhighlight = ["#112233"]\n')
    style = load_style(path)
    assert (style.tile_width_mm, style.label_show, style.preview_highlight) == (95.25, False, ("#112233",))
    assert style.trail_fill == load_style().trail_fill
    assert load_style(str(path)) == style


def _style_error(path, text: str) -> str:
    """The one-line error that loading ``text`` as a style file gives."""
    path.write_text(text)
    with pytest.raises(TrailwrightError) as err:
        load_style(path)
    assert "\n" not in str(err.value)
    return str(err.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[tile]\nwidht_mm = 50\n", "unknown key tile.widht_mm"),
        ("[tiles]\nwidth_mm = 50\n", "unknown table [tiles]"),
        ('[trail]\nfill = "sand"\n', "trail.fill = 'sand': expected a colour"),
        ("[trail]\nedge_pt = 0.1\n", "trail.edge_pt = 0.1: expected a line width in pt of at least 0.25"),
        ("[trail]\nwidth = 0.3\n", "trail.width = 0.3: expected a fraction of the tile width"),
        ('[label]\nshow = "yes"\n', "label.show = 'yes': expected true or false"),
        ("[tile]\nwidth_mm = 5\n", "tile.width_mm = 5: expected a width in mm"),
        ("[tile\n", "malformed TOML"),
    ],
)
def test_bad_style_files_name_the_file_key_and_value(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    error = _style_error(path, text)
    assert error.startswith(f"{path}: ")
    assert message in error


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "[trail]\nedge_pt = 10\n",
            "tile.width_mm = 63.5, trail.width = 0.1, trail.edge_pt = 10 make the trail's inner fill"
            " -2.000 pt wide: expected at least 0.25 pt",
        ),
        (
            "[tile]\nwidth_mm = 15\n[trail]\nwidth = 0.06\n",
            "tile.width_mm = 15, trail.width = 0.06, trail.edge_pt = 1.6 make the trail's inner fill -0.649 pt wide",
        ),
    ],
)
def test_keys_that_together_make_a_line_too_thin_are_named(tmp_path, text, message):
    path = tmp_path / "thin.toml"
    assert _style_error(path, text).startswith(f"{path}: {message}")


def test_every_derived_line_of_an_accepted_style_is_at_least_a_quarter_point(tmp_path):
    from generator.units import MM_PER_PT

    path = tmp_path / "edge.toml"
    # the narrowest trail allowed with the widest verges it leaves room for
    path.write_text("[tile]\nwidth_mm = 30\n[trail]\nwidth = 0.06\nedge_pt = 2.4\n")
    style = load_style(path)
    assert style.trail_width_mm - 2 * style.trail_edge_pt * MM_PER_PT >= MIN_LINE_PT * MM_PER_PT - 1e-9
    path.write_text("[tile]\nwidth_mm = 30\n[trail]\nwidth = 0.06\nedge_pt = 2.5\n")
    with pytest.raises(TrailwrightError, match="inner fill"):
        load_style(path)


def test_a_missing_style_file_is_a_clear_error(tmp_path):
    with pytest.raises(TrailwrightError, match="nope.toml: cannot read"):
        load_style(tmp_path / "nope.toml")


def test_to_dict_round_trips_through_a_style_file(tmp_path):
    style = load_style()
    lines = []
    for table, values in style.to_dict().items():
        lines.append(f"[{table}]")
        for key, value in values.items():
            text = (
                ("true" if value else "false")
                if isinstance(value, bool)
                else (repr(value).replace("'", '"') if not isinstance(value, list) else str(value).replace("'", '"'))
            )
            lines.append(f"{key} = {text}")
    path = tmp_path / "all.toml"
    path.write_text("\n".join(lines) + "\n")
    assert load_style(path) == style
