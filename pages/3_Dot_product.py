import streamlit as st

import dot.views
from dot.settings import PAIR_ROWS, SORTS
from kit import views
from kit.text import labels, t
from lesson import downloads, frame


def dot_products(ctx: frame.Context):
    """The query's dot product with two keys, dimension by dimension, and what decides it."""
    s, rows = ctx.s, ctx.enc.labels
    q_rows, k_rows = dot.views.compared(ctx)
    word_box, rows_box, sort_box = st.columns([2, 4, 3])
    q = views.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1], where=word_box)
    rows_box.segmented_control(t("pair_rows"), list(PAIR_ROWS), key="pair_rows", format_func=labels(PAIR_ROWS))
    sort_box.segmented_control(t("sort"), list(SORTS), key="sort", format_func=labels(SORTS))
    i = rows.index(q)
    others, dots = dot.views.ranked(q_rows[i], k_rows, i)  # the best-scoring other word first
    defaults = dot.views.default_keys(rows, others)

    columns, fields = st.columns(2, gap="large"), ["key", "key2"]
    keys = [views.pick_word(f, t(f), rows, defaults[f], where=where)
            for where, f in zip(columns, fields, strict=True)]
    key_rows = [k_rows[rows.index(k)] for k in keys]
    aligned = dot.views.aligned(q_rows[i], key_rows)
    dot.views.pair_products(aligned, q, keys, by_size=s.sort == "size", fields=fields, wheres=columns)
    dot.views.signs_view(q_rows[i], key_rows, q, keys)
    dot.views.summaries(aligned, q, keys, note="dot_note" if s.pair_rows == "qk" else "dot_note_embedding",
                        source=ctx.source, top=rows[others[0]], best=dots[others[0]])
    views.length_angle_view(q_rows[i], key_rows, q, keys)
    downloads.menu(ctx)


frame.part(dot_products, "query", "pair_rows", "sort", "key", "key2")
