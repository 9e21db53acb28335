"""The search for a drawing of a side (``shapes``' candidates): one candidate per trail such
that every two trails cross exactly ``pair_crossings`` times, steeply enough, and every bridge's deck keeps air
from every other deck and from every trail it does not carry.

Glossary
--------
deck box    a bridge's deck with its gap (the ground painted round it), as a rectangle in tile units.
level       what a drawing must keep: the air between decks and the least crossing angle. The strictest level
            that can be met is used; a busy side (near-diameters on a hex with two ends an edge) takes a later one.
budget      how many pairs of candidates one depth-first try may look at, so every side ends quickly; a try that
            runs out is followed by restarts in seeded random orders, then by a repair search (min-conflicts).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

import numpy as np

from generator.errors import TrailwrightError
from generator.model import Side, pair_crossings
from generator.model.geometry import TileGeometry
from generator.render import drawn
from generator.render.candidate import Cand, hits, inside
from generator.render.decks import _apart, _covers, _reach, deck_box, deck_polygon
from generator.render.proof import fits, sound
from generator.render.shapes import (
    TIE,
    Bridge,
    SideLayout,
    _candidates,
    boundary_gap,
    point,
)


@lru_cache(maxsize=4096)
def _usable(g: TileGeometry, trail: tuple[int, ...], width: float) -> tuple[Cand, ...]:
    """The candidates of a trail that keep off the outline (those whose stroke does not ``proof.fits`` are
    still listed, so every other drawing keeps its numbers: ``_unfit`` bans them when a drawing picks one)."""
    found = [Cand.of(g, shape, prior) for prior, shape in _candidates(g, trail, width)]
    found = [c for c in found if inside(g, c, width)]
    shortest = min((c.length for c in found), default=0.0)
    found = [replace(c, prior=c.prior + c.length - shortest) for c in found]  # a tile unit longer costs 1
    return tuple(sorted(found, key=lambda c: round(c.prior, 9)))


@lru_cache(maxsize=4096)
def _unfit(g: TileGeometry, trail: tuple[int, ...], width: float) -> frozenset[int]:
    """The numbers of ``_usable``'s candidates whose stroke pinches, passes the cut or nears another end."""
    return frozenset(k for k, c in enumerate(_usable(g, trail, width)) if not fits(g, c.shape, width))


def _pair_drawn(g: TileGeometry, a: Cand, b: Cand, width: float, spare: int = 0):
    """Two trails drawn together, whatever a level keeps: None when they cross a wrong number of times (fewer than
    ``pair_crossings`` or more than ``spare`` more), else (cost, crossings, the least crossing angle (radians),
    whether a crossing nears the outline or a junction, the least distance between the trails away from their
    crossings (None: no points left)). A crossing is ``(point, angle of the upper trail, upper is a, crossing
    angle)``: the straighter trail goes over."""
    needed = pair_crossings(a.shape.trail, b.shape.trail)
    if (a.low > b.high + 3 * width).any() or (b.low > a.high + 3 * width).any():  # far apart: no crossing
        return (0.0, (), math.inf, False, None) if needed == 0 else None
    xs = hits(a, b)
    if not needed <= len(xs) <= needed + spare:
        return None
    pa, pb, cost, out, least, near = a.clean, b.clean, 0.0, [], math.inf, False
    for p, da, db in xs:
        angle = math.acos(min(1.0, abs(float(da @ db)) / float(np.linalg.norm(da) * np.linalg.norm(db))))
        least = min(least, angle)
        near = near or boundary_gap(g, p[None])[0] < 1.25 * width
        near = near or any(math.dist(j, p) < 1.6 * width for j in a.joints + b.joints)
        ta, tb = a.turning(p, 1.45 * width), b.turning(p, 1.45 * width)
        d = da if ta <= tb else db
        out.append((point(p), math.atan2(d[1], d[0]), ta <= tb, angle))
        cost += 0.6 * (math.pi / 2 - angle) + 0.3 * min(ta, tb)
        pa = pa[np.linalg.norm(pa - p, axis=1) > 2.5 * width]
        pb = pb[np.linalg.norm(pb - p, axis=1) > 2.5 * width]
    dist = None
    if len(pa) and len(pb):
        diff = pa[:, None] - pb[None]
        dist = math.sqrt(float((diff * diff).sum(axis=2).min()))
        cost += 3 * max(0.0, 2.4 * width - dist)
    return cost, tuple(out), least, near, dist


@lru_cache(maxsize=500_000)
def _pair_geometry(
    g: TileGeometry, a: tuple[int, ...], ia: int, b: tuple[int, ...], ib: int, width: float, spare: int = 0
):
    """``_pair_drawn`` of candidate ``ia`` of trail ``a`` and ``ib`` of ``b``: once for every level."""
    return _pair_drawn(g, _usable(g, a, width)[ia], _usable(g, b, width)[ib], width, spare)


@lru_cache(maxsize=500_000)
def _pair_cached(
    g: TileGeometry,
    a: tuple[int, ...],
    ia: int,
    b: tuple[int, ...],
    ib: int,
    width: float,
    keep: tuple[float, float],
    spare: int = 0,
):
    """(cost, crossings) of candidate ``ia`` of trail ``a`` and ``ib`` of ``b`` drawn together at a level that keeps
    ``keep`` (the least crossing angle in degrees, the least distance between the trails in trail widths), or None
    when they cross a wrong number of times, cross too flat, near the outline or at a junction, or run too close
    elsewhere."""
    found = _pair_geometry(g, a, ia, b, ib, width, spare)
    if found is None:
        return None
    cost, out, least, near, dist = found
    if near or least < math.radians(keep[0]) or (dist is not None and dist < keep[1] * width):
        return None
    return cost, out


@lru_cache(maxsize=500_000)
def _pair_sound(
    g: TileGeometry,
    a: tuple[int, ...],
    ia: int,
    b: tuple[int, ...],
    ib: int,
    width: float,
    keep: tuple[float, float],
    spare: int,
):
    """Whether the painted pair (``_pair_cached``'s, which it must pass) meets only under its decks
    (``proof.sound``)."""
    found = _pair_cached(g, a, ia, b, ib, width, keep, spare)
    decks = [deck_polygon(Bridge(p, angle, 0, 1, x), width) for p, angle, _, x in found[1]]
    return sound(_usable(g, a, width)[ia].shape, _usable(g, b, width)[ib].shape, width, decks)


# what a drawing must keep, strictest first: the air between two decks (trail widths), the least crossing angle
# (degrees) and the least distance between trails where they do not cross (centre to centre, trail widths)
LEVELS = ((1.0, 52.0, 1.55), (0.5, 40.0, 1.2), (0.3, 30.0, 1.2), (0.2, 22.0, 1.2))
CROWDED = (None, 22.0, 1.2)  # the last resort: decks not kept apart (a side no level can draw)
RELAX = 1.0  # the cost a drawing may save by keeping the next level instead
RESTARTS = 2  # tries per level: the plainest candidates first, then in seeded random orders
WIDER = 8  # tries at the last level before CROWDED (more seeded orders: a side drawn sooner keeps its drawing)
BUDGET = 10_000  # pairs of candidates looked at per try, so even the busiest side ends in seconds
REPAIRS = 12  # searches per try: each bans the pairs the last drawing painted unsoundly (``proof.sound``)


def _clear(
    g: TileGeometry, trails: tuple, bridge: Bridge, width: float, bridges: list[Bridge], chosen: dict, air: float | None
) -> bool:
    """Whether a new bridge's deck keeps ``air`` from every deck so far, and every other trail (``chosen``: trail
    number to candidate number) keeps off it (always, when ``air`` is None)."""
    if air is None:
        return True
    if not all(_decks_apart(bridge, b, width, air) for b in bridges):
        return False
    return not any(
        k not in (bridge.upper, bridge.lower) and _deck_covers(bridge, width, g, trails[k], c)
        for k, c in chosen.items()
    )


# The search meets the same bridges and candidates again down its branches, in its restarts and its repairs: each
# answer is kept (about 70 % of the questions on hex-pairs' busiest sides were asked before).
@lru_cache(maxsize=200_000)
def _decks_apart(a: Bridge, b: Bridge, width: float, air: float) -> bool:
    """Whether two bridges' decks, each with ``air`` trail widths about it, keep apart."""
    box, other = deck_box(a, width, air * width / 2), deck_box(b, width, air * width / 2)
    return math.dist(a.centre, b.centre) > _reach(box, a) + _reach(other, b) or _apart(box, other)


@lru_cache(maxsize=200_000)
def _deck_covers(bridge: Bridge, width: float, g: TileGeometry, trail: tuple[int, ...], candidate: int) -> bool:
    """Whether a trail drawn with ``candidate`` runs under the bridge's deck (its centre line within a trail's half
    width of the deck)."""
    return _covers(deck_box(bridge, width, width / 2), _usable(g, trail, width)[candidate].clean)


class _Search:
    """One search of a side's drawing: each trail's candidates in the order tried, the cheapest drawing so far
    (cost, candidate per trail, bridges), the pairs looked at and each pair's answer as the branches ask again."""

    def __init__(self, side: Side, width: float, air: float | None, keep: tuple, shuffle: int, banned: frozenset):
        self.side, self.width, self.air, self.keep, self.banned = side, width, air, keep, banned
        self.g, self.trails, self.spare = side.geometry, side.trails, _spare(side)
        self.options = [_usable(self.g, t, width) for t in self.trails]
        rng = np.random.default_rng(shuffle)
        self.tried = [
            list(range(len(o))) if not shuffle else [int(k) for k in rng.permutation(len(o))] for o in self.options
        ]
        crossed = [sum(pair_crossings(t, u) for u in self.trails) for t in self.trails]
        self.order = sorted(range(len(self.trails)), key=lambda i: (len(self.options[i]), -crossed[i]))  # busiest first
        self.best: list = [math.inf, None, None]
        self.looked = 0
        self.answers: dict[tuple[int, int, int, int], tuple | None] = {}

    def pair(self, i: int, ci: int, j: int, cj: int):
        """(cost, bridges) of trail ``i`` drawn with candidate ``ci`` and ``j`` with ``cj``, or None."""
        self.looked += 1
        key = (i, ci, j, cj)
        if key not in self.answers:
            self.answers[key] = self._bridged(i, ci, j, cj)
        return self.answers[key]

    def _bridged(self, i: int, ci: int, j: int, cj: int):
        """``pair``'s answer, from the pair cache (None: banned, or the two cannot be drawn so)."""
        if (i, ci, j, cj) in self.banned or (j, cj, i, ci) in self.banned:
            return None
        trails = self.trails
        a, ca, b, cb = (i, ci, j, cj) if trails[i] < trails[j] else (j, cj, i, ci)  # as the pair cache keys them
        found = _pair_cached(self.g, trails[a], ca, trails[b], cb, self.width, self.keep, self.spare)
        return found and (found[0], tuple(Bridge(p, t, *((a, b) if over else (b, a)), x) for p, t, over, x in found[1]))

    def search(self, depth: int, chosen: dict[int, int], bridges: list[Bridge], cost: float) -> None:
        """Every candidate of the ``depth``-th trail in ``order`` that may still beat the best, depth first."""
        if depth == len(self.order):
            if cost < self.best[0] - TIE and len(bridges) == self.side.min_crossings:
                self.best = [cost, dict(chosen), tuple(bridges)]
            return
        i = self.order[depth]
        for ci in self.tried[i]:
            if self.looked >= BUDGET:
                return
            if (i, ci) in self.banned:
                continue
            joined = self._joined(i, ci, chosen, bridges, cost + self.options[i][ci].prior)
            if joined is None:
                continue
            so_far = self._cleared(i, ci, chosen, bridges, joined[1])
            if so_far is not None:
                chosen[i] = ci
                self.search(depth + 1, chosen, so_far, joined[0])
                del chosen[i]

    def _joined(self, i: int, ci: int, chosen: dict[int, int], bridges: list[Bridge], total: float):
        """(cost, new bridges) of trail ``i`` drawn with ``ci`` beside every trail chosen so far, or None: a pair that
        cannot be drawn, a cost no cheaper than the best (pair costs only add), or more bridges than the side has."""
        if total >= self.best[0] - TIE:
            return None
        new: list[Bridge] = []
        for j, cj in chosen.items():
            found = self.pair(i, ci, j, cj)
            if not found or total + found[0] >= self.best[0] - TIE:
                return None
            total += found[0]
            new += found[1]
        if total >= self.best[0] - TIE or len(bridges) + len(new) > self.side.min_crossings:
            return None
        return total, new

    def _cleared(self, i: int, ci: int, chosen: dict[int, int], bridges: list[Bridge], new: list[Bridge]):
        """The bridges with ``new`` added, each clear of the others and of the trails drawn, and no trail ``i`` under a
        deck of another pair's; None when one is not."""
        drawn = chosen | {i: ci}
        so_far = list(bridges)
        for b in new:
            if not _clear(self.g, self.trails, b, self.width, so_far, drawn, self.air):
                return None
            so_far.append(b)
        g, width, trail = self.g, self.width, self.trails[i]
        if self.air is not None and any(
            i not in (b.upper, b.lower) and _deck_covers(b, width, g, trail, ci) for b in bridges
        ):
            return None
        return so_far


def _search(
    side: Side,
    width: float,
    air: float | None,
    keep: tuple[float, float] = (40.0, 1.2),
    shuffle: int = 0,
    banned: frozenset = frozenset(),
) -> tuple[tuple[int, ...], tuple[Bridge, ...], float] | None:
    """The cheapest drawing found (depth-first, pruned by cost, looking at most ``BUDGET`` pairs) whose bridges
    keep ``air`` apart: the candidate chosen per trail, the bridges and the cost. ``shuffle`` > 0 tries each trail's
    candidates in an order drawn from that seed instead of plainest first (a restart on a busy side). No
    candidate ``(i, ci)`` (trail ``i`` drawn with candidate ``ci``) and no pair ``(i, ci, j, cj)`` in ``banned``
    is used. Where the
    side needs more bridges than its pairs' minima sum to (``_spare``), pairs may cross more, to that total."""
    run = _Search(side, width, air, keep, shuffle, banned)
    run.search(0, {}, [], 0.0)
    cost, chosen, bridges = run.best
    if chosen is None:
        return None
    return tuple(chosen[i] for i in range(len(side.trails))), bridges, cost


@lru_cache(maxsize=4096)
def layout_canonical(side: Side, width: float) -> SideLayout:
    """The drawing of a design (searched once per design and width) at the strictest level it meets within the
    budget, the last level with ``WIDER`` tries. A side no level can draw (the busiest paired hex sides, such as
    six near-diameters with 15 crossings) is drawn with decks that may touch (``CROWDED``), still with exactly its
    bridges. A drawing at the strictest level that costs ``RELAX`` more than the next level's gives way to it: a
    side kept that roomy only by drawing a trail far from its plain shape is no better. A design searched once is
    kept on disk for every later process of this renderer (``drawn``)."""
    kept = drawn.load(side, width)
    if kept is not None:
        return kept
    layout = _searched(side, width)
    drawn.keep(layout)
    return layout


def _searched(side: Side, width: float) -> SideLayout:
    """``layout_canonical``'s search."""
    levels = LEVELS + (CROWDED,)
    for k in range(len(levels)):
        found = _level(side, width, levels[k])
        if found is None:
            continue
        looser = _level(side, width, levels[1]) if k == 0 and found[0] > RELAX else None
        return (looser if looser is not None and looser[0] + RELAX < found[0] else found)[1]
    raise TrailwrightError(f"cannot draw side {side} with exactly {side.min_crossings} bridges")


def _level(side: Side, width: float, level: tuple) -> tuple[float, SideLayout] | None:
    """The first drawing (its cost and layout) one level's tries find."""
    air, angle, apart = level
    for shuffle in range(WIDER if level == LEVELS[-1] else 1 if level == LEVELS[0] else RESTARTS):
        found = _proven(side, width, air, (angle, apart), shuffle)
        if found is not None:
            return found
    return None


def _proven(
    side: Side, width: float, air: float | None, keep: tuple[float, float], shuffle: int
) -> tuple[float, SideLayout] | None:
    """``_search``'s drawing once every trail's stroke ``proof.fits`` and every pair of trails is
    ``_pair_sound`` (decks kept apart; not asked at ``CROWDED``). A drawing that picked a stroke that does not fit
    is searched again without any of its trail's strokes that do not, and one with an unsound pair without that
    pair, at most ``REPAIRS`` times: a side drawn soundly at once keeps its drawing."""
    g, trails, banned = side.geometry, side.trails, frozenset[tuple[int, ...]]()
    for _ in range(REPAIRS):
        found = _search(side, width, air, keep, shuffle, banned)
        if found is None:
            return None
        choice, bridges, cost = found
        unsound: set[tuple[int, ...]] = {
            (i, k) for i, t in enumerate(trails) if choice[i] in _unfit(g, t, width) for k in _unfit(g, t, width)
        }
        unsound |= {
            (i, choice[i], j, choice[j])
            for i, j in combinations(range(len(trails)), 2)
            if air is not None
            and not unsound
            and not _sound(g, trails[i], choice[i], trails[j], choice[j], width, (keep, _spare(side)))
        }
        if not unsound:
            shapes = tuple(_usable(g, t, width)[c].shape for t, c in zip(trails, choice, strict=True))
            return cost, SideLayout(side, shapes, bridges, width, crowded=air is None)
        banned |= unsound
    return None


def _sound(g: TileGeometry, a: tuple[int, ...], ia: int, b: tuple[int, ...], ib: int, width: float, how: tuple):
    return _pair_sound(g, a, ia, b, ib, width, *how) if a < b else _pair_sound(g, b, ib, a, ia, width, *how)


def _spare(side: Side) -> int:
    """How many more bridges the side needs than its pairs' minima sum to (trails that branch, two ends an edge)."""
    return side.min_crossings - sum(pair_crossings(a, b) for a, b in combinations(side.trails, 2))
