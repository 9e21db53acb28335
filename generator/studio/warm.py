"""The studio's first start: the scorer and the games' engine compiled in the background (or loaded from numba's
disk cache), so the page answers at once and says it is warming up.

Glossary
--------
warm up    ``Studio.warm_up``, in a worker thread when the server starts: the kernels compiled, the saved set's
           figures worked out and its games played. Until ``warmed`` is set the studio's state has no figures and
           says ``warming`` (the seconds expected, spent and left, about); edits made meanwhile are taken (they need
           no kernel), and their figures come once the engines are warm. A search's cluster starts after it, so
           its workers load the kernels from the cache instead of compiling them beside it.
expected   ``COLD_SECONDS`` when numba's cache has none of the scorer's kernels (a first start), a few seconds
           otherwise.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

COLD_SECONDS = 40  # a first start's compile of the scorer and the games' engine (2 cores: about 30 to 55 s)
log = logging.getLogger(__name__)


def compiled_before() -> bool:
    """Whether numba's disk cache holds the scorer's kernels (then a start loads them in a second or two)."""
    from numba.core import config

    import generator.scoring

    cache = getattr(config, "CACHE_DIR", "")  # NUMBA_CACHE_DIR, or '': beside each module
    if cache:
        return any(Path(cache).glob("scoring*/*.nbi"))
    return any((Path(generator.scoring.__file__).parent / "__pycache__").glob("*.nbi"))


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
        self.warming_expected = 3.0 if compiled_before() else float(COLD_SECONDS)
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
