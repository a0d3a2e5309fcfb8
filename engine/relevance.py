"""Scores between one query and its keys, split into length and angle: q·k = |q|·|k|·cos θ."""
from dataclasses import dataclass

import numpy as np

from engine.attention import unit


@dataclass(frozen=True)
class Lengths:
    word: np.ndarray  # [n]  |embedding row|
    position: np.ndarray  # [n]  |positional row|
    ratio: float  # mean positional length / mean word length
    verdict: str  # "off", "small", "comparable" or "dominant": what the position weight does to X


@dataclass(frozen=True)
class LengthAngle:
    dot: np.ndarray  # [n]  q·k_j
    q_len: float  # |q|
    k_len: np.ndarray  # [n]  |k_j|
    cos: np.ndarray  # [n]  cos θ_j (0 for a zero vector)
    decides: str  # "angle", "length", "both" or "tie": which factor puts the keys in the dot product's order


def row_lengths(embedding, positional) -> Lengths:  # [n, d], [n, d]
    """How long each word's own row is next to the positional row added to it."""
    word = np.linalg.norm(embedding, axis=1)
    position = np.linalg.norm(positional, axis=1)
    ratio = float(position.mean() / word.mean()) if word.mean() > 0 else 0.0
    verdict = "off" if ratio == 0 else "small" if ratio < 0.5 else "comparable" if ratio < 1.5 else "dominant"
    return Lengths(word, position, ratio, verdict)


def cosines(q_row, k_rows) -> np.ndarray:  # [d], [n, d] -> [n]
    """cos θ between the query and each key; 0 where either is a zero vector."""
    return unit(np.asarray(k_rows, dtype=np.float64)) @ unit(np.asarray(q_row, dtype=np.float64))


def degrees(cos) -> np.ndarray:  # [n] -> [n]
    """The angle θ in degrees whose cosine is `cos` (clipped to [−1, 1] against rounding)."""
    return np.degrees(np.arccos(np.clip(np.asarray(cos, dtype=np.float64), -1.0, 1.0)))


NEAR, FAR = 30.0, 60.0  # degrees: up to NEAR a query and a key may be called aligned; above FAR they are far from it


def parallel(deg: float) -> str:
    """How near parallel an angle is: 'aligned' up to NEAR, 'between' up to FAR, 'far' under 90°, 'past' from 90° on."""
    # Under 90° cos θ > 0, so q·k > 0; from 90° on cos θ ≤ 0.
    return "aligned" if deg <= NEAR else "between" if deg <= FAR else "far" if deg < 90 else "past"


def others_span(values, top: int) -> tuple[float, float]:  # [n], position -> (smallest, largest) of the rest
    """The range of the values of every key but `top`."""
    rest = np.delete(np.asarray(values, dtype=np.float64), top)
    return float(rest.min()), float(rest.max())


def length_angle(q_row, k_rows) -> LengthAngle:  # [d], [n, d]
    """Each key's dot product with the query, its two lengths and its cosine, and which of them sets the order."""
    q_row = np.asarray(q_row, dtype=np.float64)
    k_rows = np.asarray(k_rows, dtype=np.float64)
    dot = k_rows @ q_row
    cos = cosines(q_row, k_rows)
    k_len = np.linalg.norm(k_rows, axis=1)
    return LengthAngle(dot, float(np.linalg.norm(q_row)), k_len, cos, decider(dot, k_len, cos))


def decider(dot, k_len, cos) -> str:  # [n] ×3
    """'angle' when cos θ alone ranks keys as the dot product does, else 'length' when |k| alone does, else 'both'."""
    # 'tie' for fewer than two keys or equal dot products.
    if len(dot) < 2 or np.ptp(dot) == 0:
        return "tie"
    rank = np.argsort(-dot, kind="stable")
    if (np.argsort(-cos, kind="stable") == rank).all():
        return "angle"
    if (np.argsort(-k_len, kind="stable") == rank).all():
        return "length"
    return "both"


def in_order(values) -> bool:  # [m]
    """Strictly decreasing: the first is above the second, the second above the third, and so on."""
    values = np.asarray(values)
    return bool(np.all(values[:-1] > values[1:]))


def order_by(values) -> list[int]:  # [n] -> n positions
    """Positions from the largest value to the smallest; ties keep their order."""
    return [int(j) for j in np.argsort(-np.asarray(values, dtype=np.float64), kind="stable")]


def pairs_in_order(guess: list[int], values) -> tuple[int, int]:  # m positions, [n] -> (agreeing, m(m-1)/2)
    """Of the pairs in a guessed order (most first), how many the values put the same way round."""
    values = np.asarray(values)
    pairs = [(a, b) for n, a in enumerate(guess) for b in guess[n + 1:]]
    return sum(bool(values[a] > values[b]) for a, b in pairs), len(pairs)


def raw_scores(rows, i: int, others: list[int]) -> dict[str, np.ndarray]:  # [n, d] -> {measure: [len(others)]}
    """The vectors' own measures of row i against the other rows: the plain dot product and the cosine."""
    rows = np.asarray(rows, dtype=np.float64)
    return {"dot": rows[others] @ rows[i], "cosine": cosines(rows[i], rows[others])}


def winner(q_row, k_rows) -> tuple[int, str]:  # [d], [n, d] -> (key position, "angle" | "length" | "both")
    """The key with the highest q·k, and why it wins: the smallest angle, the longest key, or the two together."""
    la = length_angle(q_row, k_rows)
    top = int(np.argmax(la.dot))
    if top == int(np.argmax(la.cos)):
        return top, "angle"
    return top, "length" if top == int(np.argmax(la.k_len)) else "both"
