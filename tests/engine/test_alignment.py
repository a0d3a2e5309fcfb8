"""Per-dimension alignment of one (query, key) pair: products, sign groups, running sum, totals."""
import numpy as np
import pytest

from engine.alignment import GROUPS, pair_alignment, sign_groups


def test_hand_checked_pair():
    a = pair_alignment([1, -2, 3, -4, 0], [2, -1, -1, 5, -3])
    np.testing.assert_array_equal(a.products, [2, 2, -3, -20, 0])
    assert a.groups.tolist() == ["++", "--", "+-", "-+", "+-"]
    np.testing.assert_array_equal(a.running, [2, 4, 1, -19, -19])
    assert a.dot == -19
    assert a.counts == {"++": 1, "--": 1, "+-": 2, "-+": 1}
    assert a.sums == {"++": 2, "--": 2, "+-": -3, "-+": -20}


def test_zero_counts_as_positive():
    assert sign_groups(np.array([0.0, 0.0, -1.0]), np.array([0.0, -1.0, 0.0])).tolist() == ["++", "+-", "-+"]


@pytest.mark.parametrize("seed", range(5))
def test_totals_agree_with_the_dot_product(seed):
    q, k = np.random.default_rng(seed).normal(size=(2, 50))
    a = pair_alignment(q, k)
    assert a.products.sum() == pytest.approx(np.dot(q, k))
    assert a.dot == pytest.approx(np.dot(q, k))
    assert a.running[-1] == pytest.approx(a.dot)
    np.testing.assert_allclose(a.running, np.cumsum(q * k))
    assert sum(a.counts.values()) == 50
    assert sum(a.sums.values()) == pytest.approx(a.dot)
    for g in GROUPS:
        assert a.counts[g] == (a.groups == g).sum()
        assert a.sums[g] == pytest.approx(a.products[a.groups == g].sum())


@pytest.mark.parametrize("seed", range(3))
def test_same_signs_push_up_mixed_signs_pull_down(seed):
    a = pair_alignment(*np.random.default_rng(seed).normal(size=(2, 50)))
    same, mixed = np.isin(a.groups, ["++", "--"]), np.isin(a.groups, ["+-", "-+"])
    assert (a.products[same] >= 0).all() and (a.products[mixed] <= 0).all()
    assert a.sums["++"] >= 0 and a.sums["--"] >= 0 and a.sums["+-"] <= 0 and a.sums["-+"] <= 0


def test_group_missing_from_the_pair_has_zero_count_and_sum():
    a = pair_alignment([1.0, 2.0], [3.0, 4.0])
    assert a.counts == {"++": 2, "--": 0, "+-": 0, "-+": 0}
    assert a.sums["--"] == 0.0


@pytest.mark.parametrize("q, k", [([1, 2], [1, 2, 3]), ([[1, 2]], [[1, 2]])])
def test_mismatched_rows_are_a_clear_error(q, k):
    with pytest.raises(ValueError, match="vectors of one length"):
        pair_alignment(q, k)
