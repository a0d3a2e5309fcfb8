"""Arrays + labels -> DataFrames, or Arrow tables where a page sends them as they are (a heatmap's cells, the tables
st.dataframe shows): the one bridge from the engine to pandas and Arrow."""
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from engine import attention
from engine.relevance import degrees
from kit.text import number

if TYPE_CHECKING:
    from pandas.io.formats.style import Styler


def matrix_long(a: np.ndarray, rows: list[str], cols: list, *, mask: np.ndarray | None = None,
                selected: str | None = None) -> pd.DataFrame:  # [n, m] -> n·m rows
    """matrix_table as a DataFrame: one row per cell, its labels, positions and value, strong, masked, selected."""
    # strong: beyond 60% of the largest |value|, a dark cell
    return matrix_table(a, rows, cols, mask=mask, selected=selected).to_pandas()


def matrix_table(a: np.ndarray, rows: list[str], cols: list, *, mask: np.ndarray | None = None,
                 selected: str | None = None) -> pa.Table:  # [n, m] -> n·m rows
    """matrix_long's cells as an Arrow table built straight from the arrays: what views.matrix_cells sends as is."""
    n, m = a.shape
    values = np.asarray(a, dtype=np.float64).ravel()
    largest = float(np.abs(values).max(initial=0.0))
    r = np.repeat(np.arange(n), m)
    c = np.tile(np.arange(m), n)
    return pa.table({
        "row": pa.array(np.asarray(rows, dtype=object)[r]),  # indexing in numpy: 6× faster than pyarrow's take
        "col": pa.array(np.asarray(cols, dtype=object)[c]),
        "r": r,
        "c": c,
        "value": values,
        "strong": np.abs(values) > 0.6 * largest,
        "masked": np.zeros(n * m, dtype=bool) if mask is None else ~np.asarray(mask, dtype=bool).ravel(),
        "selected": np.repeat(np.asarray([w == selected for w in rows], dtype=bool), m),
    })


def matrix_wide(a: np.ndarray, rows: list[str], cols: list) -> pd.DataFrame:  # [n, m]
    """The matrix with its row and column labels, as downloaded."""
    return pd.DataFrame(np.asarray(a), index=pd.Index(rows, name="word"), columns=cols)


def styled(table: pd.DataFrame | pa.Table, formats: dict[str, str]) -> "Styler":
    """The table as a page shows it: the columns of `formats` written by their spec with the true minus sign."""
    # values stay numbers, as st.dataframe sorts by them; spec "" for a number already written out; other columns as
    # they are
    df = table.to_pandas() if isinstance(table, pa.Table) else table
    return df.style.format({c: partial(number, spec=spec) for c, spec in formats.items()}, na_rep="")


def dims(d: int) -> list[int]:
    """1-based dimension labels."""
    return list(range(1, d + 1))


def contributions(weights_row: np.ndarray, v: np.ndarray, keys: list[str]) -> pd.DataFrame:  # [n_k], [n_k, d_v]
    """Each value row scaled by its weight, per dimension; the column sums are the query's row of Z."""
    n_k, d_v = v.shape
    part = attention.contributions(weights_row, v)  # [n_k, d_v]
    return pd.DataFrame({
        "key": np.repeat(keys, d_v),
        "k": np.repeat(np.arange(n_k), d_v),
        "dim": np.tile(dims(d_v), n_k),
        "weight": np.repeat(weights_row, d_v),
        "contribution": part.ravel(),
    })


def weights_frame(weights_row: np.ndarray, keys: list[str], mask_row: np.ndarray | None = None) -> pd.DataFrame:
    """The chosen query's weight on each key word."""
    return pd.DataFrame({"key": keys, "k": np.arange(len(keys)), "weight": weights_row,
                         "masked": False if mask_row is None else ~np.asarray(mask_row)})


def ranks(scores: np.ndarray) -> np.ndarray:  # [n] -> [n]
    """1 for the highest score, 2 for the next; ties share the better rank."""
    v = np.asarray(scores, dtype=np.float64)
    return 1 + (v[None, :] > v[:, None]).sum(axis=1)


def relevance_table(scores: dict[str, np.ndarray], keys: list[str]) -> pa.Table:  # {measure: [n_k]}
    """One row per (measure, key word): the query's score for the word and its rank under that measure."""
    values = [np.asarray(v, dtype=np.float64) for v in scores.values()]
    return pa.table({"measure": pa.array(np.repeat(np.asarray(list(scores), dtype=object), len(keys)), pa.string()),
                     "key": pa.array(np.tile(np.asarray(keys, dtype=object), len(values)), pa.string()),
                     "score": np.concatenate(values) if values else np.empty(0),
                     "rank": np.concatenate([ranks(v) for v in values]) if values else np.empty(0, dtype=int)})


def length_angle_table(la, keys: list[str]) -> pa.Table:  # la: engine LengthAngle over the keys
    """One row per key: q·k, |q|, |k|, cos θ and θ in degrees, with the ranks they give."""
    return pa.table({"word": pa.array(keys, pa.string()), "dot": la.dot, "q_len": np.full(len(keys), float(la.q_len)),
                     "k_len": la.k_len, "cos": la.cos, "angle": degrees(la.cos),
                     "dot_rank": ranks(la.dot), "cos_rank": ranks(la.cos), "len_rank": ranks(la.k_len)})
