"""The games report's verdicts are honest: "people" who are in fact explorers are said to differ in at most
about 5 % of reports, and people who move at random are told apart within a few games."""

from __future__ import annotations

import pytest

from generator.host.calibration import false_alarms, games_to_tell, samples
from generator.host.report import FIGURES, compare_samples, cut


@pytest.fixture(scope="module")
def spec():
    from generator.board import load_board
    from generator.model import read_tileset
    from generator.play import default_rules
    from tests.conftest import EXAMPLES

    board = load_board("classic")
    return read_tileset(str(EXAMPLES / "best-known.json")), board, default_rules(board)


@pytest.fixture(scope="module")
def explorers(spec):
    return samples(*spec, 2, 2000, 480, "explorer")


@pytest.mark.parametrize("size", [3, 4, 12])
def test_explorers_are_said_to_differ_from_explorers_in_few_reports(explorers, size):
    found = false_alarms(*explorers, size)
    assert found.reports == 480 // size
    assert found.rate <= 0.06, found  # Holm promises 5 %; 160 reports of 3 games measure it to about 2 points


def test_random_moves_are_told_apart_within_a_few_games_and_the_report_said_more_would_tell(spec, explorers):
    reference, _ = explorers
    _, random_moves = samples(*spec, 2, 1, 8, "random")
    n, said, before = games_to_tell(reference, random_moves, 8)
    assert n is not None and n <= 4, (n, said)
    assert any("turn a tile on 0% of turns" in line for line in said)
    assert any("more game" in line for line in before)  # the report one game short said how many would tell


def test_every_figure_has_an_interval_of_some_width_on_both_sides_even_of_one_game(explorers):
    reference, people = explorers
    for figure in compare_samples(cut(people, 0, 1), reference):
        assert figure.people is not None and figure.explorers is not None
        assert figure.people.high > figure.people.low and figure.explorers.high > figure.explorers.low
        assert figure.p is None and not figure.differs  # one game: no test
    assert [f.name for f in compare_samples(people, reference)] == [k.name for k in FIGURES]


def _rooms(policy: str, count: int, seed: int = 100):
    """``count`` finished rooms built in process, both seats held by people who move as ``policy`` does."""
    from generator.cli.host import spec_and_art
    from generator.host.rooms import Room
    from generator.host.store import digest
    from generator.play.policies import POLICIES
    from tests.conftest import EXAMPLES

    spec, _ = spec_and_art(str(EXAMPLES / "best-known.json"), "classic", None)
    rooms = []
    for g in range(count):
        room = Room(f"room{g}", spec, 2, seed + g, digest("owner"))
        room.sit("Ann"), room.sit("Bob")
        while not room.match.over:
            room.act_for(room.match.current, list(room.match.next_action(POLICIES[policy], room.guesses)))
        rooms.append(room)
    return rooms


def test_rooms_people_played_read_as_a_sample_of_games(explorers):
    from generator.host.report import human_games, people_sample

    rooms = human_games(_rooms("explorer", 4))
    people = people_sample(rooms)
    assert len(rooms) == 4 and all(len(num) == 4 for num, _ in people.values())
    assert list(people["rounds"][0]) == [r.match.round for r in rooms]
    assert list(people["hazard entries"][1]) == [2, 2, 2, 2]  # both seats are people's
    turns = [sum(t.turns for t in r.match.table.tallies) for r in rooms]
    assert list(people["turning a tile"][1]) == turns
    figures = compare_samples(people, explorers[0])
    assert not any(f.differs for f in figures), [f.said() for f in figures if f.differs]
    assert all(f.p is not None for f in figures if f.name not in ("lead changes", "drama", "settled share"))
