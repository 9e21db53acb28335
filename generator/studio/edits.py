"""The studio's edits of one side: join two exits into one trail, split one off, pair two ends (paired trails),
each checked by the model (``Side.of``) and refused in one line; and a side's design number, as the optimizer
numbers its geometry's designs."""

from __future__ import annotations

import functools
from typing import Any

from generator.model import Side
from generator.model.designs import designs
from generator.model.geometry import TileGeometry
from generator.studio.errors import EditError


def end_words(g: TileGeometry, many: bool = False) -> str:
    """What an exit is (``many``: exits are), as a refusal says it, in the geometry's word for an end
    (``TileGeometry.end_word``)."""
    word = g.end_word
    what = f"{word} numbers" if many else f"{'an' if word[0] in 'aeiou' else 'a'} {word} number"
    return f"{what} from 0 ({g.end_names[0]}) to {g.ends - 1} ({g.end_names[-1]})"


def _paired(side: Side, a: int, b: int) -> Side:
    """``side`` (paired trails) with ends ``a`` and ``b`` paired, and their old partners paired with each other: a
    perfect matching stays one."""
    names = side.geometry.end_names
    ta, tb = (next(t for t in side.trails if e in t) for e in (a, b))
    if ta == tb:
        raise EditError(f"ends {names[a]} and {names[b]} are paired already: click two ends of other trails")
    rest = [t for t in side.trails if t not in (ta, tb)]
    partners = tuple(e for e in ta + tb if e not in (a, b))
    return Side.of([*rest, (a, b), partners], side.geometry)


def rejoined(side: Side, op: str, args: dict[str, Any]) -> Side:
    """``side`` with exits ``a`` and ``b`` joined into one trail (``join``), or exit ``a`` split off (``split``); on
    paired trails, ``a`` and ``b`` paired (``_paired``), and no split (every end joins exactly one other)."""
    g = side.geometry
    given = [args.get("a")] + ([args.get("b")] if op == "join" else [])
    if not all(isinstance(e, int) and not isinstance(e, bool) and e in range(g.ends) for e in given):
        raise EditError(f"an exit is {end_words(g)}")
    exits = [int(e) for e in given if e is not None]
    if g.trails == "pairs":
        if op == "split":
            raise EditError("these trails are paired: every end joins exactly one other (click two ends to pair them)")
        return _paired(side, exits[0], exits[1])
    trails = [frozenset(t) for t in side.trails]
    names = [g.end_names[e] for e in exits]
    if op == "split" and frozenset(exits) in trails:
        raise EditError(f"exit {names[0]} is a dead end already: click another exit after it to join the two")
    if op == "join":
        ta, tb = (next(t for t in trails if e in t) for e in exits)
        if ta == tb:
            raise EditError(f"exits {names[0]} and {names[1]} are on one trail already: click one twice to split it")
        trails = [t for t in trails if t not in (ta, tb)] + [ta | tb]
    else:
        trails = [t - {exits[0]} for t in trails if t - {exits[0]}] + [frozenset(exits[:1])]
    return Side.of(trails, g)


@functools.cache
def _design_index(g: TileGeometry) -> dict[Side, int]:
    return {side: i for i, side in enumerate(designs(g))}


def design_number(side: Side) -> int:
    """The design number of a side among its geometry's designs (``designs``, numbered as the optimizer numbers
    them: the classic game's 203 among them)."""
    return _design_index(side.geometry)[side.canonical]


def design_total(g: TileGeometry) -> int:
    """How many designs a side of ``g`` may have."""
    return len(_design_index(g))
