"""Every compiled kernel by what uses it, and whether it is cached yet: what a command says before it compiles.

Glossary
--------
group     kernels by what uses them (``GROUPS``): the scoring kernel (``score``), the search's, the polish's
          holes and screen, the play engine, the game measures, the bots. Each names its entry points by module
          and function: a group is data, and its modules are imported only when asked whether it is cold.
cold      a group whose kernels have no index in the disk cache (``jitcache``) for these sources (``is_cold``):
          calling them compiles first. Cheap to tell: a look at a few files. The scoring kernel and the search's are
          compiled for the classic tile's constants, and once more for every other geometry (``general``).
announce  the one line a command prints before it compiles cold groups, with about how long they take.

The warm-up that compiles them (``python -m generator.warmup``, the install's last step) stands above the stages
it runs, in ``generator.warmup``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO


@dataclass(frozen=True)
class Group:
    """Kernels compiled together: what to call them in a message, about how long they take to compile on one
    core of a small machine (the CPU seconds measured on this project's 2-core one, numba's own helpers included
    for the first group of a chain, the chain's earlier groups compiled), and their entry points (module,
    function: numba dispatchers). ``general``: those that serve tiles of every other geometry instead, where they
    differ (None: the same entry points serve every geometry)."""

    what: str
    seconds: int
    entries: tuple[tuple[str, str], ...]
    general: tuple[tuple[str, str], ...] | None = None


GROUPS: dict[str, Group] = {
    "scoring": Group(
        "the scoring kernel",
        9,
        (("generator.scoring.kernel", "_accumulate_classic"),),
        (("generator.scoring.kernel", "_accumulate"),),
    ),
    "search": Group(
        "the search's kernels",
        6,
        (
            ("generator.scoring.kernel", "_sample_and_score_classic"),
            ("generator.scoring.kernel", "_score_given_classic"),
            ("generator.scoring.layouts", "_sample"),
        ),
        (
            ("generator.scoring.kernel", "_sample_and_score"),
            ("generator.scoring.kernel", "_score_given"),
            ("generator.scoring.layouts", "_sample"),
        ),
    ),
    "polish": Group(
        "the polish's screen",
        6,
        (("generator.scoring.holes", "_values"), ("generator.optimize.screen", "_add")),
    ),
    "play": Group("the play engine", 17, (("generator.play.fast", "play_games"),)),
    "measures": Group("the game measures", 5, (("generator.play.fastmeasures", "measure_rows"),)),
    "bots": Group("the bots", 6, (("generator.play.fastbot", "choose"),)),
}


def _dispatchers(name: str, classic: bool = True) -> list:
    import importlib

    group = GROUPS[name]
    entries = group.entries if classic or group.general is None else group.general
    return [getattr(importlib.import_module(module), function) for module, function in entries]


def is_cold(name: str, classic: bool = True) -> bool:
    """Whether using group ``name`` now would compile it (no cached code for these sources), on the classic tiles or
    (``classic`` false) on those of any other geometry."""
    from generator.jitcache import is_cold as cold

    return any(cold(d) for d in _dispatchers(name, classic))


def announce(names: Iterable[str], stream: TextIO | None = None, classic: bool = True) -> list[str]:
    """Say once on ``stream`` (stderr) which of groups ``names`` must compile now, and about how long it takes
    (``classic`` false: for the tiles of another geometry); returns those groups. Nothing when all are cached."""
    cold = [n for n in dict.fromkeys(names) if is_cold(n, classic)]
    if cold:
        what = " and ".join(GROUPS[n].what for n in cold)
        seconds = sum(GROUPS[n].seconds for n in cold)
        print(f"compiling {what}, once: about {seconds} s", file=stream or sys.stderr, flush=True)
    return cold
