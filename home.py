import streamlit as st

from ui import page, pages, reproduce, sidebar, tables, views
from ui.text import t

ctx = page.current()
s, lang, enc, att = ctx.s, ctx.lang, ctx.enc, ctx.att
st.caption(t("home_read", lang))
rows, dims, out = enc.labels, tables.dims(ctx.kv.vector_size), tables.dims(att.q.shape[1])

left, right = st.columns(2)
with left:
    st.subheader(t("home_step_rows", lang))
    views.matrix(enc.x, rows, dims, name="x", title=t("x_m" if s.position else "x_m_nopos", lang),
                 x_title=t("dim", lang), lang=lang)
    st.page_link(pages.PAGES[1].path, label=t("home_go", lang), icon=":material/arrow_forward:",
                 query_params=sidebar.query(s))
with right:
    st.subheader(t("home_step_qk", lang))
    views.matrix(att.q, rows, out, name="Q", title=t("q_m", lang), x_title=t("dim", lang), lang=lang)
    views.matrix(att.k, rows, out, name="K", title=t("k_m", lang), x_title=t("dim", lang), lang=lang)
left, right = st.columns(2) if len(rows) <= views.SIDE_BY_SIDE else (st.container(), st.container())
with left:
    st.subheader(t("home_step_factor", lang))
    views.matrix(att.weights, rows, rows, name="weights", lang=lang, x_title=t("key_word", lang), weights=s.softmax,
                 y_title=t("query_word", lang), title=t("weights_m_soft" if s.softmax else "weights_m_raw", lang),
                 mask=None if att.mask.all() else att.mask)
    if views.own_hidden(att.mask):
        st.caption(t("own_hidden", lang))
    st.page_link(pages.PAGES[2].path, label=t("home_go", lang), icon=":material/arrow_forward:",
                 query_params=sidebar.query(s))
with right:
    st.subheader(t("home_step_z", lang))
    views.matrix(att.z, rows, out, name="Z", title=t("z_m", lang), x_title=t("dim", lang), lang=lang)

reproduce.downloads(ctx, "home")
st.subheader(t("home_more", lang))
more = st.container(horizontal=True)
for p in pages.PAGES[3:]:
    more.page_link(p.path, label=t(f"nav_{p.name}", lang), icon=":material/arrow_forward:",
                   query_params=sidebar.query(s))
