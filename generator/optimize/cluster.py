"""Chains as Dask tasks: where they run, how they report, how they survive a lost worker.

Glossary
--------
cluster     a Dask ``LocalCluster`` started inside the command (one single-threaded worker
            process per core), or an existing one named by its scheduler's address.
leg task    ``run_leg``: one leg of one chain, a pure function of (problem, strategy, budget,
            seed, chain index, leg) and the snapshot it starts from. It lives in this installed
            module, never in ``__main__``, so any worker can import it.
stream      progress messages go to the client through the scheduler's event log
            (``Worker.log_event`` -> ``Client.subscribe_topic``): small, ordered, fire-and-forget.
store       each chain's latest snapshot, in a Dask ``Variable`` named after the run and the chain.
            The client puts the leg's starting snapshot there before submitting the task; the
            task replaces it every few seconds. When a worker dies (kill -9), the scheduler runs
            the task again on another worker, and it starts from the stored snapshot: at most
            the progress since that snapshot is lost, and since a chain continued from a
            snapshot is the same chain, the result is the same.
stop        a Dask ``Event`` the client sets on Ctrl-C or SIGTERM; every leg task looks at it a
            few times a second, stops after its current generation and returns its snapshot.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from distributed.diagnostics.plugin import WorkerPlugin

from generator.errors import TrailwrightError
from generator.optimize.chain import Budget, Chain, run_chain
from generator.optimize.space import Problem
from generator.optimize.strategies import Strategy
from generator.scoring.stream import available_cores

SCHEDULER_ENV = "TRAILWRIGHT_SCHEDULER"
CONNECT_TIMEOUT = 10  # seconds to reach a scheduler
STOP_POLL = 0.5  # seconds between looks at the stop event


@dataclass(frozen=True)
class Leg:
    """One leg task: which chain, from which run, how far, and any migrant it takes in."""

    run: str  # the run's name: its stream, stores and stop event are named after it
    problem: Problem
    strategy: Strategy
    budget: Budget
    seed: int
    index: int
    leg: int
    until: float
    migrant: tuple[tuple[int, ...], ...] | None = None
    report_every: float = 0.5
    snapshot_every: float = 5.0


def progress_topic(run: str) -> str:
    return f"{run}-progress"


def store_name(run: str, index: int) -> str:
    return f"{run}-chain-{index}"


def stop_name(run: str) -> str:
    return f"{run}-stop"


def run_leg(job: Leg) -> str:
    """Run one leg of one chain on a worker, from its stored snapshot; returns the final snapshot as JSON."""
    import numpy as np
    from distributed import Event, Variable, get_worker

    store = Variable(store_name(job.run, job.index))
    raw = store.get()
    chain = Chain.from_data(json.loads(raw)) if raw else None
    stop = Event(stop_name(job.run))
    worker = get_worker()
    polled, stopped = 0.0, False

    def should_stop() -> bool:
        nonlocal polled, stopped
        now = time.perf_counter()
        if now - polled >= STOP_POLL:
            polled, stopped = now, stop.is_set()
        return stopped

    def emit(kind: str, value) -> None:
        if kind == "progress":
            worker.log_event(progress_topic(job.run), asdict(value))
        else:
            store.set(json.dumps(value.to_data()))
            worker.log_event(progress_topic(job.run), {"snapshot": job.index})  # the client may read it now

    migrant = None if job.migrant is None else np.array(job.migrant, dtype=np.int16)
    final = run_chain(
        job.problem,
        job.strategy,
        job.budget,
        job.seed,
        job.index,
        chain,
        should_stop,
        emit,
        until=job.until,
        leg=job.leg,
        migrant=migrant,
        report_every=job.report_every,
        snapshot_every=job.snapshot_every,
    )
    text = json.dumps(final.to_data())
    store.set(text)
    return text


def rescore(problem: Problem, tileset, samples: int, seed: int):
    """The objective's score on ``samples`` layouts from ``seed`` (the same figure ``trailwright score`` gives)."""
    from generator.scoring import layout_scores, summarise

    return summarise(
        tileset, problem.board, layout_scores(tileset, problem.board, samples, seed), seed, "fast", problem.objective
    )


def score_task(problem: Problem, classes, samples: int, seed: int):
    """``rescore`` of a set of designs, as a task (selection, migration and the final re-score)."""
    import numpy as np

    from generator.optimize.space import to_tileset

    return rescore(problem, to_tileset(problem, np.asarray(classes, dtype=np.int16)), samples, seed)


class KernelWarmUp(WorkerPlugin):
    """A worker plugin: load the scoring kernel from numba's disk cache once per worker, when it starts.

    On the command's own local cluster it also makes the worker ignore SIGINT: Ctrl-C reaches the
    whole process group, and the command, not its workers, decides when to stop.
    """

    name = "trailwright-kernel-warm-up"
    idempotent = True

    def __init__(self, board, ignore_sigint: bool = False, designs=None):
        self.board = board
        self.ignore_sigint = ignore_sigint
        self.designs = designs  # the polish's designs, to warm its holes too (``scoring.warm_up``)

    def setup(self, worker) -> None:
        import signal

        from generator.scoring import warm_up

        if self.ignore_sigint:
            with contextlib.suppress(ValueError):  # not the worker's main thread: it ignores SIGINT from its start
                signal.signal(signal.SIGINT, signal.SIG_IGN)
        began = time.perf_counter()
        warm_up(self.board, self.designs)
        worker.log_event("trailwright-warm-up", {"seconds": time.perf_counter() - began})

    def teardown(self, worker) -> None:
        """Nothing to release."""


def warm_workers(client, board, designs=None) -> None:
    """Warm every worker now, and every worker that joins later (e.g. one restarted after a crash); ``designs``:
    the polish's holes too. Not the threads of an in-process cluster: they share this process's kernels, which the
    chains load from numba's cache as they first call them (the polish's when it starts), so that the first
    generation starts at once (loading every kernel first took 0.7 s of a short run's start-up)."""
    from distributed import LocalCluster

    local = isinstance(getattr(client, "cluster", None), LocalCluster)
    if local and not client.cluster.processes:
        return
    own = local and getattr(client.cluster, "processes", False)
    client.register_plugin(KernelWarmUp(board, ignore_sigint=own, designs=designs), name=KernelWarmUp.name)


def scheduler_address(given: str | None) -> str | None:
    """The scheduler to use: the one given, else ``TRAILWRIGHT_SCHEDULER``, else none (a local cluster)."""
    return given or os.environ.get(SCHEDULER_ENV) or None


@contextmanager
def connect(address: str | None, workers: int | None = None, in_process: bool = False) -> Iterator:
    """A Dask client: on the scheduler at ``address``, or on a local cluster of ``workers`` processes (with
    ``in_process``, threads of this process: it starts and stops in a fraction of a second, and the kernels, which
    release the GIL, run side by side; the chains' Python steps share one core)."""
    import logging

    from distributed import Client, LocalCluster

    if address:
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as err:
            reason = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise TrailwrightError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
        with client:
            yield client
        return
    import signal
    import threading

    import dask

    n = workers or available_cores()
    if in_process:
        with (
            LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=False,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    main = threading.current_thread() is threading.main_thread()
    # The workers are spawned (Dask's default), never forked: Dask forks from a thread of its own while other
    # threads run (its event loop, a web server's, an in-process cluster's), and a fork copies any lock one of them
    # holds, locked for ever in the child, which then hangs its start. A spawned worker loads the kernel from
    # numba's disk cache (``optimize`` warms it first) in about a fifth of a second.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None  # the workers start ignoring it
    try:
        with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # nothing listens beyond this machine
                dashboard_address="127.0.0.1:0",  # its HTTP routes on a free loopback port (no dashboard installed)
                silence_logs=logging.ERROR,
            )
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    with cluster, Client(cluster) as client:
        yield client


def worker_count(client) -> int:
    """How many workers the cluster has now (at least 1)."""
    return max(1, len(client.scheduler_info(n_workers=-1)["workers"]))
