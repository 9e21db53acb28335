"""The rules of the game as data, loaded from TOML and checked against a board.

Glossary
--------
start        the landmark every pawn starts on.
required     the landmarks a pawn must visit, in any order, before the goal counts.
goal         the landmark that ends the game when a pawn reaches it with every required one visited.
move-ending  a landmark that ends the move of a pawn stepping onto it (any steps left are lost).
hazard       a landmark that rolls the die at once when a pawn steps in: on one of ``rolls``
             the pawn is sent to the landmark ``to`` (the Lair's 1-3 back to the Hut).
turning      instead of rolling, a player may turn one laid tile by ``steps`` either way: a step is one edge (a sixth
             of a turn on a hex tile, a quarter on a square one), short of a whole turn. A file's ``sixths`` (the key
             before steps, which the engines always read as edges) reads as steps, so older projects, rules files
             and recorded games load on every board; files are written with ``steps``.

A rules file (``trailwright-rules/1``) has the same keys; see ``rules.toml`` beside this module.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from generator.board import Board
from generator.errors import TrailwrightError
from generator.inputs import Flag, Names, OneOf, Text, Whole, check_table, load_toml

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
    steps: int = 1  # edges a turn moves the tile by
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

    def seats(self) -> str:
        """How many may play, in words: ``2 to 4 players``, or ``3 players``."""
        low, high = self.players_min, self.players_max
        return f"{low} to {high} players" if low < high else f"{high} players"

    def ends_move(self, name: str) -> bool:
        """Whether stepping onto landmark ``name`` ends a move."""
        return self.move_ending is None or name in self.move_ending

    def renamed(self, names: dict[str, str]) -> Rules:
        """The same rules with landmarks renamed (``{old: new}``; names not listed stay)."""

        def r(name: str) -> str:
            return names.get(name, name)

        return replace(
            self,
            start=r(self.start),
            required=tuple(map(r, self.required)),
            goal=r(self.goal),
            move_ending=None if self.move_ending is None else tuple(map(r, self.move_ending)),
            hazards=tuple(Hazard(r(h.landmark), h.rolls, r(h.to)) for h in self.hazards),
        )


# --- loading -------------------------------------------------------------------------------


class _LandmarkNames(Names):
    """A list of landmark names (may be empty), none twice."""

    def __call__(self, value: Any, where: str, source: str | None = None) -> tuple[str, ...]:
        names = () if value == [] else super().__call__(value, where, source)
        if len(set(names)) != len(names):
            raise TrailwrightError(f"{where} names a landmark twice: {value!r}", source)
        return names


def _move_ending(value: Any, where: str, source: str | None = None) -> tuple[str, ...] | None:
    if isinstance(value, str) and value != "all":
        raise TrailwrightError(f'{where}: {value!r} is neither "all" nor a list of landmark names', source)
    return None if value == "all" else _LandmarkNames()(value, where, source)


_PLAYERS = {"min": Whole(*PLAYERS_RANGE), "max": Whole(*PLAYERS_RANGE), "default": Whole(*PLAYERS_RANGE)}
_TURNING = {
    "allowed": Flag(),
    "next_to_pawn": Flag(),
    "steps": Whole(1, 6),
    "sixths": Whole(1, 3),
    "under_pawn": Flag(),
}
_TOP = {
    "format": OneOf((FORMAT,)),
    "start": Text(),
    "required": _LandmarkNames(),
    "goal": Text(),
    "die": Whole(2, 100),
    "move_ending": _move_ending,
    "stub_blocks": Flag(),
    "round_cap": Whole(1, MAX_ROUND_CAP),
    "players": lambda v, where, source=None: check_table(v, _PLAYERS, where, source),
    "turning": lambda v, where, source=None: check_table(v, _TURNING, where, source),
    "hazard": lambda v, where, source=None: v,
}


def _hazard(table: Any, where: str, die: int) -> Hazard:
    values = check_table(table, {"landmark": Text(), "rolls": lambda v, w, s=None: v, "to": Text()}, where)
    for key in ("landmark", "rolls", "to"):
        if key not in values:
            raise TrailwrightError(f"{where}: needs '{key}'")
    rolls = values["rolls"]
    if not isinstance(rolls, list) or not rolls:
        raise TrailwrightError(f"{where}.rolls = {rolls!r} is not a list of die rolls from 1 to {die}")
    return Hazard(values["landmark"], tuple(sorted({Whole(1, die)(r, f"{where}.rolls") for r in rolls})), values["to"])


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Validate parsed TOML and build rules; errors are one line naming the key and the problem."""
    values = check_table(data, _TOP)
    for key in ("start", "goal"):
        if key not in values:
            raise TrailwrightError(f"{key}: needs a landmark name")
    die = values.get("die", 6)
    players = values.get("players", {})
    p_min, p_max = players.get("min", PLAYERS_RANGE[0]), players.get("max", PLAYERS_RANGE[1])
    if p_min > p_max:
        raise TrailwrightError(f"players: min {p_min} is more than max {p_max}")
    p_default = players.get("default", min(max(3, p_min), p_max))
    if not p_min <= p_default <= p_max:
        raise TrailwrightError(f"players.default = {p_default} is not from min {p_min} to max {p_max}")
    raw = values.get("hazard", [])
    if not isinstance(raw, list):
        raise TrailwrightError(f"hazard: must be an array of tables [[hazard]], got {raw!r}")
    turning = dict(values.get("turning", {}))
    if "sixths" in turning:
        if "steps" in turning:
            raise TrailwrightError("turning: steps and sixths (its older name) both given: keep steps")
        turning["steps"] = turning.pop("sixths")  # what the engines always turned by: edges
    return Rules(
        start=values["start"],
        required=values.get("required", ()),
        goal=values["goal"],
        die=die,
        move_ending=values.get("move_ending"),
        stub_blocks=values.get("stub_blocks", False),
        round_cap=values.get("round_cap", 200),
        players_min=p_min,
        players_max=p_max,
        players_default=p_default,
        hazards=tuple(_hazard(t, f"hazard[{k + 1}]", die) for k, t in enumerate(raw)),
        turning=Turning(**turning),
    )


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """``rules`` as the TOML table ``rules_from_dict`` reads back (recorded with every hosted game)."""
    data: dict[str, Any] = {
        "start": rules.start,
        "required": list(rules.required),
        "goal": rules.goal,
        "die": rules.die,
        "stub_blocks": rules.stub_blocks,
        "round_cap": rules.round_cap,
        "players": {"min": rules.players_min, "max": rules.players_max, "default": rules.players_default},
        "hazard": [{"landmark": h.landmark, "rolls": list(h.rolls), "to": h.to} for h in rules.hazards],
        "turning": asdict(rules.turning),
    }
    if rules.move_ending is not None:
        data["move_ending"] = list(rules.move_ending)
    return data


def rules_file_text(rules: Rules) -> str:
    """``rules`` as a rules file: the booklet's own ``rules.toml`` with every value set to ``rules``'s, its comments
    kept (tomlkit), so a project on another board gets the same explained file with its own landmarks."""
    import tomlkit
    from tomlkit.items import Item

    doc = tomlkit.parse((resources.files("generator.play") / "rules.toml").read_text(encoding="utf-8"))
    data = rules_to_dict(rules)
    hazards = data.pop("hazard")
    for key, value in data.items():
        if isinstance(value, dict):
            for inner, v in value.items():
                doc[key][inner] = v  # in place: each key's comment stays
        else:
            old = doc.item(key) if key in doc else None
            doc[key] = value
            new = doc.item(key)
            if isinstance(old, Item) and isinstance(new, Item) and old.trivia.comment:  # in its column: tomlkit
                column = len(old.as_string()) + len(old.trivia.comment_ws)  # keeps the spaces, not the column
                new.trivia.comment_ws = " " * max(1, column - len(new.as_string()))
    if len(hazards) == len(doc.get("hazard", [])):
        for table, hazard in zip(doc.get("hazard", []), hazards, strict=True):
            for key, v in hazard.items():
                table[key] = v
    else:
        doc.pop("hazard", None)
        if hazards:
            doc["hazard"] = tomlkit.aot()
            for hazard in hazards:
                doc["hazard"].append(hazard)
    return tomlkit.dumps(doc)


def check_rules(rules: Rules, board: Board) -> Rules:
    """The rules, if they fit the board; else a one-line error naming the key and the problem."""
    names = [lm.name for lm in board.landmarks]
    for key, name in rules.landmarks_named():
        if name not in names:
            raise TrailwrightError(f"{key}: {name!r} is not a landmark of {board.label} ({', '.join(names)})")
    if rules.goal == rules.start:
        raise TrailwrightError(f"goal {rules.goal!r} is also the start")
    _check_turning(rules.turning, board)
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


def _check_turning(turning: Turning, board: Board) -> None:
    """A turn fits the board's tiles: at least one step, short of a whole turn."""
    edges = board.geometry.edges
    if not 1 <= turning.steps < edges:
        raise TrailwrightError(f"turning.steps = {turning.steps}: from 1 to {edges - 1} on these tiles ({edges} edges)")


def _parse(path, source: str) -> Rules:
    try:
        return rules_from_dict(load_toml(path, source))
    except TrailwrightError as err:
        raise err.within(source) from None


def default_rules(board: Board | None = None) -> Rules:
    """The booklet's game (``rules.toml``); on a board with other landmark names, mapped by board order (six
    landmarks: as on the classic board; any other number: first is the start, last the goal, the rest required)."""
    rules = _parse(resources.files("generator.play") / "rules.toml", "the default rules")
    if board is None:
        return rules
    names = [lm.name for lm in board.landmarks]
    if all(n in names for _, n in rules.landmarks_named()):
        return check_rules(rules, board)
    classic = ("Hut", "Well", "Spring", "Lair", "Orchard", "Exit")  # the classic board's landmark order
    if len(names) == len(classic):
        return check_rules(rules.renamed(dict(zip(classic, names, strict=True))), board)
    if len(names) < 2:
        raise TrailwrightError(
            f"{len(names)} landmark(s), and the default game needs a start and a goal: pass a "
            "rules file, or add landmarks to the board",
            board.label,
        )
    # any other board: start at its first landmark, visit the ones between, end at its last; no hazard
    return check_rules(replace(rules, start=names[0], required=tuple(names[1:-1]), goal=names[-1], hazards=()), board)


def load_rules(path: str | Path | None, board: Board) -> Rules:
    """Rules from a TOML file (the default rules when ``path`` is None), checked against ``board``."""
    if path is None:
        return default_rules(board)
    rules = _parse(path, str(path))
    try:
        return check_rules(rules, board)
    except TrailwrightError as err:
        raise err.within(str(path)) from None
