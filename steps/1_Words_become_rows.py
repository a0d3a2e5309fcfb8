import streamlit as st

from engine.relevance import row_lengths
from ui import page, render, reproduce, tables, views
from ui.text import t, then

ctx = page.current()
s, lang, enc, att, w = ctx.s, ctx.lang, ctx.enc, ctx.att, ctx.w
rows, dims, out = enc.labels, tables.dims(ctx.kv.vector_size), tables.dims(att.q.shape[1])
st.markdown(f"**{t('tokens', lang)}:** " + " · ".join(page.code(tok) for tok in enc.tokens))

views.matrix(enc.embedding, rows, dims, name="embedding", title=t("embedding", lang, source=ctx.source),
             x_title=t("dim", lang), lang=lang)
if s.position:
    views.matrix(enc.positional, rows, dims, name="positional", title=t("positional_m", lang, p=s.position),
                x_title=t("dim", lang), lang=lang)
    views.matrix(enc.x, rows, dims, name="x", title=t("x_m", lang), x_title=t("dim", lang), lang=lang)
else:
    st.caption(t("pe_off_note", lang))

st.subheader(t("lengths_title", lang))
lengths = row_lengths(enc.embedding, enc.positional)
left, right = st.columns([3, 2], gap="large")
parts = {"word": t("length_word", lang, source=ctx.source), "position": t("length_position", lang)}
render.chart("length_bars", tables.lengths_table(lengths, rows, parts), title=None, label=t("lengths_title", lang),
             x_title=t("length", lang), y_title=t("row", lang), part_title=t("part", lang), where=left, lang=lang)
note = t("lengths_note", lang, p=s.position, word=lengths.word.mean(), pos=lengths.position.mean(), ratio=lengths.ratio,
         source=ctx.source)
right.markdown(note + then(lang) + t(f"lengths_{lengths.verdict}", lang))

for col, name in zip(st.columns(3), ("W_Q", "W_K", "W_V"), strict=False):
    views.matrix(w[name.lower()], dims, out, name=name, lang=lang, where=col, height=260,
                title=t("weights_m", lang, name=name, d_in=len(dims), d_out=len(out)),
                x_title=t("out_dim", lang), y_title=t("in_dim", lang))

st.caption(t("rows_note", lang))
for a, name, key in ((att.q, "Q", "q_m"), (att.k, "K", "k_m"), (att.v, "V", "v_m")):
    views.matrix(a, rows, out, name=name, title=t(key, lang), x_title=t("dim", lang), lang=lang)
reproduce.downloads(ctx, "words")
