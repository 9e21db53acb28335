"""``trailwright optimize``: search for a good tile set, then re-score it on fresh layouts."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from generator.cli import optimize_options
from generator.cli.optimize_options import BACKUP
from generator.cli.options import flag_value


def register(sub) -> None:
    """Add the ``optimize`` subcommand (its options: ``cli.optimize_options``)."""
    optimize_options.register(sub, run)


# settings a checkpoint fixes: naming one with --resume is an error rather than silently ignored
RESUME_FIXED = (
    "board",
    "strategy",
    "preset",
    "samples",
    "max_samples",
    "seed",
    "chains",
    "migrate",
    "exchanges",
    "init",
    "pin",
    "objective",
    "rescore",
    "polish",
    "polish_share",
)


def _project_defaults(args) -> Path | None:
    """``optimize DIR``: the project's board, objective and tile set (the start) and its tile set as the output, for
    each that no flag names; the folder, or None without one."""
    from generator.errors import TrailwrightError
    from generator.project import FILES, is_project, project_file

    if args.project is None:
        return None
    if args.resume is not None:
        raise TrailwrightError("a project folder and --resume: a resumed run keeps its checkpoint's files")
    if not is_project(args.project):
        raise TrailwrightError(
            f"not a project folder (no {FILES['tileset']}): make one with trailwright new", args.project
        )
    folder = Path(args.project)
    if args.board is None and (board := project_file(folder, "board")) is not None:
        args.board, args.board_from = board, f"the project's {FILES['board']}"
    args.objective = args.objective or project_file(folder, "objective")
    args.init = args.init or str(folder / FILES["tileset"])
    args.out = args.out or str(folder / FILES["tileset"])
    return folder


def _outputs(out: str | None, resume: str | None = None, project: Path | None = None) -> dict[str, Path]:
    if out is None:
        out = str(Path(resume).with_suffix(".json")) if resume else "output/tileset.json"
    path = Path(out)
    stem = path.with_suffix("") if path.suffix == ".json" else path
    if project is not None:  # the project's own files stay as they are: the run's others go in its output/
        stem = project / "output" / "optimize"
    return {
        "tileset": path,
        "history": Path(f"{stem}-history.csv"),
        "plot": Path(f"{stem}-history.svg"),
        "checkpoint": Path(f"{stem}.checkpoint"),
    }


def _setup(args):
    """The problem, the settings and any chains to continue, from the arguments or a checkpoint."""
    return _resumed(args) if args.resume is not None else _fresh(args)


def _resumed(args):
    """A checkpoint's problem, settings and chains; only the budget may change."""
    from generator.errors import TrailwrightError
    from generator.optimize.checkpoint import read_checkpoint

    given = [name for name in RESUME_FIXED if getattr(args, name) not in (None, [])]
    if given:
        flag = "--" + given[0].replace("_", "-")
        raise TrailwrightError(
            f"{flag} cannot change a resumed run (it keeps the checkpoint's settings; "
            "only --time and --generations may set a new budget)"
        )
    with flag_value("--resume"):
        resume = read_checkpoint(args.resume)
    config = resume.config
    if args.time is not None or args.generations is not None:
        config = replace(config, time=args.time, generations=args.generations)
    return resume.problem, config, list(resume.chains), resume.migrants, resume.init


def _fresh(args):
    """A new run's problem (board, objective, start, pins) and settings, from the arguments."""
    from generator.optimize import Config
    from generator.optimize.chain import RESCORE_SAMPLES, check_workers
    from generator.optimize.cluster import scheduler_address
    from generator.optimize.timing import default_bank_end, default_chains, default_polish_share
    from generator.scoring.stream import available_cores

    seed = args.seed if args.seed is not None else 0
    problem = _problem(args, seed)
    time_budget = args.time if args.time is not None or args.generations is not None else 60.0
    check_workers(args.workers)  # before it sets the chains
    config = Config(
        strategy=args.strategy or ("ga" if args.preset else "anneal"),
        preset=args.preset,
        time=time_budget,
        generations=args.generations,
        samples=args.samples,
        max_samples=args.max_samples if args.max_samples is not None else default_bank_end(problem, time_budget),
        seed=seed,
        chains=args.chains
        or default_chains(
            scheduler_address(args.scheduler),
            time_budget,
            args.workers,
            available_cores(),
            together=bool(args.exchanges) or args.migrate is not None,
        ),
        migrate=args.migrate,
        exchanges=args.exchanges or 0,
        rescore=args.rescore if args.rescore is not None else RESCORE_SAMPLES,
        checkpoint_every=args.checkpoint_every,
        polish=args.polish or 0,
        polish_share=args.polish_share
        if args.polish_share is not None
        else default_polish_share(problem, args.generations, args.preset, args.polish, time_budget),
    )
    return problem, config, [None] * config.chains, (), args.init


def _problem(args, seed: int):
    """The board, the objective, the starting set (``--init``, else random for ``seed``) and the pinned tiles."""
    import numpy as np

    from generator.board import load_board
    from generator.cli.options import recorded_board, say_board
    from generator.errors import TrailwrightError
    from generator.model import read_tileset
    from generator.optimize import make_problem, random_tileset
    from generator.optimize.space import SettingError, allowed_designs
    from generator.scoring.objective import ARTICLE, load_objective, resolve_targets
    from generator.scoring.tables import check_size

    if args.board is None and args.init is not None and (recorded := recorded_board(args.init)) is not None:
        args.board, args.board_from = recorded, f"the one {args.init} records"
    with flag_value("--board"):
        board = load_board(args.board or "classic")
    if getattr(args, "board_from", None) and not args.quiet:  # a board not typed: the run says which it took
        say_board("optimize", board.name, args.board_from)
    with flag_value("--objective"):
        objective = load_objective(args.objective) if args.objective is not None else ARTICLE
    objective = resolve_targets(objective, board.pair_names(), args.objective or "objective")
    if args.init is not None:
        with flag_value("--init"):
            start = read_tileset(args.init)
        check_size(start, board, args.init)
    else:
        try:
            designs = allowed_designs(objective.on(board), board.geometry)
        except TrailwrightError as err:
            raise err.within(args.objective) if args.objective else err from None
        start = random_tileset(board.tile_count, designs, np.random.default_rng([seed, 0]), board.geometry)
    pinned = tuple(i.strip() for item in args.pin for i in item.split(",") if i.strip())
    if (pinned or objective.pinned) and args.init is None:
        raise TrailwrightError(
            "pinned tiles (--pin, or the objective's pinned) need --init: the set whose tiles to keep"
        )
    try:
        problem = make_problem(board, objective, start, pinned)
    except SettingError:
        raise
    except TrailwrightError as err:
        raise err.within(args.init) if args.init else err from None
    if not problem.free:
        raise TrailwrightError("every tile is pinned: nothing to optimize")
    return problem


# the flag of each setting the core names in its errors (``SettingError.setting``)
FLAGS = {
    "pinned": "--pin",
    "strategy": "--strategy",
    "objective": "--objective",
    "budget": "--time or --generations",
    "time": "--time",
    "samples": "--samples",
    "max_samples": "--max-samples",
    "rescore": "--rescore",
    "chains": "--chains",
    "migrate": "--migrate",
    "exchanges": "--exchanges",
    "polish": "--polish",
    "polish_share": "--polish-share",
    "workers": "--workers",
    "checkpoint_every": "--checkpoint-every",
}


def run(args: argparse.Namespace) -> int:
    """Optimize, write the outputs, print the summary; the core's setting errors are named by their flags."""
    from generator.errors import TrailwrightError
    from generator.optimize.space import SettingError

    try:
        return _run(args)
    except SettingError as err:
        raise TrailwrightError(f"{FLAGS.get(err.setting, err.setting)} {err.detail}") from None


def _run(args: argparse.Namespace) -> int:
    """Set up the run, search, write the outputs and print the summary; 128 + the signal number if stopped early."""
    from rich.console import Console

    from generator.cli.optimize_display import summary
    from generator.fileio import check_out
    from generator.optimize.run import check_settings

    project = _project_defaults(args)
    problem, config, chains, migrants, init = _setup(args)
    check_settings(problem, config)  # before anything compiles or runs
    paths = _outputs(args.out, args.resume, project)
    for path in paths.values():  # before the budget is spent, not after
        check_out(path, "file")
    console = Console(stderr=True, quiet=args.quiet)
    save_checkpoint = _checkpoint_writer(paths["checkpoint"], problem, config, init)
    result, caught = _search(args, console, problem, config, chains, migrants, save_checkpoint)
    save_checkpoint(list(result.chains), result.migrants)
    _write_results(paths, project, problem, config, result, init)
    if not args.quiet:
        summary(console, config, result, paths, problem.board.name)
    if result.stopped:
        return _stopped_early(caught, paths)
    return 0


def _checkpoint_writer(path: Path, problem, config, init):
    """A ``save(latest, migrants)`` callback that writes the run's checkpoint to ``path``."""
    from generator.fileio import write_atomic
    from generator.optimize.checkpoint import checkpoint_text

    def save_checkpoint(latest, migrants):
        write_atomic(path, checkpoint_text(problem, config, latest, init, migrants))

    return save_checkpoint


def _search(args: argparse.Namespace, console, problem, config, chains, migrants, save_checkpoint):
    """Search with the live display, Ctrl-C and SIGTERM stopping it cleanly: the result and the signals caught."""
    import signal
    import threading

    from rich.markup import escape

    from generator.cli.optimize_display import Display
    from generator.optimize import optimize
    from generator.optimize.cluster import scheduler_address
    from generator.optimize.run import kernel_groups
    from generator.warm import announce

    stop = threading.Event()
    caught: list[int] = []
    interrupt = _interrupt_handler(console, stop, caught)
    handlers = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    if scheduler_address(args.scheduler) is None:  # compiled here, once, before the clock and the workers start
        announce(kernel_groups(problem, config), classic=problem.board.geometry.is_classic)
    display = Display(console, config)
    try:
        with display:
            result = optimize(
                problem,
                config,
                chains,
                migrants=migrants,
                stop=stop,
                scheduler=scheduler_address(args.scheduler),
                workers=args.workers,
                on_progress=display.update,
                on_checkpoint=save_checkpoint,
                on_stage=lambda text: console.print(f"[dim]{escape(text)}[/]", highlight=False),  # ids may hold [..]
                began=getattr(args, "started", None),
            )
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    return result, caught


def _interrupt_handler(console, stop, caught: list[int]):
    """A signal handler that says the run is stopping (once), notes the signal in ``caught`` and sets ``stop``."""

    def interrupt(signum, frame):
        if not stop.is_set():
            console.print(
                "[yellow]stopping: finishing the current generation (or polish round) and writing the best so far[/]"
            )
        caught.append(signum)
        stop.set()

    return interrupt


def _write_results(paths: dict[str, Path], project: Path | None, problem, config, result, init) -> None:
    """Write the tile set (a project's previous one kept as its backup), the history and the history's plot."""
    from generator.fileio import write_atomic
    from generator.model import dumps_tileset
    from generator.optimize.report import history_csv, history_svg
    from generator.optimize.run import meta

    info = meta(problem, config, result, init, problem.board.name)
    if project is not None and paths["tileset"].is_file():  # the designer's set before this run
        write_atomic(paths["tileset"].with_name(BACKUP), paths["tileset"].read_bytes())
    write_atomic(paths["tileset"], dumps_tileset(result.tileset, info))
    write_atomic(paths["history"], history_csv(result.chains))
    title = (
        f"{config.preset or config.strategy}, seed {config.seed}, {config.chains} chain(s), board {problem.board.name}"
    )
    write_atomic(paths["plot"], history_svg(result.chains, result.fitness, title, len(result.polished)))


def _stopped_early(caught: list[int], paths: dict[str, Path]) -> int:
    """Say where the best so far and the checkpoint are; the exit status of a run a signal stopped."""
    import signal

    # interrupted: not a finished run (the shell's 128 + signal number); --resume continues it
    signum = caught[0] if caught else signal.SIGINT
    print(
        f"trailwright: stopped early ({signal.Signals(signum).name}); the best so far is in {paths['tileset']}; "
        f"continue with --resume {paths['checkpoint']}",
        file=sys.stderr,
    )
    return 128 + signum
