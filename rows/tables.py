"""Page 1's table: the lengths of each word's row and of its position's."""
import numpy as np
import pyarrow as pa


def lengths_table(lengths, rows: list[str], names: dict[str, str]) -> pa.Table:  # lengths: engine Lengths
    """One row per (word, part): the length of the word's GloVe row and of its positional row. Sent as it is."""
    n = len(rows)
    return pa.table({"row": pa.array(list(rows) * 2, pa.string()), "r": np.tile(np.arange(n), 2),
                     "part": pa.array([names["word"]] * n + [names["position"]] * n, pa.string()),
                     "length": np.concatenate([lengths.word, lengths.position]).astype(np.float64)})
