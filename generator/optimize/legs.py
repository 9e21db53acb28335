"""The client's side of a run's chains on a Dask cluster: their legs, progress, checkpoints and migrations.

A leg is every chain's run to its leg's end (``cluster.run_leg`` on the workers). Between two legs the chains'
bests are scored on shared fresh layouts: islands restart the worst chain from the best, cooperating chains are
resampled (``optimize.cooperate``). ``optimize.run`` plans the legs and picks the winner.
"""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from dataclasses import fields

import numpy as np

from generator.errors import TrailwrightError
from generator.optimize import cluster
from generator.optimize.chain import Budget, Chain, Config, Progress, chain_best
from generator.optimize.cooperate import beta_step, gentle, leg_ends, resample
from generator.optimize.play import final_play
from generator.optimize.search import Scored
from generator.optimize.space import Problem, to_tileset
from generator.optimize.strategies import Strategy
from generator.scoring.layouts import derived_seed

MIGRATION_SAMPLES = 100_000  # shared fresh layouts that rank the chains at a migration
CHECKPOINT_GAP = 1.0  # seconds at least between two checkpoint files (chains snapshot every checkpoint_every)

Migrant = tuple[int, int, tuple[tuple[int, ...], ...]]  # leg, chain index, designs (a row per tile)


def migration_seed(seed: int, leg: int) -> int:
    """The layouts that rank the chains before leg ``leg``."""
    return derived_seed(seed, 4, leg)


class Legs:
    """The client's side of one run: names on the cluster, the progress inbox, the chains so far."""

    def __init__(self, client, problem: Problem, strategy: Strategy, config: Config, chains, migrants):
        self.client, self.problem, self.strategy, self.config = client, problem, strategy, config
        self.name = f"trailwright-{uuid.uuid4().hex}"  # names this run's objects on a shared cluster only
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        # each message with the time it came (the first report's is the run's start-up, however often it is read)
        client.subscribe_topic(
            cluster.progress_topic(self.name), lambda event: self.inbox.put((time.perf_counter(), event[1]))
        )
        self.stop, self.stores = cluster.shared(client, self.name, config.chains)
        self.chains: list[Chain | None] = list(chains)
        self.migrants: list[Migrant] = list(migrants)
        self.first_report: float | None = None

    def close(self) -> None:
        self.client.unsubscribe_topic(cluster.progress_topic(self.name))
        for store in self.stores:
            store.delete()
        self.stop.clear()

    def leg(self, budget: Budget, leg: int, legs: int, stop: threading.Event, on_progress, on_checkpoint) -> bool:
        """Run leg ``leg`` of every chain; returns whether it was stopped."""
        migrants = {i: m for k, i, m in self.migrants if k == leg}
        futures = {}
        for i, chain in enumerate(self.chains):
            self.stores[i].set("" if chain is None else json.dumps(chain.to_data()))
            job = cluster.Leg(
                self.name,
                self.problem,
                self.strategy,
                budget,
                self.config.seed,
                i,
                leg,
                leg_ends(self.config.exchanges)[leg] if self.config.exchanges else budget.at((leg + 1) / legs),
                migrants.get(i),
                snapshot_every=self.config.checkpoint_every,
            )
            task = cluster.leg_task(self.client)
            futures[i] = self.client.submit(task, job, pure=False, key=f"{self.name}-leg{leg}-chain{i}")
        last_checkpoint = time.perf_counter()
        fresh: set[int] = set()  # chains with a snapshot not yet in the checkpoint
        while futures:
            fresh |= self._drain(on_progress)
            if stop.is_set() and not self.stop.is_set():
                self.stop.set()
            for i, future in list(futures.items()):
                if future.done():
                    self.chains[i] = Chain.from_data(json.loads(_result(future, i)))
                    del futures[i]
            if fresh & set(futures) and time.perf_counter() - last_checkpoint >= CHECKPOINT_GAP:
                last_checkpoint = time.perf_counter()
                for i in fresh & set(futures):
                    self.chains[i] = Chain.from_data(json.loads(self.stores[i].get()))
                fresh.clear()
                on_checkpoint(self.chains, self.migrants)
            time.sleep(0.1)
        self._drain(on_progress)
        return stop.is_set()

    def _drain(self, on_progress) -> set[int]:
        """Pass on the progress reports that arrived; returns the chains that stored a new snapshot."""
        snapshots: set[int] = set()
        while True:
            try:
                came, message = self.inbox.get_nowait()
            except queue.Empty:
                return snapshots
            if "snapshot" in message:
                snapshots.add(message["snapshot"])
                continue
            if self.first_report is None:
                self.first_report = came
            on_progress(Progress(**{f.name: message[f.name] for f in fields(Progress)}))  # the log adds "worker"

    def migrate(self, leg: int) -> None:
        """Before leg ``leg``, the chains' bests scored on shared fresh layouts: cooperating chains are resampled
        (``cooperate.resample``); islands: the best restarts the worst chain."""
        bests = [chain_best(self.strategy, c) for c in reported(self.chains)]
        seed = migration_seed(self.config.seed, leg)
        values = scores(self.client, self.problem, bests, MIGRATION_SAMPLES, seed)
        if self.config.exchanges:
            step = beta_step(leg, leg_ends(self.config.exchanges))
            moves = resample(values, gentle(values, step), np.random.default_rng(seed))
        else:
            best, worst = int(np.argmax(values)), int(np.argmin(values))
            moves = {worst: best} if best != worst else {}
        for chain, source in sorted(moves.items()):
            designs = tuple(tuple(int(d) for d in row) for row in bests[source].classes)
            self.migrants.append((leg, chain, designs))


def reported(chains: list[Chain | None]) -> list[Chain]:
    """Every chain, once each has reported; a chain that never did is one line (a resumed run whose new
    budget ends before the legs its checkpoint had reached)."""
    missing = [i for i, c in enumerate(chains) if c is None]
    if missing:
        raise TrailwrightError(f"chain {missing[0]} never reported: give the run a larger --time or --generations")
    return [c for c in chains if c is not None]


def _result(future, index: int) -> str:
    try:
        return future.result()
    except Exception as err:  # a chain's own failure: name it
        raise TrailwrightError(f"chain {index} failed: {type(err).__name__}: {err}") from err


def scores(client, problem: Problem, bests: list[Scored], samples: int, seed: int) -> list[float]:
    """Each set's fitness on the same fresh layouts (and, with a [play] target, fresh games), on the workers."""
    futures = [client.submit(cluster.score_task, problem, b.classes.tolist(), samples, seed, pure=False) for b in bests]
    plays = [
        client.submit(final_play, problem, to_tileset(problem, b.classes), seed, True, pure=False)
        for b in bests
        if problem.objective.play is not None
    ]
    penalties = [p.penalty for p in client.gather(plays)] if plays else [0.0] * len(bests)
    return [s.fitness + penalty for s, penalty in zip(client.gather(futures), penalties, strict=True)]
