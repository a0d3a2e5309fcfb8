"""The one fit core of W_Q and W_K on labelled sentences (the template corpus's, the treebank's): sentences as padded
rows, the objective's gradients through the scores, sign shares, Adam and the one loop, the file a fit is kept in."""
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from gensim.models import KeyedVectors

from engine.attention import score, score_grads
from engine.layers import preset
from engine.objective import POSITIVE_SHARE, SIGN_WEIGHT, objective
from engine.positional import sinusoidal

BETA1, BETA2, EPS = 0.9, 0.999, 1e-8
CURVES = ("loss", "train_accuracy", "test_accuracy", "test_positive", "test_negative")  # a fit's curves, in order


@dataclass(frozen=True)
class Fit:
    """W_Q and W_K fitted on a corpus, with the curves of the run."""

    w_q: np.ndarray  # [d, d_k]
    w_k: np.ndarray  # [d, d_k]
    loss: np.ndarray  # [steps+1]  training loss (of the step's minibatch, where there are minibatches)
    train_accuracy: np.ndarray  # [steps+1]  accuracy on the training sentences (or the step's minibatch)
    test_accuracy: np.ndarray  # [steps+1]  accuracy on the held-out sentences (NaN at steps not measured)
    test_positive: np.ndarray  # [steps+1]  share of the held-out relevant pairs (a word and its head) scored above 0
    test_negative: np.ndarray  # [steps+1]  share of the held-out other pairs scored below 0
    steps: int  # updates actually run
    stopped: bool  # the callback asked to stop early
    used: int  # training examples whose words the vectors all know
    skipped: int  # examples left out because the vectors lack one of their words
    plain: int = 0  # plain sentences (the template corpus's training split) it also learned from, beside `used`


@dataclass(frozen=True)
class Run:
    """What the one loop gives back: the weights where it stopped and the curves up to there."""

    w_q: np.ndarray  # [..., d, d_k]
    w_k: np.ndarray  # [..., d, d_k]
    curves: np.ndarray  # [5, steps+1]  loss, training accuracy, held-out accuracy and sign shares (CURVES)
    steps: int  # updates actually run
    stopped: bool  # the callback asked to stop early

    def fit(self, used: int, skipped: int, plain: int = 0) -> Fit:
        """The run as a Fit of W_Q, W_K, with the sentences it learned from and left out."""
        loss, train_accuracy, test_accuracy, test_positive, test_negative = self.curves
        return Fit(self.w_q, self.w_k, loss, train_accuracy, test_accuracy, test_positive, test_negative, self.steps,
                   self.stopped, used, skipped, plain)


def knows(kv: KeyedVectors, tokens: Sequence[str]) -> bool:
    """Whether the vectors know every token."""
    return all(t in kv.key_to_index for t in tokens)


def embedded(kv: KeyedVectors, sentences: Sequence[Sequence[str]], position: float) -> np.ndarray:  # -> [B, L, d]
    """Each sentence's word rows plus `position` × the sinusoidal positions, padded with zeros to the longest."""
    longest = max(map(len, sentences))
    x = np.zeros((len(sentences), longest, kv.vector_size))
    pe = position * sinusoidal(longest, kv.vector_size)
    for b, tokens in enumerate(sentences):
        x[b, :len(tokens)] = kv.vectors[[kv.key_to_index[t] for t in tokens]] + pe[:len(tokens)]
    return x


def asked(s, asks, mask, p, sign=SIGN_WEIGHT, positive_share=POSITIVE_SHARE, g=None):  # s [B, Q, L], asks [B, Q]
    """The one objective on the asked rows of the scores, and its gradient on every score, added to `g` where given."""
    # R asked rows; mask, p [R, L]. Which word: its softmax against p over the mask; whether at all: p > 0 above 0
    # and the rest of the mask below.
    o = objective(s[asks], mask, p, sign, positive_share)
    g = np.zeros_like(s) if g is None else g
    g[asks] += o.grad
    return o.loss, g


def through_scores(x_q, x, w_q, w_k, loss_of: Callable, decay: float = 0.0, cosine: bool = False):
    """A loss on the scores of x_q [B, Q, d] against x [B, L, d] plus an L2 pull -> loss, s [B, Q, L], dW_Q, dW_K."""
    # loss_of(s) gives the loss and its gradient on s; the L2 pull is towards 0; dW_Q, dW_K are [d, d_k].
    q = x_q @ w_q
    k = x @ w_k
    s = score(q, k, cosine=cosine)
    loss, g = loss_of(s)
    dq, dk = score_grads(q, k, g, cosine=cosine)
    d = x.shape[-1]
    loss += decay / 2 * float((w_q**2).sum() + (w_k**2).sum())
    g_q = x_q.reshape(-1, d).T @ dq.reshape(-1, w_q.shape[-1]) + decay * w_q
    return loss, s, g_q, x.reshape(-1, d).T @ dk.reshape(-1, w_k.shape[-1]) + decay * w_k


def sign_shares(s: np.ndarray, relevant: np.ndarray, irrelevant: np.ndarray) -> tuple[float, float]:  # same shapes
    """Share of the relevant cells scored above 0, and of the irrelevant ones scored below 0 (NaN where none)."""
    return share(s[relevant] > 0), share(s[irrelevant] < 0)


def share(holds: np.ndarray) -> float:  # [n] bool
    """Share of True, NaN when empty."""
    return float(np.mean(holds)) if holds.size else math.nan


def initial_weights(d: int, d_k: int, seed: int, scale: float) -> tuple[np.ndarray, ...]:  # -> 3 × [d, d_k]
    """W_Q, W_K, W_V from the 'random' preset, each with its own seed drawn from `seed`."""
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=3)
    return tuple(preset("random", d, d_k, seed=int(s), scale=scale) for s in seeds)


def flatten(params: dict, names: list[str]) -> np.ndarray:  # -> [p]
    """One flat vector holding the named parameters, which become reshaped views into it (Adam updates it in place)."""
    theta = np.concatenate([params[name].ravel() for name in names]) if names else np.empty(0)
    start = 0
    for name in names:
        params[name] = theta[start:start + params[name].size].reshape(params[name].shape)
        start += params[name].size
    return theta


def adam_step(theta, g, m, v, lr: float, step: int) -> None:  # [p] each, updated in place
    """One Adam update (β1 = 0.9, β2 = 0.999), bias corrections folded into the step size and epsilon."""
    m += (1 - BETA1) * (g - m)
    v += (1 - BETA2) * (g * g - v)
    correction = math.sqrt(1 - BETA2**step)
    theta -= lr * correction / (1 - BETA1**step) * m / (np.sqrt(v) + EPS * correction)


def descend(theta, evaluate: Callable[[int], np.ndarray | None], *, steps: int, lr: float,
            anneal: bool = False) -> tuple[int, bool]:
    """The one training loop: Adam on theta [p], in place; returns the steps run and whether it was stopped."""
    # evaluate(step) measures theta and returns the gradient, or None to stop; Adam then takes step `step + 1`.
    # anneal: the step size falls linearly to 0 over the second half, so that minibatches settle.
    m = np.zeros_like(theta)  # Adam's running mean of the gradient
    v = np.zeros_like(theta)  # and of its square
    for step in range(steps + 1):
        g = evaluate(step)
        if g is None:
            return step, True
        if step < steps:
            adam_step(theta, g, m, v, lr * min(1.0, 2 * (1 - step / steps)) if anneal else lr, step + 1)
    return steps, False


def run(w_q, w_k, batches: list, grads: Callable, held: Callable | None, *, steps: int, lr: float, seed: int,
        anneal: bool = False, every: int = 1, callback: Callable[..., bool | None] | None = None) -> Run:
    """Adam from W_Q, W_K ([..., d, d_k]) over the batches, in a seeded order each pass."""
    # grads(batch, w_q, w_k) gives the loss, the batch's accuracy and the two gradients; held(w_q, w_k) the
    # held-out accuracy and sign shares, every `every` steps and where the run ends.
    # callback(step, *the step's CURVES, NaN where not measured) returning False stops early.
    params = {"w_q": w_q, "w_k": w_k}
    theta = flatten(params, ["w_q", "w_k"])
    w_q = params["w_q"]  # a view into theta, as is w_k
    w_k = params["w_k"]
    rng = np.random.default_rng(seed)
    order: list[int] = []  # the batches' order in this pass
    curves = np.full((len(CURVES), steps + 1), np.nan)

    def evaluate(step: int) -> np.ndarray | None:
        if step % len(batches) == 0:
            order[:] = rng.permutation(len(batches))
        loss, accuracy, g_q, g_k = grads(batches[order[step % len(batches)]], w_q, w_k)
        curves[:2, step] = loss, accuracy
        if held is not None and (step % every == 0 or step == steps):
            curves[2:, step] = held(w_q, w_k)
        if callback is not None and callback(step, *curves[:, step]) is False:
            return None
        return np.concatenate([g_q.ravel(), g_k.ravel()])

    done, stopped = descend(theta, evaluate, steps=steps, lr=lr, anneal=anneal)
    if held is not None and np.isnan(curves[2, done]):
        curves[2:, done] = held(w_q, w_k)
    return Run(w_q.copy(), w_k.copy(), curves[:, :done + 1], done, stopped)


def load_arrays(path) -> dict[str, Any]:
    """What a data/ script saved with save_arrays: plain arrays only, never a pickle; 0-d arrays as numbers."""
    with np.load(path, allow_pickle=False) as saved:
        values = {name: saved[name] for name in saved.files}
    return {name: v.item() if v.ndim == 0 else v for name, v in values.items()}


def save_arrays(arrays: dict[str, Any], path) -> None:  # Any: numpy's stub would match a str key to allow_pickle
    """Named arrays in one compressed .npz file (load_arrays reads them back)."""
    plain: dict[str, Any] = {name: np.asarray(value) for name, value in arrays.items()}
    np.savez_compressed(path, **plain)


def load_fit(path) -> Fit:
    """A Fit saved with save_fit (the scripts in data/)."""
    return Fit(**load_arrays(path))


def save_fit(fit: Fit, path) -> None:
    """The fit's fields as plain arrays (load_fit reads them back)."""
    save_arrays({f.name: getattr(fit, f.name) for f in fields(fit)}, path)
