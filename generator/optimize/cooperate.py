"""Cooperating chains: population annealing over the chains of one run (``Config.exchanges``).

Glossary
--------
exchange    a point between two legs where the chains share what they found. Their bests are
            scored on the same fresh layouts (``legs.MIGRATION_SAMPLES``, seed ``legs.migration_seed``)
            and resampled: each chain survives with a number of copies proportional to its
            Boltzmann weight, and a copy replaces a chain that did not survive (the copy then
            follows that chain's own random stream and bank, so the two diverge).
weight      ``exp(Δβ · fitness)``, where ``Δβ`` is how much the inverse temperature of the
            annealing schedule grew over the leg just run, capped so that the weights keep an
            effective share of at least ``ESS_SHARE`` of the chains (adaptive population
            annealing): no exchange hands the whole population to one lucky chain. This is
            population annealing (Hukushima and Iba 2003; Machta 2010) with the chains as its
            population, and with a generation budget every exchange falls on the same
            generation on any cluster.
alone       the chains run alone for the first ``ALONE`` of the budget, then exchange evenly over
            the rest: early leaders are a poor guide (on hexagon37 the best chain after 50
            generations was in a basin that ends at 3.55, where others end at 4.15), while late
            exchanges put the work of every chain into refining the best basins.
"""

from __future__ import annotations

import numpy as np

from generator.optimize.strategies import Anneal

T_START, T_END = Anneal.t_start, Anneal.t_end  # the schedule the exchanges' weights follow
ESS_SHARE = 0.5  # the least effective share of chains an exchange keeps (see gentle)
ALONE = 0.5  # the share of the budget the chains run alone before the first exchange


def inverse_temperature(progress: float) -> float:
    """1 / T at ``progress`` (0..1) of the annealing schedule."""
    return 1.0 / (T_START * (T_END / T_START) ** progress)


def leg_ends(exchanges: int) -> list[float]:
    """Where each leg ends (a share of the budget): the first at ``ALONE``, the rest evenly after it, the last at 1."""
    return [ALONE + (1 - ALONE) * j / exchanges for j in range(exchanges + 1)]


def beta_step(leg: int, ends: list[float]) -> float:
    """How much the inverse temperature grew over leg ``leg - 1`` (the leg before exchange ``leg``)."""
    return inverse_temperature(ends[leg - 1]) - inverse_temperature(ends[leg - 2] if leg > 1 else 0.0)


def weights(values, step: float) -> np.ndarray:
    """The chains' Boltzmann weights ``exp(step · value)``, scaled so the largest is 1."""
    v = np.asarray(values, dtype=np.float64)
    return np.exp(step * (v - v.max()))


def effective_share(values, step: float) -> float:
    """The effective sample size of the weights as a share of the chains (1: all equal)."""
    w = weights(values, step)
    return float(w.sum() ** 2 / (w**2).sum() / len(w))


def gentle(values, step: float, share: float = ESS_SHARE) -> float:
    """``step``, or the largest smaller step whose weights keep an effective share of at least ``share`` (adaptive
    population annealing: a few lucky chains never take over the whole population at once)."""
    if effective_share(values, step) >= share:
        return step
    low, high = 0.0, step
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if effective_share(values, mid) >= share else (low, mid)
    return low


def resample(values, step: float, rng: np.random.Generator) -> dict[int, int]:
    """Systematic resampling of the chains by ``exp(step · value)``: ``{replaced chain: chain it copies}``.

    A chain with k ≥ 1 copies keeps itself and gives k − 1 copies to chains with none; the extra
    copies go, best first, to the chains without copies in index order. Deterministic for ``rng``.
    """
    v, w = np.asarray(values, dtype=np.float64), weights(values, step)
    k = len(v)
    edges = np.cumsum(w / w.sum())
    picks = np.searchsorted(edges, (rng.random() + np.arange(k)) / k, side="right").clip(max=k - 1)
    copies = np.bincount(picks, minlength=k)
    order = sorted(range(k), key=lambda i: (-v[i], i))
    extra = [i for i in order for _ in range(max(0, int(copies[i]) - 1))]
    dead = [i for i in range(k) if copies[i] == 0]
    return dict(zip(dead, extra, strict=True))


__all__ = ["beta_step", "effective_share", "gentle", "inverse_temperature", "leg_ends", "resample", "weights"]
