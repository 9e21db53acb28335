"""The studio's optimize: one search at a time on the Dask engine, in a thread beside the server, started and
stopped from the page; its result is offered beside the edited set and changes nothing until accepted.

Glossary
--------
search     ``optimize.optimize`` from the edited set (``Studio.current``) with the project's objective, its pinned
           tiles and forbidden designs, on a local Dask cluster; each chain's progress (best fitness, evaluations)
           is kept as it arrives, so the page can stream it.
offer      the search's tile set, the sides it changed, and both sets' figures. Accepting it is one edit
           (undo takes it back); discarding it drops it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from generator.errors import TrailwrightError
from generator.model import FACES, TileSet
from generator.optimize.chain import Config, Progress
from generator.studio.session import EditError, Studio

RESCORE = 200_000  # fresh layouts that re-score the result (the page wants it soon)
MAX_SECONDS = 3600


@dataclass
class Search:
    """The studio's one search (see the module glossary); its fields are read by the server's thread."""

    studio: Studio
    state: str = "idle"  # idle, running, stopping, done, failed
    history: list[dict[str, Any]] = field(default_factory=list)  # per progress report: time, best, evals/s
    offer: dict[str, Any] | None = None
    error: str = ""
    version: int = 0  # grows at every change, so a stream sends only news
    _stop: threading.Event = field(default_factory=threading.Event)
    _result: TileSet | None = None
    _latest: dict[int, Progress] = field(default_factory=dict)

    def start(self, seconds: Any, seed: Any = 0, workers: int = 2) -> None:
        """Search for ``seconds`` from the edited set; ``EditError`` when a search runs or a value is wrong."""
        if self.state in ("running", "stopping"):
            raise EditError("a search is running: stop it first")
        for name, value, high in (("seconds", seconds, MAX_SECONDS), ("seed", seed, 2**32 - 1)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
                raise EditError(f"{name}: a whole number from 0 to {high}")
        if seconds < 2:
            raise EditError("seconds: at least 2")
        from generator.optimize.space import make_problem

        try:
            problem = make_problem(self.studio.board, self.studio.objective, self.studio.current)
        except TrailwrightError as err:
            raise EditError(str(err)) from None
        if not problem.free:
            raise EditError("every tile is pinned: nothing to optimize")
        config = Config(time=float(seconds), seed=seed, chains=workers, rescore=RESCORE)
        self._stop.clear()
        self.state, self.history, self.offer, self.error, self._latest = "running", [], None, "", {}
        self._changed()
        threading.Thread(target=self._run, args=(problem, config, workers), daemon=True, name="studio-search").start()

    def stop(self) -> None:
        """Ask the search to stop: it finishes its generation and offers the best so far."""
        if self.state == "running":
            self.state = "stopping"
            self._stop.set()
            self._changed()

    def _run(self, problem, config: Config, workers: int) -> None:
        from generator.optimize import optimize

        began = self.studio.current
        try:
            result = optimize(problem, config, stop=self._stop, workers=workers, on_progress=self._progress)
        except Exception as err:  # the page shows it in one line; the server keeps serving
            self.state, self.error = "failed", str(err).splitlines()[0] if str(err) else type(err).__name__
            self._changed()
            return
        self._result = result.tileset
        changed = [
            [t, face]
            for t, (old, new) in enumerate(zip(began, result.tileset, strict=True))
            for face in FACES
            if old.face(face).canonical != new.face(face).canonical  # a side's turn on its tile is the lay's
        ]
        self.offer = {
            "fitness": result.fitness,
            "stopped": result.stopped,
            "seconds": round(result.seconds, 1),
            "changed": changed,
            "figures": self.studio.figures(result.tileset),
            "before": self.studio.figures(began),
            "trails": [{f: [list(t) for t in tile.face(f).trails] for f in FACES} for tile in result.tileset],
        }
        self.state = "done"
        self._changed()

    def _progress(self, p: Progress) -> None:
        self._latest[p.chain] = p
        elapsed = max(q.elapsed for q in self._latest.values())
        evaluations = sum(q.evaluations for q in self._latest.values())
        best = max(q.best for q in self._latest.values())
        self.history.append(
            {"t": round(elapsed, 2), "best": best, "rate": round(evaluations / elapsed) if elapsed > 0.5 else None}
        )
        del self.history[:-500]  # enough points for the chart
        self._changed()

    def _changed(self) -> None:
        self.version += 1

    def accept(self) -> None:
        """Make the offered set the edited one (one edit: undo takes it back)."""
        if self._result is None or self.offer is None:
            raise EditError("no search result to accept")
        if len(self._result) != len(self.studio.current):
            raise EditError("the board changed since the search: discard it")
        self.studio.commit(self._result)
        self.discard()

    def discard(self) -> None:
        """Drop the offered set."""
        self._result, self.offer = None, None
        if self.state == "done":
            self.state = "idle"
        self._changed()

    def offered(self) -> TileSet | None:
        """The offered tile set (None: no offer)."""
        return self._result if self.offer is not None else None

    def view(self) -> dict[str, Any]:
        """What the page shows."""
        return {
            "state": self.state,
            "history": self.history,
            "offer": self.offer,
            "error": self.error,
            "version": self.version,
        }

    def shut(self, timeout: float = 10.0) -> None:
        """Stop a running search and wait a little for it (the server is stopping)."""
        self._stop.set()
        deadline = time.monotonic() + timeout
        while self.state in ("running", "stopping") and time.monotonic() < deadline:
            time.sleep(0.1)
