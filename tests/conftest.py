"""Shared fixtures: the built-in boards and a few tile sets."""

from pathlib import Path

import pytest

from generator.board import load_board
from generator.model import read_tileset

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def classic():
    return load_board("classic")


@pytest.fixture(scope="session")
def hexagon37():
    return load_board("hexagon37")


@pytest.fixture(scope="session")
def random20():
    """20 random tiles (2 to 4 trails a side)."""
    return read_tileset(EXAMPLES / "random-20.json")


@pytest.fixture(scope="session")
def dask_client():
    """An in-process Dask cluster (two single-threaded workers) shared by the optimize tests, kernel loaded."""
    import dask
    from distributed import Client, LocalCluster

    from generator.optimize.cluster import QUIET
    from generator.scoring import warm_up

    warm_up(load_board("classic"))  # as the command does before it starts its workers

    with (
        dask.config.set(QUIET),  # as the command's own cluster: it lives as long as the session, mostly idle
        # in-process workers on loopback TCP (an in-process cluster's default serves HTTP on every interface)
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=False,
            host="127.0.0.1",
            protocol="tcp://",
            dashboard_address="127.0.0.1:0",
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def dask_scheduler(dask_client, monkeypatch):
    """``TRAILWRIGHT_SCHEDULER`` pointing at the in-process cluster, so ``trailwright optimize`` uses it."""
    monkeypatch.setenv("TRAILWRIGHT_SCHEDULER", dask_client.scheduler.address)
    return dask_client.scheduler.address


@pytest.fixture
def reap():
    """``reap(proc)`` returns ``proc`` and kills it when the test ends, so a failed test never leaves it running."""
    procs = []
    yield lambda proc: procs.append(proc) or proc
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
