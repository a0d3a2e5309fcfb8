"""The line view (bertviz's head view): attention as lines from each query word to each key word it sees."""
import streamlit as st

from engine.attention import Attention
from kinds.charts import attention_lines
from kinds.tables import attention_lines_frame
from kit import charts, render
from kit.text import t

MAX_LINES = 8192  # lines a browser redraws at once on hover without a lag: two heads of 64 words, ten of 28


def line_view(att: Attention, q_labels: list[str], k_labels: list[str], *, softmax: bool, key: str,
              heads: list[str] | None = None, title: str | None = None, where=st):
    """Lines from each query word to each key it sees, as opaque as the weight, a colour a head, beside the heatmaps."""
    # `heads` names a multi-head `att`'s heads (weights [h, n_q, n_k]); the first are drawn, as many as have a colour
    # and MAX_LINES lines; hovering a word isolates its lines; `key` tells this view's CSV button from others
    weights = att.weights if att.weights.ndim == 3 else att.weights[None]
    names = heads or [t("lines_head", h=h + 1) for h in range(len(weights))]
    shown = max(1, min(len(weights), len(charts.HEAD_COLOURS), MAX_LINES // weights[0].size))
    frame = attention_lines_frame(weights[:shown], q_labels, k_labels, att.mask, names[:shown],
                                         softmax=softmax)
    value = t("weight" if softmax else "score")
    titles = charts.Titles(title or t("lines_title"), t("key_word"), t("query_word"), value, head=t("lines_head_title"))
    render.chart(attention_lines, frame, titles=titles, weights=softmax, where=where,
                 save=render.Save(csv=render.Csv(f"dl_{key}lines", lambda: frame.to_csv(index=False))))
    where.caption(caption(len(weights), shown, masked=not att.mask.all(), softmax=softmax))


def caption(heads: int, shown: int, *, masked: bool, softmax: bool) -> str:
    """How to read the line view: what a line's opacity means, the heads' colours, masked pairs, hovering."""
    more = "".join([t("lines_more_heads", h=heads) if heads > 1 else "",
                    t("lines_more_first", n=shown, h=heads) if shown < heads else "",
                    t("lines_more_masked") if masked else ""])
    return t("lines_caption", how=t("lines_how_soft" if softmax else "lines_how_raw"), more=more)
