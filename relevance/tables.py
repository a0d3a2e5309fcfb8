"""Page 4's table: every key's score and rank under each measure."""
import numpy as np
import pyarrow as pa

from kit.tables import ranks


def ranking_table(scores: dict[str, np.ndarray], keys: list[str]) -> pa.Table:  # {measure: [n_k]}
    """One row per key word in sentence order: each measure's score and rank side by side."""
    columns = {"word": pa.array(keys, pa.string())}
    for m, v in scores.items():
        columns[m] = np.asarray(v, dtype=np.float64)
        columns[f"{m}_rank"] = ranks(v)
    return pa.table(columns)
