import streamlit as st

from dot.charts import sign_strips
from dot.pair import pair_products, pair_sign, pair_summary
from dot.settings import PAIR_ROWS, SORTS
from dot.tables import signs_table
from engine.alignment import pair_alignment
from engine.relevance import length_angle, order_by
from kit import render, views
from kit.charts import Titles
from kit.text import labels, t
from lesson import downloads, frame

ctx = frame.current()
s, enc, att, rows = ctx.s, ctx.enc, ctx.att, ctx.enc.labels
q_rows, k_rows = (att.q, att.k) if s.pair_rows == "qk" else (enc.embedding, enc.embedding)

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
aligned = [pair_alignment(q_rows[i], k_rows[rows.index(k)]) for k in keys]
pair_products(aligned, q, keys, by_size=s.sort == "size", fields=fields, wheres=columns)

k1, k2 = keys  # the query's strip between the two keys', so each key's signs sit next to it
render.chart(sign_strips, signs_table([k_rows[rows.index(k1)], q_rows[i], k_rows[rows.index(k2)]],
                                               [f"k₁ · {k1}", f"q · {q}", f"k₂ · {k2}"]),
             titles=Titles(t("signs_title"), t("dim"), t("vector"), t("value")))
for where, k, pa in zip(st.columns(2, gap="large"), keys, aligned, strict=False):
    with where:
        pair_summary(pa, q, k, note="dot_note" if s.pair_rows == "qk" else "dot_note_embedding",
                     source=ctx.source, sign=pair_sign(pa.dot, q, k, top=rows[others[0]], best=dots[others[0]]))

views.length_angle_view(q_rows[i], k_rows[[rows.index(k) for k in keys]], q, keys)
downloads.menu(ctx, "dot")
