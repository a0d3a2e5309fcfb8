import streamlit as st

from engine.attention import attend
from ui import page, sidebar, tables
from ui.text import t

s = sidebar.render("home")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("app_title", lang))
st.markdown(t("home_intro", lang))
st.caption(t("home_read", lang))

enc = page.sentence_rows(kv, s.sentence, s)
if enc is None:
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled, softmax=s.softmax)
rows, dims, out = enc.labels, tables.dims(kv.vector_size), tables.dims(att.q.shape[1])

left, right = st.columns(2)
with left:
    st.subheader(t("home_step_rows", lang))
    page.matrix(enc.x, rows, dims, name="x", title=t("x_m" if s.positional else "x_m_nopos", lang),
                x_title=t("dim", lang), lang=lang)
    st.page_link("pages/1_Words_become_rows.py", label=t("home_go", lang), icon=":material/arrow_forward:", query_params=sidebar.query(s))
with right:
    st.subheader(t("home_step_qk", lang))
    page.matrix(att.q, rows, out, name="Q", title=t("q_m", lang), x_title=t("dim", lang), lang=lang)
    page.matrix(att.k, rows, out, name="K", title=t("k_m", lang), x_title=t("dim", lang), lang=lang)
left, right = st.columns(2)
with left:
    st.subheader(t("home_step_factor", lang))
    page.matrix(att.weights, rows, rows, name="weights", lang=lang, x_title=t("key_word", lang),
                y_title=t("query_word", lang), title=t("weights_m_soft" if s.softmax else "weights_m_raw", lang))
    st.page_link("pages/2_Factor_matrix.py", label=t("home_go", lang), icon=":material/arrow_forward:", query_params=sidebar.query(s))
with right:
    st.subheader(t("home_step_z", lang))
    page.matrix(att.z, rows, out, name="Z", title=t("z_m", lang), x_title=t("dim", lang), lang=lang)

st.subheader(t("home_more", lang))
for col, (path, key) in zip(st.columns(4), sidebar.PAGES[3:]):
    col.page_link(path, label=t(key, lang), icon=":material/arrow_forward:", query_params=sidebar.query(s))
