"""The designer page's play figures and histogram, and publish's warnings about the text's claims."""

import io
from dataclasses import replace

import pdfplumber
import pytest

from generator.cli import main
from generator.publish import booklet as bk
from generator.publish.art import ArtCache
from generator.publish.booklet import TEMPLATES
from generator.publish.bookletkit import make_booklet
from generator.publish.claims import claim_warnings
from generator.publish.playpage import PlayFigures
from generator.publish.settings import load_settings
from tests.test_publish_standin import ROOT, TILE_MM, standin_sources

HISTOGRAM = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120mm" height="60mm" viewBox="0 0 120 60">'
    '<rect width="120" height="60" fill="white"/>'
    + "".join(
        f'<rect x="{10 + 8 * k}" y="{60 - h}" width="7" height="{h}" fill="#8c4521"/>'
        for k, h in enumerate((3, 10, 24, 40, 52, 38, 20, 9, 4, 2))
    )
    + "</svg>"
)


def figures(no_way_out=0) -> PlayFigures:
    return PlayFigures(
        players=3,
        games=400,
        policy="explorer",
        seed=1,
        engine="fast",
        cap=200,
        median=9.0,
        p10=7.0,
        p90=12.0,
        mean=9.4,
        unfinished=0.0025,
        trapped=0.013,
        no_way_out=no_way_out,
        histogram_svg=HISTOGRAM,
    )


def _designer_page(src):
    settings = load_settings()
    art = ArtCache.covering(src.art_for_width(TILE_MM), TILE_MM, settings.dpi, settings.bleed_mm)
    reading, _ = make_booklet(src, settings, art, src.board_svg)
    with pdfplumber.open(io.BytesIO(reading)) as doc:
        first = next(n for n, p in enumerate(doc.pages) if "For the designer" in (p.extract_text() or ""))
        pages = doc.pages[first:]  # the designer's pages run to the end
        return (
            " ".join(" ".join(p.extract_text().split()) for p in pages),
            [im for p in pages for im in p.images],
            len(doc.pages),
        )


def test_the_designer_page_shows_the_play_figures_and_the_histogram():
    text, images, pages = _designer_page(replace(standin_sources(), play=figures()))
    assert pages == 8  # the play figures fit the eight pages an A4 sheet pair folds to
    assert "400 simulated games of 3 “explorer” players (seed 1, fast engine)" in text
    assert "median rounds to win (tenth–ninetieth pct) 9 (7–12)" in text
    assert "games unfinished at the cap 0.2%" in text and "turns spent trapped 1.3%" in text
    [picture] = [im for im in images if im["width"] < 300]  # the histogram, not the board
    width_mm = (picture["x1"] - picture["x0"]) * 25.4 / 72
    height_mm = (picture["bottom"] - picture["top"]) * 25.4 / 72
    assert width_mm == pytest.approx(100, abs=0.1) and height_mm == pytest.approx(50, abs=0.1)  # the SVG's 2:1


def test_the_designer_page_shows_the_headline_measures_and_still_folds_to_eight_pages():
    quality = (
        ("lead changes", 1.2, 0.05, "the lead changes 1.2 times a game"),
        ("drama", 0.22, 0.02, "in 22% of games the winner was behind at two thirds of the game"),
        ("luck share", 0.89, 0.04, "0.89: mostly luck"),
    )
    text, _, pages = _designer_page(replace(standin_sources(), play=replace(figures(), quality=quality)))
    assert pages == 8 and "Is it a good game?" in text
    assert "lead changes 1.20 ± 0.05 the lead changes 1.2 times a game" in text
    assert "drama 0.22 ± 0.02 in 22% of games" in text and "luck share 0.89 ± 0.04" in text


def test_the_play_figures_carry_the_measures_of_their_own_games(classic):
    from generator.model import read_tileset
    from generator.play import default_rules
    from generator.play.simulate import simulate
    from generator.publish.playpage import HEADLINE, simulate_play
    from tests.conftest import EXAMPLES

    tiles, rules = read_tileset(EXAMPLES / "best-known.json"), default_rules(classic)
    play = simulate_play(tiles, classic, rules, 60, 4)
    assert [q[0] for q in play.quality] == list(HEADLINE)
    own = simulate(tiles, classic, rules, 3, 60, seed=4, measured=60).quality
    assert dict((q[0], q[1]) for q in play.quality)["drama"] == own.drama.value


def _markup(src):
    from generator.publish.bookletkit import booklet_context

    return bk.render_markup(src.templates, booklet_context(src, load_settings()))


def test_without_a_simulation_the_page_has_no_play_figures():
    assert "How the game plays" in _markup(replace(standin_sources(), play=figures()))
    markup = _markup(standin_sources())
    assert "How the game plays" not in markup and "<picture" not in markup


def test_a_picture_the_kit_lacks_is_a_template_error():
    from generator.errors import TrailwrightError

    root = bk.parse_markup(
        _markup(replace(standin_sources(), play=figures())).replace('name="histogram"', 'name="heatmap"'), TEMPLATES
    )
    [play] = [b for b in root if b.tag == "keep" and any(c.tag == "picture" for c in b)]  # the play figures
    resources = bk.Resources(None, None, (1.0, 1.0), (), (), (("histogram", None, 0.5),))
    with pytest.raises(
        TrailwrightError,
        match=r"designer\.xml\.j2: template error at line \d+: "
        r"<picture name='heatmap'> names no picture \(known: histogram\)",
    ):
        bk.build_story(replace(root, children=(play,)), resources, 120, TEMPLATES)


def claiming_templates(tmp_path):
    """The package's templates with the old false claim put back into the turning rule."""
    import shutil

    folder = tmp_path / "templates"
    shutil.copytree(TEMPLATES, folder)
    play = folder / "play.xml.j2"
    text = play.read_text(encoding="utf-8")
    assert "usually opens a way on.</p>" in text
    play.write_text(
        text.replace(
            "usually opens a way on.</p>", "always opens a way on, so no explorer is ever stuck for good.</p>"
        ),
        encoding="utf-8",
    )
    return folder


def test_claims_are_checked_against_the_simulation(tmp_path):
    settings = load_settings()
    claiming = standin_sources(claiming_templates(tmp_path))
    assert claim_warnings(replace(claiming, play=figures(no_way_out=0)), settings) == []
    [line] = claim_warnings(replace(claiming, play=figures(no_way_out=7)), settings)
    assert "'no explorer is ever stuck for good'" in line and "7 of 400 simulated games" in line
    assert claim_warnings(claiming, settings) == []  # no simulation, nothing to check
    assert claim_warnings(replace(standin_sources(), play=figures(no_way_out=7)), settings) == []  # the shipped
    # text no longer makes the claim


def test_publish_warns_in_one_line_and_still_writes_the_kit(monkeypatch, capsys, tmp_path):
    claiming = claiming_templates(tmp_path)
    import generator.cli.publish as cli
    import generator.publish.kit as kit

    monkeypatch.setattr(
        cli,
        "make_sources",
        lambda args, tileset, board, settings, language: replace(standin_sources(claiming), play=figures(no_way_out=5)),
    )
    monkeypatch.setattr(kit, "publish_kit", lambda src, settings, **_: {"print/rules.pdf": b"%PDF stand-in"})
    status = main(["publish", str(ROOT / "examples" / "random-20.json"), "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert status == 0 and len(warnings) == 1
    assert warnings[0].startswith("publish: warning: the rules say 'no explorer is ever stuck for good', but 5 of 400")
    assert (tmp_path / "print" / "rules.pdf").read_bytes() == b"%PDF stand-in"


def test_the_shipped_templates_parse_with_play_figures():
    src = replace(standin_sources(), play=figures())
    from generator.publish.bookletkit import booklet_context

    markup = bk.render_markup(src.templates, booklet_context(src, load_settings()))
    assert "<picture" in markup and bk.parse_markup(markup, src.templates).tag == "booklet"


def test_the_play_figures_are_the_simulators_own(classic):
    from generator.model import read_tileset
    from generator.play import default_rules
    from generator.play.simulate import simulate
    from generator.publish.playpage import simulate_play

    tiles = read_tileset(ROOT / "examples" / "best-known.json")
    rules = default_rules(classic)
    play = simulate_play(tiles, classic, rules, games=60, seed=4)
    report = simulate(tiles, classic, rules, players=rules.players_default, games=60, seed=4)
    assert (play.players, play.games, play.seed, play.engine, play.policy) == (3, 60, 4, "fast", "explorer")
    assert (play.median, play.p10, play.p90, play.mean) == (
        report.rounds_median,
        report.rounds_p10,
        report.rounds_p90,
        report.rounds_mean,
    )
    assert play.no_way_out == round(report.stuck_games * 60) and play.trapped == report.trapped_share
    assert play.histogram_svg.startswith("<svg") and simulate_play(tiles, classic, rules, games=60, seed=4) == play
    assert simulate_play(tiles, classic, rules, games=0, seed=4) is None
