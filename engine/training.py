"""Learn query/key weights (and embeddings) so chosen word pairs of one sentence reach target relevances: page 5's
live run, through the one loop of engine/fit.py on targets that engine/targets.py checked."""
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from engine.attention import score, score_grads, softmax_rows
from engine.fit import descend, flatten, initial_weights
from engine.objective import SIGN_WEIGHT, Objective, objective, order_holds, sign_holds
from engine.positional import sinusoidal
from engine.targets import Goal, make_goal

PARAMETERS = ("w_q", "w_k", "w_v", "x")
DEFAULT_LEARN = ("w_q", "w_k")
DEFAULT_LR = 0.01
DEFAULT_STEPS = 200
DEFAULT_POSITIONAL = True  # the dashboard feeds the layers GloVe + positional encoding, so training does too
MAX_STEPS = 5000
MAX_LR = 10.0
SNAPSHOTS = 51  # evenly spaced steps kept for scrubbing, first and last included


@dataclass(frozen=True)
class History:
    """A training run: curves at every step and snapshots at sampled steps to scrub through."""

    targets: tuple[tuple[int, int, float], ...]  # (query, key, target) triples; column t of the curves
    learn: tuple[str, ...]  # learned parameter names, in PARAMETERS order
    positional: np.ndarray  # [n, d]  rows added to x before the layers (zeros when switched off)
    steps: int  # updates actually run (fewer than requested when stopped)
    stopped: bool  # the callback asked to stop early
    loss: np.ndarray  # [steps+1]  loss before the first update and after each update
    order_loss: np.ndarray  # [steps+1]  its cross-entropy term: which word
    sign_loss: np.ndarray  # [steps+1]  its sign term, before its weight: whether at all
    sign_weight: float  # the sign term's weight in the loss
    rows: np.ndarray  # [r]  query positions that have targets
    row_scores: np.ndarray  # [steps+1, r, n]  q_i·k_j/√d_k for every key of each targeted row
    scores: np.ndarray  # [steps+1, t]  q·k/√d_k of each target pair
    weights: np.ndarray  # [steps+1, t]  attention weight of each pair (softmax over the whole row)
    probs: np.ndarray  # [steps+1, t]  softmax over the row's targeted keys only: what the loss compares
    goal: np.ndarray  # [t]  targets normalised to sum to 1 per query row: what probs aim for
    order_step: int | None  # first step from which the target order held until the end, else None
    sign_step: int | None  # first step from which every pair's score had its sign (target > 0: above 0, else below)
    snapshot_steps: np.ndarray  # [m]  steps of the snapshots below, 0 and the last step included
    x: np.ndarray  # [m, n, d]  word embeddings (without positional encoding)
    w_q: np.ndarray  # [m, d, d_k]
    w_k: np.ndarray  # [m, d, d_k]
    w_v: np.ndarray  # [d, d_v]  never changes: no score depends on it, so its gradient is 0
    q: np.ndarray  # [m, n, d_k]
    k: np.ndarray  # [m, n, d_k]


def forward(x, w_q, w_k, goal: Goal, cosine=False, sign_weight: float = SIGN_WEIGHT):  # -> q, k [n, d_k], s [r, n], o
    """Scores of the targeted rows ([n, d] rows through [d, d_k] weights) and the objective on them."""
    q = x @ w_q
    k = x @ w_k
    s = score(q[goal.rows], k, cosine=cosine)
    return q, k, s, objective(s, goal.mask, goal.p, sign_weight)


def backward(x, w_q, w_k, q, k, g, goal: Goal, learn: Collection[str], cosine=False) -> dict:  # g [r, n] -> grads
    """Gradients of the loss for the learned names among w_q, w_k, x, from its gradient g with respect to the scores."""
    # W_V's is 0: no score depends on it, it only shapes what each word passes on.
    dq, dk = score_grads(q[goal.rows], k, g, cosine=cosine)  # [r, d_k] (only targeted rows' queries matter), [n, d_k]
    grads = {}
    if "w_q" in learn:
        grads["w_q"] = x[goal.rows].T @ dq
    if "w_k" in learn:
        grads["w_k"] = x.T @ dk
    if "x" in learn:
        dx = dk @ w_k.T
        dx[goal.rows] += dq @ w_q.T
        grads["x"] = dx
    return grads


def first_kept(holds: np.ndarray) -> int | None:  # [s+1] bool -> step
    """First step from which holds stays True to the end, or None if it is False at the end."""
    if not holds[-1]:
        return None
    broken = np.flatnonzero(~holds)
    return int(broken[-1] + 1) if len(broken) else 0


def positional_rows(positional, n: int, d: int) -> np.ndarray:  # -> [n, d]
    """Sinusoidal rows for True, zeros for False, or the given [n, d] rows."""
    if isinstance(positional, (bool, np.bool_)):
        return sinusoidal(n, d) if positional else np.zeros((n, d))
    rows = np.array(positional, dtype=np.float64)
    if rows.shape != (n, d) or not np.isfinite(rows).all():
        raise ValueError(f"The positional encoding must be a finite [{n}, {d}] matrix like the embeddings, "
                         f"got shape {rows.shape}.")
    return rows


def check_settings(learn, lr, steps) -> tuple[str, ...]:
    """Learned names in PARAMETERS order, after checking learn, lr and steps."""
    learn = (learn,) if isinstance(learn, str) else tuple(learn)
    unknown = [name for name in learn if name not in PARAMETERS]
    if unknown:
        raise ValueError(f"Cannot learn '{unknown[0]}'. Choose from: {', '.join(PARAMETERS)}.")
    if not learn:
        raise ValueError(f"Choose at least one thing to learn: {', '.join(PARAMETERS)}.")
    if not isinstance(lr, Real) or not 0 < float(lr) <= MAX_LR:
        raise ValueError(f"The learning rate must be above 0 and at most {MAX_LR}, got {lr}.")
    if not isinstance(steps, Integral) or isinstance(steps, bool) or not 1 <= int(steps) <= MAX_STEPS:
        raise ValueError(f"The number of steps must be a whole number from 1 to {MAX_STEPS}, got {steps}.")
    return tuple(name for name in PARAMETERS if name in learn)


def starting_weights(d: int, d_k, seed: int, scale: float, given) -> list[np.ndarray]:  # -> [d, d_k] ×2, [d, d_v]
    """The given W_Q, W_K, W_V, or for each one left None a draw from the seeded 'random' preset."""
    if d_k is not None and (not isinstance(d_k, Integral) or d_k < 1):
        raise ValueError(f"d_k must be a whole number of at least 1, got {d_k}.")
    drawn = initial_weights(d, d if d_k is None else int(d_k), seed, scale)
    w_q, w_k, w_v = (np.array(a if w is None else w, dtype=np.float64) for a, w in zip(drawn, given, strict=False))
    if w_q.ndim != 2 or w_q.shape[0] != d or w_q.shape != w_k.shape or w_v.ndim != 2 or w_v.shape[0] != d:
        raise ValueError(f"W_Q and W_K must both be [{d}, d_k] and W_V [{d}, d_v], got "
                         f"{w_q.shape}, {w_k.shape} and {w_v.shape}.")
    if not all(np.isfinite(w).all() for w in (w_q, w_k, w_v)):
        raise ValueError("The starting weights contain NaN or infinity; use finite numbers and a finite scale.")
    return [w_q, w_k, w_v]


def train(x, targets, *, learn=DEFAULT_LEARN, lr=DEFAULT_LR, steps=DEFAULT_STEPS, seed=0, d_k=None,
          positional=DEFAULT_POSITIONAL, scale=1.0, w_q=None, w_k=None, w_v=None, cosine=False,
          sign_weight=SIGN_WEIGHT, callback: Callable[[int, float], bool | None] | None = None) -> History:  # x [n, d]
    """Adam on the objective: each targeted row's softmax against its normalised targets, and each pair's sign."""
    # With `cosine`, scores compare directions only (τ·cos θ), so lengths cannot reach the order.
    # positional: True adds sinusoidal(n, d), False nothing, an [n, d] array those rows (as the pipeline makes them).
    # Weights left None start from the seeded 'random' preset; callback(step, loss) returning False stops early.
    learn = check_settings(learn, lr, steps)
    x = embeddings(x)
    n, d = x.shape
    goal = make_goal(targets, n)
    params = dict(zip(("w_q", "w_k", "w_v"), starting_weights(d, d_k, seed, scale, (w_q, w_k, w_v)), strict=False), x=x)
    moving, theta = moved(params, learn)
    g = np.zeros_like(theta)
    pe = positional_rows(positional, n, d)
    x_in = params["x"] + pe
    snapshot_at = snapshot_steps(steps)
    terms = np.empty((3, steps + 1))  # loss, order, sign
    row_scores = np.empty((steps + 1, len(goal.rows), n))
    snaps: dict[str, list[Any]] = {name: [] for name in ("steps", "x", "w_q", "w_k", "q", "k")}  # steps, arrays

    def evaluate(step: int) -> np.ndarray | None:
        if "x" in moving:
            np.add(params["x"], pe, out=x_in)
        q, k, row_scores[step], o = forward(x_in, params["w_q"], params["w_k"], goal, cosine, sign_weight)
        if not math.isfinite(terms_at(terms, step, o)):
            raise ValueError("The numbers grew too large to compute. Lower the learning rate or the layer scale.")
        stopped = step > 0 and callback is not None and callback(step, o.loss) is False
        if snapshot_at[step] or stopped or step == steps:
            snapshot(snaps, step, params, q, k)
        if stopped or step == steps:
            return None if stopped else g
        grads = backward(x_in, params["w_q"], params["w_k"], q, k, o.grad, goal, moving, cosine)
        if moving:
            np.concatenate([grads[name].ravel() for name in moving], out=g)
        return g

    done, stopped = descend(theta, evaluate, steps=steps, lr=lr)
    return history(targets, learn, pe, goal, terms[:, :done + 1], row_scores[:done + 1], snaps, params["w_v"], stopped,
                   sign_weight)


def moved(params: dict, learn) -> tuple[list[str], np.ndarray]:  # -> names, theta [p]
    """The parameters Adam moves (not W_V: its gradient is exactly 0) as views of one flat vector, and that vector."""
    moving = [name for name in learn if name != "w_v"]
    return moving, flatten(params, moving)


def terms_at(terms: np.ndarray, step: int, o: Objective) -> float:  # terms [3, steps+1]
    """Keep the step's loss and its two terms; the loss."""
    terms[:, step] = o.loss, o.order, o.sign
    return o.loss


def snapshot_steps(steps: int) -> np.ndarray:  # -> [steps+1] bool
    """Which steps a run keeps for scrubbing: SNAPSHOTS evenly spaced, the first and the last included."""
    kept = np.zeros(steps + 1, dtype=bool)
    kept[np.round(np.linspace(0, steps, min(SNAPSHOTS, steps + 1))).astype(int)] = True
    return kept


def embeddings(x) -> np.ndarray:  # -> [n, d]
    """The word rows as float64, after checking they are a finite matrix."""
    x = np.array(x, dtype=np.float64)
    if x.ndim != 2 or not np.isfinite(x).all():
        raise ValueError(f"The embeddings must be a finite [words, dimensions] matrix, got shape {x.shape}.")
    return x


def snapshot(snaps: dict, step: int, params: dict, q, k) -> None:
    """Keep a copy of this step's embeddings, weights, queries and keys for scrubbing."""
    for name, value in (("steps", step), ("x", params["x"].copy()), ("w_q", params["w_q"].copy()),
                        ("w_k", params["w_k"].copy()), ("q", q), ("k", k)):
        snaps[name].append(value)


def history(targets, learn, pe, goal: Goal, terms, row_scores, snaps: dict, w_v, stopped: bool,
            sign_weight: float) -> History:  # terms [3, steps+1]: loss, order, sign
    """The run's curves and snapshots, with each target pair's score, weight and share picked out of its row."""
    n = row_scores.shape[-1]
    pair = (slice(None), goal.pair_row, goal.pair_key)
    scores = row_scores[pair]
    triples = tuple((int(qi), int(kj), float(t)) for qi, kj, t in targets)
    return History(
        targets=triples, learn=learn, positional=pe, steps=terms.shape[1] - 1, stopped=stopped,
        loss=terms[0], order_loss=terms[1], sign_loss=terms[2], sign_weight=sign_weight, rows=goal.rows,
        row_scores=row_scores, scores=scores,
        weights=softmax_rows(row_scores, np.ones(n, dtype=bool))[pair],
        probs=softmax_rows(row_scores, goal.mask)[pair], goal=goal.p[goal.pair_row, goal.pair_key],
        order_step=first_kept(order_holds(scores, triples)), sign_step=first_kept(sign_holds(scores, triples)),
        snapshot_steps=np.array(snaps["steps"]), x=np.stack(snaps["x"]), w_q=np.stack(snaps["w_q"]),
        w_k=np.stack(snaps["w_k"]), w_v=w_v, q=np.stack(snaps["q"]), k=np.stack(snaps["k"]),
    )


def loss_floor(h: History) -> float:
    """The lowest loss a run can approach: the mean entropy of each query's target shares, where weights equal them."""
    # The sign term can come as near 0 as the scores grow: it asks only for their signs.
    shares: dict[int, list[float]] = {}
    for (query, _, _), p in zip(h.targets, h.goal, strict=False):
        shares.setdefault(query, []).append(p)
    return float(np.mean([-sum(p * math.log(p) for p in ps if p > 0) for ps in shares.values()]))
