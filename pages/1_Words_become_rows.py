import streamlit as st

from engine.relevance import row_lengths
from kit import render, tables, views
from kit.charts import Titles
from kit.text import t, then
from lesson import downloads, frame
from rows.charts import length_bars
from rows.tables import lengths_table

ctx = frame.current()
s, enc, att, w = ctx.s, ctx.enc, ctx.att, ctx.w
rows, dims, out = enc.labels, tables.dims(ctx.kv.vector_size), tables.dims(att.q.shape[1])
st.markdown(f"**{t('tokens')}:** " + " · ".join(views.code(tok) for tok in enc.tokens))

views.matrix(enc.embedding, rows, dims, Titles(t("embedding", source=ctx.source), t("dim")), name="embedding")
if s.position:
    views.matrix(enc.positional, rows, dims, Titles(t("positional_m", p=s.position), t("dim")), name="positional")
    views.matrix(enc.x, rows, dims, Titles(t("x_m"), t("dim")), name="x")
else:
    st.caption(t("pe_off_note"))

st.subheader(t("lengths_title"))
lengths = row_lengths(enc.embedding, enc.positional)
left, right = st.columns([3, 2], gap="large")
parts = {"word": t("length_word", source=ctx.source), "position": t("length_position")}
render.chart(length_bars, lengths_table(lengths, rows, parts), where=left,
             titles=Titles(None, t("length"), t("row"), part=t("part")), save=render.Save(label=t("lengths_title")))
note = t("lengths_note", p=s.position, word=lengths.word.mean(), pos=lengths.position.mean(), ratio=lengths.ratio,
         source=ctx.source)
right.markdown(note + then() + t(f"lengths_{lengths.verdict}"))

for col, name in zip(st.columns(3), ("W_Q", "W_K", "W_V"), strict=False):
    views.matrix(w[name.lower()], dims, out, Titles(t("weights_m", name=name, d_in=len(dims), d_out=len(out)),
                                                    t("out_dim"), t("in_dim")), name=name, height=260, where=col)

st.caption(t("rows_note"))
for a, name, key in ((att.q, "Q", "q_m"), (att.k, "K", "k_m"), (att.v, "V", "v_m")):
    views.matrix(a, rows, out, Titles(t(key), t("dim")), name=name)
downloads.menu(ctx, "words")
