"""Page 3's tables: a pair's products with their running sum, sign strips, and the sums per sign group."""
import numpy as np
import pandas as pd
import pyarrow as pa

from engine.alignment import PairAlignment
from kit.tables import dims


def alignment_frame(pair: PairAlignment, by_size: bool = False) -> pd.DataFrame:
    """Per-dimension products with sign group, in dimension order or largest |product| first; running sum in that
    order."""
    order = np.argsort(-np.abs(pair.products), kind="stable") if by_size else np.arange(len(pair.products))
    return pd.DataFrame({
        "dim": np.asarray(dims(len(pair.products)))[order],
        "rank": np.arange(1, len(order) + 1),
        "product": pair.products[order],
        "group": pair.groups[order],
        "running": np.cumsum(pair.products[order]),
    })


def signs_table(rows: np.ndarray, labels: list[str]) -> pa.Table:  # [m, d], [m]
    """Vectors stacked one above the other, one row per (vector, dimension); v is the vector's place. Sent as it is."""
    m, d = np.shape(rows)
    return pa.table({
        "vector": pa.array(np.repeat(np.asarray(labels, dtype=object), d), pa.string()),
        "v": np.repeat(np.arange(m), d),
        "dim": np.tile(dims(d), m),
        "value": np.asarray(rows, dtype=np.float64).ravel(),
    })


def group_table(pair: PairAlignment, names: dict[str, str]) -> pa.Table:
    """Counts and sums of products per sign group."""
    return pa.table({"group": [names[g] for g in pair.counts], "dimensions": list(pair.counts.values()),
                     "sum": pa.array(list(pair.sums.values()), pa.float64())})
