import streamlit as st

from dot.pair import pair_products, pair_sign, pair_summary, signs_view
from dot.settings import PAIR_ROWS, SORTS
from engine.alignment import pair_alignment
from engine.relevance import length_angle, order_by
from kit import views
from kit.text import labels, t
from lesson import downloads, frame


def dot(ctx: frame.Context):
    """The query's dot product with two keys, dimension by dimension, and what decides it."""
    s, att, rows = ctx.s, ctx.att, ctx.enc.labels
    q_rows, k_rows = (att.q, att.k) if s.pair_rows == "qk" else (ctx.enc.embedding, ctx.enc.embedding)
    c1, c2, c3 = st.columns([2, 4, 3])
    q = views.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1], where=c1)
    c2.segmented_control(t("pair_rows"), list(PAIR_ROWS), key="pair_rows", format_func=labels(PAIR_ROWS))
    c3.segmented_control(t("sort"), list(SORTS), key="sort", format_func=labels(SORTS))
    i = rows.index(q)
    dots = length_angle(q_rows[i], k_rows).dot
    others = [j for j in order_by(dots) if j != i]  # best-scoring other word first
    defaults = {"key": "drank" if "drank" in rows else rows[others[0]],
                "key2": "black" if "black" in rows else rows[others[-1]]}

    columns, fields = st.columns(2, gap="large"), ["key", "key2"]
    keys = [views.pick_word(f, t(f), rows, defaults[f], where=where)
            for where, f in zip(columns, fields, strict=True)]
    key_rows = [k_rows[rows.index(k)] for k in keys]
    aligned = [pair_alignment(q_rows[i], row) for row in key_rows]
    pair_products(aligned, q, keys, by_size=s.sort == "size", fields=fields, wheres=columns)
    signs_view(q_rows[i], key_rows, q, keys)
    for where, k, pair in zip(st.columns(2, gap="large"), keys, aligned, strict=False):
        with where:
            pair_summary(pair, q, k, note="dot_note" if s.pair_rows == "qk" else "dot_note_embedding",
                         source=ctx.source, sign=pair_sign(pair.dot, q, k, top=rows[others[0]], best=dots[others[0]]))
    views.length_angle_view(q_rows[i], key_rows, q, keys)
    downloads.menu(ctx)


frame.part(dot, "query", "pair_rows", "sort", "key", "key2")
