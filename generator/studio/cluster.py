"""The studio's search cluster: a local Dask cluster started by the first search and let go when idle.

Glossary
--------
owner    the one thread that starts the cluster, holds it and closes it (Dask's client and cluster are entered
         and left in that thread, so nothing is left for the interpreter's exit to close).
idle     no search has held the cluster for ``idle`` seconds: the owner closes it, and the next search starts
         a new one. A studio that never searches starts no cluster at all.
shut     the studio is stopping: the owner closes the cluster now, and ``shut`` waits for it (bounded).
"""

from __future__ import annotations

import threading
import time
from typing import Any

IDLE_SECONDS = 300.0  # a designer's pause between two searches keeps the workers; a longer one lets them go
START_SECONDS = 120.0  # the longest a search waits for the cluster to come up before it runs without it


class SearchCluster:
    """A lazily started, idle-released local cluster (see the module glossary)."""

    def __init__(self, workers: int = 2, idle: float = IDLE_SECONDS):
        self.workers, self.idle = workers, idle
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._up = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self._users = 0
        self._since = time.monotonic()
        self._leaving = self._closing = False

    @property
    def running(self) -> bool:
        """Whether a cluster is up now."""
        return self._client is not None

    def acquire(self, board) -> Any:
        """The cluster's client, started (workers warmed for ``board``) when none is up; None when it failed."""
        with self._lock:
            if self._closing:
                return None
            thread = self._thread
            if thread is not None and (self._leaving or not thread.is_alive()):
                self._lock.release()
                try:
                    thread.join(30)  # the idle cluster is closing: wait for it, then start a new one
                finally:
                    self._lock.acquire()
                thread = None
            if thread is None:
                self._up.clear()
                self._leaving = False
                self._thread = threading.Thread(target=self._own, args=(board,), daemon=True, name="studio-cluster")
                self._thread.start()
            self._users += 1
        self._up.wait(START_SECONDS)
        return self._client

    def release(self) -> None:
        """A search is done with the cluster (it closes after ``idle`` seconds unless another search takes it)."""
        with self._lock:
            self._users = max(0, self._users - 1)
            self._since = time.monotonic()
        self._wake.set()

    def shut(self, timeout: float = 5.0) -> None:
        """Close the cluster now and wait for it (at most ``timeout`` seconds)."""
        with self._lock:
            self._closing = True
            thread = self._thread
        self._wake.set()
        if thread is not None:
            thread.join(timeout)

    def _own(self, board) -> None:
        from generator.optimize.cluster import connect, warm_workers

        try:
            with connect(None, self.workers) as client:
                warm_workers(client, board)  # each worker loads the kernels from numba's cache now
                self._client = client
                self._up.set()
                self._hold()
                self._client = None
        except Exception:  # no cluster: each search starts its own, as the command does
            self._client = None
        finally:
            self._up.set()

    def _hold(self) -> None:
        """Wait until the studio stops or the cluster has been idle for ``idle`` seconds."""
        while True:
            self._wake.wait(self.idle / 4)
            self._wake.clear()
            with self._lock:
                idle = self._users == 0 and time.monotonic() - self._since >= self.idle
                if self._closing or idle:
                    self._leaving = True
                    return
