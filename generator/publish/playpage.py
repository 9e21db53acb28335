"""The designer page's play figures: a seeded simulation of the booklet's game, and the claims of
the rules text it contradicts.

Glossary
--------
play figures  what the designer page shows of a playtest: rounds until someone wins (median,
              p10-p90, mean), the share of games unfinished at the round cap, the share of turns
              spent trapped, the games that reached a state no tile turn opens, and the game-length
              histogram (SVG, drawn by ``generator.play``); and the headline game-quality measures
              (``HEADLINE``: lead changes, drama, settled share, luck share, choices per turn) with
              their plain readings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from generator.publish.language import ENGLISH, Language

POLICY = "explorer"  # the human-like players the designer page reports
ENGINE = "fast"
RIVAL = "greedy"  # the luck share's weaker players, as playtest's default
HEADLINE = ("lead changes", "drama", "settled share", "luck share", "choices per turn")


@dataclass(frozen=True)
class PlayFigures:
    """A playtest of the default player count, as the designer page shows it."""

    players: int
    games: int
    policy: str
    seed: int
    engine: str
    cap: int
    median: float
    p10: float
    p90: float
    mean: float
    unfinished: float  # share of games stopped at the round cap
    trapped: float  # share of turns a player spent trapped
    no_way_out: int  # games that reached a state no single tile turn opens
    histogram_svg: str
    quality: tuple[tuple[str, float, float, str], ...] = ()  # headline measures: (name, value, se, reading)

    def context(self) -> dict:
        """The figures the templates see (everything but the picture)."""
        return {k: v for k, v in asdict(self).items() if k != "histogram_svg"}


def figures_from_report(report, svg: str, luck=None, language: Language = ENGLISH) -> PlayFigures:
    """Play figures from a ``generator.play.PlayReport`` (measured or not), its histogram and its luck share;
    the measures named and read in ``language``."""
    from generator.play.readings import readings

    quality: tuple[tuple[str, float, float, str], ...] = ()
    if report.quality is not None:
        read = readings(report.quality, luck, language.group("readings"), language.numbers)
        quality = tuple(
            (language.phrases[f"measures.{name}"], m.value, m.se, text)
            for name, m, text in read
            if name in HEADLINE and m
        )
    return PlayFigures(
        report.players,
        report.games,
        ",".join(sorted(set(report.policies))),
        report.seed,
        report.engine,
        report.round_cap,
        report.rounds_median,
        report.rounds_p10,
        report.rounds_p90,
        report.rounds_mean,
        report.unfinished,
        report.trapped_share,
        round(report.stuck_games * report.games),
        svg,
        quality,
    )


def simulate_play(
    tileset, board, rules, games: int, seed: int, language: Language = ENGLISH, threads: int = 1
) -> PlayFigures | None:
    """``games`` seeded games of the rules' default player count by ``explorer`` players (None when 0), played on
    ``threads`` threads (the same games on any number)."""
    if games <= 0:
        return None
    from generator.play.measures import luck_share
    from generator.play.pictures import histogram_svg
    from generator.play.simulate import simulate, skill_gap

    players = rules.players_default
    report = simulate(tileset, board, rules, players, games, (POLICY,), seed, ENGINE, measured=games, threads=threads)
    gap = skill_gap(tileset, board, rules, players, games, POLICY, RIVAL, seed, ENGINE, threads=threads)
    svg = histogram_svg(report, words=language.group("histogram"), numbers=language.numbers, names=language.name)
    return figures_from_report(report, svg, luck_share(gap.win_rate, gap.win_se, players), language)
