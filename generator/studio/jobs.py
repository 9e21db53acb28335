"""Long work the studio runs beside its server (a search, a publish): one of each at a time, its state read by
the page as server-sent events.

Glossary
--------
job      something started from the page that runs in its own thread (or process) and reports as it goes:
         ``state`` is idle, running, stopping, done or failed; ``version`` grows at every change, so a stream
         sends only news; ``error`` is one line when it failed.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from generator.studio.errors import EditError

BUSY = ("running", "stopping")


@dataclass
class Job:
    """What every studio job shares (see the module glossary); subclasses add what their view shows."""

    state: str = "idle"
    error: str = ""
    version: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

    def changed(self) -> None:
        """Note a change for the page's stream."""
        self.version += 1

    def begin(self, target, *args) -> None:
        """Run ``target(*args)`` in a thread; ``EditError`` when this job runs already."""
        if self.state in BUSY:
            raise EditError(f"a {type(self).__name__.lower()} is running: stop it or wait for it")
        self._stop.clear()
        self.state, self.error = "running", ""
        self.changed()
        threading.Thread(target=self._guarded, args=(target, *args), daemon=True, name="studio-job").start()

    def _guarded(self, target, *args) -> None:
        try:
            target(*args)
        except Exception as err:  # the page shows it in one line; the server keeps serving
            self.state, self.error = "failed", str(err).splitlines()[0] if str(err) else type(err).__name__
            self.changed()

    def stop(self) -> None:
        """Ask the job to stop (it ends at its next safe point)."""
        if self.state == "running":
            self.state = "stopping"
            self._stop.set()
            self.changed()

    def shut(self, timeout: float = 10.0) -> None:
        """Stop the job and wait a little for it (the server is stopping)."""
        self._stop.set()
        deadline = time.monotonic() + timeout
        while self.state in BUSY and time.monotonic() < deadline:
            time.sleep(0.1)

    def view(self) -> dict[str, Any]:
        """What the page shows."""
        return {"state": self.state, "error": self.error, "version": self.version}


async def events(job: Job, every: float = 0.25) -> AsyncIterator[str]:
    """Server-sent events: the job's view each time it changes, until it is no longer running."""
    sent = -1
    while True:
        if job.version != sent:
            sent = job.version
            yield f"data: {json.dumps(job.view())}\n\n"
            if job.state not in BUSY:
                return
        await asyncio.sleep(every)
