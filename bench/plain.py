"""How each kind of W_Q, W_K of bench/heads.py does on plain held-out sentences, the kind a learner types."""
import numpy as np

from bench.common import Row, markdown, spread
from engine import corpus, treebank
from engine.attention import attend, score
from engine.fit import Fit, initial_weights, load_fit
from engine.pipeline import encode
from engine.positional import WEIGHT
from engine.tokens import tokenize

ARTICLE = "The black cat drank the milk"
ARTICLE_HEADS = {"the (1)": "cat", "black": "cat", "cat": "drank", "the (5)": "milk", "milk": "drank"}
# what the shipped head must reach on them: relevant keys above 0, keys labelled 0 below 0, labelled pairs in order
POSITIVE, NEGATIVE, ORDER = 0.88, 0.80, 0.82
RANDOM_SEEDS, D_K = 10, 16


def plain(kv, examples: list[corpus.Example], w_q=None, w_k=None) -> dict:
    """A kind on plain held-out sentences: pairs in order, signs, key-only shares (no W_Q, W_K: raw GloVe's τ·cos θ)."""
    b = corpus.batch(kv, examples, WEIGHT if w_q is not None else 0.0)
    raw = w_q is None
    w_q, w_k = (np.eye(kv.vector_size),) * 2 if raw else (w_q, w_k)
    s = corpus.query_scores(b, w_q, w_k, cosine=raw)[2]
    positive, negative = corpus.signs(b, s)
    lengths = [len(tokenize(e.sentence)) for e in examples]
    full = [score(x[:n] @ w_q, x[:n] @ w_k, cosine=raw) for x, n in zip(b.x, lengths, strict=True)]
    return {"order": corpus.accuracy(b, s), "positive": positive, "negative": negative,
            "share": float(np.mean([treebank.key_only_share(f) for f in full])),
            "centred": float(np.mean([treebank.key_only_share(treebank.row_centred(f)) for f in full]))}


def kinds(kv, live: Fit) -> dict[str, list[dict] | None]:
    """Each kind of bench/heads.py that has scores, on the plain held-out sentences; None for those without."""
    test = corpus.known_split(kv, "test")
    head, templates = load_fit(treebank.SHIPPED), load_fit(corpus.SHIPPED)
    randoms = [initial_weights(kv.vector_size, D_K, seed, 1.0)[:2] for seed in range(RANDOM_SEEDS)]
    return {"head": [plain(kv, test, head.w_q, head.w_k)], "offset": None, "cosine": [plain(kv, test)],
            "random": [plain(kv, test, w_q, w_k) for w_q, w_k in randoms],
            "templates": [plain(kv, test, templates.w_q, templates.w_k)], "live": [plain(kv, test, live.w_q, live.w_k)],
            "gold": None}


FIGURES = (("order", "{:.1%}".format), ("positive", "{:.1%}".format), ("negative", "{:.1%}".format),
           ("share", "{:.2f}".format), ("centred", "{:.2f}".format))


def table(found: dict[str, list[dict] | None], count: int, labels: dict[str, str]) -> str:
    """The kinds on the plain held-out sentences as a Markdown table (`labels`: each kind's name)."""
    lines = []
    for kind, runs in found.items():
        got = {key: "—" if runs is None else spread([r[key] for r in runs], fmt) for key, fmt in FIGURES}
        shares = f"{got['share']} · {got['centred']}"
        lines.append([labels[kind], got["order"], got["positive"], got["negative"], shares])
    return markdown(["W_Q, W_K", f"{count} plain held-out sentences: labelled pairs in order", "relevant keys q·k > 0",
                     "keys labelled 0 q·k < 0", "key-only share: scores · row-centred"], lines, "lrrrr")


def rows(kv, live: Fit) -> list[Row]:
    """Rows for python -m bench: the shipped head on the plain held-out sentences, and on the article's sentence."""
    found, count = kinds(kv, live), len(corpus.known_split(kv, "test"))
    head, raw = found["head"][0], found["cosine"][0]
    e = encode(kv, ARTICLE, position=WEIGHT)
    shipped = load_fit(treebank.SHIPPED)
    att = attend(e.x, e.x, shipped.w_q, shipped.w_k, np.eye(kv.vector_size), own=False)
    tops = {label: e.labels[j] for label, j in zip(e.labels, att.weights.argmax(axis=1), strict=True)}
    milk = dict(zip(e.labels, att.factor[e.labels.index("milk")], strict=True))
    article = (tops.items() >= ARTICLE_HEADS.items() and milk["drank"] > milk["cat"] > 0 > milk["black"])
    return [
        Row("heads · plain sentences", f"the shipped head on the template corpus's {count} held-out "
            "sentences (plain ones like the article's): relevant keys q·k > 0 · keys labelled 0 q·k < 0 · labelled "
            f"pairs in order; key-only share {head['share']:.2f} · row-centred {head['centred']:.2f}",
            f"{head['positive']:.1%} · {head['negative']:.1%} · {head['order']:.1%}",
            f"cosine {raw['positive']:.1%} · {raw['negative']:.1%} · {raw['order']:.1%}", "—",
            f"≥ {POSITIVE:.0%} · ≥ {NEGATIVE:.0%} · ≥ {ORDER:.0%}",
            bool(head["positive"] >= POSITIVE and head["negative"] >= NEGATIVE
                 and head["order"] >= ORDER), found),
        Row("heads · the article's sentence", f"“{ARTICLE}” under the shipped head: each word's top key (own cell "
            "hidden) and milk's q·k with drank, cat and black", ", ".join(f"{k} → {v}" for k, v in tops.items())
            + f"; milk · drank {milk['drank']:.2f}, cat {milk['cat']:.2f}, black {milk['black']:.2f}", "—", "—",
            "the → cat, black → cat, cat → drank, the → milk, milk → drank; drank > cat > 0 > black", bool(article)),
    ]
