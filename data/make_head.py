"""Writes data/head-glove.npz: the default W_Q, W_K, one attention head fitted on the treebank's training sentences
(data/treebank.tsv) together with the template corpus's training split (data/relevance.csv: plain sentences like the
article's; its test split is never read) on the built-in GloVe 400k, so that no server fits it before its first page.
Run `python data/make_head.py` (about 65 s of one core); tests/engine/test_treebank.py and
`python -m bench.heads --refit` refit it and compare."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from threadpoolctl import threadpool_limits  # noqa: E402

from engine import treebank  # noqa: E402
from engine.fit import save_fit  # noqa: E402
from engine.sources import load_glove  # noqa: E402

EVERY = 250  # held-out accuracy every this many steps: the curve, without measuring all 6,000


def main(out: Path = treebank.SHIPPED):
    with threadpool_limits(1, user_api="blas"):  # small products: one thread is as fast and steady under load
        save_fit(treebank.fit(load_glove(), treebank.read(), treebank.Recipe(), every=EVERY), out)


if __name__ == "__main__":
    main()
