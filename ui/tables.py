"""Arrays + labels -> DataFrames: the one bridge from the engine to pandas."""
import numpy as np
import pandas as pd

from engine.alignment import PairAlignment


def matrix_long(a: np.ndarray, rows: list[str], cols: list, *, mask: np.ndarray | None = None,
                selected: str | None = None) -> pd.DataFrame:  # [n, m] -> n·m rows
    """One row per cell: row label, column label, value, whether masked, whether in the selected row."""
    n, m = a.shape
    df = pd.DataFrame({
        "row": np.repeat(rows, m),
        "col": np.tile(np.asarray(cols, dtype=object), n),
        "value": np.asarray(a, dtype=np.float64).ravel(),
    })
    df["masked"] = False if mask is None else ~np.asarray(mask).ravel()
    df["selected"] = df["row"] == selected
    return df


def matrix_wide(a: np.ndarray, rows: list[str], cols: list) -> pd.DataFrame:  # [n, m]
    """The matrix with its row and column labels, as downloaded."""
    return pd.DataFrame(np.asarray(a), index=pd.Index(rows, name="word"), columns=cols)


def dims(d: int) -> list[int]:
    """1-based dimension labels."""
    return list(range(1, d + 1))


def contributions(weights_row: np.ndarray, v: np.ndarray, keys: list[str]) -> pd.DataFrame:  # [n_k], [n_k, d_v]
    """Each value row scaled by its weight, per dimension; the column sums are the query's row of Z."""
    n_k, d_v = v.shape
    part = weights_row[:, None] * v  # [n_k, d_v]
    return pd.DataFrame({
        "key": np.repeat(keys, d_v),
        "dim": np.tile(dims(d_v), n_k),
        "weight": np.repeat(weights_row, d_v),
        "contribution": part.ravel(),
    })


def weights_frame(weights_row: np.ndarray, keys: list[str], mask_row: np.ndarray | None = None) -> pd.DataFrame:
    """The chosen query's weight on each key word."""
    return pd.DataFrame({"key": keys, "weight": weights_row,
                         "masked": False if mask_row is None else ~np.asarray(mask_row)})


def alignment_frame(pa: PairAlignment, by_size: bool = False) -> pd.DataFrame:
    """Per-dimension products with sign group, in dimension order or largest |product| first; running sum in that order."""
    order = np.argsort(-np.abs(pa.products), kind="stable") if by_size else np.arange(len(pa.products))
    return pd.DataFrame({
        "dim": np.asarray(dims(len(pa.products)))[order],
        "rank": np.arange(1, len(order) + 1),
        "product": pa.products[order],
        "group": pa.groups[order],
        "agree": np.isin(pa.groups[order], ("++", "--")),
        "running": np.cumsum(pa.products[order]),
    })


def signs_frame(q_row: np.ndarray, k_row: np.ndarray, q_label: str, k_label: str) -> pd.DataFrame:
    """The query and key vectors side by side, one row per (vector, dimension)."""
    d = len(q_row)
    return pd.DataFrame({
        "vector": [q_label] * d + [k_label] * d,
        "dim": dims(d) * 2,
        "value": np.concatenate([q_row, k_row]),
    })


def group_table(pa: PairAlignment, names: dict[str, str]) -> pd.DataFrame:
    """Counts and sums of products per sign group."""
    return pd.DataFrame({"group": [names[g] for g in pa.counts], "dimensions": list(pa.counts.values()),
                         "sum": list(pa.sums.values())})
