"""Play-aware optimisation: the objective's ``[play]`` target scored on a bank of seeded games.

Glossary
--------
game bank     ``games`` games from one seed, the same for every candidate (common random numbers):
              game g of every candidate draws its pile order, coins and dice from the same stream,
              so two candidates differ by their tiles, not by their luck.
play penalty  the (negative) term the play target adds to the fitness. It is measured only for a
              candidate whose static fitness already passes the search's acceptance bar: the penalty
              is never positive, so a candidate below the bar on static fitness alone cannot pass.
epoch         the stretch of a search that plays one bank. The bank is redrawn (epoch ``e`` plays
              the games of seed ``seed + e``) each time the layout bank grows by ``REDRAW_GROWTH``,
              and the search's current sets are scored again on it. A search that kept one bank
              would learn its luck: over a thousand candidates it picks sets that play long on
              *these* games, and the winner played 1.3 rounds shorter on fresh games.
"""

from __future__ import annotations

import math

import numpy as np

from generator.optimize.search import Evaluation, Scored
from generator.optimize.space import to_tileset
from generator.scoring.play_target import PlayScore, PlayTarget, summarise_games


def game_bank(
    tileset,
    board,
    rules,
    target: PlayTarget,
    seed: int | None = None,
    engine: str = "fast",
    games: int | None = None,
    threads: int = 1,
):
    """The first ``games`` (all ``target.games``) games of ``tileset``'s bank from ``seed`` (the target's own by
    default): (rounds, winners, the bounded measures' readings), played on ``threads`` threads. Game g is the same
    game whatever the count or the threads (common random numbers)."""
    from generator.play.measures import luck_share, measures_of_rows
    from generator.play.simulate import play, skill_gap

    seats, count = (target.policy,) * target.players, games or target.games
    seed = target.seed if seed is None else seed
    wanted = target.measured
    logged = bool(wanted - {"luck_share"})
    played = play(tileset, board, rules, seats, count, seed, engine, log=logged, threads=threads)
    readings: dict[str, tuple[float, float] | None] = {}
    if logged and played.rows is not None and played.offsets is not None:
        m = measures_of_rows(
            played.rows, played.offsets, played.winners, seats, board, rules, tileset, "choices" in wanted, threads
        )
        for name in wanted - {"luck_share"}:
            value = getattr(m, name)
            readings[name] = None if value is None else (value.value, value.se)
    if "luck_share" in wanted:
        gap = skill_gap(
            tileset, board, rules, target.players, count, "explorer", target.rival, seed, engine, threads=threads
        )
        luck = luck_share(gap.win_rate, gap.win_se, target.players)
        readings["luck_share"] = (luck.value, luck.se)
    return played.rounds, played.winners, readings


REDRAW_GROWTH = 2**0.5  # a new game bank each time the layout bank grows by this factor
BANK_GROWTH = 2 ** (1 / 6)  # each new game bank this much larger: twice the games per 8-fold layouts
SCREEN_SHARE = 0.2  # the share of the bank a screen plays
SCREEN_Z = 2.0  # a screen rejects when the bar is this many standard errors above its estimate


class PlayScorer:
    """The play score of candidates on one game bank, cached by the candidate's key."""

    def __init__(self, problem, target: PlayTarget, rules):
        self.problem, self.target, self.rules = problem, target, rules
        self.cache: dict[bytes, PlayScore] = {}
        self.screens: dict[bytes, tuple[float, float]] = {}
        self.games = 0  # games played, for progress and the benchmark
        self.epoch = 0

        self.size = target.games  # games in the current bank

    def redraw(self, epoch: int) -> None:
        """Play epoch ``epoch``'s bank from now on: the games of seed ``target.seed + epoch``, ``BANK_GROWTH ** epoch``
        times as many as the first bank."""
        if epoch != self.epoch:
            self.epoch, self.cache, self.screens = epoch, {}, {}
            self.size = round(self.target.games * BANK_GROWTH**epoch)

    def _bank(self, classes, games: int | None = None):
        tiles = to_tileset(self.problem, classes)
        self.games += games or self.size
        return game_bank(
            tiles, self.problem.board, self.rules, self.target, self.target.seed + self.epoch, games=games or self.size
        )

    def screen(self, classes) -> tuple[float, float]:
        """The penalty estimated from the bank's first games, and ``SCREEN_Z`` standard errors of it."""
        k = self.problem.space.key(classes)
        if k not in self.screens:
            t = self.target
            n = max(10, int(SCREEN_SHARE * self.size))
            rounds, winners, *measured = self._bank(classes, n)
            readings = measured[0] if measured else {}
            est = summarise_games(t, rounds, winners, readings)
            se_centre = 1.2533 * float(np.std(rounds, ddof=1)) / np.sqrt(n)  # a median's standard error
            se_unfinished = np.sqrt(est.unfinished * (1 - est.unfinished) / n)
            se_bounds = sum(r[1] for r in readings.values() if r is not None)
            self.screens[k] = (
                est.penalty,
                SCREEN_Z
                * (abs(t.weight) * se_centre + abs(t.limit_weight) * se_unfinished + abs(t.bound_weight) * se_bounds),
            )
        return self.screens[k]

    def __call__(self, classes) -> PlayScore:
        k = self.problem.space.key(classes)
        if k not in self.cache:
            self.cache[k] = summarise_games(self.target, *self._bank(classes))
        return self.cache[k]


class PlayAware:
    """An evaluator (``search.Evaluator``) whose fitness adds the play penalty to another's static fitness.

    The penalty is measured only for candidates that pass the acceptance bar on static fitness;
    the rest are rejected as they would be without play, at no cost in games. A candidate that
    passes is screened on the bank's first fifth of games, and rejected there when it falls
    clearly (``SCREEN_Z`` standard errors) below the bar; only the rest play the whole bank.
    """

    def __init__(self, inner, scorer: PlayScorer):
        self.inner, self.scorer, self.problem = inner, scorer, inner.problem
        self.first_size = inner.size

    size = property(lambda self: self.inner.size)
    counters = property(lambda self: self.inner.counters)

    def _with(self, s: Scored) -> Scored:
        return Scored(s.classes, s.fitness + self.scorer(s.classes).penalty, s.size, s.arrays, s.sums)

    def resize(self, size: int) -> None:
        """Resize the layout bank, and redraw the game bank when it has grown by ``REDRAW_GROWTH`` again.

        A redraw happens only when the layout bank's size changes, so every candidate the search
        holds is out of date then and ``refresh`` measures its penalty on the new games.
        """
        self.inner.resize(size)
        self.scorer.redraw(int(math.log(max(self.inner.size, 1) / max(self.first_size, 1), REDRAW_GROWTH) + 1e-9))

    def refresh(self, s: Scored) -> Scored:
        fresh = self.inner.refresh(s)
        return fresh if fresh is s else self._with(fresh)  # an unchanged candidate already has its penalty

    def full(self, classes) -> Scored:
        return self._with(self.inner.full(classes))

    def score(self, classes, parent: Scored | None = None, changes=()) -> Scored:
        return self._with(self.inner.score(classes, parent, changes))

    def evaluate(self, classes, parent: Scored | None = None, changes=(), threshold: float | None = None) -> Evaluation:
        ev = self.inner.evaluate(classes, parent, changes, threshold)
        if ev.early or (threshold is not None and ev.fitness < threshold):
            return ev  # below the bar on static fitness: the penalty (never positive) cannot lift it
        if threshold is not None and self.scorer.problem.space.key(classes) not in self.scorer.cache:
            estimate, margin = self.scorer.screen(classes)
            if ev.fitness + estimate + margin < threshold:  # clearly below the bar on the first games
                return Evaluation(ev.fitness + estimate, None, ev.layouts, ev.cached, early=True)
        penalty = self.scorer(classes).penalty
        scored = (
            None
            if ev.scored is None
            else Scored(classes, ev.scored.fitness + penalty, ev.scored.size, ev.scored.arrays, ev.scored.sums)
        )
        return Evaluation(ev.fitness + penalty, scored, ev.layouts, ev.cached, ev.early)

    def state(self) -> dict:
        return self.inner.state()  # the play cache is a pure function of the candidates: not saved

    def restore(self, state: dict) -> None:
        self.inner.restore(state)
        self.resize(self.inner.size)


def play_aware(evaluator, problem):
    """``evaluator`` with the objective's play penalty added, or ``evaluator`` itself when it has no [play]."""
    target = problem.objective.play
    if target is None:
        return evaluator
    from generator.play import default_rules

    return PlayAware(evaluator, PlayScorer(problem, target, default_rules(problem.board)))


FRESH_GAMES = 2000  # at least this many fresh games describe the winner (see final_play)
RANK_GAMES = 20_000  # at least this many rank the chains at a selection or an exchange on the classic board
RANK_SLOTS = 20  # ... and on a larger board proportionally fewer (a game there takes longer), never below FRESH_GAMES


def fresh_games(target: PlayTarget) -> int:
    """How many fresh games ``final_play`` plays to describe the winner."""
    return max(target.games, FRESH_GAMES)


def ranking_games(target: PlayTarget, slots: int) -> int:
    """How many fresh games ``final_play`` plays to rank a chain on a board of ``slots`` tiles: 20,000 on the
    classic board (0.8 s of a worker), fewer on a larger one, whose games are longer (2,000 games of a random set
    on the 217-slot board take 28 s)."""
    return max(fresh_games(target), RANK_GAMES * RANK_SLOTS // max(slots, RANK_SLOTS))


PACE_GAMES = 200  # games of the start set timed to set aside the time of the games that follow the chains


def after_chains_seconds(problem, chains: int, workers: int, cores: int) -> float:
    """Seconds the games after the chains take (0 without a [play] target): each chain's best ranked on
    ``ranking_games``, a wave of ``workers`` at a time (when there are chains to choose from), and the winner's
    ``fresh_games`` on ``cores`` threads. Timed on ``PACE_GAMES`` games of the problem's start set, after a few to
    load the engine: a random set's games run longer than a good set's (more of them reach the round cap), so the
    pace errs on the safe side. A game's length depends on the board and the tiles as much as on the rules: on the
    jungle a set's games took ten times a classic set's."""
    target = problem.objective.play
    if target is None:
        return 0.0
    import time

    from generator.play import default_rules

    rules = default_rules(problem.board)
    game_bank(problem.start, problem.board, rules, target, 0, games=5)
    began = time.perf_counter()
    game_bank(problem.start, problem.board, rules, target, 1, games=PACE_GAMES)
    pace = (time.perf_counter() - began) / PACE_GAMES
    waves = math.ceil(chains / workers) if chains > 1 else 0
    return pace * (waves * ranking_games(target, problem.board.tile_count) + fresh_games(target) / max(cores, 1))


def final_play(problem, tileset, seed: int, ranking: bool = False, threads: int = 1) -> PlayScore | None:
    """A set's play score on a fresh bank of games from ``seed`` (None without a [play] target): the winner's report
    on ``fresh_games``, or, ``ranking``, a chain's rank at a selection or an exchange on ``ranking_games``. The
    search's own bank is smaller; judged on it, a round's noise in the centre is five points of fitness, and
    ranking chains on 200 games picked the luckiest rather than the best. On 2,000 games two chains' penalties
    still differ by noise of about 0.75 on the classic board, more than most chains truly differ by, and
    cooperating chains did no better than two; on 20,000 (about 0.25) they beat both two and eight independent
    chains (docs/optimize.md, "Cooperating chains")."""
    target = problem.objective.play
    if target is None:
        return None
    from generator.play import default_rules

    games = ranking_games(target, problem.board.tile_count) if ranking else fresh_games(target)
    rules = default_rules(problem.board)
    bank = game_bank(tileset, problem.board, rules, target, seed, games=games, threads=threads)
    return summarise_games(target, *bank)
