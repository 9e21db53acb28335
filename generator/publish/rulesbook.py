"""The rules as the booklet words them, and the claims its text makes, checked against play.

Glossary
--------
rules context  plain data the templates read as ``rules``: the start, the landmarks to visit, the
               goal, the die, which landmarks end a move, the hazards, tile turning, the players.
               Every landmark name comes from the rules and the board, never from the text.
claim          a sentence of the rules text that the game may falsify on a given tile set (for
               example "no explorer is ever stuck for good"); ``false_claims`` names those a
               playtest contradicts, and ``publish`` warns about each, one line apiece.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.publish.language import ENGLISH, Language


def spans(values, language: Language = ENGLISH) -> str:
    """Die faces as the booklet says them: ``[1, 2, 3]`` -> "1–3", ``[1, 2, 5]`` -> "1, 2 or 5"."""
    values = sorted(set(values))
    if not values:
        return ""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    words = [w for r in runs for w in ([f"{r[0]}–{r[-1]}"] if len(r) > 2 else map(str, r))]
    return language.choice(words)


def rules_context(rules, board, language: Language = ENGLISH) -> dict:
    """What the templates may say about the game, from ``rules`` (``generator.play.Rules``) and ``board``, with
    the few words it composes in ``language`` and every landmark by the name the language prints (the rules keep
    their ids)."""
    names = [lm.name for lm in board.landmarks]
    enders = [n for n in names if rules.ends_move(n)]
    faces = set(range(1, rules.die + 1))
    say = language.name
    hazards = [
        {
            "name": say(h.landmark),
            "chase": spans(h.rolls, language),
            "escape": spans(faces - set(h.rolls), language),
            "to": say(h.to),
        }
        for h in rules.hazards
    ]
    turning = rules.turning
    return {
        "start": say(rules.start),
        "goal": say(rules.goal),
        "required": [say(n) for n in rules.required],
        "die": rules.die,
        "a_die": language.a_die(rules.die),
        "move_enders": [say(n) for n in enders],
        "pass_through": [say(n) for n in names if n not in enders and n != rules.start],
        "hazards": hazards,
        "turn": {
            "allowed": turning.allowed,
            "by": language.turn(turning.steps, board.geometry.edges),
            "next_to_pawn": turning.next_to_pawn,
            "under_pawn": turning.under_pawn,
        },
        "stub_blocks": rules.stub_blocks,
        "players": {
            "low": rules.players_min,
            "high": rules.players_max,
            "default": rules.players_default,
            "text": f"{rules.players_min}–{rules.players_max}"
            if rules.players_max > rules.players_min
            else str(rules.players_min),
        },
    }


# --- claims ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A phrase of the rules text and the test a playtest report must pass for it to hold."""

    key: str  # the phrase is the language's ``claims.<key>``: plain words, matched case-insensitively, any spacing
    holds: Callable[[Any], bool]  # given the playtest report (generator.play.simulate.Report)
    why: Callable[[Any], str]


CLAIMS = (
    Claim(
        "no_way_out",
        lambda play: play.no_way_out == 0,
        lambda play: f"{play.no_way_out} of {play.games} simulated games reached a state that no tile turn opens",
    ),
)


def false_claims(text: str, play, claims=CLAIMS, language: Language = ENGLISH) -> list[str]:
    """One line for each claim ``text`` (in ``language``) makes that the playtest ``play`` contradicts."""
    flat = " ".join(text.split())
    found = [(language.say(f"claims.{claim.key}"), claim) for claim in claims]
    return [
        f"the rules say {phrase!r}, but {claim.why(play)}"
        for phrase, claim in found
        if re.search(r"\s+".join(map(re.escape, phrase.split())), flat, re.I) and not claim.holds(play)
    ]
