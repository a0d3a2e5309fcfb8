"""Writes data/heads-glove.npz: four heads of d_k 16 fitted together on the treebank's training sentences
(data/treebank.tsv) on the built-in GloVe 400k, each taught one family of relations (engine/specialists.py says which
and why), so that no server fits them before a page shows them. Run `python data/make_heads.py` (a few minutes of one
core); tests/engine/test_specialists.py refits them and compares. Derived from UD English EWT, CC BY-SA 4.0: see
data/LICENSE-treebank.md."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from threadpoolctl import threadpool_limits  # noqa: E402

from engine import specialists, treebank  # noqa: E402
from engine.sources import load_glove  # noqa: E402

EVERY = 250  # held-out figures every this many steps: the curve, without measuring every step


def main(out: Path = specialists.SHIPPED):
    with threadpool_limits(1, user_api="blas"):  # small products: one thread is as fast and steady under load
        specialists.save(specialists.fit(load_glove(), treebank.read(), specialists.Recipe(), every=EVERY), out)


if __name__ == "__main__":
    main()
