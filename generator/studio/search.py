"""The studio's optimize: one search at a time on the Dask engine, in a thread beside the server, started and
stopped from the page; its result is offered beside the edited set and changes nothing until accepted.

Glossary
--------
search     ``optimize.optimize`` from the edited set (``Studio.current``) with the project's objective, its pinned
           tiles and forbidden designs, on a local Dask cluster; each chain's progress (best fitness, evaluations)
           is kept as it arrives, so the page can stream it.
offer      the search's tile set, the sides it changed, and both sets' figures. Accepting it is one edit
           (undo takes it back); discarding it drops it; ``last`` says which was done.
time       wall time from the click (``began``): the page's clock, the chart's axis, the offer's seconds and the
           time left all count from it. ``best`` is the best fitness any chain has reported so far, so it never
           goes down; a chain whose best a re-score lowered is said so (``lowered``).
cluster    the first search starts a local Dask cluster (``generator.studio.cluster``) that later searches reuse
           and that is let go when idle; without one (it failed to start) a search starts its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from generator.errors import TrailwrightError
from generator.model import FACES, TileSet
from generator.optimize.chain import Config, Progress
from generator.studio.cluster import SearchCluster
from generator.studio.errors import EditError
from generator.studio.jobs import BUSY, Job
from generator.studio.session import Studio

RESCORE = 200_000  # fresh layouts that re-score the result (the page wants it soon)
MAX_SECONDS = 3600


@dataclass
class Search(Job):
    """The studio's one search (see the module glossary); its fields are read by the server's thread."""

    studio: Studio | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # per progress report: time, best, evals/s
    offer: dict[str, Any] | None = None
    _result: TileSet | None = None
    _latest: dict[int, Progress] = field(default_factory=dict)
    began: float = 0.0  # time.monotonic() at the click
    seconds: int = 0  # the search's time, as asked
    stage: str = ""  # what the run does after its chains (``optimize``'s on_stage)
    last: str = ""  # what became of the last result (accepted, discarded)
    workers: int = 2  # the search's worker processes, one chain each
    cluster: SearchCluster = field(init=False)  # ``workers`` processes, started by the first search

    @property
    def _studio(self) -> Studio:
        assert self.studio is not None
        return self.studio

    def __post_init__(self) -> None:
        self.cluster = SearchCluster(self.workers)

    def start(self, seconds: Any, seed: Any = 0) -> None:
        """Search for ``seconds`` from the edited set; ``EditError`` when a search runs or a value is wrong."""
        for name, value, high in (("seconds", seconds, MAX_SECONDS), ("seed", seed, 2**32 - 1)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
                raise EditError(f"{name}: a whole number from 0 to {high}")
        if seconds < 2:
            raise EditError("seconds: at least 2")
        from generator.optimize.space import make_problem

        studio = self._studio
        try:
            problem = make_problem(studio.board, studio.objective, studio.current)
        except TrailwrightError as err:
            raise EditError(str(err)) from None
        if not problem.free:
            raise EditError("every tile is pinned: nothing to optimize")
        workers = self.workers
        config = Config(time=float(seconds), seed=seed, chains=workers, rescore=RESCORE)
        if self.state not in BUSY:
            self.history, self.offer, self._latest, self.stage = [], None, {}, ""
            self.began, self.seconds = time.monotonic(), seconds
        self.begin(self._run, problem, config, workers)

    def _run(self, problem, config: Config, workers: int) -> None:
        from generator.optimize import optimize
        from generator.scoring import warm_up

        studio, began = self._studio, self._studio.current
        self._studio.warmed.wait(600)  # after the studio's own warm-up: the workers load its kernels from the cache
        warm_up(problem.board)  # compiled once per board; the workers load it from numba's cache
        self._on_stage("starting the search's workers")
        client = self.cluster.acquire(problem.board)
        try:
            result = optimize(
                problem,
                config,
                stop=self._stop,
                client=client,
                workers=None if client is not None else workers,
                on_progress=self._progress,
                on_stage=self._on_stage,
            )
        finally:
            self.cluster.release()
        self._result = result.tileset
        faces = FACES[: problem.faces]  # a single-sided tile's front only
        changed = [
            [t, face]
            for t, (old, new) in enumerate(zip(began, result.tileset, strict=True))
            for face in faces
            if old.face(face).canonical != new.face(face).canonical  # a side's turn on its tile is the lay's
        ]
        self._on_stage("the figures of both sets, on the same layouts and games")
        figures, before = studio.figures(result.tileset), studio.figures(began)
        self.offer = {
            "fitness": result.fitness,
            "stopped": result.stopped,
            "seconds": round(time.monotonic() - self.began, 1),  # from the click to the figures of both sets
            "changed": changed,
            "figures": figures,
            "before": before,
            "trails": [{f: [list(t) for t in tile.face(f).trails] for f in faces} for tile in result.tileset],
        }
        self.state = "done"
        self.changed()

    def _on_stage(self, text: str) -> None:
        self.stage = text
        self.changed()

    def _progress(self, p: Progress) -> None:
        self._latest[p.chain] = p
        elapsed = max(q.elapsed for q in self._latest.values())
        evaluations = sum(q.evaluations for q in self._latest.values())
        now = max(q.best for q in self._latest.values())
        best = max([now] + [h["best"] for h in self.history[-1:]])  # never down (see ``time``)
        self.history.append(
            {
                "t": round(time.monotonic() - self.began, 2),
                "best": best,
                "lowered": now if now < best else None,
                "rate": round(evaluations / elapsed) if elapsed > 0.5 else None,
            }
        )
        del self.history[:-500]  # enough points for the chart
        self.changed()

    def accept(self) -> None:
        """Make the offered set the edited one (one edit: undo takes it back)."""
        if self._result is None or self.offer is None:
            raise EditError("no search result to accept")
        if len(self._result) != len(self._studio.current):
            raise EditError("the board changed since the search: discard it")
        self._studio.commit(self._result)
        fitness = self.offer["fitness"]
        self.discard()
        self.last = f"Accepted the result (fitness {fitness:.4f}): Undo takes it back; Save writes it."

    def discard(self) -> None:
        """Drop the offered set."""
        if self.offer is not None:
            self.last = f"Discarded the result (fitness {self.offer['fitness']:.4f})."
        self._result, self.offer = None, None
        if self.state == "done":
            self.state = "idle"
        self.changed()

    def offered(self) -> TileSet | None:
        """The offered tile set (None: no offer)."""
        return self._result if self.offer is not None else None

    def view(self) -> dict[str, Any]:
        """What the page shows."""
        running = self.state in BUSY
        elapsed = round(time.monotonic() - self.began, 1) if running else None
        return {
            **super().view(),
            "history": self.history,
            "offer": self.offer,
            "elapsed": elapsed,
            "seconds": self.seconds,
            "stage": self.stage,
            "last": self.last,
            "warm": self.cluster.running,
        }

    def shut(self, timeout: float = 10.0) -> None:
        """Stop the search and close its cluster."""
        self._stop.set()
        self.cluster.shut(timeout)  # a running search's optimize stops first: its tasks end with the cluster
        super().shut(timeout)
