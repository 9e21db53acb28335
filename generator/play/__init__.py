"""Play before print: the booklet's game as data, simulated by two engines proven equal.

- ``rules``: the rules as data (``rules.toml``), checked against a board.
- ``game``, ``policies``, ``reference``: the ``reference`` engine and the players, in plain Python.
- ``arrays``, ``fastchoices``, ``fast``: the ``fast`` engine (numba), the same games move for move.
- ``rng``: the one random stream both engines draw from.
- ``simulate``: many games, a ``PlayReport`` and the skill gap; ``pictures``: histogram and heat map.
- ``measures``, ``fastmeasures``: is it a good game (the plain replay and the compiled one); ``readings``: their words.
See docs/play.md.
"""

from generator.play.pictures import heat_svg, histogram_svg
from generator.play.policies import POLICIES
from generator.play.rules import Hazard, Rules, Turning, check_rules, default_rules, load_rules, rules_from_dict
from generator.play.simulate import ENGINES, Games, PlayReport, SkillGap, play, simulate, skill_gap

__all__ = [
    "ENGINES",
    "Games",
    "Hazard",
    "POLICIES",
    "PlayReport",
    "Rules",
    "SkillGap",
    "Turning",
    "check_rules",
    "default_rules",
    "heat_svg",
    "histogram_svg",
    "load_rules",
    "play",
    "rules_from_dict",
    "simulate",
    "skill_gap",
]
