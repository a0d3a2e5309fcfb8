import streamlit as st

import rows.views
from kit import views
from kit.charts import Titles
from kit.text import t
from lesson import downloads, frame

ctx = frame.current()
s, enc, att, w = ctx.s, ctx.enc, ctx.att, ctx.w
labels, dims, out = enc.labels, ctx.dims, ctx.out_dims
st.markdown(f"**{t('tokens')}:** " + " · ".join(views.code(tok) for tok in enc.tokens))

views.matrix(enc.embedding, labels, dims, Titles(t("embedding", source=ctx.source), t("dim")), name="embedding")
if s.position:
    views.matrix(enc.positional, labels, dims, Titles(t("positional_m", p=s.position), t("dim")), name="positional")
    views.matrix(enc.x, labels, dims, Titles(t("x_m"), t("dim")), name="x")
else:
    st.caption(t("pe_off_note"))

rows.views.lengths_view(enc, s.position, ctx.source)

for col, name in zip(st.columns(3), ("W_Q", "W_K", "W_V"), strict=False):
    views.matrix(w[name.lower()], dims, out, Titles(t("weights_m", name=name, d_in=len(dims), d_out=len(out)),
                                                    t("out_dim"), t("in_dim")), name=name, height=260, where=col)

st.caption(t("rows_note"))
for a, name, key in ((att.q, "Q", "q_m"), (att.k, "K", "k_m"), (att.v, "V", "v_m")):
    views.matrix(a, labels, out, Titles(t(key), t("dim")), name=name)
downloads.menu(ctx)
