"""Page 6's tables: the line view's pairs, and the nearest neighbours of the target words."""
import numpy as np
import pandas as pd

from engine.sources import nearest
from kit.text import number


def neighbours_frame(kv, words: list[str], sources: list[str], n: int = 5) -> pd.DataFrame:
    """Each word's n nearest vocabulary neighbours by cosine, and the source word most similar to it."""
    out = []
    for w in dict.fromkeys(words):
        near = ", ".join(f"{x} ({number(c, '.2f')})" for x, c in nearest(kv, w, n))
        row = {"word": w, "neighbours": near}
        if sources:
            sim = {src: float(kv.similarity(w, src)) for src in dict.fromkeys(sources)}
            row["closest_source"] = max(sim, key=sim.get)
            row["cosine"] = sim[row["closest_source"]]
        out.append(row)
    return pd.DataFrame(out)


def attention_lines_frame(weights: np.ndarray, q_labels: list[str], k_labels: list[str], mask: np.ndarray | None = None,
                          head_names: list[str] | None = None, *, softmax: bool = True) -> pd.DataFrame:
    """One row per visible (head, query, key) pair of weights [h, n_q, n_k] or [n_q, n_k] under mask [n_q, n_k]."""
    # masked pairs get no row; positions (q_pos, k_pos, h) tell repeated words apart
    # a line's opacity is its softmax weight itself; raw scores, of any size and sign, become |score| ÷ the largest
    w = np.asarray(weights, dtype=np.float64)
    w = w[None] if w.ndim == 2 else w
    h, n_q, n_k = w.shape
    seen = np.ones((n_q, n_k), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    head, q, k = np.nonzero(np.broadcast_to(seen, w.shape))
    values = w[head, q, k]
    largest = float(np.abs(values).max(initial=0.0))
    opacity = np.clip(values, 0.0, 1.0) if softmax else np.abs(values) / (largest or 1.0)
    names = np.asarray(head_names if head_names is not None else [str(x + 1) for x in range(h)], dtype=object)
    return pd.DataFrame({
        "head": names[head], "h": head,
        "query": np.asarray(q_labels, dtype=object)[q], "key": np.asarray(k_labels, dtype=object)[k],
        "q_pos": q, "k_pos": k, "weight": values, "opacity": opacity,
    })
