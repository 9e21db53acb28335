"""Where chains run: a Dask cluster, or threads of the command; how they report and survive a lost worker.

Glossary
--------
cluster     a Dask ``LocalCluster`` started inside the command (one single-threaded worker
            process per core), or an existing one named by its scheduler's address.
threads     a short run's own pool (``Threads``): threads of the command's process, with the few calls of a
            Dask client that a run makes. It starts at once and needs no Dask (whose import alone takes a
            third of a second); the kernels release the GIL, so its threads score side by side.
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

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from generator.errors import TrailwrightError
from generator.optimize.chain import Budget, Chain, run_chain
from generator.optimize.space import Problem
from generator.optimize.strategies import Strategy
from generator.scoring.stream import available_cores

SCHEDULER_ENV = "TRAILWRIGHT_SCHEDULER"
CONNECT_TIMEOUT = 10  # seconds to reach a scheduler
# A local cluster without Dask's own watchers: its statistical profiler (a thread sampling every 10 ms), a system
# monitor every 0.5 s and an event-loop tick every 20 ms in each server. Nothing here reads them (no dashboard is
# installed), and together they kept an idle in-process cluster of two workers at 6-7 % of a core (1.5 % without).
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "10s",
    "distributed.admin.tick.interval": "500ms",
}
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
    """Run one leg of one chain on a Dask worker, from its stored snapshot; returns the final snapshot as JSON."""
    from distributed import Event, Variable, get_worker

    worker, topic = get_worker(), progress_topic(job.run)
    stop = Event(stop_name(job.run))
    return leg_on(job, Variable(store_name(job.run, job.index)), stop.is_set, lambda m: worker.log_event(topic, m))


def leg_on(job: Leg, store, stopped: Callable[[], bool], log: Callable[[dict], None]) -> str:
    """Run one leg of one chain from the snapshot in ``store`` (``get``, ``set``), looking at ``stopped()`` a few
    times a second and telling ``log`` its progress and each new snapshot; returns the final snapshot as JSON."""
    import numpy as np

    raw = store.get()
    chain = Chain.from_data(json.loads(raw)) if raw else None
    polled, stop = 0.0, False

    def should_stop() -> bool:
        nonlocal polled, stop
        now = time.perf_counter()
        if now - polled >= STOP_POLL:
            polled, stop = now, stopped()
        return stop

    def emit(kind: str, value) -> None:
        if kind == "progress":
            log(asdict(value))
        else:
            store.set(json.dumps(value.to_data()))
            log({"snapshot": job.index})  # the client may read it now

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


def warm_workers(client, board, designs=None) -> None:
    """Warm every worker now, and every worker that joins later (e.g. one restarted after a crash); ``designs``:
    the polish's holes too. Not the threads of the command (``Threads``, or an in-process Dask cluster): they share
    this process's kernels, which the chains load from numba's cache as they first call them (the polish's when it
    starts), so that the first generation starts at once (loading every kernel first took 0.7 s of a short run's
    start-up)."""
    if isinstance(client, Threads):
        return
    from distributed import LocalCluster

    from generator.optimize.worker_plugin import KernelWarmUp

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
    ``in_process``, ``Threads`` of this process, without Dask: it starts and stops at once, and the kernels, which
    release the GIL, run side by side; the chains' Python steps share one core)."""
    if in_process and not address:
        with Threads(workers or available_cores()) as pool:
            yield pool
        return
    import logging
    import signal

    import dask
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
    n = workers or available_cores()
    main = threading.current_thread() is threading.main_thread()
    # The workers are spawned (Dask's default), never forked: Dask forks from a thread of its own while other
    # threads run (its event loop, a web server's, an in-process cluster's), and a fork copies any lock one of them
    # holds, locked for ever in the child, which then hangs its start. A spawned worker loads the kernel from
    # numba's disk cache (``optimize`` warms it first) in about a fifth of a second.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None  # the workers start ignoring it
    try:
        with dask.config.set({**QUIET, "distributed.worker.multiprocessing-method": "spawn"}):
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
    if isinstance(client, Threads):
        return client.workers
    return max(1, len(client.scheduler_info(n_workers=-1)["workers"]))


def leg_task(client) -> Callable[[Leg], str]:
    """The task that runs a leg on ``client``'s workers: a Dask worker's, or the command's threads'."""
    return client.run_leg if isinstance(client, Threads) else run_leg


def shared(client, run: str, chains: int) -> tuple:
    """A run's stop event (``set``, ``is_set``, ``clear``) and each chain's store (``get``, ``set``, ``delete``),
    which the leg tasks find by name: Dask's on its cluster, or the threads' own."""
    if isinstance(client, Threads):
        return client.event(stop_name(run)), [client.variable(store_name(run, i)) for i in range(chains)]
    from distributed import Event, Variable

    return Event(stop_name(run), client=client), [Variable(store_name(run, i), client=client) for i in range(chains)]


class Store:
    """A named value the threads share (the part of a Dask ``Variable`` a run uses)."""

    def __init__(self) -> None:
        self.value = ""

    def get(self) -> str:
        return self.value

    def set(self, value: str) -> None:
        self.value = value

    def delete(self) -> None:
        self.value = ""


class Threads:
    """``workers`` threads of the command's process, with the calls of a Dask client that a run makes (``submit``,
    ``gather``, topics) and its named events and stores (``shared``). Leaving it stops every leg still running."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="trailwright-chain")
        self._lock = threading.Lock()
        self._events: dict[str, threading.Event] = {}
        self._stores: dict[str, Store] = {}
        self._topics: dict[str, Callable] = {}
        self._closing = threading.Event()

    def __enter__(self) -> Threads:
        return self

    def __exit__(self, *exc) -> None:
        self._closing.set()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def submit(self, task: Callable, *args, pure: bool = False, key: str | None = None) -> Future:
        """Run ``task(*args)`` on a thread (``pure`` and ``key``: Dask's, ignored)."""
        return self._pool.submit(task, *args)

    def gather(self, futures: list[Future]) -> list:
        return [f.result() for f in futures]

    def subscribe_topic(self, topic: str, handler: Callable) -> None:
        self._topics[topic] = handler

    def unsubscribe_topic(self, topic: str) -> None:
        self._topics.pop(topic, None)

    def log_event(self, topic: str, message: dict) -> None:
        """Hand ``message`` to the topic's subscriber, as ``(time, message)`` like Dask's event log."""
        handler = self._topics.get(topic)
        if handler is not None:
            handler((time.time(), message))

    def event(self, name: str) -> threading.Event:
        with self._lock:
            return self._events.setdefault(name, threading.Event())

    def variable(self, name: str) -> Store:
        with self._lock:
            return self._stores.setdefault(name, Store())

    def run_leg(self, job: Leg) -> str:
        """``run_leg`` on a thread: the run's own stop event, or this pool's close, stops it."""
        stop = self.event(stop_name(job.run))
        return leg_on(
            job,
            self.variable(store_name(job.run, job.index)),
            lambda: stop.is_set() or self._closing.is_set(),
            lambda m: self.log_event(progress_topic(job.run), m),
        )
