"""Compiled play work on a few threads: the engines' compiled loops release the GIL, so games split into parts run
on every core in one process (each part writes only its own games' rows, so the numbers never depend on it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def in_threads(f: Callable[[T], R], items: Iterable[T], threads: int) -> list[R]:
    """``[f(x) for x in items]`` in order, on up to ``threads`` threads when there is more than one item."""
    todo = list(items)
    if threads <= 1 or len(todo) <= 1:
        return [f(x) for x in todo]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(threads, len(todo))) as pool:
        return list(pool.map(f, todo))
