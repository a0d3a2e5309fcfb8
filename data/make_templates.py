"""Writes data/templates-glove.npz: W_Q, W_K fitted on the template corpus (data/relevance.csv) on the built-in
GloVe 400k with the page's default d_k and position weight, so that choosing it costs no visitor a fit. Run
`python data/make_templates.py`; tests/engine/test_corpus.py refits and checks the file holds exactly what the fit
gives."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine import corpus  # noqa: E402
from engine.fit import save_fit  # noqa: E402
from engine.sources import load_glove  # noqa: E402


def main(out: Path = corpus.SHIPPED):
    save_fit(corpus.fit(load_glove(), corpus.load()), out)  # the default recipe: d_k 16, 400 steps, seed 0


if __name__ == "__main__":
    main()
