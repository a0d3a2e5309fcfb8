"""Several heads: where each looks for the query word, a weights heatmap per head, and Z as the heads' outputs side by
side."""
import streamlit as st

from engine.attention import Attention, head_tops, merge_heads
from kit import charts, render, tables
from kit.charts import heatmap
from kit.text import number, t
from kit.views import SIDE_BY_SIDE, Marks, download, heatmap_cells, matrix, matrix_cells

HEAD_WEIGHTS = {"encoder-": "file_encoder-head-weights", "decoder-": "file_decoder-head-weights",  # file names
                "cross-": "file_cross-head-weights"}


def heads_view(multi: Attention, q_labels: list[str], k_labels: list[str], q: str, *, softmax: bool,
               prefix: str):
    """Where each head looks for query `q`, a weights heatmap per head, and Z = the heads' outputs side by side."""
    h, n_q, n_k = multi.weights.shape
    d_h, d_vh = multi.q.shape[-1], multi.z.shape[-1]
    st.markdown(head_focus(multi, q_labels, k_labels, q))
    mask = None if multi.mask.all() else multi.mask
    per_row = min(h, 2) if len(k_labels) <= SIDE_BY_SIDE else 1  # narrower heatmaps squeeze their legends
    cells = heatmap_cells(q_labels, k_labels, mask, q)
    for first in range(0, h, per_row):
        for head, where in zip(range(first, min(first + per_row, h)), st.columns(per_row), strict=False):
            titles = charts.Titles(t("head_m", h=head + 1, lo=head * d_h + 1, hi=(head + 1) * d_h), t("key_word"),
                                   t("query_word"), t("weight"), masked=t("masked_cell"))
            render.chart(heatmap, matrix_cells(multi.weights[head], q_labels, k_labels, mask, q), titles=titles,
                         cells=cells, weights=softmax, where=where)
    download(multi.weights.reshape(h * n_q, n_k), [f"{head + 1}: {w}" for head in range(h) for w in q_labels],
             k_labels, f"{prefix}head-weights", t(HEAD_WEIGHTS[prefix]))
    matrix(merge_heads(multi.z), q_labels, tables.dims(h * d_vh), charts.Titles(t("z_heads_m", h=h, d=d_vh), t("dim")),
           name=f"{prefix}Z-heads", marks=Marks(selected=q))


def head_focus(multi: Attention, q_labels: list[str], k_labels: list[str], q: str) -> str:
    """A sentence saying which key word each head weights most for query `q`, grouped by that word."""
    top, w = head_tops(multi, q_labels.index(q))
    if (top == top[0]).all():
        lo = w[:, top[0]].argmin()
        hi = w[:, top[0]].argmax()
        return t("focus_same", q=q, n=len(top), k=k_labels[top[0]], lo=w[lo, top[0]], hi=w[hi, top[0]],
                 h_lo=lo + 1, h_hi=hi + 1)
    items = []
    for j in dict.fromkeys(top):
        heads = [x for x in range(len(top)) if top[x] == j]
        items.append(t("focus_one" if len(heads) == 1 else "focus_many", k=k_labels[j],
                       heads=t("list_sep").join(str(x + 1) for x in heads),
                       w=t("list_sep").join(number(w[x, j], ".2f") for x in heads)))
    return t("focus_differ", q=q, items=t("item_sep").join(items))
