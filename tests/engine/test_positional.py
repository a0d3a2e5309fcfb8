"""Sinusoidal positional encoding: shape, first row, range, odd widths, hand-checked entries."""
import math

import numpy as np
import pytest

from engine.pipeline import encode, row_labels
from engine.positional import sinusoidal


@pytest.mark.parametrize("n, d", [(1, 2), (6, 50), (64, 50), (4, 7), (3, 1)])
def test_shape_and_range(n, d):
    pe = sinusoidal(n, d)
    assert pe.shape == (n, d)
    assert np.isfinite(pe).all() and (np.abs(pe) <= 1).all()


@pytest.mark.parametrize("d", [8, 7])
def test_first_position_is_zero_one_pattern(d):
    np.testing.assert_array_equal(sinusoidal(1, d)[0], [i % 2 for i in range(d)])


def test_hand_checked_entries():
    pe = sinusoidal(4, 8)  # 10000^(2i/8) = 1, 10, 100, 1000 for i = 0..3
    assert pe[1, 0] == pytest.approx(math.sin(1))
    assert pe[1, 1] == pytest.approx(math.cos(1))
    assert pe[3, 2] == pytest.approx(math.sin(3 / 10))
    assert pe[2, 3] == pytest.approx(math.cos(2 / 10))
    assert pe[3, 7] == pytest.approx(math.cos(3 / 1000))


def test_odd_width_ends_with_a_sine_column():
    pe, d = sinusoidal(5, 7), 7
    np.testing.assert_allclose(pe[:, 6], np.sin(np.arange(5) / 10000 ** (6 / d)))


def test_each_sine_cosine_pair_lies_on_the_unit_circle():
    pe = sinusoidal(10, 8)
    np.testing.assert_allclose(pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2, 1.0)


def test_rows_differ_by_position():
    pe = sinusoidal(64, 50)
    assert len({row.tobytes() for row in pe}) == 64


def test_a_label_names_the_position_its_encoding_uses(make_kv):
    """Words the vectors lack are left out, and the others keep their places: the second "the" of "The black cat drnak
    the mlik" is word 5, so its label says 5 and its row carries the encoding of position 5."""
    kv = make_kv({w: np.full(4, float(i)) for i, w in enumerate(["the", "black", "cat"])})
    e = encode(kv, "The black cat drnak the mlik", position=1.0)
    assert e.labels == ["the (1)", "black", "cat", "the (5)"] and e.missing == ["drnak", "mlik"]
    np.testing.assert_allclose(e.positional[3], sinusoidal(6, 4)[4])
    assert row_labels(["a", "b", "a"]) == ["a (1)", "b", "a (3)"]
