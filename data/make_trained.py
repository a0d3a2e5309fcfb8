"""Writes data/trained-glove.npz: the default learned W_Q, W_K (the corpus fit on the built-in GloVe 400k), so that a
server need not fit them before its first page. Run `python data/make_trained.py`; tests/test_corpus.py refits and
checks the file holds exactly what the fit gives."""
import dataclasses
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine import corpus  # noqa: E402
from engine.vectors import load_glove  # noqa: E402

OUT = Path(__file__).with_name("trained-glove.npz")


def main(out: Path = OUT):
    fit = corpus.fit(load_glove(), corpus.load())  # the default recipe: d_k 16, position 0.3, 400 steps, seed 0
    np.savez_compressed(out, **{f.name: np.asarray(getattr(fit, f.name)) for f in dataclasses.fields(fit)})


if __name__ == "__main__":
    main()
