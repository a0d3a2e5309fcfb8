"""Scaled dot-product attention that keeps every intermediate step."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Attention:
    """Every step of attention; arrays gain a leading head axis [h, ...] when heads > 1."""

    q: np.ndarray  # [n_q, d_k]
    k: np.ndarray  # [n_k, d_k]
    v: np.ndarray  # [n_k, d_v]
    factor: np.ndarray  # [n_q, n_k]  Q·Kᵀ
    scores: np.ndarray  # [n_q, n_k]  factor / √d_k, or factor
    weights: np.ndarray  # [n_q, n_k]  softmax rows of scores, or scores (masked cells 0)
    z: np.ndarray  # [n_q, d_v]  weights · V
    mask: np.ndarray  # [n_q, n_k]  True where a query may see a key


TEMPERATURE = 10.0  # cosine scores are τ·cos θ: without τ, scores in [-1, 1] would give nearly uniform weights


def score(q, k, *, scale=True, cosine=False):  # [..., n_q, d_k], [..., n_k, d_k] -> [..., n_q, n_k]
    """The one scoring function: q·k (÷ √d_k when scaled), or τ·cos θ when only directions count."""
    if cosine:
        return TEMPERATURE * unit(q) @ np.swapaxes(unit(k), -1, -2)
    s = q @ np.swapaxes(k, -1, -2)
    return s / np.sqrt(q.shape[-1]) if scale else s


def score_grads(q, k, g, *, scale=True, cosine=False):  # g [..., n_q, n_k] = dL/dscore -> dL/dq, dL/dk
    """Gradients of a loss through `score`, for training."""
    if not cosine:
        g = g / np.sqrt(q.shape[-1]) if scale else g
        return g @ k, np.swapaxes(g, -1, -2) @ q
    qn = unit(q)
    kn = unit(k)
    dqn, dkn = TEMPERATURE * g @ kn, TEMPERATURE * np.swapaxes(g, -1, -2) @ qn
    return unit_grad(q, qn, dqn), unit_grad(k, kn, dkn)


def unit(x):  # [..., d] -> [..., d]
    """Rows scaled to length 1; zero rows stay zero."""
    norm = np.linalg.norm(x, axis=-1, keepdims=True)
    return np.divide(x, norm, out=np.zeros_like(x), where=norm > 0)


def unit_grad(x, xn, d_xn):  # [..., d] ×3 -> [..., d]
    """Gradient through x -> x/|x|: the part of d_xn across the direction, divided by the length."""
    norm = np.linalg.norm(x, axis=-1, keepdims=True)
    across = d_xn - (d_xn * xn).sum(axis=-1, keepdims=True) * xn
    return np.divide(across, norm, out=np.zeros_like(across), where=norm > 0)


def causal_mask(n_q: int, n_k: int) -> np.ndarray:  # -> [n_q, n_k]
    """Query i sees keys 0..i only."""
    return np.tril(np.ones((n_q, n_k), dtype=bool))


def softmax_rows(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:  # [..., n_k], [..., n_k] -> [..., n_k]
    """Row softmax over visible cells; subtracting the row max keeps exp finite."""
    masked = np.where(mask, scores, -np.inf)
    row_max = masked.max(axis=-1, keepdims=True, initial=-np.inf)
    e = np.where(mask, np.exp(masked - np.where(np.isfinite(row_max), row_max, 0.0)), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def split_heads(x: np.ndarray, heads: int) -> np.ndarray:  # [n, d] -> [h, n, d/h]
    """Head h gets columns h·d/h .. (h+1)·d/h."""
    n, d = x.shape
    return x.reshape(n, heads, d // heads).transpose(1, 0, 2)


def merge_heads(x: np.ndarray) -> np.ndarray:  # [h, n, d/h] -> [n, h·d/h]
    """Concatenate the heads' columns back into one matrix."""
    h, n, d_h = x.shape
    return x.transpose(1, 0, 2).reshape(n, h * d_h)


def own_mask(mask: np.ndarray) -> np.ndarray:  # [n, n] -> [n, n]
    """The mask without each word's own cell, except in a row where the word would then see nothing at all."""
    others = mask & ~np.eye(*mask.shape, dtype=np.bool_)
    return np.where(others.any(axis=-1, keepdims=True), others, mask)


def attend(x_q, x_kv, w_q, w_k, w_v, *, scale=True, softmax=True, causal=False, own=True, heads=1,
           cosine=False) -> Attention:
    """x_q [n_q, d], x_kv [n_k, d], w_q/w_k [d, d_k], w_v [d, d_v] -> Attention."""
    # own=False is for self-attention only (the same words as queries and keys): it hides each word's own cell,
    # so each word attends to the other words.
    q, k, v = (np.asarray(x, dtype=np.float64) @ np.asarray(w, dtype=np.float64)
               for x, w in ((x_q, w_q), (x_kv, w_k), (x_kv, w_v)))
    d_k = q.shape[-1]
    if k.shape[-1] != d_k:
        raise ValueError(f"W_Q and W_K must have the same number of columns (d_k), got {d_k} and {k.shape[-1]}.")
    if heads < 1 or d_k % heads or v.shape[-1] % heads:
        raise ValueError(f"{heads} heads cannot split d_k = {d_k} and d_v = {v.shape[-1]} evenly; "
                         "choose a number of heads that divides both.")
    if heads > 1:
        q = split_heads(q, heads)
        k = split_heads(k, heads)
        v = split_heads(v, heads)
    factor = q @ np.swapaxes(k, -1, -2)
    scores = score(q, k, scale=scale, cosine=cosine)
    mask = causal_mask(*factor.shape[-2:]) if causal else np.ones(factor.shape[-2:], dtype=bool)
    if not own and mask.shape[0] == mask.shape[1]:
        mask = own_mask(mask)
    weights = softmax_rows(scores, mask) if softmax else np.where(mask, scores, 0.0)
    z = weights @ v
    if not all(np.isfinite(a).all() for a in (q, k, v, factor, z)):
        raise ValueError("The numbers grew too large to compute (overflow). Lower the layer scale.")
    return Attention(q, k, v, factor, scores, weights, z, mask)


def contributions(weights_row: np.ndarray, v: np.ndarray) -> np.ndarray:  # [n_k], [n_k, d_v] -> [n_k, d_v]
    """Each value row scaled by its weight: the parts whose column sums are the query's row of Z."""
    return np.asarray(weights_row)[:, None] * np.asarray(v)


def sum_gap(parts: np.ndarray, z_row: np.ndarray) -> float:  # [n_k, d_v], [d_v]
    """Largest difference between the contributions' column sums and the row of Z: the page's check."""
    return float(np.abs(parts.sum(axis=0) - z_row).max(initial=0.0))


def relative_gap(parts: np.ndarray, z_row: np.ndarray) -> float:  # [n_k, d_v], [d_v]
    """sum_gap as a share of the largest |number| in the sum, parts or Z (0 when all are 0)."""
    # A share, not the gap: rounding leaves a gap that grows with the numbers, so only its share says whether the
    # sum holds at every layer scale.
    size = max(float(np.abs(parts).max(initial=0.0)), float(np.abs(z_row).max(initial=0.0)))
    return sum_gap(parts, z_row) / size if size > 0 else 0.0


def head_tops(multi: Attention, i: int) -> tuple[np.ndarray, np.ndarray]:  # -> [h], [h, n_k]
    """For query row i, the key each head weights most, and every head's weights (-inf where masked)."""
    w = np.where(multi.mask[i], multi.weights[:, i], -np.inf)
    return w.argmax(axis=1), w


def top_keys(att: Attention) -> np.ndarray:  # -> [n_q]
    """The key each query row weights most, among the keys it may see (one head)."""
    return np.where(att.mask, att.scores, -np.inf).argmax(axis=-1)


def lead(w: np.ndarray) -> np.ndarray:  # [..., n_k] -> [...]
    """How far each row's largest value is ahead of its next largest (all of it when the row has one value)."""
    top = np.sort(w, axis=-1)[..., -2:]
    return top[..., -1] - top[..., 0] if w.shape[-1] > 1 else top[..., -1]


def one_key(tops: np.ndarray) -> int | None:  # [n] -> key
    """The key that every other word picks (the key itself looks elsewhere), if there is one and three words or more."""
    common = int(np.bincount(tops).argmax())
    return common if len(tops) > 2 and all(j == common for i, j in enumerate(tops) if i != common) else None


def later_share(weights: np.ndarray, i: int) -> float:  # [n_q, n_k]
    """How much of query row i's weight falls on keys after position i: what a causal mask hides."""
    return float(np.asarray(weights)[i, i + 1:].sum())


def shifted_weights(scores_row, mask_row, c: float) -> tuple[np.ndarray, np.ndarray]:  # [n_k] ×2 -> [n_k] ×2
    """A row's softmax weights, and again after the number c is added to every score of the row."""
    # Softmax divides each e^score by the row's sum, so e^c cancels and the two agree up to rounding.
    row = np.asarray(scores_row, dtype=np.float64)
    mask = np.asarray(mask_row, dtype=bool)
    return softmax_rows(row, mask), softmax_rows(row + c, mask)


def positive_keys(scores: np.ndarray, mask: np.ndarray) -> list[list[int]]:  # [n_q, n_k] ×2 -> n_q lists
    """For each query row, the visible keys scored above 0, highest first: the words it is drawn to by the sign."""
    return [[int(j) for j in np.argsort(-row, kind="stable") if seen[j] and row[j] > 0]
            for row, seen in zip(scores, mask, strict=True)]
