"""Where the measures show: each one's plain reading in words (``READINGS``, English; a booklet's language.toml
may word them again), the reference sets they are read against, and a JSON-ready record of them.

The numbers come from ``measures``; this module only words them, in the language of the words and the numbers it
is given.
"""

from __future__ import annotations

from generator.play.measures import Measure, Measures
from generator.units import ENGLISH, Numbers

# the same measures of 600 games of 3 explorers (rival: a naive nearest-goal player) in an independent
# simulator of the game, for scale: set -> (lead changes, drama, settled share, luck share)
REFERENCE_SETS = {
    "previous-best": (1.14, 0.19, 0.49, 0.82),
    "random-20": (1.28, 0.20, 0.46, 0.86),
    "straight diameters on every side": (2.15, 0.13, 0.51, 1.03),
}


READINGS = {  # each measure's plain reading in English; a booklet's language.toml may word them again
    "completion": "{share} of games end before the round cap",
    "duration": "a finished game lasts {value} rounds on average",
    "lead changes": "the lead changes {value} times a game",
    "drama": "in {share} of games the winner was behind at two thirds of the game",
    "settled share": "the winner leads for good over the last {share} of the game",
    "luck share": "{value}: {verdict} (0: the better player always wins; 1: it wins as often as chance)",
    "luck share.lottery": "a lottery",
    "luck share.mostly": "mostly luck",
    "luck share.skill": "skill shows",
    "choices per turn": "an explorer sees {value} moves within one step of its best ({share}): {verdict}",
    "choices per turn.one": "one move stands out",
    "choices per turn.equal": "most moves are as good: little to decide",
    "choices per turn.few": "a few good moves among worse ones",
    "legal actions": "a turn offers {value} legal first steps and tile turns",
    "downtime": "{share} of turns take no step",
}


def readings(
    m: Measures, luck: Measure | None = None, words: dict[str, str] = READINGS, numbers: Numbers = ENGLISH
) -> list[tuple[str, Measure | None, str]]:
    """Each measure with a one-line plain-language reading: (name, measure, reading), in the language of
    ``words`` (``READINGS``'s keys) and ``numbers``."""

    def pct(x: Measure | None) -> str:
        return "-" if x is None else numbers.percent(x.value)

    def say(name: str, measure: Measure | None, **fields) -> tuple[str, Measure | None, str]:
        return name, measure, words[name].format(**fields)

    out = [say("completion", m.completion, share=numbers.percent(m.completion.value, 1))]
    if m.duration is not None:
        out.append(say("duration", m.duration, value=numbers.number(m.duration.value, 1)))
    if m.lead_changes is not None and m.drama is not None and m.settled_share is not None:
        out += [
            say("lead changes", m.lead_changes, value=numbers.number(m.lead_changes.value, 1)),
            say("drama", m.drama, share=pct(m.drama)),
            say("settled share", m.settled_share, share=pct(m.settled_share)),
        ]
    if luck is not None:
        verdict = "lottery" if luck.value >= 0.95 else "mostly" if luck.value >= 0.75 else "skill"
        out.append(say("luck share", luck, value=numbers.number(luck.value, 2), verdict=words[f"luck share.{verdict}"]))
    if m.choices is not None:
        share = m.choices.value / m.actions.value if m.actions is not None and m.actions.value else 1.0
        verdict = "one" if m.choices.value < 1.5 else "equal" if share >= 0.75 else "few"
        value, verdict = numbers.number(m.choices.value, 1), words[f"choices per turn.{verdict}"]
        out.append(say("choices per turn", m.choices, value=value, share=numbers.percent(share), verdict=verdict))
    if m.actions is not None:
        out.append(say("legal actions", m.actions, value=numbers.number(m.actions.value, 1)))
    out.append(say("downtime", m.downtime, share=pct(m.downtime)))
    return out


def to_dict(m: Measures, luck: Measure | None = None) -> dict:
    """JSON-ready: each measure's value, standard error and games, and the reading."""
    data: dict = {"games": m.games, "seat_advantage": m.seat_advantage}
    for name, measure, reading in readings(m, luck):
        key = name.replace(" ", "_")
        data[key] = None if measure is None else {"value": measure.value, "se": measure.se, "games": measure.games}
        data[key + "_reading"] = reading
    data["reference_sets"] = {
        name: dict(zip(("lead_changes", "drama", "settled_share", "luck_share"), values, strict=True))
        for name, values in REFERENCE_SETS.items()
    }
    return data
