"""One checked thing of `trailwright check`: what was measured against what was expected."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One checked thing: passed or failed, with what was measured and what was expected."""

    file: str
    page: int | None
    what: str
    measured: str
    expected: str
    ok: bool

    def line(self) -> str:
        """``FAIL file, page 3: what: measured ..., expected ...``"""
        where = f"{self.file}, page {self.page}" if self.page else self.file
        return (
            f"{'ok  ' if self.ok else 'FAIL'} {where}: {self.what}: measured {self.measured}, expected {self.expected}"
        )
