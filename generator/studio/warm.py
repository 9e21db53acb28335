"""The studio's first start: the scorer and the games' engine compiled in the background (or loaded from numba's
disk cache), so the page answers at once and says it is warming up.

Glossary
--------
warm up    ``Studio.warm_up``, in a worker thread when the server starts: the kernels compiled, the saved set's
           figures worked out and its games played. Until ``warmed`` is set the studio's state has no figures and
           says ``warming`` (the seconds expected, spent and left, about); edits made meanwhile are taken (they need
           no kernel), and their figures come once the engines are warm. A search's cluster starts after it, so
           its workers load the kernels from the cache instead of compiling them beside it.
expected   the compile time of the kernel groups numba's cache lacks (``generator.warm``'s own estimate), or a
           few seconds to load them all.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

GROUPS = ("scoring", "search", "play")  # the kernel groups the figures use (``generator.warm``)
log = logging.getLogger(__name__)


def expected_seconds() -> float:
    """About how long the warm-up takes: the compile time of the groups numba's cache lacks (``generator.warm``),
    or a few seconds to load them when it has them all."""
    from generator import warm

    return float(sum(warm.GROUPS[name].seconds for name in GROUPS if warm.is_cold(name)) or 3)


class Warming:
    """The ``Studio``'s warm-up (see the module glossary); the studio provides the fields it reads."""

    warmed: threading.Event
    warming_since: float
    warming_expected: float
    board: Any
    saved: Any

    def figures(self, tiles: Any = None, games: bool = True) -> dict[str, Any]:
        raise NotImplementedError

    def warm_up(self) -> None:
        """Compile the scorer and the games' engine, score and play the saved set; ``warmed`` once done, whatever
        happens (a failure shows again with the figures)."""
        import time

        self.warming_since = time.monotonic()
        self.warming_expected = expected_seconds()
        try:
            from generator.scoring import warm_up

            warm_up(self.board)
            self.figures(self.saved)  # every kernel the figures use, the saved set's games played
        except Exception:
            log.exception("warming the studio's engines up failed")
        finally:
            self.warmed.set()

    def warming(self) -> dict[str, Any] | None:
        """While the engines warm up: the seconds expected in all, those spent and those left, about (None once past
        the expected time: a busy machine); None once they are warm."""
        import time

        if self.warmed.is_set():
            return None
        spent = time.monotonic() - self.warming_since
        left = round(self.warming_expected - spent) if spent < self.warming_expected - 0.5 else None
        return {"expected": round(self.warming_expected), "spent": round(spent), "left": left}
