"""Every interval and every verdict Trailwright prints, made one way (numpy and the standard library only).

Glossary
--------
level         the confidence of an interval, 95 % unless told; ``ALPHA`` = 1 - level is a test's error rate.
share         k events of n trials (turns begun trapped of turns, games with drama of finished games). Its
              interval is Wilson's score interval: never of zero width, right at k = 0 and k = n.
count         k events over an exposure (hazard entries over seat-games, lead changes over games). Its
              interval is the exact (Garwood) Poisson interval, from the chi-square quantiles: at k = 0 the
              upper 95 % bound is 3.689 events.
sample        one figure's readings game by game, ``num`` and ``den``: the figure is sum(num) / sum(den) (a
              ratio estimator: turns trapped over turns; a mean of per-game values has den = 1). A game
              with den = 0 (an unfinished game's drama) is no game of that figure.
cluster-robust error
              the ratio's standard error with the game, not the turn, as the independent unit:
              sqrt(G / (G - 1) * sum((num - r den)^2)) / sum(den) over the G games. Turns within one game
              are not independent; games are.
effective size
              the trials (or exposure) that independent events would need to give the cluster-robust
              error: r (1 - r) / se^2 for a share, r / se^2 for a count, never more than the real one (a
              design effect below 1 is not claimed). The share's Wilson or the count's Poisson interval is
              made on it, at the level of Student's t with G - 1 degrees of freedom (few games: wider).
              With no spread to estimate (one game, no events, every game alike) it is made on the real
              size at the plain 95 %; one game says so: its turns are taken as independent.
mean          a figure that is neither (rounds a game, legal actions a turn): Student's t interval on the
              cluster-robust error; with no spread yet (one game, or every game alike) it is unbounded.
test          two samples of games differ when Welch's test on their difference rejects: the statistic
              (r_a - r_b) / sqrt(V_a + V_b), each V a cluster-robust variance, Student's t with
              Welch-Satterthwaite degrees of freedom. Each side needs ``FEWEST`` games. A few games of
              people miss the rare long tail of a figure (most games have no trapped turn, a few have
              fifteen; four games with none have no spread at all): so the first side's V is the larger of
              its own and what the second side's games imply for its size (the second side's residual
              squares per trial over the first side's trials: with no difference, its games vary so).
Holm          the step-down correction over a report's tests: the chance that any of its verdicts says
              "differs" by chance stays under ``ALPHA`` (Holm 1979).
games needed  how many games of one side would show a gap of ``gap`` (80 % power, at the Bonferroni level
              of the report's tests, the worst case of Holm): n = u / ((gap / (z_a + z_b))^2 - V_b), u the
              variance one game adds (the larger of the two sides' observed values: the stated prior is that
              people vary at least as much as the simulated players).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ALPHA = 0.05  # a test's error rate; 1 - ALPHA is an interval's level
POWER = 0.8  # the chance the "games needed" would show the gap
FEWEST = 3  # games a side needs before a test (with two, 6 % of reports of explorers said "differs")
SHARE, COUNT, MEAN = "share", "count", "mean"  # the kinds of figure (see the glossary)
NORMAL = NormalDist()


# --- special functions (Numerical Recipes' series and continued fractions) -------------------------


def _continued_fraction(term: Callable[[int], tuple[float, float]], first: float) -> float:
    """Lentz's evaluation of b0 + a1 / (b1 + a2 / (b2 + ...)), ``term(i)`` = (a_i, b_i)."""
    tiny = 1e-300
    f = first if first != 0 else tiny
    c, d = f, 0.0
    for i in range(1, 10_000):
        a, b = term(i)
        d = b + a * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + a / c
        c = c if abs(c) > tiny else tiny
        f *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return f


def gamma_p(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x)."""
    if x <= 0:
        return 0.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series
        term = total = 1 / a
        k = a
        while abs(term) > abs(total) * 1e-16:
            k += 1
            term *= x / k
            total += term
        return min(1.0, total * math.exp(log_front))
    tail = _continued_fraction(lambda i: (-i * (i - a), x + 2 * i + 1 - a), x + 1 - a)
    return max(0.0, 1 - math.exp(log_front) / tail)


def beta_i(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - beta_i(b, a, 1 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))

    def term(i: int) -> tuple[float, float]:
        m = i // 2
        if i % 2:
            return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)), 1.0
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), 1.0

    return front / (a * _continued_fraction(term, 1.0))


def _invert(f: Callable[[float], float], q: float, lo: float, hi: float) -> float:
    """x with f(x) = q for an increasing f, by bisection (``hi`` grown until it brackets)."""
    while f(hi) < q:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < q else (lo, mid)
        if hi - lo <= 1e-14 * hi:
            break
    return (lo + hi) / 2


@functools.lru_cache(maxsize=1024)
def gamma_quantile(q: float, a: float) -> float:
    """x with P(a, x) = q: the ``q`` quantile of the Gamma(a, 1) law (remembered)."""
    return _invert(lambda x: gamma_p(a, x), q, 0.0, max(1.0, 2 * a))


def chi2_sf(x: float, df: float) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom."""
    return 1 - gamma_p(df / 2, x / 2)


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's T with ``df`` degrees of freedom (the normal law when ``df`` is infinite)."""
    if math.isinf(df):
        return 1 - NORMAL.cdf(t)
    tail = beta_i(df / 2, 0.5, df / (df + t * t)) / 2
    return tail if t >= 0 else 1 - tail


@functools.lru_cache(maxsize=1024)
def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's T with ``df`` degrees of freedom (q above 1/2; remembered)."""
    if math.isinf(df) or df > 1e7:
        return NORMAL.inv_cdf(q)
    return _invert(lambda t: 1 - t_sf(t, df), q, 0.0, 2 * NORMAL.inv_cdf(q))


# --- intervals --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A value and its interval (``low`` may be -inf and ``high`` inf: nothing is known yet)."""

    value: float
    low: float
    high: float

    @property
    def bounded(self) -> bool:
        """Whether both ends are finite."""
        return math.isfinite(self.low) and math.isfinite(self.high)


def wilson(k: float, n: float, z: float | None = None, level: float = 1 - ALPHA) -> Interval:
    """Wilson's score interval for ``k`` events of ``n`` trials (``z``: the normal quantile, else from ``level``)."""
    if n <= 0:
        raise ValueError("a share of no trials")
    z = NORMAL.inv_cdf(0.5 + level / 2) if z is None else z
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def poisson(k: float, exposure: float = 1.0, level: float = 1 - ALPHA) -> Interval:
    """The exact (Garwood) interval of a rate: ``k`` events over ``exposure``, from the gamma quantiles."""
    if exposure <= 0:
        raise ValueError("a rate over no exposure")
    a = 1 - level
    low = gamma_quantile(a / 2, k) if k > 0 else 0.0
    return Interval(k / exposure, low / exposure, gamma_quantile(1 - a / 2, k + 1) / exposure)


# --- samples of games -------------------------------------------------------------------------------


def _arrays(num: Sequence[float] | np.ndarray, den: Sequence[float] | np.ndarray | None):
    """(num, den) as arrays, without the games that have no trials (an unfinished game has no drama)."""
    x = np.asarray(num, float)
    d = np.ones_like(x) if den is None else np.asarray(den, float)
    return x[d > 0], d[d > 0]


def cluster_variance(num, den, about: float | None = None) -> float:
    """The variance of sum(num) / sum(den) with the games as clusters, the residuals taken about ``about`` (the
    ratio itself by default); NaN with fewer than two games."""
    x, d = _arrays(num, den)
    total = d.sum()
    if len(x) < 2 or total <= 0:
        return math.nan
    r = x.sum() / total if about is None else about
    return float(len(x) / (len(x) - 1) * ((x - r * d) ** 2).sum() / total**2)


@dataclass(frozen=True)
class Estimate:
    """One figure of one sample of games: its value, 95 % interval, cluster-robust error, games and how the
    interval was made."""

    value: float
    low: float
    high: float
    se: float  # NaN with one game
    games: int
    method: str

    @property
    def bounded(self) -> bool:
        """Whether both ends of the interval are finite."""
        return math.isfinite(self.low) and math.isfinite(self.high)


def estimate(
    num, den=None, kind: str = MEAN, level: float = 1 - ALPHA, within: tuple[float, float] = (-math.inf, math.inf)
) -> Estimate | None:
    """sum(num) / sum(den) over games, with its interval made for its ``kind`` (see the glossary; a mean's cut to
    the values it can take, ``within``); None when nothing was counted (no games, or no trials in them)."""
    x, d = _arrays(num, den)
    total, games = float(d.sum()), len(x)
    if games == 0 or total <= 0:
        return None
    r = float(x.sum()) / total
    var = cluster_variance(x, d)
    se = math.sqrt(var) if games > 1 else math.nan
    spread = games > 1 and var > 0
    z = t_quantile(0.5 + level / 2, games - 1) if spread else NORMAL.inv_cdf(0.5 + level / 2)  # t: a spread estimated
    if kind == MEAN:
        if not spread:
            return Estimate(r, -math.inf, math.inf, se, games, "no spread yet: unbounded")
        low, high = max(within[0], r - z * se), min(within[1], r + z * se)
        return Estimate(r, low, high, se, games, f"Student's t, {games - 1} df, cluster-robust")
    tell = "one game: turns taken as independent" if games == 1 else f"{games} games as clusters"
    if kind == SHARE:
        n_eff = min(total, r * (1 - r) / var) if spread and 0 < r < 1 else total
        i = wilson(r * n_eff, n_eff, z)
        return Estimate(r, i.low, i.high, se, games, f"Wilson on {n_eff:.4g} effective trials, {tell}")
    if kind == COUNT:
        exposure = min(total, r / var) if spread and r > 0 else total
        i = poisson(r * exposure, exposure, 2 * NORMAL.cdf(z) - 1)
        return Estimate(r, i.low, i.high, se, games, f"exact Poisson on {exposure:.4g} effective exposure, {tell}")
    raise ValueError(f"unknown kind {kind!r}")


# --- tests --------------------------------------------------------------------------------------------


def welch(a_num, a_den, b_num, b_den, borrow: bool = True) -> float | None:
    """The two-sided p-value that two samples of games have the same sum(num) / sum(den) (Welch's test of the
    glossary; with ``borrow``, side a's variance is at least what b's games imply for a's size). None when a
    side has fewer than ``FEWEST`` games with trials."""
    (xa, da), (xb, db) = _arrays(a_num, a_den), _arrays(b_num, b_den)
    if min(len(xa), len(xb)) < FEWEST:
        return None
    ra, rb = xa.sum() / da.sum(), xb.sum() / db.sum()
    va, vb = cluster_variance(xa, da), cluster_variance(xb, db)
    dfa = len(xa) - 1
    if borrow:
        implied = float(((xb - rb * db) ** 2).sum() / db.sum() / da.sum())  # b's spread per trial, a's trials
        va, dfa = (implied, len(xb) - 1) if implied > va else (va, dfa)
    if va + vb <= 0:
        return float(ra == rb)  # every game of each side reads the same: the difference is exact
    df = (va + vb) ** 2 / (va**2 / dfa + vb**2 / (len(xb) - 1))
    return float(min(1.0, 2 * t_sf(abs(ra - rb) / math.sqrt(va + vb), df)))


def paired(differences) -> tuple[Interval, float]:
    """The mean of paired differences (common random numbers), its Student's t 95 % interval and two-sided
    p-value of no difference. Every difference alike: a zero-width interval and p 0 or 1 (it is exact)."""
    x = np.asarray(differences, float)
    mean = float(x.mean())
    if len(x) < 2:
        return Interval(mean, -math.inf, math.inf), 1.0
    se = float(x.std(ddof=1) / math.sqrt(len(x)))
    if se == 0:
        return Interval(mean, mean, mean), float(mean == 0)
    half = t_quantile(1 - ALPHA / 2, len(x) - 1) * se
    return Interval(mean, mean - half, mean + half), float(min(1.0, 2 * t_sf(abs(mean) / se, len(x) - 1)))


def equal_shares(counts: Sequence[int] | np.ndarray) -> float:
    """The p-value that ``counts`` (wins by seat) come from equal chances: Pearson's chi-square test, k - 1 degrees
    of freedom (1.0 when nothing was counted)."""
    o = np.asarray(counts, float)
    if len(o) < 2 or o.sum() <= 0:
        return 1.0
    e = o.sum() / len(o)
    return float(chi2_sf(float(((o - e) ** 2).sum() / e), len(o) - 1))


def around(value: float, se: float, games: int) -> Interval:
    """A mean over ``games`` games with standard error ``se``: Student's t 95 % interval, unbounded with no spread
    yet (fewer than two games, or a zero or unknown error)."""
    if games < 2 or not se > 0:
        return Interval(value, -math.inf, math.inf)
    half = t_quantile(1 - ALPHA / 2, games - 1) * se
    return Interval(value, value - half, value + half)


def holm(pvalues: Sequence[float | None], alpha: float = ALPHA) -> list[bool]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise level ``alpha`` (None: not tested)."""
    adjusted = holm_adjusted(pvalues)
    return [p is not None and p <= alpha for p in adjusted]


def holm_adjusted(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's adjusted p-values (None where not tested): the smallest family-wise level that rejects each."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        out[i] = running
    return out


def unit_variance(num, den=None) -> float:
    """The variance one game adds to sum(num) / sum(den): n times its cluster variance (NaN with one game)."""
    x, _ = _arrays(num, den)
    return len(x) * cluster_variance(num, den)


def games_needed(gap: float, unit: float, other: float = 0.0, tests: int = 1) -> int | None:
    """Games of one side (each adding variance ``unit``) that would show a gap of ``gap`` against the other side
    (its variance ``other``) with ``POWER``, at the Bonferroni level of ``tests`` tests; None when the other side
    alone is too noisy to show it."""
    z = NORMAL.inv_cdf(1 - ALPHA / (2 * max(tests, 1))) + NORMAL.inv_cdf(POWER)
    room = (gap / z) ** 2 - other
    if not (gap > 0 and room > 0 and math.isfinite(unit)):  # NaN: a side with one game
        return None
    return max(FEWEST, math.ceil(unit / room))
