"""Are the report's verdicts honest? Reports of "people" who are in fact a simulated policy, against the explorers.

Glossary
--------
false alarm   a report of people who are in fact explorers (games from another seed) that says "differs" of any
              figure. Holm's correction promises at most ``stats.ALPHA`` (5 %) of reports; ``false_alarms``
              counts them over many reports.
told apart    the report of the first ``n`` games of another policy (random legal moves) says "differs" of some
              figure; ``games_to_tell`` finds the fewest such games, and what the report of one game fewer said
              more games would tell.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.host.report import Sample, compare_samples, cut, simulated_sample


@dataclass(frozen=True)
class FalseAlarms:
    """How many of ``reports`` reports of ``size`` explorer games said "differs", and of which figures."""

    reports: int
    size: int
    alarms: int
    by_figure: dict[str, int]

    @property
    def rate(self) -> float:
        """The share of reports that said "differs"."""
        return self.alarms / self.reports


def false_alarms(reference: Sample, people: Sample, size: int) -> FalseAlarms:
    """Reports of consecutive ``size`` games of ``people`` (explorers, from another seed) against ``reference``."""
    games = len(people["rounds"][0])
    reports, alarms, by_figure = games // size, 0, dict[str, int]()
    for r in range(reports):
        figures = compare_samples(cut(people, r * size, (r + 1) * size), reference)
        alarms += any(f.differs for f in figures)
        for f in figures:
            by_figure[f.name] = by_figure.get(f.name, 0) + f.differs
    return FalseAlarms(reports, size, alarms, by_figure)


def games_to_tell(reference: Sample, people: Sample, most: int) -> tuple[int | None, list[str], list[str]]:
    """The fewest of ``people``'s first games (up to ``most``) whose report says "differs"; the figures it says so
    of, and what the report of one game fewer said more games would tell."""
    before: list[str] = []
    for n in range(1, most + 1):
        figures = compare_samples(cut(people, 0, n), reference)
        if any(f.differs for f in figures):
            return n, [f.said() for f in figures if f.differs], before
        before = [f.tell() for f in figures if f.tell()]
    return None, [], before


def samples(tiles, board, rules, players: int, reference: int, people: int, policy: str, seed: int = 0):
    """``reference`` explorer games from ``seed`` and ``people`` games of ``policy`` from ``seed + 1``."""
    return (
        simulated_sample(tiles, board, rules, players, reference, seed),
        simulated_sample(tiles, board, rules, players, people, seed + 1, policy),
    )
