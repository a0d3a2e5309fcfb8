"""Sinusoidal positional encoding (Vaswani et al., 2017)."""
import numpy as np

# the default position weight: positional rows at twice their unit size
# (README, "The real sentences and the learned head")
WEIGHT = 2.0


def sinusoidal(n: int, d: int) -> np.ndarray:  # -> [n, d]
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d))."""
    pos = np.arange(n)[:, None]  # [n, 1]
    rate = 10000.0 ** (-(np.arange(d) // 2 * 2) / d)  # [d]
    angle = pos * rate  # [n, d]
    return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))
