"""Play before print: the booklet's game as data, simulated by two engines proven equal.

- ``rules``: the rules as data (``rules.toml``), checked against a board.
"""

from generator.play.rules import Hazard, Rules, Turning, check_rules, default_rules, load_rules, rules_from_dict

__all__ = ["Hazard", "Rules", "Turning", "check_rules", "default_rules", "load_rules", "rules_from_dict"]
