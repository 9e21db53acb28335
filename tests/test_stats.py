"""The statistics module against published values (scipy 1.x printed them; Wikipedia's Holm example) and
hand-made cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from generator import stats


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 4, 0.0, 0.4898908364545973),
        (4, 4, 0.5101091635454027, 1.0),
        (37, 100, 0.28182360534324535, 0.4677947041905709),
    ],
)
def test_wilson_matches_the_reference_values_at_zero_all_and_between(k, n, low, high):
    i = stats.wilson(k, n)
    assert i.value == k / n and i.low == pytest.approx(low, abs=1e-12) and i.high == pytest.approx(high, abs=1e-12)
    assert i.high > i.low  # never of zero width, even at 0 and at n


def test_exact_poisson_matches_the_chi_square_quantiles():
    assert stats.poisson(0).high == pytest.approx(3.6888794541139354, rel=1e-12)  # -ln 0.025
    assert stats.poisson(0).low == 0
    five = stats.poisson(5, exposure=2)  # chi2.ppf(.025, 10) / 2 and chi2.ppf(.975, 12) / 2, per unit of exposure
    assert five.value == 2.5
    assert five.low == pytest.approx(1.6234863901184207 / 2, rel=1e-12)
    assert five.high == pytest.approx(11.66833207932267 / 2, rel=1e-12)


@pytest.mark.parametrize(
    ("q", "df", "expected"),
    [(0.975, 1, 12.706204736174694), (0.975, 3, 3.1824463052837078), (0.975, 29, 2.045229642132703)],
)
def test_student_t_quantiles(q, df, expected):
    assert stats.t_quantile(q, df) == pytest.approx(expected, rel=1e-10)


def test_tail_functions_match_the_reference_values():
    assert stats.t_sf(2.5, 7) == pytest.approx(0.020496109292876444, rel=1e-10)
    assert stats.t_sf(-2.5, 7) == pytest.approx(1 - 0.020496109292876444, rel=1e-10)
    assert stats.chi2_sf(7.5, 3) == pytest.approx(0.0575584519726364, rel=1e-10)
    assert stats.chi2_sf(200, 150) == pytest.approx(0.003973185970821635, rel=1e-9)
    assert stats.gamma_quantile(0.3, 0.7) == pytest.approx(0.17251980033360842, rel=1e-10)


def test_holm_on_the_textbook_example():
    # Holm (1979) as Wikipedia works it: p = .01, .04, .03, .005 at alpha .05 rejects H1 and H4 only
    p = [0.01, 0.04, 0.03, 0.005]
    assert stats.holm(p) == [True, False, False, True]
    assert stats.holm_adjusted(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.01, None, 0.02]) == [True, False, True]  # an untested figure is no test
    assert stats.holm([0.03, 0.03]) == [False, False]  # each alone would pass: together they do not


def test_the_cluster_robust_error_of_a_hand_made_two_game_case():
    # game 1: 1 event in 4 turns, game 2: 3 in 4; r = 4/8; residuals -1, +1; var = 2/1 * 2 / 8^2 = 1/16
    assert stats.cluster_variance([1, 3], [4, 4]) == pytest.approx(1 / 16)
    e = stats.estimate([1, 3], [4, 4], stats.SHARE)
    assert e.value == 0.5 and e.se == pytest.approx(0.25) and e.games == 2
    # effective trials 0.25 / 0.0625 = 4 (= the 8 turns halved by the design effect), at t's 12.7 for 1 df
    assert "4 effective trials" in e.method
    assert (e.low, e.high) == pytest.approx(
        tuple(stats.wilson(2, 4, z=12.706204736174694).__dict__[k] for k in ("low", "high"))
    )
    assert stats.estimate([2, 2], [4, 4], stats.SHARE).low > stats.estimate([1, 3], [4, 4], stats.SHARE).low


def test_no_interval_is_of_zero_width():
    for kind in (stats.SHARE, stats.COUNT, stats.MEAN):
        for num, den in (([0, 0, 0, 0], [30, 25, 40, 33]), ([0], [30]), ([2, 2], [1, 1])):
            if kind == stats.SHARE and max(num) > 0:
                continue
            e = stats.estimate(num, den, kind)
            assert e is not None and e.high > e.low, (kind, num, e)
    one = stats.estimate([0], [30], stats.SHARE)
    assert "one game: turns taken as independent" in one.method and math.isnan(one.se)
    assert stats.estimate([0, 0, 0, 0], [1, 1, 1, 1], stats.COUNT).high == pytest.approx(3.6888794541139354 / 4)
    assert stats.estimate([], [], stats.SHARE) is None and stats.estimate([0, 0], [0, 0], stats.SHARE) is None


def test_welch_score_test_has_an_error_even_with_zero_events_on_one_side():
    rng = np.random.default_rng(37)
    turns = rng.integers(20, 40, 2000)
    sim = rng.binomial(turns, 0.02)
    p = stats.welch([0, 0, 0, 0], [30, 25, 40, 33], sim, turns)
    assert p is not None and p > 0.05  # 0 of 128 turns where 2 % is expected: nothing shown
    assert stats.welch([0], [30], sim, turns) is None  # one game: no test
    far = stats.welch(rng.binomial(turns[:40], 0.2), turns[:40], sim, turns)
    assert far is not None and far < 1e-6
    assert stats.welch([1, 1, 1], None, [1, 1, 1, 1], None) == 1.0
    assert stats.welch([1, 1], None, [1, 1, 1, 1], None) is None  # two games: no test
    assert stats.welch([1, 1, 1], None, [2, 2, 2], None) == 0.0  # exact: no spread on either side


def test_paired_differences():
    interval, p = stats.paired([0.1, 0.3, 0.2, 0.4])
    assert interval.value == pytest.approx(0.25) and interval.low < 0.25 < interval.high and p < 0.05
    assert stats.paired([0.0, 0.0, 0.0]) == (stats.Interval(0.0, 0.0, 0.0), 1.0)  # exact: nothing changed


def test_games_needed_grows_with_noise_and_shrinks_with_the_gap():
    n = stats.games_needed(0.1, 0.25, 0.0, tests=1)  # p = .5 Bernoulli games, a 10-point gap: (2.8 / .1)^2 / 4
    assert n == math.ceil(0.25 * ((stats.NORMAL.inv_cdf(0.975) + stats.NORMAL.inv_cdf(0.8)) / 0.1) ** 2)
    assert stats.games_needed(0.2, 0.25) < n < stats.games_needed(0.1, 0.25, tests=9)
    assert stats.games_needed(0.1, 0.25, other=0.01) is None  # the other side alone is too noisy to tell


def test_equal_shares_is_pearsons_chi_square():
    # (30, 20, 10): X2 = (100 + 0 + 100) / 20 = 10 on 2 df, whose tail is exp(-10 / 2)
    assert stats.equal_shares([30, 20, 10]) == pytest.approx(math.exp(-5), rel=1e-10)
    assert stats.equal_shares([25, 25]) == 1.0 and stats.equal_shares([0, 0, 0]) == 1.0


def test_around_is_students_t_and_unbounded_without_spread():
    i = stats.around(10.0, 1.0, 4)
    assert (i.low, i.high) == pytest.approx((10 - 3.1824463052837078, 10 + 3.1824463052837078))
    assert not stats.around(10.0, 0.0, 4).bounded and not stats.around(10.0, 1.0, 1).bounded


def test_a_bound_is_met_or_missed_only_when_a_corrected_test_shows_it():
    from generator.scoring.play_target import PlayScore, PlayTarget, bound_verdicts

    target = PlayTarget(
        median_rounds=12, bounds=(("drama", 0.2, None), ("lead_changes", None, 1.3), ("choices", 5.0, None))
    )
    score = PlayScore(
        12, 12, 0, 0, 0, {"drama": 0.21, "lead_changes": 1.2, "choices": None}, {"drama": 0.009, "lead_changes": 0.02}
    )
    # drama 1.1 standard errors above its floor: not shown; lead changes 5 below their ceiling: met
    assert bound_verdicts(target, score) == {
        "drama": "not shown either way",
        "lead_changes": "met",
        "choices": "not measured",
    }
    low = PlayScore(12, 12, 0, 0, 0, {"drama": 0.15}, {"drama": 0.009})
    assert bound_verdicts(target, low)["drama"] == "outside"
