"""The booklet's language: the templates that hold its words, how it writes numbers, and the few phrases the
Python side composes, all read from the templates folder (the words are data).

Glossary
--------
language   a code such as ``en`` or ``fr``. A templates folder holds the default language's templates (English in
           the package's ``templates/``) and each other language's in a subfolder named by its code
           (``templates/fr/``), each beside its ``language.toml``.
numbers    how the language writes 1234.5 and 0.125 (``generator.units.Numbers``): ``[numbers]`` in language.toml.
phrases    the sentences the Python side composes (the die's name, a turn's size, "or", the histogram's
           labels, the measures' readings and names, the rules' claims). ``PHRASES`` holds the
           English ones: the booklet's from the package's own ``templates/language.toml``, the histogram's and
           the measures' from the play modules that draw and read them. ``[phrases]`` in another
           language.toml words any of them again, with the same ``{fields}``.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import TrailwrightError
from generator.inputs import load_toml
from generator.play.pictures import HISTOGRAM
from generator.play.readings import READINGS
from generator.publish.pdf import SHEET_WORDS
from generator.table.words import WORDS as TABLE
from generator.units import ENGLISH as ENGLISH_NUMBERS
from generator.units import Numbers

LANGUAGE_FILE = "language.toml"
CODE = re.compile(r"[a-z]{2,3}(-[A-Za-z]{2,4})?")  # a BCP 47 language and optional region: en, fr, pt-BR
DEFAULT = "en"
TEMPLATES = Path(__file__).resolve().parent / "booklet" / "templates"  # the shipped templates (package data)


def _flat(table: dict, prefix: str = "") -> dict:
    out: dict = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        out.update(_flat(value, name + ".") if isinstance(value, dict) else {name: value})
    return out


ENGLISH_FILE = TEMPLATES / LANGUAGE_FILE
BOOKLET = _flat(load_toml(ENGLISH_FILE, str(ENGLISH_FILE))["phrases"])  # the booklet's English phrases, stated there
PHRASES = {
    **BOOKLET,
    **{f"histogram.{k}": v for k, v in HISTOGRAM.items()},
    **{f"table.{k}": v for k, v in TABLE.items()},
    **{f"sheets.{k}": v for k, v in SHEET_WORDS.items()},
    **{f"readings.{k}": v for k, v in READINGS.items()},
    **{f"measures.{k}": k for k in READINGS if "." not in k},  # a measure's name in the booklet's tables
}
NUMBERED = ("turn", "a_die")  # phrase families a language words case by case (``turn.6.1``, ``a_die.8``)


def _current_key(key: str) -> str:
    """A phrase key as it is named now: a language file's ``sixths.N`` (from before turns were worded for every tile)
    is a hex tile's turn, ``turn.6.N``, and ``sixths.n`` is ``turn.n``."""
    if key == "sixths.n":
        return "turn.n"
    return "turn.6." + key[len("sixths.") :] if key.startswith("sixths.") else key


NUMBER_KEYS = {"decimal": "decimal", "group": "group", "percent": "percent_pattern"}
NAME_KINDS = ("boards", "landmarks", "players", "engines")  # what [names] words: ids the rules and files keep
MAX_NAME = 80


@dataclass(frozen=True)
class Language:
    """A booklet language: its code, its templates folder, its numbers and its phrases (``PHRASES``' keys)."""

    code: str = DEFAULT
    templates: Path | None = None
    numbers: Numbers = ENGLISH_NUMBERS
    phrases: dict[str, str] = field(default_factory=lambda: dict(PHRASES))
    names: dict[str, str] = field(default_factory=dict)  # "landmarks.Hut" -> the name printed; the rules keep ids

    def name(self, ident: str, kind: str = "landmarks") -> str:
        """How the language prints a board's, landmark's, player's or engine's id (the id where it names none)."""
        return self.names.get(f"{kind}.{ident}", ident)

    def board_title(self, board) -> str:
        """The board's printed title: the language's name for it, else the board file's title, else its name."""
        return self.names.get(f"boards.{board.name}") or board.title or board.name

    def labels(self) -> tuple[str, ...]:
        """The tiles' labels in this language (``Style.labels``); () where they are English."""
        words = tuple(self.phrases[f"label.{k}"] for k in ("front", "front_short", "back", "back_short"))
        return (
            ()
            if words == tuple(PHRASES[f"label.{k}"] for k in ("front", "front_short", "back", "back_short"))
            else words
        )

    def printed_board(self, board):
        """``board`` with its title and landmarks named as this language prints them (``Board.shown``)."""
        names = {lm.name: self.name(lm.name) for lm in board.landmarks}
        return board.with_printed({"": self.board_title(board), **names})

    def say(self, key: str, **fields) -> str:
        """The phrase ``key`` with its fields filled in."""
        return self.phrases[key].format(**fields)

    def group(self, prefix: str) -> dict[str, str]:
        """The phrases under ``prefix.`` without it: ``group("histogram")`` -> {"title": ..., ...}."""
        return {k[len(prefix) + 1 :]: v for k, v in self.phrases.items() if k.startswith(prefix + ".")}

    def turn(self, steps: int, edges: int) -> str:
        """A tile turn of ``steps`` edges on a tile of ``edges`` edges, in the tile's own unit ("one sixth" on a
        hexagon, "a quarter turn" on a square)."""
        return self.phrases.get(f"turn.{edges}.{steps}") or self.say("turn.n", n=steps)

    def table_words(self, geometry) -> dict[str, str]:
        """The play table's words (``[phrases.table]``), its tile turn worded for ``geometry``'s tiles."""
        return self.group("table") | {"turn": self.turn(1, geometry.edges)}

    def a_die(self, n: int) -> str:
        return self.phrases.get(f"a_die.{n}") or self.say("a_die.n", n=n)

    def choice(self, words: list[str]) -> str:
        """``["1", "2", "5"]`` -> "1, 2 or 5" (with the language's "or")."""
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {self.phrases['or']} " + words[-1]


ENGLISH = Language()  # the built-in phrases and numbers (its templates: the caller's folder)


def _fields(text: str) -> set[str]:
    """The ``{fields}`` ``text`` names ("" for a bare ``{}``); a format spec or conversion is refused, since the
    program writes every number itself (``ValueError``)."""
    found = set()
    for _, name, spec, conversion in string.Formatter().parse(text):
        if name is None:
            continue
        if spec or conversion:
            raise ValueError(f"{{{name}}} with a format of its own (the program writes the numbers)")
        found.add(name)
    return found


def _phrases(table: dict, source: str) -> dict[str, str]:
    given = {_current_key(k): v for k, v in _flat(table).items()}
    phrases = dict(PHRASES)
    for family in NUMBERED:  # a language that words a family words its numbered cases itself
        if any(k.startswith(family + ".") for k in given):
            phrases = {k: v for k, v in phrases.items() if not (k.startswith(family + ".") and k[-1].isdigit())}
    for key, text in given.items():
        where = f"{source}: [phrases] {key}"
        if key not in PHRASES and not (key.split(".")[0] in NUMBERED and key.split(".")[-1].isdigit()):
            known = sorted(k for k in PHRASES if not k.split(".")[-1].isdigit())
            raise TrailwrightError(f"unknown phrase (known: {', '.join(known)}, and turn.EDGES.N, a_die.N)", where)
        if not isinstance(text, str) or not text.strip():
            raise TrailwrightError("must be a non-empty string", where)
        try:
            extra = _fields(text) - _fields(PHRASES.get(key, "{n}" if key.endswith(".n") else ""))
        except ValueError as err:
            raise TrailwrightError(f"a bad {{field}}: {err}", where) from None
        if extra:
            raise TrailwrightError(
                f"names {', '.join('{' + f + '}' for f in sorted(extra))}, which it is not given", where
            )
        phrases[key] = text
    return phrases


def _numbers(table: dict, source: str) -> Numbers:
    for key, value in table.items():
        where = f"{source}: [numbers] {key}"
        if key not in NUMBER_KEYS:
            raise TrailwrightError("unknown key (known: decimal, group, percent)", where)
        if not isinstance(value, str) or (key == "percent" and "{}" not in value):
            raise TrailwrightError('must be a string (percent: holding "{}" where the number goes)', where)
    return Numbers(**{NUMBER_KEYS[k]: v for k, v in table.items()})


def _names(table: dict, source: str) -> dict[str, str]:
    """``[names]``: a table per kind (``NAME_KINDS``) of id = the name printed (a short line of text)."""
    names = {}
    for kind, table_of in table.items():
        where = f"{source}: [names.{kind}]"
        if kind not in NAME_KINDS or not isinstance(table_of, dict):
            raise TrailwrightError(f"unknown table (known: {', '.join(NAME_KINDS)}, each of id = name)", where)
        for ident, text in table_of.items():
            if not isinstance(text, str) or not text.strip() or len(text) > MAX_NAME or not text.isprintable():
                raise TrailwrightError(f"must be a name of 1 to {MAX_NAME} printable characters", f"{where} {ident}")
            names[f"{kind}.{ident}"] = text.strip()
    return names


def language_folder(templates: Path, code: str) -> Path:
    """The folder of ``code``'s templates inside ``templates``: the folder itself for the default language."""
    if not CODE.fullmatch(code):
        raise TrailwrightError(f"{code!r} is not a language code such as en, fr or pt-BR")
    if code == DEFAULT:
        return templates
    folder = templates / code
    if not (folder / "booklet.xml.j2").is_file():
        known = (
            sorted(p.name for p in templates.iterdir() if (p / "booklet.xml.j2").is_file())
            if templates.is_dir()
            else []
        )
        have = ", ".join([DEFAULT, *known])
        raise TrailwrightError(
            f"no booklet templates for the language {code!r} (this folder has: {have})", str(templates)
        )
    return folder


def load_language(templates: Path, code: str = DEFAULT) -> Language:
    """The language ``code`` of the templates folder ``templates``: its templates folder and its
    language.toml (English numbers and phrases where it has none)."""
    folder = language_folder(templates, code)
    path = folder / LANGUAGE_FILE
    if not path.is_file():
        return Language(code, folder)
    data = load_toml(path, str(path))
    unknown = set(data) - {"numbers", "phrases", "names"}
    if unknown:
        raise TrailwrightError(f"unknown table [{sorted(unknown)[0]}] (known: numbers, phrases, names)", str(path))
    return Language(
        code,
        folder,
        _numbers(data.get("numbers", {}), str(path)),
        _phrases(data.get("phrases", {}), str(path)),
        _names(data.get("names", {}), str(path)),
    )
