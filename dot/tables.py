"""Page 3's tables: sign strips, and the sums per sign group (a pair's products are kit/products.py's)."""
import numpy as np
import pyarrow as pa

from engine.alignment import PairAlignment
from kit.tables import dims


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
