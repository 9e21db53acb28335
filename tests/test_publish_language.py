"""The booklet's words are data: the templates at the project's root, a complete French booklet (``--lang fr``)
with the landmarks' names from the board and numbers written the French way, and clear errors for a bad language."""

import fnmatch
import io
import re
import tomllib
from dataclasses import replace

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.cli import main
from generator.errors import TrailwrightError
from generator.model import read_tileset
from generator.play import default_rules
from generator.play.pictures import histogram_svg
from generator.publish import booklet as bk
from generator.publish.art import ArtCache
from generator.publish.booklet import TEMPLATES
from generator.publish.bookletkit import booklet_context, make_booklet
from generator.publish.language import ENGLISH, PHRASES, load_language
from generator.publish.rulesbook import false_claims, rules_context
from generator.publish.settings import load_settings
from generator.units import ENGLISH as ENGLISH_NUMBERS
from generator.units import Numbers
from tests.test_publish_play_page import figures
from tests.test_publish_rules_text import NEW, OLD, _sources, _words, renamed  # noqa: F401 (a fixture)
from tests.test_publish_standin import FIGURES, ROOT, TILE_MM, standin_sources

FRENCH = load_language(TEMPLATES, "fr")
NNBSP = "\u202f"  # the narrow no-break space French puts in 100 000 and before %
ENGLISH_WORDS = (  # words that must not print in a French kit: common English, the issue's finds, the landmarks' ids
    *("the", "and", "your", "you", "tile", "tiles", "trail", "board", "player", "roll", "step", "of", "printed"),
    *("front", "back", "fronts", "backs", "classic", "fitness", "dupScore", "explorer", "greedy", "fast", "Print"),
    *("Hut", "Well", "Spring", "Lair", "Orchard", "Exit", "Actual", "size", "flip", "fold", "rulers", "sheets"),
)


def english_words(text: str) -> set[str]:
    """The words of ``ENGLISH_WORDS`` in ``text``."""
    return {w for w in ENGLISH_WORDS if re.search(rf"\b{w}\b", text)}


def _text(src) -> str:
    markup = bk.render_markup(src.templates, booklet_context(src, load_settings()), src.language.numbers)
    bk.parse_markup(markup, src.templates)  # well formed
    inline = re.sub(r"</?(b|i|em)>", "", markup)
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", inline)).strip()  # U+202F kept


def _french(**changes):
    return replace(standin_sources(FRENCH.templates, FRENCH), **changes)


def test_the_templates_live_at_the_project_root_and_are_package_data():
    assert (ROOT / "templates" / "booklet.xml.j2").is_file()
    assert TEMPLATES.resolve() == (ROOT / "templates").resolve()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["generator.publish.booklet"]
    shipped = [p.relative_to(ROOT).as_posix() for p in ROOT.glob("templates/**/*") if p.is_file()]
    assert shipped and all(any(fnmatch.fnmatch(f, pat) for pat in patterns) for f in shipped)


def test_every_english_template_has_a_french_one():
    english = {p.name for p in TEMPLATES.glob("*.j2")}
    assert english == {p.name for p in (TEMPLATES / "fr").glob("*.j2")}


def test_the_english_phrases_are_the_package_language_file_and_fill_what_a_project_leaves_out(tmp_path):
    english = load_language(TEMPLATES)
    assert english.numbers == ENGLISH_NUMBERS and english.phrases == PHRASES == ENGLISH.phrases
    assert (english.a_die(8), english.a_die(6), english.turn(3, 6), english.turn(1, 4), english.turn(4, 8)) == (
        "an 8-sided die",
        "a 6-sided die",
        "half a turn",
        "a quarter turn",
        "4 edges",
    )
    assert english.choice(["1", "2", "5"]) == "1, 2 or 5"
    (tmp_path / "booklet.xml.j2").write_text("<booklet/>")  # a project's templates, its language.toml a stub
    (tmp_path / "language.toml").write_text('[phrases]\nor = "and/or"\n')
    own = load_language(tmp_path)
    assert own.choice(["1", "2"]) == "1 and/or 2" and own.a_die(8) == "an 8-sided die"


@given(st.floats(-1e9, 1e9, allow_nan=False), st.integers(0, 4))
def test_english_numbers_are_pythons_and_french_ones_swap_the_marks(x, places):
    assert ENGLISH_NUMBERS.number(x, places) == f"{x:,.{places}f}"
    french = FRENCH.numbers.number(x, places)
    assert french == f"{x:,.{places}f}".replace(",", NNBSP).replace(".", ",")
    assert FRENCH.numbers.percent(x / 100, places).endswith(f"{NNBSP}%")


def test_the_french_booklet_is_french_throughout(classic):
    text = _text(_french(play=replace(figures(), quality=(("changements de tête", 1.2, 0.05, "…"),))))
    assert not english_words(text), text[:300]  # the board and its landmarks too: the language names them
    for heading in ("Contenu de la boîte", "Mise en place", "Jouer", "Les ponts", "Catalogue des tuiles"):
        assert heading in text
    assert "Visitez Puits, Source et Verger dans l'ordre de votre choix, puis sortez par Sortie" in text
    assert "Le lieu Sortie occupe deux emplacements" in " ".join(text.split())  # a name alone is said to be a place
    assert classic.title not in text and f"«{NNBSP}Classique (20 tuiles){NNBSP}»" in text


@pytest.mark.parametrize("french", [False, True])
def test_the_board_title_is_quoted_wherever_the_booklet_names_it(classic, french):
    """A board's title is a name of its own ("The classic board (20 tiles)"): prose that wrapped it ("on the ...
    board") read "on the The classic board (20 tiles) board"."""
    text = _text(_french() if french else standin_sources())
    opening, closing = (f"«{NNBSP}", f"{NNBSP}»") if french else ("“", "”")
    title = FRENCH.board_title(classic) if french else classic.title
    assert text.count(title) == text.count(opening + title + closing) >= 2


def test_french_numbers_and_units():
    text = _text(_french(play=figures()))
    assert FIGURES.samples >= 1000 and f"{FRENCH.numbers.number(FIGURES.samples)} plans aléatoires" in text
    assert f"{FIGURES.samples:,}".replace(",", NNBSP) in text
    assert re.search(r"-?\d+,\d{3} ± 0,\d{3}", text)  # the fitness
    assert re.search(rf"paires de lieux reliées, moyenne \d\d,\d{NNBSP}%", text)
    assert re.search(rf"parties inachevées à la limite 0,\d{NNBSP}%", text)  # 0.25% unfinished, one decimal
    tile = f"{TILE_MM:g}".replace(".", ",")
    assert f"Tuiles de {tile} mm, fond perdu de 3 mm, images à 300 dpi." in text


def test_the_french_rules_word_the_rules_data(classic):
    base = default_rules(classic)
    rules = replace(
        base,
        die=8,
        hazards=(replace(base.hazards[0], rolls=(1, 2)),),
        turning=replace(base.turning, steps=2, next_to_pawn=False),
    )
    ctx = rules_context(rules, classic, FRENCH)
    assert ctx["hazards"][0]["chase"] == "1 ou 2" and ctx["a_die"] == "un dé à 8 faces"
    text = _text(_french(rules=rules))
    assert "un dé à 8 faces pour avancer" in text
    assert f"Sur 1 ou 2, vous êtes chassé jusqu'à Cabane{NNBSP}; sur 3–8, vous vous faufilez" in text
    assert "faire pivoter une tuile posée de deux sixièmes de tour" in text


def test_landmark_names_in_the_french_booklet_come_from_the_board(renamed):  # noqa: F811
    board, rules = renamed
    src = replace(_sources(board, rules), templates=FRENCH.templates, language=FRENCH)
    settings = load_settings()
    art = ArtCache.covering(src.art_for_width(TILE_MM), TILE_MM, settings.dpi, settings.bleed_mm)
    reading, _ = make_booklet(src, settings, art, src.board_svg)
    with pdfplumber.open(io.BytesIO(reading)) as doc:
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in doc.pages)
    assert _words(text, NEW) == set(NEW) and _words(text, OLD) == set()
    assert "Visitez Fountain, Brook et Vineyard dans l'ordre de votre choix" in text
    assert "Pour l'auteur du jeu" in text and "Catalogue des tuiles" in text


def test_the_histogram_and_the_readings_speak_french(classic):
    from generator.model import read_tileset
    from generator.play.simulate import simulate

    tiles = read_tileset(ROOT / "examples" / "best-known.json")
    rules = replace(default_rules(classic), round_cap=9)
    report = simulate(tiles, classic, rules, 3, 40, ("explorer",), seed=2)
    report = replace(report, rounds_median=9.5)
    svg = histogram_svg(report, words=FRENCH.group("histogram"), numbers=FRENCH.numbers)
    assert "40 parties sur classic, 3 joueurs : explorer" in svg and "médiane 9,5 tours" in svg
    assert f"{FRENCH.numbers.percent(report.unfinished, 1)} inachevées à la limite de 9 tours" in svg
    assert report.unfinished > 0 and f"{NNBSP}%" in svg
    assert "tours avant la fin de la partie" in svg and "rounds" not in svg


def test_a_claim_is_checked_in_the_booklets_language():
    stuck = type("Play", (), {"no_way_out": 3, "games": 400})()
    french = "Rassurez-vous : aucun explorateur n'est jamais bloqué pour de bon."
    assert len(false_claims(french, stuck, language=FRENCH)) == 1
    assert false_claims(french, stuck, language=ENGLISH) == []
    assert false_claims("no explorer is ever stuck for good", stuck, language=FRENCH) == []
    from dataclasses import replace as changed

    hostile = changed(FRENCH, phrases={**FRENCH.phrases, "claims.no_way_out": "(a+)+$"})  # words, never a regex
    assert false_claims("a" * 40 + "!", stuck, language=hostile) == []  # at once: no catastrophic backtracking
    assert len(false_claims("so (a+)+$ it says", stuck, language=hostile)) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('[phrases]\nsettingz = "x"\n', "[phrases] settingz: unknown phrase"),
        ('[phrases]\nsettings = "{tile} {foo}"\n', "[phrases] settings: names {foo}, which it is not given"),
        ('[phrases]\nsettings = "{tile.__class__}"\n', "names {tile.__class__}"),
        ('[phrases]\nsettings = "{tile"\n', "a bad {field}"),
        ('[phrases]\nsettings = "{tile:.2f}"\n', "a bad {field}: {tile} with a format of its own"),
        ('[phrases]\nsettings = "{tile!r}"\n', "a bad {field}: {tile} with a format of its own"),
        ('[phrases]\nor = "{}"\n', "[phrases] or: names {}, which it is not given"),
        ('[phrases.readings]\ndrama = "{0}"\n', "[phrases] readings.drama: names {0}, which it is not given"),
        ('[phrases]\nor = ""\n', "[phrases] or: must be a non-empty string"),
        ('[numbers]\npercent = "%"\n', "[numbers] percent: must be a string"),
        ('[numbers]\nradix = ","\n', "[numbers] radix: unknown key"),
        ("[words]\n", "unknown table [words]"),
        ('[names.towns]\nHut = "Cabane"\n', "[names.towns]: unknown table"),
        ('[names.landmarks]\nHut = ""\n', "[names.landmarks] Hut: must be a name of 1 to 80"),
        ('[names.landmarks]\nHut = "a\\nb"\n', "[names.landmarks] Hut: must be a name of 1 to 80 printable"),
        ('[phrases.sheets]\npage = "{page} {x}"\n', "[phrases] sheets.page: names {x}"),
    ],
)
def test_a_bad_language_file_is_one_line_naming_the_file_and_key(tmp_path, content, message):
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "booklet.xml.j2").write_text("<booklet/>")
    (tmp_path / "fr" / "language.toml").write_text(content)
    with pytest.raises(TrailwrightError) as err:
        load_language(tmp_path, "fr")
    assert message in str(err.value) and "language.toml" in str(err.value)


@pytest.mark.parametrize(("code", "message"), [("de", "has: en, fr"), ("../fr", "not a language code"), ("", "not")])
def test_publish_names_a_missing_or_bad_language_in_one_line(capsys, tmp_path, code, message):
    status = main(["publish", str(ROOT / "examples" / "random-20.json"), "--lang", code, "--out", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1 and message in err
    assert not any(tmp_path.iterdir())  # nothing written


def test_publish_lang_fr_prints_a_french_kit_that_passes_check(tmp_path):
    out = tmp_path / "kit"
    assert main(["publish", str(ROOT / "examples" / "best-known.json"), "--lang", "fr", "--only", "booklet,sheets,play",
                 "--paper", "a4", "--out", str(out)]) == 0  # fmt: skip
    assert main(["check", str(out)]) == 0
    with pdfplumber.open(out / "print" / "rules.pdf") as doc:
        raw = [p.extract_text() or "" for p in doc.pages]
    pages = [" ".join(p.split()) for p in raw]
    text = " ".join(pages)
    assert "Un labyrinthe jamais deux fois le même" in pages[0]
    assert "Comment le jeu se joue" in text and "Est-ce un bon jeu ?" in text and "part de chance" in text
    assert re.search(r"note de l.article \(sa formule exacte\) -?\d+,\d{3} ± 0,\d{3}", text)
    assert "suspense" in text and "lead changes" not in text and "luck share" not in text
    assert not english_words(text), sorted(english_words(text))
    assert re.search(r"\s4[\xa0 ]000[\xa0 ]000\splans", " ".join(raw))  # one word: never broken across a line
    assert len(pages) % 4 == 0  # the saddle-stitched sheets are full (it ran to 10 pages, one line on the tenth)
    with pdfplumber.open(out / "print" / "tiles-a4-duplex.pdf") as doc:
        sheet = " ".join((doc.pages[0].extract_text() or "").split())
    assert "page 1 sur" in sheet and "Imprimer à 100" in sheet and not english_words(sheet), sheet
    page = (out / "play" / "index.html").read_text()
    assert '<html lang="fr">' in page and "Nouveau labyrinthe" in page and "Cabane" in page
    shown = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)  # the words a player sees
    assert not english_words(re.sub(r"<[^>]+>", " ", shown)), sorted(english_words(re.sub(r"<[^>]+>", " ", shown)))
    assert '"language": "fr"' in (out / "kit.json").read_text()  # the settings that made it


def test_a_new_project_carries_every_language(tmp_path):
    assert main(["new", str(tmp_path / "p")]) == 0
    words = tmp_path / "p" / "templates"
    for path in TEMPLATES.rglob("*"):
        if path.is_file():
            assert (words / path.relative_to(TEMPLATES)).read_text() == path.read_text()
    assert load_language(words, "fr").numbers == FRENCH.numbers


def test_a_language_names_what_the_kit_prints_and_the_rules_keep_their_ids(classic):
    from generator.render import load_style, render_board, render_side
    from generator.render.labels import label_texts
    from generator.scoring.figures import board_digest

    printed = FRENCH.printed_board(classic)
    assert printed == classic and board_digest(printed) == board_digest(classic)  # the same board to the rules
    assert [printed.shown(lm.name) for lm in classic.landmarks][:3] == ["Cabane", "Puits", "Source"]
    svg = render_board(printed, load_style())
    assert ">Cabane</text>" in svg and ">Hut</text>" not in svg and "<title>Classique (20 tuiles)</title>" in svg
    assert label_texts("7", "front", FRENCH.labels()) == ("7 recto", "7R")
    assert label_texts("7", "back", FRENCH.labels()) == ("7 verso", "7V") and ENGLISH.labels() == ()
    tile = read_tileset(ROOT / "examples" / "random-20.json").tiles[0]
    side = render_side(tile, "back", replace(load_style(), labels=FRENCH.labels()))
    assert f">{tile.id} verso<" in side or f">{tile.id}V<" in side


def test_numbers_default_to_english():
    assert Numbers() == ENGLISH_NUMBERS and ENGLISH_NUMBERS.percent(0.125, 1) == "12.5%"
    assert ENGLISH_NUMBERS.short(12.0) == "12" and FRENCH.numbers.short(12.5) == "12,5"
