"""Swap or remove one word and see what moved: the sentence changed, and every matrix compared before and after."""
import numpy as np


def swapped(tokens: list[str], i: int, word: str) -> list[str]:
    """The tokens with token i replaced by `word`, or removed when `word` is empty."""
    return tokens[:i] + ([word] if word else []) + tokens[i + 1:]


def change(before: np.ndarray, after: np.ndarray, removed: int | None, *, cols_too: bool) -> np.ndarray:
    """after − before [n, m] -> [n', m'] on the rows (and, with cols_too, the columns) both have."""
    # A removed word's row and column are dropped from `before` first.
    if removed is not None:
        before = np.delete(before, removed, axis=0)
        if cols_too:
            before = np.delete(before, removed, axis=1)
    return np.asarray(after, dtype=np.float64) - before


def biggest(delta: np.ndarray, k: int = 3) -> list[tuple[int, int, float]]:  # [n, m] -> (row, column, change) × k
    """The k largest changes by size, largest first."""
    flat = np.argsort(-np.abs(delta), axis=None, kind="stable")[:k]
    return [(int(r), int(c), float(delta[r, c])) for r, c in zip(*np.unravel_index(flat, delta.shape), strict=False)]
