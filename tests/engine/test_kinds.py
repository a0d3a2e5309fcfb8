"""The three kinds of attention as the engine computes them: the decoder's mask, encoder-decoder attention, heads, where
each head looks, and what GloVe knows of the story's Spanish words."""
import math

import numpy as np
import pytest

from engine.attention import Attention, attend, merge_heads
from engine.pipeline import encode
from kinds.heads import head_focus
from kinds.tables import neighbours_frame


def loop_attention(x_q, x_kv, w_q, w_k, w_v, *, causal):
    """One head with explicit loops and math.exp: weights [n_q][n_k] (masked cells 0) and z [n_q][d_v]."""
    def rows(x, w):
        return [[sum(r[t] * w[t][j] for t in range(len(w))) for j in range(len(w[0]))] for r in x]

    q, k, v = rows(x_q, w_q), rows(x_kv, w_k), rows(x_kv, w_v)
    weights, z = [], []
    for i, qi in enumerate(q):
        seen = [j for j in range(len(k)) if not causal or j <= i]
        s = {j: sum(a * b for a, b in zip(qi, k[j], strict=False)) / math.sqrt(len(qi)) for j in seen}
        top = max(s.values())
        e = {j: math.exp(x - top) for j, x in s.items()}
        total = sum(e.values())
        weights.append([e[j] / total if j in e else 0.0 for j in range(len(k))])
        z.append([sum(weights[i][j] * v[j][c] for j in range(len(k))) for c in range(len(v[0]))])
    return weights, z


def case(seed, n_t, n_s, d=6, d_k=8):
    """Target rows, source rows and the three layer weights, from one seed."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n_t, d)), rng.normal(size=(n_s, d)),
            *(rng.normal(size=(d, d_k)) / math.sqrt(d) for _ in range(3)))


class TestDecoderSelfAttention:
    @pytest.mark.parametrize("n", [1, 2, 5, 64])
    def test_rows_sum_to_one_over_visible_keys_and_masked_weights_are_exactly_zero(self, n):
        x_t, _, w_q, w_k, w_v = case(n, n, 1)
        a = attend(x_t, x_t, w_q, w_k, w_v, causal=True)
        visible = np.tril(np.ones((n, n), dtype=bool))
        assert (a.weights[~visible] == 0.0).all()
        assert (a.weights[visible] > 0.0).all()
        np.testing.assert_allclose(np.where(visible, a.weights, 0.0).sum(axis=1), 1.0)
        weights, z = loop_attention(*(m.tolist() for m in (x_t, x_t, w_q, w_k, w_v)), causal=True)
        np.testing.assert_allclose(a.weights, weights, atol=1e-12)
        np.testing.assert_allclose(a.z, z, atol=1e-12)

    def test_switching_the_mask_off_lets_earlier_words_see_later_ones(self):
        x_t, _, w_q, w_k, w_v = case(1, 4, 1)
        on, off = (attend(x_t, x_t, w_q, w_k, w_v, causal=c) for c in (True, False))
        later = ~np.tril(np.ones((4, 4), dtype=bool))
        assert (on.weights[later] == 0).all() and (off.weights[later] > 0).all()
        np.testing.assert_allclose(on.weights[-1], off.weights[-1])  # the last word sees everything either way
        np.testing.assert_array_equal(on.factor, off.factor)  # the mask acts after Q·Kᵀ

    @pytest.mark.parametrize("heads", [2, 4, 8])
    def test_every_head_masks_the_same_cells(self, heads):
        x_t, _, w_q, w_k, w_v = case(2, 6, 1)
        a = attend(x_t, x_t, w_q, w_k, w_v, causal=True, heads=heads)
        later = ~np.tril(np.ones((6, 6), dtype=bool))
        assert a.weights.shape == (heads, 6, 6)
        assert (a.weights[:, later] == 0.0).all()
        np.testing.assert_allclose(a.weights.sum(axis=-1), 1.0)


class TestEncoderDecoderAttention:
    @pytest.mark.parametrize("n_t, n_s", [(1, 1), (1, 64), (64, 1), (3, 5), (5, 3), (64, 64)])
    def test_shapes_and_loop_reference(self, n_t, n_s):
        x_t, x_s, w_q, w_k, w_v = case(n_t + n_s, n_t, n_s)
        a = attend(x_t, x_s, w_q, w_k, w_v)
        assert a.q.shape == (n_t, 8) and a.k.shape == a.v.shape == (n_s, 8)
        assert a.factor.shape == a.weights.shape == a.mask.shape == (n_t, n_s)
        assert a.z.shape == (n_t, 8)
        weights, z = loop_attention(*(m.tolist() for m in (x_t, x_s, w_q, w_k, w_v)), causal=False)
        np.testing.assert_allclose(a.weights, weights, atol=1e-12)
        np.testing.assert_allclose(a.z, z, atol=1e-12)

    def test_queries_come_from_the_target_and_keys_values_from_the_source(self):
        x_t, x_s, w_q, w_k, w_v = case(3, 2, 5)
        a = attend(x_t, x_s, w_q, w_k, w_v)
        np.testing.assert_allclose(a.factor, (x_t @ w_q) @ (x_s @ w_k).T)
        np.testing.assert_allclose(a.v, x_s @ w_v)
        assert a.mask.all()  # no causal mask across sentences

    def test_real_sentences_through_the_pipeline(self, glove):
        src, tgt = encode(glove, "The ball is blue"), encode(glove, "La bola es azul now")
        *_, w_q, w_k, w_v = case(0, 1, 1, d=50, d_k=16)
        a = attend(tgt.x, src.x, w_q, w_k, w_v)
        assert a.factor.shape == (5, 4) and a.z.shape == (5, 16)
        np.testing.assert_allclose(a.weights.sum(axis=1), 1.0)


class TestHeads:
    @pytest.mark.parametrize("n_t, n_s", [(1, 1), (2, 7), (7, 2), (64, 64)])
    @pytest.mark.parametrize("heads", [2, 4, 8])
    @pytest.mark.parametrize("causal", [False, True])
    def test_heads_concatenate_to_the_single_head_layout(self, n_t, n_s, heads, causal):
        if causal and n_t != n_s:
            n_s = n_t  # the decoder's own rows
        x_t, x_s, w_q, w_k, w_v = case(heads, n_t, n_s)
        a = attend(x_t, x_s, w_q, w_k, w_v, causal=causal, heads=heads)
        z = merge_heads(a.z)
        assert z.shape == (n_t, 8)
        d_h = 8 // heads
        for h in range(heads):
            cols = slice(h * d_h, (h + 1) * d_h)
            weights, z_h = loop_attention(*(m.tolist() for m in (x_t, x_s, w_q[:, cols], w_k[:, cols], w_v[:, cols])),
                                          causal=causal)
            np.testing.assert_allclose(a.weights[h], weights, atol=1e-12)
            np.testing.assert_allclose(z[:, cols], z_h, atol=1e-12)

    @pytest.mark.parametrize("causal", [False, True])
    def test_one_head_equals_no_heads(self, causal):
        x_t, _, w_q, w_k, w_v = case(5, 4, 4)
        x_s = x_t if causal else case(6, 1, 6)[1]
        one, plain = (attend(x_t, x_s, w_q, w_k, w_v, causal=causal, **kw) for kw in ({"heads": 1}, {}))
        for name in ("q", "k", "v", "factor", "scores", "weights", "z", "mask"):
            np.testing.assert_array_equal(getattr(one, name), getattr(plain, name))

    def test_heads_differ_from_one_head_but_keep_z_shape(self):
        x_t, x_s, w_q, w_k, w_v = case(7, 3, 4)
        one, four = attend(x_t, x_s, w_q, w_k, w_v), attend(x_t, x_s, w_q, w_k, w_v, heads=4)
        assert merge_heads(four.z).shape == one.z.shape
        assert not np.allclose(merge_heads(four.z), one.z)


def fake_heads(weights, mask=None):
    """An Attention holding only the per-head weights [h, n_q, n_k] that head_focus reads."""
    weights = np.asarray(weights, dtype=float)
    h, n_q, n_k = weights.shape
    mask = np.ones((n_q, n_k), dtype=bool) if mask is None else np.asarray(mask)
    empty = np.zeros((h, n_q, 1))
    return Attention(empty, empty, empty, weights, weights, weights, empty, mask)


class TestHeadFocus:
    def test_heads_that_disagree_are_grouped_by_their_top_word(self):
        multi = fake_heads([[[0.1, 0.7, 0.2]], [[0.6, 0.1, 0.3]], [[0.2, 0.5, 0.3]]])
        text = head_focus(multi, ["bola"], ["the", "ball", "blue"], "bola")
        assert text == ("For “bola”, the heads look at different words: "
                        "heads 1, 3 weight “ball” most (0.70, 0.50); head 2 weights “the” most (0.60).")

    def test_heads_that_agree_report_the_spread(self):
        multi = fake_heads([[[0.2, 0.8]], [[0.4, 0.6]]])
        text = head_focus(multi, ["la"], ["the", "ball"], "la")
        assert text == ("For “la”, all 2 heads weight “ball” most, but not equally: "
                        "from 0.60 (head 2) to 0.80 (head 1).")

    def test_masked_keys_never_win_even_with_negative_raw_scores(self):
        multi = fake_heads([[[-2.0, 0.0], [-1.0, -3.0]]], mask=np.tril(np.ones((2, 2), dtype=bool)))
        text = head_focus(multi, ["la", "bola"], ["la", "bola"], "la")
        assert "“la” most" in text and "“bola” most" not in text


class TestGloveNote:
    """The page's note about the Spanish words says what GloVe 6B actually holds."""

    def test_neighbours_named_in_the_note(self, glove):
        near = {w: [x for x, _ in glove.most_similar(w, topn=10)] for w in ("la", "es", "bola", "azul")}
        assert {"de", "del"} <= set(near["la"]) and {"que", "por"} <= set(near["es"])
        assert "tinubu" in near["bola"]
        assert {"pachuca", "necaxa", "toluca"} <= set(near["azul"])

    def test_cross_language_similarity_is_weak(self, glove):
        assert abs(glove.similarity("bola", "ball") - 0.00) < 0.01
        assert abs(glove.similarity("azul", "blue") - 0.28) < 0.01

    def test_neighbours_frame(self, make_kv):
        kv = make_kv({"ball": [1, 0], "bola": [0.9, 0.1], "blue": [0, 1], "azul": [0.1, 1]})
        df = neighbours_frame(kv, ["bola", "azul", "bola"], ["ball", "blue"], n=1)
        assert df["word"].tolist() == ["bola", "azul"]
        assert df["closest_source"].tolist() == ["ball", "blue"]
        assert df["neighbours"].iloc[0].startswith("ball (")
        assert list(neighbours_frame(kv, ["bola"], [], n=1).columns) == ["word", "neighbours"]
