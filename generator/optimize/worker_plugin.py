"""What each worker process of a Dask cluster does as it starts: load the kernels from numba's disk cache.

Its own module, imported only where a run has a Dask cluster (``cluster.warm_workers``): Dask's import takes a third
of a second, which a short run on the command's own threads does not pay.
"""

from __future__ import annotations

import contextlib
import time

from distributed.diagnostics.plugin import WorkerPlugin


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
