"""``trailwright optimize`` on boards of other geometries: every strategy on design numbers of any geometry (the
GA by a design-number genome), checkpoints and resume, cooperation on Dask, the tile set file, and one-line
refusals."""

import json

import numpy as np
import pytest

from generator.board import load_board
from generator.cli import main
from generator.errors import TrailwrightError
from generator.model import read_tileset
from generator.optimize import Config, make_problem, optimize, random_tileset
from generator.optimize.chain import Budget, Chain, chain_best, config_strategy, run_chain
from generator.optimize.checkpoint import checkpoint_text, read_checkpoint
from generator.optimize.polish import polish
from generator.optimize.space import allowed_designs, space_of, to_tileset
from generator.scoring.objective import ARTICLE, Objective
from generator.scoring.score import score

SMALL = {"samples": 300, "max_samples": 1500, "rescore": 3000, "chains": 1}


def run(capsys, *argv):
    status: int | str | None
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def problem_on(name: str, seed: int = 1, objective: Objective = ARTICLE):
    board = load_board(name)
    allowed = allowed_designs(objective.on(board), board.geometry)
    start = random_tileset(board.tile_count, allowed, np.random.default_rng(seed), board.geometry)
    return make_problem(board, objective, start)


def test_each_geometry_has_its_own_space_and_the_classic_one_is_the_old_table():
    from generator.model.designs import partitions
    from generator.model.geometry import CLASSIC
    from generator.model.tiles import Side

    classic = space_of(CLASSIC)
    assert classic.designs == tuple(sorted({Side.of(p).canonical for p in partitions(list(range(6)))}))
    assert classic.tables.shape == (43, 6, 6) and classic.key_dtype == np.int8
    jungle = problem_on("square-jungle")
    assert jungle.faces == 1 and len(jungle.space.designs) == 7 and jungle.space.tables.shape == (7, 4, 4)
    assert jungle.objective.sides == 30  # single-sided: one side a tile
    hexpairs = problem_on("hex-pairs")
    assert len(hexpairs.space.designs) == 1799 and hexpairs.space.key_dtype == np.int16  # past one byte
    assert hexpairs.objective.max_trails == 12  # the article genome's limit of 4 is lifted


@pytest.mark.parametrize(
    ("board", "strategy", "generations"),
    [
        ("square-jungle", "anneal", 150),
        ("square-pathways", "pool", 150),
        ("square-jungle", "beam", 12),
        ("square-pathways", "ga", 60),
    ],
)
def test_each_strategy_beats_its_random_start_on_a_square_board(board, strategy, generations):
    problem = problem_on(board)
    config = Config(strategy=strategy, generations=generations, seed=2, **SMALL)
    chain = run_chain(
        problem, config_strategy(config), Budget(None, generations), 2, 0, None, lambda: False, lambda *a: None
    )
    best = to_tileset(problem, chain_best(config_strategy(config), chain).classes)
    assert best.geometry == problem.board.geometry
    before = score(problem.start, problem.board, 4000, 7, objective=problem.objective)
    after = score(best, problem.board, 4000, 7, objective=problem.objective)  # the same fresh layouts
    assert after.fitness > before.fitness + 5 * (before.fitness_se + after.fitness_se)


@pytest.mark.parametrize("board", ["square-pathways", "hex-pairs"])  # hex-pairs: its design prior in the state
def test_a_chain_of_other_tiles_resumed_from_a_checkpoint_file_is_the_same_chain(tmp_path, board):
    problem = problem_on(board, 3)
    config = Config(strategy="anneal", generations=40, seed=3, checkpoint_every=0.0, **SMALL)
    strategy, budget = config_strategy(config), Budget(None, 40)
    whole = run_chain(problem, strategy, budget, 3, 0, None, lambda: False, lambda *a: None)
    calls = iter(range(10**6))
    stopped = run_chain(problem, strategy, budget, 3, 0, None, lambda: next(calls) >= 17, lambda *a: None)
    assert 0 < stopped.generation < 40
    path = tmp_path / "run.checkpoint"
    path.write_text(checkpoint_text(problem, config, [stopped], None))
    resume = read_checkpoint(path)
    assert resume.problem.board.geometry == problem.board.geometry and resume.problem.start == problem.start
    (chain,) = resume.chains
    assert isinstance(chain, Chain)
    resumed = run_chain(resume.problem, strategy, budget, 3, 0, chain, lambda: False, lambda *a: None)
    assert resumed.state == whole.state and resumed.rng_state == whole.rng_state
    assert chain_best(strategy, resumed).fitness == chain_best(strategy, whole).fitness
    assert len(whole.state["favoured"]) == (90 if board == "hex-pairs" else 0)


def test_a_checkpoint_with_a_design_past_the_geometry_s_is_refused(tmp_path):
    problem = problem_on("square-jungle")
    config = Config(strategy="pool", generations=3, seed=1, **SMALL)
    chain = run_chain(problem, config_strategy(config), Budget(None, 3), 1, 0, None, lambda: False, lambda *a: None)
    data = json.loads(checkpoint_text(problem, config, [chain], None))
    data["chains"][0]["state"]["members"][0]["classes"][0][0] = 7  # square/1/any has designs 0..6
    path = tmp_path / "bad.checkpoint"
    path.write_text(json.dumps(data))
    with pytest.raises(TrailwrightError, match=r"a design number outside 0\.\.6"):
        read_checkpoint(path)


def test_cooperating_chains_on_dask_search_a_square_board(dask_client):
    problem = problem_on("square-jungle", 4)
    config = Config(strategy="anneal", generations=60, seed=4, exchanges=1, **{**SMALL, "chains": 2})
    result = optimize(problem, config, client=dask_client)
    assert result.tileset.geometry == problem.board.geometry and len(result.chains) == 2
    assert all(c.generation == 60 for c in result.chains)
    start = score(problem.start, problem.board, 3000, 11, objective=problem.objective)
    assert result.fitness > start.fitness + 5 * (start.fitness_se + result.score.fitness_se)


@pytest.mark.slow  # a 3 s time budget: migrations are every so many seconds (four or so at 0.3 s on a busy machine)
def test_islands_migrate_single_sided_sets_between_chains(dask_client, tmp_path):
    problem = problem_on("square-jungle", 5)
    config = Config(strategy="pool", time=3.0, migrate=0.3, seed=5, **{**SMALL, "chains": 2})
    result = optimize(problem, config, client=dask_client)
    assert result.migrants and all(len(m[2]) == 30 and all(len(row) == 1 for row in m[2]) for m in result.migrants)
    path = tmp_path / "islands.checkpoint"
    path.write_text(checkpoint_text(problem, config, list(result.chains), None, result.migrants))
    assert read_checkpoint(path).migrants == tuple(result.migrants)


def test_the_ga_genome_of_other_tiles_is_each_faces_design_number():
    from generator.optimize.genomes import classes_genome, design_bits, genome_classes, restore_pinned

    problem = problem_on("hex-pairs")  # 1,799 designs: 11 bits a face, two faces
    assert design_bits(problem) == 11
    classes = problem.space.classes_of(problem.start)
    genome = classes_genome(problem, classes)
    assert len(genome) == 37 * 2 * 11
    decoded, broken = genome_classes(problem, genome)
    assert (decoded == classes).all() and broken == 0
    past = list(genome)
    past[:11] = [True] * 11  # 2,047: past the last design, so it wraps and breaks the rules
    decoded, broken = genome_classes(problem, past)
    assert decoded[0, 0] == 2047 % 1799 and broken == 1
    pinned = problem_on("square-jungle")
    pinned = type(pinned)(pinned.board, pinned.objective, pinned.start, (0,), pinned.allowed)
    flipped = tuple(not b for b in classes_genome(pinned, pinned.space.classes_of(pinned.start)))
    kept = restore_pinned(pinned, flipped)
    width = design_bits(pinned)  # one face a tile: single-sided
    assert kept[:width] != flipped[:width] and kept[width:] == flipped[width:]


# a side of each example's tiles, named by its ends as objective.toml names it
FORBID = {
    "square-jungle": [["N", "E", "S"], ["W"]],
    "square-pathways": [["N1", "E1"], ["N2", "E2"], ["S1", "W2"], ["S2", "W1"]],
    "hex-pairs": [["N1", "N2"], ["NE1", "NE2"], ["SE1", "SE2"], ["S1", "S2"], ["SW1", "SW2"], ["NW1", "NW2"]],
}


@pytest.mark.parametrize("name", sorted(FORBID))
def test_a_forbidden_side_is_named_by_its_tiles_ends_and_kept_out_of_the_search(name, tmp_path):
    from generator.model import Side
    from generator.scoring.objective import objective_from_dict

    board = load_board(name)
    objective = objective_from_dict({"forbid": [FORBID[name]]})
    design = Side.from_names(FORBID[name], board.geometry).canonical
    assert objective.forbid == (design.trails,) and not objective.on(board).allows(design.rotated(1))
    problem = problem_on(name, objective=objective)
    assert (
        problem.space.design_of(design) not in problem.allowed
        and len(problem.allowed) == len(problem.space.designs) - 1
    )
    config = Config(strategy="anneal", generations=3, seed=3, checkpoint_every=0.0, **SMALL)
    path = tmp_path / "run.checkpoint"  # a checkpoint names it by the same ends, and reads it back
    path.write_text(checkpoint_text(problem, config, [None], None))
    assert json.loads(path.read_text())["problem"]["objective"]["forbid"] == [design.names()]
    assert read_checkpoint(path).problem.objective.forbid == (design.trails,)


@pytest.mark.parametrize(
    ("forbid", "board", "says"),
    [
        ([["N", "S"], ["NE", "SW"], ["SE", "NW"]], "square-pathways", "N-S | NE-SW | SE-NW is a side of 6 ends, and"),
        (FORBID["square-jungle"], "classic", "N | E-S-W is a side of 4 ends, and this board's tiles have 6"),
        ([["N1", "N2", "E1", "E2"], ["S1", "S2"], ["W1", "W2"]], "square-pathways", "on these tiles every trail"),
        ([["N1", "N2", "E1", "E3"]], "square-pathways", "unknown end 'E3' (expected one of N1 N2 E1 E2"),
    ],
)
def test_a_forbidden_side_of_other_tiles_is_refused_in_one_line(forbid, board, says):
    from generator.scoring.objective import objective_from_dict

    with pytest.raises(TrailwrightError, match="forbid") as err:
        objective_from_dict({"forbid": [forbid]}).on(load_board(board))
    assert says in str(err.value) and "\n" not in str(err.value)


def test_the_polish_takes_clear_gains_on_single_sided_square_tiles():
    """Where holes do not apply yet, the polish screens by scoring each neighbour (``check.check_local``)."""
    problem = problem_on("square-jungle", 6)
    done = polish(problem, problem.start, 1000, 3, rounds=1)
    assert done.steps and done.neighbours == 30 * 6  # every tile's one face to each other design; no swaps
    before = score(problem.start, problem.board, 4000, 8, objective=problem.objective)
    after = score(done.tileset, problem.board, 4000, 8, objective=problem.objective)
    assert after.fitness > before.fitness + 5 * (before.fitness_se + after.fitness_se)


def test_optimize_then_resume_then_score_on_the_jungle(capsys, tmp_path, dask_scheduler):
    out = tmp_path / "jungle.json"
    common = ["--samples", "200", "--max-samples", "1000", "--rescore", "3000", "--quiet"]
    status, _, err = run(
        capsys, "optimize", "--board", "square-jungle", "--generations", "20", "--seed", "2", "--chains", "1",
        "--strategy", "pool", "--out", str(out), *common,
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out.read_text())
    assert data["format"] == "trailwright-tileset/2" and data["geometry"]["shape"] == "square"
    assert data["meta"]["seed"] == 2 and data["meta"]["search"]["generations"] == [20]
    assert data["meta"]["settings"]["strategy"] == "pool" and data["meta"]["settings"]["objective"]["sides"] == 30
    assert all("back" not in tile for tile in data["tiles"])  # single-sided
    tiles = read_tileset(out)
    again = score(tiles, load_board("square-jungle"), 3000, 0)
    record = data["meta"]["score"]
    assert abs(again.fitness - record["fitness"]) < 5 * (again.fitness_se + record["fitness_se"])
    status, _, err = run(
        capsys, "optimize", "--resume", str(tmp_path / "jungle.checkpoint"), "--generations", "30", "--quiet"
    )
    assert status == 0, err
    assert json.loads(out.read_text())["meta"]["search"]["generations"] == [30]


def test_the_article_preset_runs_on_other_tiles(capsys, tmp_path):
    out = tmp_path / "x.json"
    flags = ("--preset", "article", "--generations", "2", "--samples", "100", "--rescore", "2000", "--workers", "1")
    status, _, err = run(capsys, "optimize", "--board", "hex-pairs", *flags, "--quiet", "--out", str(out))
    assert status == 0, err
    assert read_tileset(out).geometry == load_board("hex-pairs").geometry


def test_render_draws_other_tiles_with_exactly_their_bridges_and_the_board(capsys, tmp_path):
    out = tmp_path / "art"
    status, text, err = run(
        capsys, "render", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(out)
    )
    assert status == 0, err
    tiles = read_tileset("examples/optimized-square-jungle.json")
    sides = sorted(out.glob("tile-*.svg"))
    assert len(sides) == len(tiles) and all(p.name.endswith("-front.svg") for p in sides)  # single-sided
    assert sum(p.read_text().count('class="bridge"') for p in sides) == tiles.crossings
    board = (out / "board.svg").read_text()
    assert board.count('class="board-slot"') == 30 and board.count('class="board-landmark"') == 9
    assert board.count('class="board-connector"') == 2 and ">Ruin</text>" in board
    status, _, err = run(
        capsys, "render", "examples/optimized-square-jungle.json", "--board", "square-jungle", "--out", str(out),
        "--theme", "river", "--bleed", "3",
    )  # fmt: skip
    assert status == 0, err  # themes and bleed take every geometry (tests/test_render_any_art.py)
    assert 'id="tw-cut"' in (out / "tile-01-front.svg").read_text()


def test_a_play_target_plays_games_of_other_tiles(dask_client):
    from generator.scoring.play_target import PlayTarget

    problem = problem_on("square-pathways", objective=Objective(play=PlayTarget(median_rounds=15, weight=-1.0)))
    result = optimize(problem, Config(generations=2, **SMALL), client=dask_client)
    assert result.play is not None and 0 < result.play.median <= 200 and result.play.penalty <= 0
    assert result.fitness == pytest.approx(result.score.fitness + result.play.penalty)
