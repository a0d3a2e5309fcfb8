import streamlit as st

from engine.attention import attend
from ui import page, sidebar, tables
from ui.text import t

s = sidebar.render("words")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("words_title", lang))
st.markdown(t("words_intro", lang, d=kv.vector_size))

enc = page.sentence_rows(kv, s.sentence, s)
if enc is None:
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"])
rows, dims, out = enc.labels, tables.dims(kv.vector_size), tables.dims(att.q.shape[1])
st.markdown(f"**{t('tokens', lang)}:** " + " · ".join(page.code(tok) for tok in enc.tokens))

page.matrix(enc.embedding, rows, dims, name="embedding", title=t("embedding", lang), x_title=t("dim", lang), lang=lang)
if s.positional:
    page.matrix(enc.positional, rows, dims, name="positional", title=t("positional_m", lang), x_title=t("dim", lang), lang=lang)
    page.matrix(enc.x, rows, dims, name="x", title=t("x_m", lang), x_title=t("dim", lang), lang=lang)
else:
    st.caption(t("pe_off_note", lang))

for col, name in zip(st.columns(3), ("W_Q", "W_K", "W_V")):
    page.matrix(w[name.lower()], dims, out, name=name, lang=lang, where=col, height=260,
                title=t("weights_m", lang, name=name, d_in=len(dims), d_out=len(out)),
                x_title=t("out_dim", lang), y_title=t("in_dim", lang))

st.caption(t("rows_note", lang))
for a, name, key in ((att.q, "Q", "q_m"), (att.k, "K", "k_m"), (att.v, "V", "v_m")):
    page.matrix(a, rows, out, name=name, title=t(key, lang), x_title=t("dim", lang), lang=lang)
