"""The one fit core: padded rows, the objective's gradients through the scores, sign shares, the one loop and the
file a fit is kept in, as the template corpus's fit and the treebank's both use them."""
from dataclasses import fields

import numpy as np
import pytest

from engine import corpus, fit, treebank
from engine.objective import objective
from engine.positional import WEIGHT, sinusoidal


@pytest.fixture
def small(make_kv):
    rng = np.random.default_rng(0)
    return make_kv({w: rng.normal(size=4) for w in ("the", "cat", "drank", "milk")})


def test_embedded_rows_are_the_vectors_plus_positions_padded_with_zeros(small):
    x = fit.embedded(small, [("the", "cat"), ("milk",)], 0.5)
    assert x.shape == (2, 2, 4)
    np.testing.assert_array_equal(x[0], small.vectors[[0, 1]] + 0.5 * sinusoidal(2, 4))
    np.testing.assert_array_equal(x[1, 0], small.vectors[3] + 0.5 * sinusoidal(1, 4)[0])
    assert not x[1, 1].any()
    assert fit.knows(small, ["the", "milk"]) and not fit.knows(small, ["the", "dog"])


def test_sign_shares_by_hand():
    s = np.array([[1.0, -2.0, 3.0], [-1.0, 0.0, 2.0]])
    relevant = np.array([[True, False, False], [True, False, False]])
    irrelevant = np.array([[False, True, True], [False, True, False]])
    assert fit.sign_shares(s, relevant, irrelevant) == (0.5, pytest.approx(1 / 3))
    assert np.isnan(fit.sign_shares(s, relevant & False, irrelevant)[0])


def test_asked_rows_take_the_objective_and_the_rest_keep_their_gradient():
    s = np.random.default_rng(0).normal(size=(2, 3, 3))
    asks = np.array([[True, False, False], [False, False, True]])
    mask = np.array([[False, True, True], [True, True, False]])
    p = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    before = np.full(s.shape, 0.25)
    loss, g = fit.asked(s, asks, mask, p, g=before.copy())
    o = objective(s[asks], mask, p)
    assert loss == o.loss
    np.testing.assert_array_equal(g[asks], 0.25 + o.grad)
    np.testing.assert_array_equal(g[~asks], 0.25)


def test_the_loop_runs_a_seeded_order_measures_every_so_many_steps_and_stops_when_asked():
    """A quadratic on two batches: the loop's curves, its held-out steps and the order of the batches it reads."""
    seen: list[int] = []

    def grads(b, w_q, w_k):
        seen.append(b)
        return float((w_q**2).sum() + (w_k**2).sum()), 0.5, 2 * w_q, 2 * w_k

    def held(w_q, w_k):
        return 1.0, 0.25, 0.75

    done = fit.run(np.ones((2, 3)), np.ones((2, 3)), [0, 1], grads, held, steps=6, lr=0.1, seed=0, every=4)
    assert done.steps == 6 and not done.stopped and done.curves.shape == (5, 7)
    assert np.flatnonzero(~np.isnan(done.curves[2])).tolist() == [0, 4, 6]
    assert sorted(seen[:2]) == sorted(seen[2:4]) == [0, 1]  # each pass reads every batch once
    assert np.all(np.abs(done.w_q) < 1) and np.all(np.diff(done.curves[0]) < 0)
    stopped = fit.run(np.ones((2, 3)), np.ones((2, 3)), [0], grads, held, steps=6, lr=0.1, seed=0, every=4,
                      callback=lambda step, *_: step < 2)
    assert stopped.stopped and stopped.steps == 2 and stopped.curves.shape == (5, 3)
    assert stopped.curves[2, -1] == 1.0  # measured where it stopped
    made = done.fit(used=3, skipped=1, plain=2)
    assert (made.steps, made.used, made.skipped, made.plain) == (6, 3, 1, 2)
    np.testing.assert_array_equal(made.test_negative, done.curves[4])


def test_a_fit_file_round_trips(tmp_path, small):
    made = corpus.fit(small, [corpus.Example("the cat drank milk", "milk", {"drank": 1.0, "cat": 0.5, "the": 0.0},
                                             "train")], d_k=2, steps=3)
    fit.save_fit(made, tmp_path / "fit.npz")
    again = fit.load_fit(tmp_path / "fit.npz")
    for f in fields(fit.Fit):
        np.testing.assert_array_equal(getattr(again, f.name), getattr(made, f.name))


def test_both_corpora_go_through_the_one_objective_gradient(small):
    """The template corpus's and the treebank's loss_grads are the core's through_scores on their own rows."""
    b = corpus.batch(small, [corpus.Example("the cat drank milk", "milk", {"drank": 1.0, "cat": 0.5, "the": 0.0},
                                            "train")], WEIGHT)
    w_q, w_k = fit.initial_weights(4, 2, 0, 1.0)[:2]
    loss, s, g_q, g_k = corpus.loss_grads(b, w_q, w_k, decay=0.0)
    q, k = corpus.query_scores(b, w_q, w_k)[:2]
    assert s.shape == (1, 4) and np.allclose(s, corpus.query_scores(b, w_q, w_k)[2])
    assert g_q.shape == w_q.shape and q.shape == (1, 1, 2) and k.shape == (1, 4, 2)
    tree = treebank.Sentence("train", "s", ("the", "cat", "drank", "milk"), (2, 3, 0, 3), ("det", "nsubj", "root",
                                                                                         "obj"))
    tb = treebank.batch(small, [tree], WEIGHT)
    mask, p = treebank.head_rows(tb, tb.head >= 0)
    assert mask.tolist() == [[False, True, True, True], [True, False, True, True], [True, True, True, False]]
    assert p.argmax(axis=1).tolist() == [1, 2, 2]
