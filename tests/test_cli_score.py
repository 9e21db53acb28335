"""``trailwright score`` on the command line, including every kind of bad input."""

import json
import os
import subprocess
import sys

import pytest

from generator.cli import main
from generator.model import dumps_tileset
from tests.conftest import EXAMPLES, ROOT
from tests.test_scoring import CAMP_BOARD, random_tileset

EXAMPLE = str(EXAMPLES / "random-20.json")
FULL = [["N", "S"], ["NE", "SE", "SW"], ["NW"]]


def run(capsys, *argv):
    try:
        status = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        status = exit.code
    out, err = capsys.readouterr()
    return status, out, err


def test_json_output_has_the_documented_keys(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--samples", "2000", "--seed", "3", "--json")
    assert status == 0
    data = json.loads(out)
    for key in (
        "bridges",
        "dup_score",
        "fully_connected",
        "extra_edges_mean",
        "path_prob_mean",
        "pair_prob",
        "fitness",
        "fitness_se",
        "extra_edges_se",
        "samples",
        "seed",
    ):
        assert key in data
    assert data["samples"] == 2000 and data["seed"] == 3
    assert "Hut-Well" in data["pair_prob"]
    assert data["objective"]["bridges_weight"] == -0.05


def test_table_lists_weakest_pairs_first(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--samples", "5000")
    assert status == 0
    assert "fitness" in out and "bridge sides" in out
    lines = [line for line in out.splitlines() if "%" in line and "-" in line and "mean" not in line]
    probs = [float(line.split("│")[2].strip().rstrip("%")) for line in lines]
    assert len(probs) == 15 and probs == sorted(probs)


def test_defaults_are_the_articles_500_layouts(capsys):
    status, out, _ = run(capsys, "score", EXAMPLE, "--json")
    assert json.loads(out)["samples"] == 500


def test_other_board_by_name(capsys, tmp_path):
    status, _, err = run(capsys, "score", EXAMPLE, "--board", "hexagon37")
    assert status == 2 and "has 20 tiles but board 'hexagon37' has 37 slots" in err
    tiles37 = write(tmp_path, "t37.json", dumps_tileset(random_tileset(37, 37, 4)))
    status, out, err = run(capsys, "score", tiles37, "--board", "hexagon37", "--samples", "300", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["board"] == "hexagon37" and data["samples"] == 300
    assert len(data["pair_prob"]) == 15 and "Gate-Tower" in data["pair_prob"]


def test_board_file(capsys, tmp_path):
    tiles4 = write(tmp_path, "t4.json", dumps_tileset(random_tileset(4, 4, 2)))
    status, out, err = run(capsys, "score", tiles4, "--board", str(ROOT / CAMP_BOARD), "--samples", "400", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["board"] == "camp" and data["samples"] == 400
    assert set(data["pair_prob"]) == {"Camp-Well", "Camp-Mill", "Well-Mill"}
    assert data["extra_edges_mean"] >= 0 and 0 <= data["path_prob_mean"] <= 1
    status, out, _ = run(capsys, "score", tiles4, "--board", str(ROOT / CAMP_BOARD))
    assert status == 0 and "Camp-Well" in out


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text if isinstance(text, str) else json.dumps(text))
    return str(path)


def tiles(*entries):
    return {"format": "hexmaze-tileset/1", "tiles": list(entries)}


def tile(tile_id="1", front=FULL, back=FULL):
    data = {"id": tile_id}
    if front is not None:
        data["front"] = front
    if back is not None:
        data["back"] = back
    return data


BAD_TILESETS = {
    "malformed JSON": ('{"tiles": [', "malformed JSON at line 1"),
    "unknown direction": (
        tiles(tile(front=[["N", "S"], ["NE", "SE", "SW"], ["WEST"]])),
        "tile '1' front: unknown direction 'WEST'",
    ),
    "missing direction": (tiles(tile(back=[["N", "S"], ["NE", "SE", "SW"]])), "tile '1' back: direction NW missing"),
    "repeated direction": (
        tiles(tile(front=[["N", "S"], ["N", "NE", "SE", "SW", "NW"]])),
        "tile '1' front: direction N repeated",
    ),
    "empty side": (tiles(tile(front=[])), "tile '1' front: a side must be a non-empty list"),
    "no back": (tiles(tile(back=None)), "tile '1' has no 'back'"),
    "no front": (tiles(tile(front=None)), "tile '1' has no 'front'"),
    "duplicate ids": (tiles(tile("4"), tile("4")), "duplicate tile id '4'"),
    "wrong number of tiles": (tiles(tile("1"), tile("2")), "has 2 tiles but board 'classic' has 20 slots"),
}


@pytest.mark.parametrize("case", BAD_TILESETS, ids=str)
def test_bad_tilesets_give_one_line_and_status_2(capsys, tmp_path, case):
    content, message = BAD_TILESETS[case]
    path = write(tmp_path, "bad.json", content)
    status, out, err = run(capsys, "score", path)
    assert status == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"trailwright: error: {path}: {message}")


SLOTS = "slots = [[0, 0], [0, 1], [1, 0]]\n"
BAD_BOARDS = {
    "malformed TOML": ("slots = [[0, 0]\n", "malformed TOML"),
    "overlapping slots": ("slots = [[0, 0], [0, 0]]\n", "slot 2 at [0, 0] overlaps slot 1"),
    "landmark side facing no slot": (
        SLOTS + '[[landmark]]\nname = "Hut"\nhexes = [[1, -1]]\nsides = [[1, -1, "N"]]\n',
        "landmark 'Hut': side N of [1, -1] faces no slot",
    ),
    "connector naming a non-slot": (
        SLOTS + "[[connector]]\nhex = [-1, 0]\njoins = [[0, 0], [7, 7]]\n",
        "connector at [-1, 0]: hex [7, 7] is not a slot",
    ),
}


@pytest.mark.parametrize("case", BAD_BOARDS, ids=str)
def test_bad_boards_give_one_line_and_status_2(capsys, tmp_path, case):
    content, message = BAD_BOARDS[case]
    board = write(tmp_path, "board.toml", content)
    status, _, err = run(capsys, "score", EXAMPLE, "--board", board)
    assert status == 2
    assert err.count("\n") == 1
    assert err.startswith(f"trailwright: error: {board}: {message}")


@pytest.mark.parametrize(
    "samples, message",
    [("0", "0 must be at least 1"), ("-5", "-5 must be at least 1"), ("many", "'many' is not a whole number")],
)
def test_bad_sample_counts(capsys, samples, message):
    status, out, err = run(capsys, "score", EXAMPLE, "--samples", samples)
    assert status == 2 and out == ""
    assert err == f"trailwright score: error: argument --samples: {message}\n"


def test_more_layouts_than_a_run_can_score_is_one_line(capsys):
    status, out, err = run(capsys, "score", EXAMPLE, "--samples", "1000000000000")
    assert status == 2 and out == ""
    assert err == "trailwright: error: --samples: 1,000,000,000,000 layouts: score from 1 to 1,000,000,000\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "trailwright: error: the following arguments are required: COMMAND"),
        (["frob"], "trailwright: error: argument COMMAND: invalid choice: 'frob'"),
        (["score"], "trailwright score: error: the following arguments are required: TILESET.json"),
        (
            ["score", EXAMPLE, "--engine", "turbo"],
            "trailwright score: error: argument --engine: invalid choice: 'turbo'",
        ),
        (["score", EXAMPLE, "--colour"], "trailwright: error: unrecognized arguments: --colour"),
        (["optimize", "--seed", "x"], "trailwright optimize: error: argument --seed: 'x' is not a whole number"),
        (["render"], "trailwright render: error: the following arguments are required: TILESET.json"),
        (["preview", EXAMPLE, "--count", "0"], "trailwright preview: error: argument --count: 0 must be at least 1"),
        (
            ["publish", EXAMPLE, "--workers", "0"],
            "trailwright publish: error: argument --workers: 0 must be from 1 to 256",
        ),
    ],
)
def test_usage_errors_are_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(message)


def test_missing_file(capsys, tmp_path):
    status, _, err = run(capsys, "score", str(tmp_path / "nope.json"))
    assert status == 2 and err.count("\n") == 1 and "nope.json: cannot read" in err


def cli(*argv):
    """The real console entry point in a fresh process: (status, stdout, stderr)."""
    result = subprocess.run([sys.executable, "-m", "generator.cli", *argv], capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def test_no_traceback_in_a_real_process(tmp_path):
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"tiles": [{"id": "Forêt"}]}'.encode("latin-1"))
    bad_board = write(tmp_path, "board.toml", SLOTS + "landmark = 5\n")
    bad_id = write(tmp_path, "ids.json", tiles(tile(["1"])))
    cases = [
        (["score", EXAMPLE, "--samples", "0"], "trailwright score: error: argument --samples: 0 must be at least 1"),
        (["optimize", "--time", "soon"], "trailwright optimize: error: argument --time:"),
        (["score", str(latin1)], f"trailwright: error: {latin1}: not UTF-8 text"),
        (["score", bad_id], f"trailwright: error: {bad_id}: tile #1: 'id' must be a string or a whole number"),
        (
            ["score", EXAMPLE, "--board", bad_board],
            f"trailwright: error: {bad_board}: 'landmark' must be an array of tables [[landmark]], got 5",
        ),
    ]
    for argv, message in cases:
        status, out, err = cli(*argv)
        assert status == 2 and out == "", argv
        assert err.count("\n") == 1 and err.startswith(message), err


def test_console_script_end_to_end(tmp_path):
    bad = write(tmp_path, "bad.json", tiles(tile("1"), tile("1")))
    result = subprocess.run([sys.executable, "-m", "generator.cli", "score", bad], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().endswith("duplicate tile id '1'")
    assert "Traceback" not in result.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "generator.cli", "score", EXAMPLE, "--json", "--samples", "1000"],
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["samples"] == 1000


def test_threads_do_not_change_a_digit(capsys):
    outputs = []
    for threads in ("1", "2"):
        status, out, _ = run(
            capsys, "score", EXAMPLE, "--samples", "140000", "--seed", "4", "--threads", threads, "--json"
        )
        assert status == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["samples"] == 140000


def test_progress_bar_appears_only_on_long_runs():
    import io

    from rich.console import Console

    from generator.cli.score import progress_bar

    shown = []
    for delay in (3600, 0):  # a quick run shows nothing; a long one a bar
        screen = io.StringIO()
        with progress_bar(1000, delay=delay, console=Console(file=screen, force_terminal=True, width=100)) as progress:
            progress(500)
            progress(1000)
        shown.append(screen.getvalue())
    assert shown[0] == ""
    assert "scoring layouts" in shown[1] and "1000/1000" in shown[1]


@pytest.mark.parametrize("threads", ["0", "-1", "two"])
def test_bad_thread_counts(capsys, threads):
    status, _, err = run(capsys, "score", EXAMPLE, "--threads", threads)
    assert status == 2 and "--threads" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the peak memory (VmHWM) from Linux's /proc")
def test_many_samples_stay_in_a_fixed_memory_budget():
    # 5 million layouts kept per layout would add 55 MB; streamed, the process stays as small as a short run
    # the peak of this process's own memory (VmHWM): ru_maxrss would keep the forking pytest process's peak
    script = (
        "import sys; from generator.cli import main; status = main(sys.argv[1:]); "
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')), "
        "file=sys.stderr); sys.exit(status)"
    )
    peaks = []
    for samples in ("300000", "1000", "5000000"):  # the first, threaded too, leaves every kernel in numba's cache
        done = subprocess.run(
            [sys.executable, "-c", script, "score", EXAMPLE, "--samples", samples, "--threads", "2", "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        assert json.loads(done.stdout)["samples"] == int(samples)
        peaks.append(int(done.stderr.split()[-1]))  # kilobytes
    assert peaks[2] < 300_000
    assert peaks[2] - peaks[1] < 20_000


def test_score_starts_without_the_search_and_publishing_stacks():
    # start-up is most of a short score's wall time: a score command imports neither the search
    # (Dask), nor publishing (cairosvg), nor the networkx reference engine it does not use
    script = (
        "import sys; from generator.cli import main; status = main(sys.argv[1:]); "
        "print(' '.join(m for m in sys.modules if m.split('.')[0] in ('networkx', 'distributed', 'cairosvg') "
        "or m.startswith(('generator.optimize', 'generator.publish', 'generator.preflight'))), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "score", EXAMPLE, "--samples", "1000", "--threads", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert "fitness" in done.stdout
    assert done.stderr.strip() == ""
