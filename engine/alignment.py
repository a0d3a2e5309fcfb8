"""Why a dot product measures relevance: one (query, key) pair, dimension by dimension."""
from dataclasses import dataclass

import numpy as np

GROUPS = ("++", "--", "+-", "-+")


@dataclass(frozen=True)
class PairAlignment:
    products: np.ndarray  # [d]  q_i * k_i
    groups: np.ndarray  # [d]  sign group of each dimension, one of GROUPS
    running: np.ndarray  # [d]  cumulative sum of products in dimension order
    dot: float  # sum of products = q . k
    counts: dict[str, int]  # dimensions per group
    sums: dict[str, float]  # sum of products per group

    @property
    def agree(self) -> float:
        """What the same-sign dimensions, (+,+) and (−,−), add to the dot product."""
        return self.sums["++"] + self.sums["--"]


def sign_groups(q_row: np.ndarray, k_row: np.ndarray) -> np.ndarray:  # [d], [d] -> [d]
    """'++', '--', '+-' or '-+' per dimension; zero counts as positive."""
    q_sign = np.where(q_row < 0, "-", "+")
    k_sign = np.where(k_row < 0, "-", "+")
    return np.char.add(q_sign, k_sign)


def pair_alignment(q_row: np.ndarray, k_row: np.ndarray) -> PairAlignment:  # [d], [d]
    """Per-dimension products, their sign groups, the running sum and per-group totals."""
    q_row = np.asarray(q_row, dtype=np.float64)
    k_row = np.asarray(k_row, dtype=np.float64)
    if q_row.shape != k_row.shape or q_row.ndim != 1:
        raise ValueError(f"Query and key rows must be vectors of one length, got {q_row.shape} and {k_row.shape}.")
    products = q_row * k_row
    groups = sign_groups(q_row, k_row)
    return PairAlignment(
        products=products,
        groups=groups,
        running=np.cumsum(products),
        dot=float(products.sum()),
        counts={g: int((groups == g).sum()) for g in GROUPS},
        sums={g: float(products[groups == g].sum()) for g in GROUPS},
    )
