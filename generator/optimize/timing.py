"""How a run's time budget is shared: the chains, the choice of the winner, the polish, the re-score, the teardown.

A time budget counts from the command's start. Before the chains start, a reserve is set aside for what follows
them: the choice of the winner and the re-score, at ``RESERVE_RATE`` slot-layouts a second on a worker (about half
what a core of a small machine scores), and a teardown to stop the command's own cluster, write the outputs and
exit. The reserve is sized to the budget: at most ``AFTER_SHARE`` of it, so that a short run's chains get most of
its seconds; when that cannot buy the default sample counts, the run takes fewer (never under ``MIN_SELECTION`` and
``MIN_RESCORE``) and says so. A budget that cannot buy even those and ``MIN_SEARCH`` seconds of search is refused in
one line that names the budget that would (``check_budget``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.errors import TrailwrightError
from generator.optimize import prior, screen
from generator.optimize.play import after_chains_seconds
from generator.optimize.space import Problem
from generator.scoring.stream import available_cores

SELECTION_SAMPLES = 500_000  # shared fresh layouts that pick the best chain, when the budget buys them
MIN_SELECTION = 20_000  # the fewest (standard error about 0.03 on the classic board)
MIN_RESCORE = 100_000  # the fewest fresh layouts of the re-score (standard error about 0.006 on the classic board)
AFTER_SHARE = 0.15  # of a time budget, the most the choice of the winner and the re-score are given
TIMED_SCREEN = 150_000  # layouts of a timed polish's screen (confirmed on ten times as many), given 20 s or more:
TIMED_SECONDS = 20.0  # a shorter share screens proportionally fewer, so that rounds fit (a round takes about 7 s)
POLISH_SHARE = 1 / 3  # of a time budget, the final polish's by default (see default_polish_share)
# A shorter budget gets no polish by default: its share would screen too few layouts to tell a gain from noise, and
# its chains gain more with those seconds (classic board, seeds 1 and 2 at a load of 3 on 2 cores: --time 5
# re-scored 10.39 and 10.52 with a polish, 10.56 and 10.59 without; --time 10 10.43 and 10.59 with, 10.59 and 10.58
# without).
POLISH_FROM = 30.0
POLISH_SLOTS = 37  # the most slots of a board polished by default: a round on 91 takes a minute of CPU
RESERVE_RATE = 10_000_000
# A run on the command's own cluster (its threads, or worker processes on this machine) times PROBE_LAYOUTS layouts
# of its start in the command's process before its chains (the kernel loaded first) and sets aside PACE_MARGIN times
# that pace, where RESERVE_RATE is a slow machine's (it stays for a cluster elsewhere). Its chains then get the
# seconds it saves: RESERVE_RATE set aside 0.74 s for the re-score of a classic --time 5, which took 0.15 s (a load
# of 4 to 5 on 2 cores); hex-pairs' 10 s, 1.5 s for 0.6 to 0.9 s.
PROBE_LAYOUTS = 20_000
PACE_MARGIN = 1.5
TEARDOWN = 3.0  # seconds to stop a cluster of worker processes (measured: 2 to 3 s on a busy 2-core machine)
# A run of at most IN_PROCESS_SECONDS on no cluster of its own searches on threads of the command's process: spawning
# worker processes would take seconds of its budget (3.6 s of a 10-second run on a quiet 2-core machine). The
# kernels release the GIL, so the threads score side by side. Its teardown takes IN_PROCESS_TEARDOWN seconds at most:
# its threads stop at once, and writing the outputs and exiting took 0.01 to 0.05 s (classic board, a load of 5 on
# 2 cores; 0.2 to 0.35 s with the cluster of Dask threads and the plotting library it had before)
IN_PROCESS_SECONDS = 30.0
IN_PROCESS_TEARDOWN = 0.25
# The largest bank of a timed run, per second of its budget, in slot-layouts (``default_bank_end``): a short run's
# chain then takes more steps on a smaller bank. At 10 s on the 91-slot board the default bank of 120,000 layouts
# allowed 232 generations and re-scored -23.81, one of 20,000 1,648 and -19.79 (--time 60: -19.45); at 5 s on the
# classic board, seeds 1-3 re-scored 9.37, 10.51 and 10.37 with the default bank, 10.44, 10.56 and 10.58 with 45,000
# (a load of 5 on 2 cores). From 120 s on the 20-slot board and 60 s on the 91-slot one, the default.
BANK_PACE = 180_000
# A board whose moves choose among more designs than PACED_DESIGNS (the classic game's) needs more generations to
# try them: its bank is sqrt(PACED_DESIGNS / designs) as large (``default_bank_end``), where designs are those its
# one-face changes mostly draw from (``prior.drawn_from``: the favoured, where a chain ranks them). On hex-pairs'
# 1,799 designs, drawn alike, seeds 1 and 2 (a load of 4 to 5 on 2 cores): --time 10 re-scored -0.92 and -0.66 with
# a bank of 48,000, -0.06 and -0.40 with 7,000. With the prior's 90 favoured designs, seeds 1-5 on a quiet machine:
# a median of 1.01 with 48,000, 1.11 with 15,000 and 30,000, 1.00 with 7,000 (the rule gives 33,000).
PACED_DESIGNS = prior.PRIOR_FROM
MIN_SEARCH = 0.5  # seconds of search a timed run needs at least, beyond its reserve
MIN_LEFT = 0.05  # seconds the chains get at least, when the start-up took the whole budget


@dataclass(frozen=True)
class Samples:
    """The layouts that choose the winner and re-score it, sized to the budget."""

    selection: int
    rescore: int
    wanted_selection: int = SELECTION_SAMPLES  # what the run would take with time enough
    wanted_rescore: int = 0

    @property
    def reduced(self) -> bool:
        """Whether the budget could not buy the default counts."""
        return self.selection < self.wanted_selection or self.rescore < self.wanted_rescore


def in_process(scheduler: str | None, time: float | None) -> bool:
    """Whether a run searches on threads of the command's own process (a short timed run with no scheduler)."""
    return not scheduler and time is not None and time <= IN_PROCESS_SECONDS


def default_chains(
    scheduler: str | None, time: float | None, workers: int | None, cores: int, together: bool = False
) -> int:
    """The chains of a run that names none: one a worker (``workers``, else ``cores``), but one alone on threads of
    the command's process (``in_process``) unless they work ``together`` (islands, exchanges). There the chains'
    Python steps share one core: two chains each ran half as deep as one alone, and at --time 5 on the classic board
    one chain re-scored higher for 5 of 6 seeds (load 3 to 5 on 2 cores: median 10.54 against 10.41)."""
    if workers:
        return workers
    return 1 if in_process(scheduler, time) and not together else cores


def default_bank_end(problem: Problem, time: float | None) -> int | None:
    """The largest bank of a timed run that names none, sized to its budget: ``BANK_PACE`` slot-layouts a second
    (fewer on a board of many designs, ``PACED_DESIGNS``), to the thousand, at least the first bank's size; None
    where that buys the default (``BankSchedule.end``) or the run is untimed."""
    from generator.optimize.search import BankSchedule

    default = BankSchedule()
    if time is None:
        return None
    pace = BANK_PACE * min(1.0, math.sqrt(PACED_DESIGNS / max(prior.drawn_from(problem), 1)))
    sized = int(pace * time / problem.board.tile_count) // 1000 * 1000
    return None if sized >= default.end else max(sized, default.start)


def teardown(scheduler: str | None, time: float | None) -> float:
    """Seconds set aside to stop the run's own cluster (none on a cluster that is already up)."""
    if scheduler:
        return 0.0
    return IN_PROCESS_TEARDOWN if in_process(scheduler, time) else TEARDOWN


def _waves(chains: int, workers: int) -> int:
    """Waves of the choice of the winner (none for one chain: nothing to choose)."""
    return math.ceil(chains / workers) if chains > 1 else 0


def _seconds(problem: Problem, selection: int, rescore: int, waves: int) -> float:
    return (waves * selection + rescore) * problem.board.tile_count / RESERVE_RATE


def samples(problem: Problem, time: float | None, rescore: int, chains: int, workers: int) -> Samples:
    """The selection's and the re-score's layouts: the defaults (``SELECTION_SAMPLES``, ``rescore``) untimed or when
    they fit in ``AFTER_SHARE`` of the budget ``time``, else both scaled down alike to fit (no fewer than
    ``MIN_SELECTION`` and ``MIN_RESCORE``, or ``rescore`` when it asks fewer)."""
    waves = _waves(chains, workers)
    whole = _seconds(problem, SELECTION_SAMPLES, rescore, waves)
    if time is None or whole <= AFTER_SHARE * time:
        return Samples(SELECTION_SAMPLES, rescore, SELECTION_SAMPLES, rescore)
    scale = AFTER_SHARE * time / whole
    return Samples(
        max(min(MIN_SELECTION, SELECTION_SAMPLES), _round(SELECTION_SAMPLES * scale)),
        max(min(MIN_RESCORE, rescore), _round(rescore * scale)),
        SELECTION_SAMPLES,
        rescore,
    )


def _round(n: float) -> int:
    """A sample count to two significant figures (counts a reader can say)."""
    if n < 100:
        return max(1, int(n))
    step = 10 ** (len(str(int(n))) - 2)
    return int(n // step * step)


def shortest_budget(
    problem: Problem, rescore: int, chains: int, workers: int, teardown_seconds: float, spent: float = 0.0
) -> float:
    """The shortest time budget that searches: the ``spent`` seconds of the command's start-up so far, ``MIN_SEARCH``
    seconds of chains, the fewest samples of the choice and the re-score, and the teardown (rounded up to a whole
    second)."""
    least = _seconds(problem, MIN_SELECTION, min(MIN_RESCORE, rescore), _waves(chains, workers))
    return float(math.ceil(spent + MIN_SEARCH + least + teardown_seconds))


def check_budget(
    problem: Problem,
    time: float | None,
    rescore: int,
    chains: int,
    workers: int,
    teardown_seconds: float,
    spent: float = 0.0,
) -> None:
    """One line when ``time`` is too short to search, naming the budget that would (``spent``: the seconds of the
    budget the command's start-up took already)."""
    if time is None:
        return
    shortest = shortest_budget(problem, rescore, chains, workers, teardown_seconds, spent)
    if time < shortest:
        raise TrailwrightError(
            f"--time {time:g} is too short to search on this board ({problem.board.tile_count} slots): "
            f"give --time {shortest:g} or more"
        )


def reserve(problem: Problem, sizes: Samples, chains: int, workers: int, pace: float | None = None) -> float:
    """Seconds set aside from a time budget for what follows the chains: the choice of the winner (every chain's
    best on ``sizes.selection`` layouts, a wave of workers at a time), the re-score, and with a [play] target the
    games of both (``after_chains_seconds``). ``pace``: the seconds a layout took here (``PROBE_LAYOUTS`` timed
    before a run on the command's own cluster), half as long again allowed; else ``RESERVE_RATE``."""
    layouts = _waves(chains, workers) * sizes.selection + sizes.rescore
    scoring = _seconds(problem, 0, layouts, 0) if pace is None else PACE_MARGIN * pace * layouts
    return scoring + after_chains_seconds(problem, chains, workers, available_cores())


def rescoring(
    problem: Problem, samples: int, selection: float = 0.0, chains: int = 1, workers: int = 1, selected: int = 0
) -> float:
    """Seconds set aside for the re-score of ``samples`` layouts on one worker: at ``RESERVE_RATE``, or once the
    choice of the winner took ``selection`` seconds to score ``chains`` sets on ``workers`` (``selected`` layouts
    each, ``SELECTION_SAMPLES`` unless told), half as long again as that pace gives."""
    if chains > 1 and selection > 0:
        return 1.5 * selection * samples / (math.ceil(chains / workers) * (selected or SELECTION_SAMPLES))
    return samples * problem.board.tile_count / RESERVE_RATE


def default_polish_share(
    problem: Problem, generations: int | None, preset: str | None, polish: int | None, time: float | None = None
) -> float:
    """The share of a time budget the final polish gets unless told: ``POLISH_SHARE`` when the screen by holes
    judges the fitness (``screen.applies``) on a board of at most ``POLISH_SLOTS`` slots and the run is timed
    alone, for ``POLISH_FROM`` seconds or more (``time``; none: untold), is not a preset (which reproduces a method)
    and sets no polish of its own (``polish``: rounds while one gains, after the time); else none."""
    plain = generations is None and preset is None and not polish and problem.board.tile_count <= POLISH_SLOTS
    long = time is None or time >= POLISH_FROM
    return POLISH_SHARE if plain and long and screen.applies(problem) else 0.0


def timed_screen(seconds: float) -> int:
    """The layouts of a timed polish's screen for a share of ``seconds`` (``TIMED_SCREEN``, fewer below
    ``TIMED_SECONDS``)."""
    return round(TIMED_SCREEN * min(1.0, seconds / TIMED_SECONDS))
