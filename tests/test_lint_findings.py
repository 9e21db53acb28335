"""What ruff's and mypy's findings turned up, each pinned by a test (see docs/contributing.md)."""

import pytest

from generator.errors import TrailwrightError


def test_a_chain_that_never_reported_is_one_line_not_a_none_dereference():
    """mypy: ``optimize`` read ``.elapsed`` off chains that could still be None (a resumed run whose new
    budget ends before the legs its checkpoint reached never runs them)."""
    from generator.optimize.legs import reported as _reported

    assert _reported([]) == []
    with pytest.raises(TrailwrightError, match="chain 1 never reported"):
        _reported([object(), None])  # type: ignore[list-item]


def test_a_fitness_with_pair_targets_and_no_rates_says_so():
    """mypy: ``Objective.fitness`` passed a None ``pair_prob`` on to the target penalty."""
    from generator.scoring.objective import Objective

    objective = Objective(pair_targets=(("Hut-Well", 0.9),))
    with pytest.raises(ValueError, match="pass their rates"):
        objective.fitness(1.0, 2.0)
    assert objective.fitness(1.0, 2.0, {"Hut-Well": 0.9}) == pytest.approx(3.0)
    assert Objective().fitness(1.0, 2.0) == pytest.approx(3.0)


@pytest.mark.parametrize(
    "operands, matrix",
    [
        ([2, 0, 0, 2, 5, 6], (2.0, 0.0, 0.0, 2.0, 5.0, 6.0)),
        ([1, 0, 0], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)),  # malformed: ignored, as a viewer does
        ([1, 0, 0, 1, 0, 0, 9], (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)),
    ],
)
def test_a_pdf_matrix_of_the_wrong_size_is_the_identity(operands, matrix):
    """mypy: the preflight scanner multiplied any number of ``cm`` operands as if they were six."""
    from generator.preflight.scan import _matrix

    assert _matrix(operands) == matrix
