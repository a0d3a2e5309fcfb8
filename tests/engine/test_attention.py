"""Attention: hand-checked steps, invariants, heads, a plain-loop reference and numeric stability."""
import math

import numpy as np
import pytest

from engine.attention import attend, causal_mask, merge_heads, positive_keys, shifted_weights, softmax_rows, split_heads
from engine.layers import preset
from engine.tokens import embed, tokenize

I2 = np.eye(2)


def reference(x_q, x_kv, w_q, w_k, w_v, *, scale, softmax, causal, heads):
    """Attention with explicit loops and math.exp only -> weights [h][n_q][n_k], z [n_q][d_v]."""
    def matmul(a, b):
        return [[sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]

    q, k, v = matmul(x_q, w_q), matmul(x_kv, w_k), matmul(x_kv, w_v)
    d_k, d_v = len(q[0]) // heads, len(v[0]) // heads
    weights = [[[0.0] * len(k) for _ in q] for _ in range(heads)]
    z = [[0.0] * (d_v * heads) for _ in q]
    for h in range(heads):
        for i in range(len(q)):
            seen = [j for j in range(len(k)) if not causal or j <= i]
            s = [sum(q[i][h * d_k + t] * k[j][h * d_k + t] for t in range(d_k)) for j in seen]
            if scale:
                s = [x / math.sqrt(d_k) for x in s]
            if softmax:
                top = max(s)
                e = [math.exp(x - top) for x in s]
                s = [x / sum(e) for x in e]
            for w, j in zip(s, seen, strict=False):
                weights[h][i][j] = w
                for t in range(d_v):
                    z[i][h * d_v + t] += w * v[j][h * d_v + t]
    return weights, z


def random_case(seed, n_q, n_k, d=7, d_k=10, d_v=20):
    """Inputs and layer weights drawn from one seed: x_q, x_kv, w_q, w_k, w_v."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d)),
            rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_v)))


class TestHandChecked:
    def test_identity_two_by_two(self):
        a = attend(I2, I2, I2, I2, I2)
        s = 1 / math.sqrt(2)
        w_same, w_other = math.exp(s) / (math.exp(s) + 1), 1 / (math.exp(s) + 1)
        np.testing.assert_array_equal(a.q, I2)
        np.testing.assert_array_equal(a.factor, I2)
        np.testing.assert_allclose(a.scores, [[s, 0], [0, s]])
        np.testing.assert_allclose(a.weights, [[w_same, w_other], [w_other, w_same]])
        np.testing.assert_allclose(a.z, a.weights)

    def test_raw_factor_and_weighted_sum(self):
        a = attend([[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]], I2, I2, I2, scale=False, softmax=False)
        np.testing.assert_array_equal(a.factor, [[11, 17]])
        np.testing.assert_array_equal(a.weights, a.factor)
        np.testing.assert_array_equal(a.z, [[11 * 3 + 17 * 5, 11 * 4 + 17 * 6]])

    def test_scale_divides_by_sqrt_dk(self):
        x = np.arange(12.0).reshape(3, 4) / 10
        a = attend(x, x, np.eye(4), np.eye(4), np.eye(4), softmax=False)
        np.testing.assert_allclose(a.scores, a.factor / 2)

    def test_value_layer_changes_only_z(self):
        w_v = np.array([[2.0, 0.0], [1.0, -1.0]])
        a, b = attend(I2, I2, I2, I2, I2), attend(I2, I2, I2, I2, w_v)
        np.testing.assert_array_equal(a.weights, b.weights)
        np.testing.assert_allclose(b.z, a.weights @ w_v)

    def test_equal_scores_share_weight_equally(self):
        a = attend(np.zeros((2, 3)), np.ones((4, 3)), np.eye(3), np.eye(3), np.eye(3))
        np.testing.assert_allclose(a.weights, 0.25)


class TestInvariants:
    @pytest.mark.parametrize("seed", range(3))
    def test_softmax_rows_sum_to_one(self, seed):
        a = attend(*random_case(seed, 5, 6))
        np.testing.assert_allclose(a.weights.sum(axis=-1), 1.0)
        assert (a.weights >= 0).all()

    @pytest.mark.parametrize("n_q, n_k", [(5, 5), (3, 6), (6, 3)])
    def test_causal_mask_zeroes_future_keys(self, n_q, n_k):
        a = attend(*random_case(0, n_q, n_k), causal=True)
        future = ~np.tril(np.ones((n_q, n_k), dtype=bool))
        np.testing.assert_array_equal(a.mask, ~future)
        assert (a.weights[future] == 0.0).all()
        np.testing.assert_allclose(a.weights.sum(axis=-1), 1.0)
        for i in range(n_q):
            seen = a.scores[i, : i + 1]
            np.testing.assert_allclose(a.weights[i, : i + 1], np.exp(seen) / np.exp(seen).sum())

    def test_causal_without_softmax_zeroes_future_scores(self):
        a = attend(*random_case(1, 4, 4), causal=True, softmax=False)
        np.testing.assert_array_equal(a.weights, np.tril(a.scores))

    def test_first_query_sees_only_first_key(self):
        a = attend(*random_case(2, 4, 4), causal=True)
        np.testing.assert_array_equal(a.weights[0], [1, 0, 0, 0])
        np.testing.assert_allclose(a.z[0], a.v[0])

    @pytest.mark.parametrize("softmax", [True, False])
    def test_z_rows_are_weighted_sums_of_value_rows(self, softmax):
        a = attend(*random_case(3, 4, 5), softmax=softmax)
        for i in range(4):
            np.testing.assert_allclose(a.z[i], sum(a.weights[i, j] * a.v[j] for j in range(5)))
            np.testing.assert_allclose(a.z[i], a.weights[i] @ a.v)

    def test_causal_mask_shape(self):
        np.testing.assert_array_equal(causal_mask(2, 3), [[1, 0, 0], [1, 1, 0]])

    def test_softmax_fully_masked_row_is_zero(self):
        w = softmax_rows(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[True, False], [False, False]]))
        np.testing.assert_array_equal(w, [[1, 0], [0, 0]])

    def test_no_keys_gives_empty_weights_and_zero_z(self):
        a = attend(np.ones((2, 3)), np.zeros((0, 3)), np.eye(3), np.eye(3), np.eye(3))
        assert a.weights.shape == (2, 0)
        np.testing.assert_array_equal(a.z, np.zeros((2, 3)))

    def test_mismatched_dk_is_a_clear_error(self):
        with pytest.raises(ValueError, match="same number of columns"):
            attend(I2, I2, np.eye(2, 3), I2, I2)


class TestHeads:
    def test_head_axis_and_merge(self):
        x_q, x_kv, w_q, w_k, w_v = random_case(0, 3, 4)
        a = attend(x_q, x_kv, w_q, w_k, w_v, heads=2)
        assert a.q.shape == (2, 3, 5) and a.k.shape == (2, 4, 5) and a.v.shape == (2, 4, 10)
        assert a.factor.shape == a.scores.shape == a.weights.shape == (2, 3, 4)
        assert a.z.shape == (2, 3, 10)
        assert merge_heads(a.z).shape == (3, 20)

    @pytest.mark.parametrize("heads", [2, 5])
    @pytest.mark.parametrize("causal", [False, True])
    def test_each_head_is_attention_on_its_column_slice(self, heads, causal):
        x_q, x_kv, w_q, w_k, w_v = random_case(1, 4, 4)
        a = attend(x_q, x_kv, w_q, w_k, w_v, heads=heads, causal=causal)
        d_k, d_v = 10 // heads, 20 // heads
        for h in range(heads):
            cols_k, cols_v = slice(h * d_k, (h + 1) * d_k), slice(h * d_v, (h + 1) * d_v)
            one = attend(x_q, x_kv, w_q[:, cols_k], w_k[:, cols_k], w_v[:, cols_v], causal=causal)
            np.testing.assert_allclose(a.factor[h], one.factor)
            np.testing.assert_allclose(a.weights[h], one.weights)
            np.testing.assert_allclose(a.z[h], one.z)
            np.testing.assert_allclose(merge_heads(a.z)[:, cols_v], one.z)

    def test_one_head_is_no_split(self):
        case = random_case(2, 3, 5)
        a, b = attend(*case, heads=1), attend(*case)
        assert a.z.shape == (3, 20) and a.weights.shape == (3, 5)
        for name in ("q", "k", "v", "factor", "scores", "weights", "z"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))

    def test_split_then_merge_is_identity(self):
        x = np.arange(24.0).reshape(3, 8)
        np.testing.assert_array_equal(split_heads(x, 4)[1], x[:, 2:4])
        np.testing.assert_array_equal(merge_heads(split_heads(x, 4)), x)

    @pytest.mark.parametrize("heads", [0, 3, 4, -1])
    def test_heads_not_dividing_is_a_clear_error(self, heads):
        with pytest.raises(ValueError, match="heads cannot split"):
            attend(*random_case(0, 2, 2), heads=heads)


@pytest.mark.parametrize("seed, n_q, n_k", [(0, 3, 3), (1, 2, 5), (2, 6, 4)])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("scale, softmax", [(True, True), (False, True), (True, False), (False, False)])
@pytest.mark.parametrize("heads", [1, 2, 5])
def test_matches_plain_loop_reference(seed, n_q, n_k, causal, scale, softmax, heads):
    case = random_case(seed, n_q, n_k)
    a = attend(*case, scale=scale, softmax=softmax, causal=causal, heads=heads)
    weights, z = reference(*(m.tolist() for m in case), scale=scale, softmax=softmax, causal=causal, heads=heads)
    assert np.allclose(a.weights.reshape(heads, n_q, n_k), weights)
    assert np.allclose(merge_heads(a.z) if heads > 1 else a.z, z)


class TestStability:
    @pytest.mark.parametrize("name", ["scaled identity", "random", "rotation"])
    @pytest.mark.parametrize("softmax", [True, False])
    @pytest.mark.parametrize("heads", [1, 5])
    def test_huge_scale_stays_finite(self, name, softmax, heads):
        x = np.random.default_rng(0).normal(0, 2, size=(6, 50))
        w = preset(name, 50, 50, seed=1, scale=1e6)
        a = attend(x, x, w, w, w, softmax=softmax, causal=True, heads=heads)
        for arr in (a.factor, a.scores, a.weights, a.z):
            assert np.isfinite(arr).all()
        if softmax:
            np.testing.assert_allclose(a.weights.sum(axis=-1), 1.0)

    def test_huge_scale_on_real_sentence(self, glove):
        x, missing = embed(glove, tokenize("The black cat drank the milk"))
        w = preset("random", 50, 50, seed=0, scale=1e6)
        a = attend(x, x, w, w, w)
        assert not missing and np.isfinite(a.weights).all() and np.isfinite(a.z).all()
        np.testing.assert_allclose(a.weights.sum(axis=-1), 1.0)

    @pytest.mark.filterwarnings("ignore::RuntimeWarning")
    @pytest.mark.parametrize("softmax", [True, False])
    def test_absurd_weights_raise_overflow_error(self, softmax):
        x = np.random.default_rng(0).normal(size=(3, 50))
        w = preset("scaled identity", 50, 50, scale=1e200)
        with pytest.raises(ValueError, match="overflow"):
            attend(x, x, w, w, w, softmax=softmax)


def test_a_number_added_to_a_row_moves_no_weight():
    row, mask = np.array([3.0, -1.0, 0.5, 9.0]), np.array([True, True, True, False])
    before, after = shifted_weights(row, mask, 40.0)
    np.testing.assert_allclose(after, before, atol=1e-15)
    np.testing.assert_allclose(before, softmax_rows(row, mask))
    assert before[3] == 0 and before.sum() == pytest.approx(1.0)


def test_positive_keys_highest_first_among_the_visible_ones():
    scores = np.array([[0.0, 2.0, 5.0, -1.0], [-1.0, -2.0, -3.0, 7.0]])
    mask = np.array([[True, True, True, True], [True, True, True, False]])
    assert positive_keys(scores, mask) == [[2, 1], []]
