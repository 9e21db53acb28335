"""The scorer: the fast kernel equals the networkx reference, layout by layout and statistically."""

import json
import math
import random

import numpy as np
import pytest

from generator.board import load_board
from generator.errors import TrailwrightError
from generator.model import Side, Tile, TileSet, read_tileset
from generator.scoring import Objective, kernel, layout_scores, reference, score, static_terms
from generator.scoring.tables import board_arrays, tile_tables
from tests.conftest import EXAMPLES, ROOT


def random_side(rng: random.Random, max_trails: int = 6) -> Side:
    labels = [rng.randrange(max_trails) for _ in range(6)]
    return Side.of([d for d in range(6) if labels[d] == k] for k in set(labels))


def random_tileset(seed: int, count: int = 20, max_trails: int = 6) -> TileSet:
    rng = random.Random(seed)
    return TileSet(
        tuple(Tile(str(i + 1), random_side(rng, max_trails), random_side(rng, max_trails)) for i in range(count))
    )


def uniform_tileset(side: Side, count: int = 20) -> TileSet:
    return TileSet(tuple(Tile(str(i + 1), side, side) for i in range(count)))


# a user board whose landmark Camp has three hexes around slot 1: three parallel joins
CAMP_BOARD = "tests/data/camp-board.toml"


def fast_on(tileset, board, perm, flip, rot):
    return kernel.score_layouts(tile_tables(tileset), board_arrays(board), perm, flip, rot)


def test_recorded_layouts_score_the_same_in_both_engines(classic):
    data = json.loads((ROOT / "tests/data/recorded-layouts.json").read_text())
    tileset = read_tileset(ROOT / data["tileset"])
    rows = data["layouts"]
    perm = np.array([r["perm"] for r in rows])
    flip = np.array([r["flip"] for r in rows])
    rot = np.array([r["rot"] for r in rows])
    expected_extra = [r["extra_edges"] for r in rows]
    names = classic.pair_names()
    expected_pairs = [sorted(r["pairs_joined"]) for r in rows]
    for engine in (fast_on, lambda *a: reference.score_layouts(*a)):
        extra, mask, joined = engine(tileset, classic, perm, flip, rot)
        assert extra.tolist() == expected_extra
        pairs = [sorted(n for k, n in enumerate(names) if int(m) >> k & 1) for m in mask]
        assert pairs == expected_pairs
        assert joined.tolist() == [len(p) for p in expected_pairs]


@pytest.mark.parametrize(
    "board_name, tileset_seed, max_trails, samples",
    [
        ("classic", 1, 4, 300),
        ("classic", 2, 6, 300),
        ("classic", 3, 3, 300),
        ("hexagon37", 4, 4, 120),
        (CAMP_BOARD, 5, 2, 400),
        (CAMP_BOARD, 6, 1, 50),
    ],
)
def test_fast_equals_reference_layout_by_layout(board_name, tileset_seed, max_trails, samples):
    board = load_board(ROOT / board_name if board_name.endswith(".toml") else board_name)
    tileset = random_tileset(tileset_seed, board.tile_count, max_trails)
    perm, flip, rot = kernel.sample_layouts(board.tile_count, samples, seed=tileset_seed)
    fast = fast_on(tileset, board, perm, flip, rot)
    ref = reference.score_layouts(tileset, board, perm, flip, rot)
    for a, b in zip(fast, ref, strict=True):
        np.testing.assert_array_equal(a, b)


def test_fused_sampling_draws_the_same_layouts_as_the_sampler(classic, random20):
    fused = layout_scores(random20, classic, 5000, seed=9)
    perm, flip, rot = kernel.sample_layouts(20, 5000, seed=9)
    given = fast_on(random20, classic, perm, flip, rot)
    np.testing.assert_array_equal(fused.extra, given[0])
    np.testing.assert_array_equal(fused.mask, given[1])


def test_scoring_a_subset_of_layouts_leaves_the_rest_alone(classic, random20):
    perm, flip, rot = kernel.sample_layouts(20, 100, seed=1)
    full = fast_on(random20, classic, perm, flip, rot)
    out = (np.full(100, -1, np.int16), np.zeros(100, np.uint64), np.full(100, -1, np.int8))
    index = np.arange(0, 100, 3)
    kernel.score_layouts(tile_tables(random20), board_arrays(classic), perm, flip, rot, index=index, out=out)
    assert (out[0][index] == full[0][index]).all()
    assert (np.delete(out[0], index) == -1).all()


def test_one_trail_tiles_give_the_board_graph_exactly(classic):
    # every tile is one vertex: 40 slot pairs (connectors double neighbours), 18 landmark edges
    # (Exit meets slot 20 twice), 26 vertices, one component: 58 - 25 = 33 cycles
    tiles = uniform_tileset(Side.of([range(6)]))
    result = layout_scores(tiles, classic, 200, seed=1)
    assert (result.extra == 33).all()
    assert (result.joined == 15).all()


def test_dead_end_tiles_join_nothing(classic):
    tiles = uniform_tileset(Side.of([[d] for d in range(6)]))
    result = layout_scores(tiles, classic, 200, seed=1)
    assert (result.extra == 0).all()
    assert (result.mask == 0).all()


def test_duplicate_joins_are_one_edge(classic):
    # N-NE-SE-S-SW-NW in two trails: N..S on the right, SW-NW on the left. Slot 1's SW and S
    # sides and slot 2's N and NW sides may land on the same two trails: one edge, not two.
    tiles = uniform_tileset(Side.from_names([["N", "NE", "SE", "S"], ["SW", "NW"]]))
    perm, flip, rot = kernel.sample_layouts(20, 400, seed=5)
    np.testing.assert_array_equal(
        fast_on(tiles, classic, perm, flip, rot)[0], reference.score_layouts(tiles, classic, perm, flip, rot)[0]
    )


def test_three_parallel_joins_are_one_edge():
    # one-trail tiles: slot 1 meets Camp by three joins on the same two vertices, one edge;
    # 5 neighbour joins and 7 landmark joins, 2 of them duplicates: 10 edges, 7 vertices, 4 cycles
    board = load_board(ROOT / CAMP_BOARD)
    tiles = uniform_tileset(Side.of([range(6)]), board.tile_count)
    perm, flip, rot = kernel.sample_layouts(board.tile_count, 20, seed=1)
    assert (reference.score_layouts(tiles, board, perm, flip, rot)[0] == 4).all()
    assert (fast_on(tiles, board, perm, flip, rot)[0] == 4).all()


def test_fitness_is_the_articles_formula(classic, random20):
    report = score(random20, classic, samples=3000, seed=4)
    per_layout = layout_scores(random20, classic, 3000, seed=4)
    expected = (
        -0.05 * random20.bridges
        - 0.02 * random20.dup_score
        - 1.0 * random20.fully_connected
        + np.mean(-0.1 * per_layout.extra + per_layout.joined)
    )
    assert report.fitness == pytest.approx(expected, abs=1e-12)
    assert report.extra_edges_mean == pytest.approx(per_layout.extra.mean())
    assert report.path_prob_mean == pytest.approx(np.mean(list(report.pair_prob.values())))
    assert set(report.pair_prob) == set(classic.pair_names())
    weights = Objective(bridges_weight=0, dup_weight=0, fully_connected_weight=0, extra_edges_weight=0)
    assert score(random20, classic, 3000, 4, objective=weights).fitness == pytest.approx(per_layout.joined.mean())
    assert static_terms(random20) == pytest.approx(-0.05 * random20.bridges - 0.02 * random20.dup_score)


def test_same_seed_same_numbers(classic, random20):
    assert score(random20, classic, 2000, seed=11) == score(random20, classic, 2000, seed=11)
    assert score(random20, classic, 2000, seed=11).fitness != score(random20, classic, 2000, seed=12).fitness


@pytest.mark.parametrize("tileset_seed", [1, 2, 3])
def test_engines_agree_statistically_on_independent_layouts(classic, tileset_seed):
    tileset = random_tileset(tileset_seed, 20, 4)
    ref = score(tileset, classic, samples=1200, seed=100 + tileset_seed, engine="reference")
    fast = score(tileset, classic, samples=200_000, seed=200 + tileset_seed)
    for a, b, sa, sb in [
        (ref.fitness, fast.fitness, ref.fitness_se, fast.fitness_se),
        (ref.extra_edges_mean, fast.extra_edges_mean, ref.extra_edges_se, fast.extra_edges_se),
        (ref.path_prob_mean, fast.path_prob_mean, ref.path_prob_se, fast.path_prob_se),
    ]:
        z = (a - b) / math.hypot(sa, sb)
        assert abs(z) < 4.0


CHI2_999 = {1: 10.83, 5: 20.52, 19: 43.82}  # chi-square critical values at p = 0.001


def chi2(counts):
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() / len(counts)
    return ((counts - expected) ** 2 / expected).sum()


def test_layouts_are_uniform_shuffles_coins_and_dice():
    perm, flip, rot = kernel.sample_layouts(20, 60_000, seed=37)
    assert (np.sort(perm, axis=1) == np.arange(20)).all()
    for slot in (0, 7, 19):
        assert chi2(np.bincount(perm[:, slot], minlength=20)) < CHI2_999[19]
        assert chi2(np.bincount(flip[:, slot], minlength=2)) < CHI2_999[1]
        assert chi2(np.bincount(rot[:, slot], minlength=6)) < CHI2_999[5]
    # flip and rotation are independent: 12 equally likely turns
    turns = (flip * 6 + rot).ravel()
    assert chi2(np.bincount(turns, minlength=12)) < 31.26  # df 11, p = 0.001


def test_wrong_number_of_tiles_is_a_clear_error(classic):
    with pytest.raises(TrailwrightError, match="has 3 tiles but board 'classic' has 20 slots"):
        score(random_tileset(1, 3), classic)


def test_unknown_engine_and_bad_samples(classic, random20):
    with pytest.raises(TrailwrightError, match="unknown engine"):
        score(random20, classic, engine="turbo")
    with pytest.raises(TrailwrightError, match="0 layouts: score from 1 to 1,000,000,000"):
        score(random20, classic, samples=0)


def test_example_tileset_scores_where_expected(classic):
    report = score(read_tileset(EXAMPLES / "random-20.json"), classic, samples=100_000, seed=1)
    assert report.bridges == 17 and report.dup_score == 88
    assert report.fitness == pytest.approx(5.62, abs=0.05)


def test_threads_may_score_one_bank_at_once(classic, random20):
    """The kernel releases the GIL and keeps its work buffers per call: threads give the serial answer."""
    from concurrent.futures import ThreadPoolExecutor

    perm, flip, rot = kernel.sample_layouts(classic.tile_count, 4000, 3)
    bank = kernel.Bank(board_arrays(classic), perm, flip, rot)
    tables = [tile_tables(random20), tile_tables(random20.canonical()), tile_tables(TileSet(random20.tiles[::-1]))]

    def scored(table):
        out = (np.zeros(4000, np.int16), np.zeros(4000, np.uint64), np.zeros(4000, np.int8))
        bank.score(table, np.arange(4000), out)
        return out

    serial = [scored(t) for t in tables]
    with ThreadPoolExecutor(3) as pool:
        for _ in range(5):
            for got, want in zip(pool.map(scored, tables), serial, strict=True):
                for a, b in zip(got, want, strict=True):
                    np.testing.assert_array_equal(a, b)
    reference_first = kernel.score_layouts(tables[0], board_arrays(classic), perm, flip, rot)
    np.testing.assert_array_equal(serial[0][2], reference_first[2])


# --- the optimized sets, blocks of layouts, and streaming statistics (issue 16) ---------------


@pytest.mark.parametrize(
    "board_name, path, samples",
    [
        ("classic", "best-known.json", 200),
        ("classic", "random-20.json", 200),
        ("hexagon37", "optimized-hexagon37.json", 200),
    ],
)
def test_fast_equals_reference_on_the_benchmark_sets(board_name, path, samples):
    board = load_board(board_name)
    tileset = read_tileset(EXAMPLES / path)
    perm, flip, rot = kernel.sample_layouts(board.tile_count, samples, seed=11)
    for a, b in zip(
        fast_on(tileset, board, perm, flip, rot), reference.score_layouts(tileset, board, perm, flip, rot), strict=True
    ):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 7, 9])
def test_every_block_size_scores_each_layout_on_its_own(classic, random20, count):
    # layouts are scored kernel.BLOCK at a time; a short last block must not leak into the rest
    fused = layout_scores(random20, classic, count, seed=4)
    perm, flip, rot = kernel.sample_layouts(20, count, seed=4)
    ref = reference.score_layouts(random20, classic, perm, flip, rot)
    for a, b in zip((fused.extra, fused.mask, fused.joined), ref, strict=True):
        np.testing.assert_array_equal(a, b)
    rows = np.arange(count)[::-1].copy()  # a bank scored in any row order
    for a, b in zip(
        kernel.score_layouts(tile_tables(random20), board_arrays(classic), perm, flip, rot, rows), ref, strict=True
    ):
        np.testing.assert_array_equal(a, b)


def test_jump_ahead_equals_stepping():
    from generator.scoring.stream import _apply, _step, jump

    state = kernel.seed_state(123)
    words = [int(w) for w in state]
    for _ in range(1001):
        words = _step(words)
    assert _apply(jump(1001), state).tolist() == words


@pytest.fixture(scope="module")
def counted():
    from generator.scoring.tables import board_arrays as arrays_of

    board = arrays_of(load_board("classic"))
    tileset = read_tileset(EXAMPLES / "best-known.json")
    return tile_tables(tileset), board


@pytest.mark.parametrize("threads, chunk", [(1, 1000), (2, 1000), (2, 7), (3, 4096), (1, 10**9)])
def test_streamed_counts_are_todays_layouts_whatever_the_threads_and_chunks(counted, threads, chunk):
    from generator.scoring.stream import Counts, accumulate

    table, board = counted
    count = 20_003
    expected = Counts.of(board, *kernel.sample_and_score(table, board, count, 8))
    got = accumulate(table, board, count, 8, threads=threads, chunk=chunk)
    assert got.samples == count
    np.testing.assert_array_equal(got.hist, expected.hist)
    np.testing.assert_array_equal(got.hits, expected.hits)


def test_progress_hears_every_chunk_in_order(counted):
    from generator.scoring.stream import accumulate

    table, board = counted
    heard = []
    accumulate(table, board, 5_000, 2, threads=2, progress=heard.append, chunk=1_000)
    assert heard == [1_000, 2_000, 3_000, 4_000, 5_000]


def test_memory_does_not_grow_with_the_samples(counted):
    import tracemalloc

    from generator.scoring.stream import accumulate

    table, board = counted

    def peak(count):
        tracemalloc.start()
        counts = accumulate(table, board, count, 1, threads=2, chunk=20_000)
        high = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return high, counts

    (small, a), (large, b) = peak(100_000), peak(600_000)
    assert a.hist.shape == b.hist.shape and a.hits.shape == b.hits.shape
    # per-layout arrays would add 11 bytes a layout (5.5 MB); the threads' own small allocations vary by ~0.1 MB
    assert large - small < 1_000_000
    assert large < 4_000_000  # the jump-ahead map's 2 MB of temporaries, and little else


def test_score_is_the_mean_and_standard_error_of_the_per_layout_terms(classic, random20):
    # the statistics come from counts; they are the per-layout arrays' mean and sample sd / sqrt(n)
    report = score(random20, classic, 3_001, seed=5)
    terms = layout_scores(random20, classic, 3_001, seed=5)
    per_layout = -0.1 * terms.extra.astype(float) + terms.joined
    assert report.fitness == pytest.approx(static_terms(random20) + per_layout.mean(), rel=1e-13)
    assert report.fitness_se == pytest.approx(per_layout.std(ddof=1) / math.sqrt(3_001), rel=1e-12)
    assert report.extra_edges_se == pytest.approx(terms.extra.std(ddof=1) / math.sqrt(3_001), rel=1e-12)
    hits = (terms.mask & np.uint64(1)).astype(float)
    first = classic.pair_names()[0]
    assert report.pair_prob[first] == pytest.approx(hits.mean(), rel=1e-15)
    assert report.pair_prob_se[first] == pytest.approx(hits.std(ddof=1) / math.sqrt(3_001), rel=1e-12)
    assert report.path_prob_se == pytest.approx((terms.joined / 15).std(ddof=1) / math.sqrt(3_001), rel=1e-12)


def test_threads_give_the_same_report_to_the_last_digit(classic, random20):
    one = score(random20, classic, 150_001, seed=3, threads=1)
    two = score(random20, classic, 150_001, seed=3, threads=2)
    assert one == two


@pytest.mark.parametrize("board_name", ["hexagon37", CAMP_BOARD])
def test_chunks_start_where_one_pass_would_on_other_boards(board_name):
    # a layout uses one random word per slot (odd counts too): chunk starts jump exactly there
    from generator.scoring.stream import Counts, accumulate

    board = load_board(ROOT / board_name if board_name.endswith(".toml") else board_name)
    table, arrays = tile_tables(random_tileset(7, board.tile_count, 3)), board_arrays(board)
    expected = Counts.of(arrays, *kernel.sample_and_score(table, arrays, 1_001, 12))
    got = accumulate(table, arrays, 1_001, 12, threads=2, chunk=13)
    np.testing.assert_array_equal(got.hist, expected.hist)
    np.testing.assert_array_equal(got.hits, expected.hits)


# --- joins that attach an untouched place (the kernel's first phase) ----------------------------

TWO_ISLANDS = """format = "hexmaze-board/1"
name = "islands"
slots = [[0, 0], [0, 1], [1, 1], [6, 6], [6, 7]]

[[landmark]]
name = "North"
hexes = [[0, 2]]

[[landmark]]
name = "South"
hexes = [[6, 8], [7, 7]]
"""


def board_named(name, tmp_path):
    if name == "islands":
        path = tmp_path / "islands.toml"
        path.write_text(TWO_ISLANDS)
        return load_board(path)
    return load_board(ROOT / name if name.endswith(".toml") else name)


@pytest.mark.parametrize("name", ["classic", "hexagon37", CAMP_BOARD, "islands"])
def test_attaching_joins_each_reach_a_place_no_earlier_join_touched(name, tmp_path):
    board = board_named(name, tmp_path)
    arrays = board_arrays(board)
    n = board.tile_count

    def place(end):
        return int(end) // 6 if end < 6 * n else int(end)

    joins = list(zip(arrays.ends_a.tolist(), arrays.ends_b.tolist(), strict=True))
    expected = [
        (
            6 * j.a.slot + j.a.direction if hasattr(j.a, "slot") else 6 * n + j.a.landmark,
            6 * j.b.slot + j.b.direction if hasattr(j.b, "slot") else 6 * n + j.b.landmark,
        )
        for j in board.joins()
    ]
    assert sorted(map(sorted, joins)) == sorted(map(sorted, expected))  # the same joins, reordered
    touched = set()
    for k, (a, b) in enumerate(joins[: arrays.attach]):
        assert place(b) not in touched and place(a) != place(b), (k, a, b)
        touched |= {place(a), place(b)}
    places = {place(e) for pair in joins for e in pair}
    islands = 2 if name == "islands" else 1
    assert arrays.attach == len(places) - islands  # a spanning forest: every place but each island's first


@pytest.mark.parametrize("seed", [1, 2])
def test_fast_equals_reference_on_a_board_of_two_islands(tmp_path, seed):
    # two separate groups of slots: the second island's first join attaches two untouched places
    board = board_named("islands", tmp_path)
    tileset = random_tileset(seed, board.tile_count, 3)
    perm, flip, rot = kernel.sample_layouts(board.tile_count, 600, seed=seed)
    for a, b in zip(
        fast_on(tileset, board, perm, flip, rot), reference.score_layouts(tileset, board, perm, flip, rot), strict=True
    ):
        np.testing.assert_array_equal(a, b)
    fused = layout_scores(tileset, board, 601, seed=seed)  # a short last block too
    perm, flip, rot = kernel.sample_layouts(board.tile_count, 601, seed=seed)
    for a, b in zip(
        (fused.extra, fused.mask, fused.joined), reference.score_layouts(tileset, board, perm, flip, rot), strict=True
    ):
        np.testing.assert_array_equal(a, b)


def test_a_size_aware_objective_is_the_articles_on_the_classic_board_and_scales_on_bigger_ones(classic):
    """Terms that grow with the board are scaled to the classic board's 40 sides; the search and the scorer agree."""
    from dataclasses import replace

    from generator.model import read_tileset
    from generator.optimize.search import Search
    from generator.optimize.space import design_of, make_problem, random_tileset
    from generator.scoring.objective import ARTICLE, objective_from_dict

    aware = objective_from_dict({"size_aware": True})
    from tests.conftest import EXAMPLES

    best = read_tileset(EXAMPLES / "best-known.json")
    assert score(best, classic, 5000, 3, objective=aware).fitness == score(best, classic, 5000, 3).fitness
    big = load_board("hexagon91")
    tiles = random_tileset(91, tuple(range(43)), np.random.default_rng(1))
    plain, scaled = score(tiles, big, 4000, 3), score(tiles, big, 4000, 3, objective=aware)
    k = 40 / 182
    expected = (
        plain.fitness
        - (-0.05 * tiles.bridges - 0.02 * tiles.dup_score - 1.0 * tiles.fully_connected - 0.1 * plain.extra_edges_mean)
        + (-0.05 * k * tiles.bridges - 0.02 * k * k * tiles.dup_score - k * tiles.fully_connected)
        - 0.1 * k * plain.extra_edges_mean
    )
    assert scaled.fitness == pytest.approx(expected, abs=1e-9)
    assert scaled.fitness > plain.fitness + 15  # the duplicate term no longer swamps the rest
    assert scaled.objective["size_aware"] is True and scaled.objective["sides"] == 182  # recorded in the report
    problem = make_problem(big, aware, tiles)  # the search's fitness is the scorer's on the same layouts
    classes = np.array([[design_of(t.front), design_of(t.back)] for t in tiles], dtype=np.int16)
    searched = Search(problem, 3, 4000, 4000).full(classes).fitness
    unaware = Search(make_problem(big, ARTICLE, tiles), 3, 4000, 4000).full(classes).fitness
    assert searched - unaware == pytest.approx(scaled.fitness - plain.fitness, rel=0.05)
    assert replace(aware, sides=40).static(3, 50, 1) == ARTICLE.static(3, 50, 1)
