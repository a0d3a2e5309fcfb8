"""Held-out order accuracy of every kind of W_Q, W_K on the built-in corpus, and the template fit's time."""
import sys

import numpy as np

from bench.common import Row, clocked, markdown, median, seconds
from engine import corpus
from engine.layers import preset
from engine.sources import load_glove

FIT_BUDGET_S = 2.0
RANDOM_SEEDS = 20


def accuracies(kv, examples, fit) -> dict[str, float]:
    """Held-out pairwise order accuracy of raw GloVe, identity and random layers, and the fit."""
    test = [e for e in examples if e.split == "test"]
    d, d_k = kv.vector_size, fit.w_q.shape[1]
    full = np.eye(d)
    cut = np.eye(d, d_k)
    randoms = [corpus.order_accuracy(kv, test, preset("random", d, d_k, seed=s), preset("random", d, d_k, seed=s + 100))
               for s in range(RANDOM_SEEDS)]
    return {
        "raw GloVe dot product (no layers, no position)": corpus.order_accuracy(kv, test, full, full, position=0),
        "raw GloVe cosine similarity": corpus.order_accuracy(kv, test, full, full, position=0, cosine=True),
        f"identity layers, d_k = {d_k} (first {d_k} dimensions)": corpus.order_accuracy(kv, test, cut, cut),
        f"random layers, mean of {RANDOM_SEEDS} seeds": float(np.mean(randoms)),
        "templates preset (fitted on the template corpus)": float(fit.test_accuracy[-1]),
    }


def measured(quick: bool) -> tuple:
    """GloVe, the built-in corpus, its default fit, every kind's held-out accuracy, the fit's median wall and CPU s."""
    kv, examples = load_glove(), corpus.load()
    fit = corpus.fit(kv, examples)
    found = accuracies(kv, examples, fit)
    wall, cpu = clocked(lambda: corpus.fit(kv, examples), 1 if quick else 5)
    return kv, examples, fit, found, median(wall), median(cpu)


def run(quick: bool) -> list[Row]:
    """Rows for python -m bench: the fit's time and the held-out accuracy against the best raw measure."""
    _, examples, fit, found, wall, cpu = measured(quick)
    raw = max(v for k, v in found.items() if k.startswith("raw"))
    train = sum(e.split == "train" for e in examples)
    return [
        Row("corpus · fit", f"corpus.fit on the built-in corpus ({train} training sentences), GloVe 400k, "
            f"{corpus.DEFAULT_STEPS} full-batch Adam steps; median (CPU {seconds(cpu)})", seconds(wall), "—", "—",
            f"≤ {FIT_BUDGET_S:g} s", bool(wall <= FIT_BUDGET_S)),
        Row("corpus · held-out accuracy", "pairwise order accuracy of the templates preset on the held-out sentences, "
            "next to the better raw GloVe measure", f"{fit.test_accuracy[-1]:.1%}", f"raw {raw:.1%}",
            f"+{(fit.test_accuracy[-1] - raw) * 100:.1f} points", "≥ 85% and ≥ raw + 10 points",
            bool(fit.test_accuracy[-1] >= max(0.85, raw + 0.10)), found),
    ]


def main():
    kv, examples, _, found, wall, cpu = measured("--quick" in sys.argv)
    test = [e for e in examples if e.split == "test"]
    pairs = len(corpus.batch(kv, test).pairs[0])
    print(f"Held-out: {len(test)} sentences, {pairs} labelled pairs; "
          f"training: {len(examples) - len(test)} sentences.\n")
    print(markdown(["W_Q, W_K", "held-out order accuracy"], [[k, f"{v:.1%}"] for k, v in found.items()], "lr"))
    print(f"\nFit: {wall:.2f} s wall, {cpu:.2f} s CPU ({corpus.DEFAULT_STEPS} steps, median).")


if __name__ == "__main__":
    main()
