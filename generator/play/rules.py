"""The rules of the game as data, loaded from TOML and checked against a board.

Glossary
--------
start        the landmark every pawn starts on.
required     the landmarks a pawn must visit, in any order, before the goal counts.
goal         the landmark that ends the game when a pawn reaches it with every required one visited.
move-ending  a landmark that ends the move of a pawn stepping onto it (any steps left are lost).
hazard       a landmark that rolls the die at once when a pawn steps in: on one of ``rolls``
             the pawn is sent to the landmark ``to`` (the Lair's 1-3 back to the Hut).
turning      instead of rolling, a player may turn one laid tile by ``sixths`` either way.

A rules file (``trailwright-rules/1``) has the same keys; see ``rules.toml`` beside this module.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from generator.board import Board
from generator.board.board import _check_keys, _tables
from generator.errors import TrailwrightError

FORMAT = "trailwright-rules/1"
PLAYERS_RANGE = (2, 4)
MAX_ROUND_CAP = 100_000


@dataclass(frozen=True)
class Hazard:
    """Stepping onto ``landmark`` rolls the die at once; on one of ``rolls`` the pawn goes to ``to``."""

    landmark: str
    rolls: tuple[int, ...]
    to: str


@dataclass(frozen=True)
class Turning:
    """Whether and how a laid tile may be turned instead of rolling."""

    allowed: bool = True
    next_to_pawn: bool = True
    sixths: int = 1
    under_pawn: bool = False


@dataclass(frozen=True)
class Rules:
    """One game's rules; landmark names are the board's (check with ``check_rules``)."""

    start: str
    required: tuple[str, ...]
    goal: str
    die: int = 6
    move_ending: tuple[str, ...] | None = None  # None: every landmark ends a move
    stub_blocks: bool = False
    round_cap: int = 200
    players_min: int = 2
    players_max: int = 4
    players_default: int = 3
    hazards: tuple[Hazard, ...] = ()
    turning: Turning = Turning()

    def landmarks_named(self) -> list[tuple[str, str]]:
        """Every landmark name the rules use, with the key that uses it."""
        named = [("start", self.start), ("goal", self.goal)] + [("required", n) for n in self.required]
        named += [("move_ending", n) for n in self.move_ending or ()]
        for h in self.hazards:
            named += [("hazard.landmark", h.landmark), ("hazard.to", h.to)]
        return named

    def ends_move(self, name: str) -> bool:
        """Whether stepping onto landmark ``name`` ends a move."""
        return self.move_ending is None or name in self.move_ending

    def renamed(self, names: dict[str, str]) -> "Rules":
        """The same rules with landmarks renamed (``{old: new}``; names not listed stay)."""
        r = lambda n: names.get(n, n)  # noqa: E731
        return replace(
            self, start=r(self.start), required=tuple(map(r, self.required)), goal=r(self.goal),
            move_ending=None if self.move_ending is None else tuple(map(r, self.move_ending)),
            hazards=tuple(Hazard(r(h.landmark), h.rolls, r(h.to)) for h in self.hazards),
        )


# --- loading -------------------------------------------------------------------------------


def _int(data: dict, key: str, default: int, lo: int, hi: int) -> int:
    value = data.get(key.rsplit(".", 1)[-1], default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise TrailwrightError(f"{key} = {value!r} is not a whole number from {lo} to {hi}")
    return value


def _bool(data: dict, key: str, default: bool) -> bool:
    value = data.get(key.rsplit(".", 1)[-1], default)
    if not isinstance(value, bool):
        raise TrailwrightError(f"{key} = {value!r} is not true or false")
    return value


def _name(data: dict, key: str) -> str:
    value = data.get(key.rsplit(".", 1)[-1])
    if not isinstance(value, str) or not value:
        raise TrailwrightError(f"{key} = {value!r} is not a landmark name")
    return value


def _names(data: dict, key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise TrailwrightError(f"{key} = {value!r} is not a list of landmark names")
    if len(set(value)) != len(value):
        raise TrailwrightError(f"{key} names a landmark twice: {value!r}")
    return tuple(value)


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Validate parsed TOML and build rules; errors are one line naming the key and the value."""
    _check_keys(data, {"format", "start", "required", "goal", "die", "move_ending", "stub_blocks", "round_cap",
                       "players", "hazard", "turning"}, "rules")
    if data.get("format", FORMAT) != FORMAT:
        raise TrailwrightError(f"format {data['format']!r} is not {FORMAT!r}")
    die = _int(data, "die", 6, 2, 100)
    move_ending = data.get("move_ending", "all")
    players = data.get("players", {})
    if not isinstance(players, dict):
        raise TrailwrightError(f"players = {players!r} is not a table [players]")
    _check_keys(players, {"min", "max", "default"}, "players")
    lo, hi = PLAYERS_RANGE
    p_min = _int(players, "players.min", lo, lo, hi)
    p_max = _int(players, "players.max", hi, p_min, hi)
    p_default = _int(players, "players.default", min(max(3, p_min), p_max), p_min, p_max)
    hazards = []
    for k, table in enumerate(_tables(data, "hazard")):
        if not isinstance(table, dict):
            raise TrailwrightError(f"hazard #{k + 1}: expected a table")
        _check_keys(table, {"landmark", "rolls", "to"}, f"hazard #{k + 1}")
        rolls = table.get("rolls")
        if (not isinstance(rolls, list) or not rolls
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= die for v in rolls)):
            raise TrailwrightError(f"hazard.rolls = {rolls!r} is not a list of die rolls from 1 to {die}")
        hazards.append(Hazard(_name(table, "hazard.landmark"), tuple(sorted(set(rolls))), _name(table, "hazard.to")))
    turning = data.get("turning", {})
    if not isinstance(turning, dict):
        raise TrailwrightError(f"turning = {turning!r} is not a table [turning]")
    _check_keys(turning, {"allowed", "next_to_pawn", "sixths", "under_pawn"}, "turning")
    return Rules(
        start=_name(data, "start"),
        required=_names(data, "required"),
        goal=_name(data, "goal"),
        die=die,
        move_ending=None if move_ending == "all" else _names(data, "move_ending"),
        stub_blocks=_bool(data, "stub_blocks", False),
        round_cap=_int(data, "round_cap", 200, 1, MAX_ROUND_CAP),
        players_min=p_min, players_max=p_max, players_default=p_default,
        hazards=tuple(hazards),
        turning=Turning(
            allowed=_bool(turning, "turning.allowed", True),
            next_to_pawn=_bool(turning, "turning.next_to_pawn", True),
            sixths=_int(turning, "turning.sixths", 1, 1, 3),
            under_pawn=_bool(turning, "turning.under_pawn", False),
        ),
    )


def check_rules(rules: Rules, board: Board) -> Rules:
    """The rules, if they fit the board; else a one-line error naming the key and the problem."""
    names = [lm.name for lm in board.landmarks]
    for key, name in rules.landmarks_named():
        if name not in names:
            raise TrailwrightError(f"{key}: {name!r} is not a landmark of board {board.name!r} ({', '.join(names)})")
    if rules.goal == rules.start:
        raise TrailwrightError(f"goal {rules.goal!r} is also the start")
    if rules.goal in rules.required:
        raise TrailwrightError(f"goal {rules.goal!r} is also in required")
    seen = set()
    for h in rules.hazards:
        if h.landmark in seen:
            raise TrailwrightError(f"hazard: {h.landmark!r} is a hazard twice")
        seen.add(h.landmark)
        if h.to == h.landmark:
            raise TrailwrightError(f"hazard: {h.landmark!r} sends a pawn to itself")
        if h.landmark in (rules.start, rules.goal):
            raise TrailwrightError(f"hazard: {h.landmark!r} is also the start or the goal")
    return rules


def _parse(text: str, source: str) -> Rules:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TrailwrightError(f"malformed TOML: {err}", source) from None
    try:
        return rules_from_dict(data)
    except TrailwrightError as err:
        raise err.within(source) from None


def default_rules(board: Board | None = None) -> Rules:
    """The booklet's game (``rules.toml``); on a board with other landmark names, mapped by board order."""
    text = (resources.files("generator.play") / "rules.toml").read_text(encoding="utf-8")
    rules = _parse(text, "the default rules")
    if board is None:
        return rules
    names = [lm.name for lm in board.landmarks]
    if all(n in names for _, n in rules.landmarks_named()):
        return check_rules(rules, board)
    classic = ("Hut", "Well", "Spring", "Lair", "Orchard", "Exit")  # the classic board's landmark order
    if len(names) != len(classic):
        raise TrailwrightError(
            f"board {board.name!r} has {len(names)} landmarks, the default rules need 6: pass a rules file",
            "the default rules")
    return check_rules(rules.renamed(dict(zip(classic, names))), board)


def load_rules(path: str | Path | None, board: Board) -> Rules:
    """Rules from a TOML file (the default rules when ``path`` is None), checked against ``board``."""
    if path is None:
        return default_rules(board)
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise TrailwrightError(f"cannot read: {err.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise TrailwrightError("not UTF-8 text", str(path)) from None
    rules = _parse(text, str(path))
    try:
        return check_rules(rules, board)
    except TrailwrightError as err:
        raise err.within(str(path)) from None
