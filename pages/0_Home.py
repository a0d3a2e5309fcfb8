import streamlit as st

from kit import pages, state, views
from kit.charts import Titles
from kit.text import t
from lesson import downloads, frame

ctx = frame.current()
s, enc, att, rows = ctx.s, ctx.enc, ctx.att, ctx.enc.labels
st.caption(t("home_read"))
links = state.linked(s)  # page links carry the view
go = ":material/arrow_forward:"

left, right = st.columns(2)
with left:
    st.subheader(t("home_step_rows"))
    views.matrix(enc.x, rows, ctx.dims, Titles(t("x_m" if s.position else "x_m_nopos"), t("dim")), name="x")
    st.page_link(pages.page("words").script, label=t("home_go"), icon=go, query_params=links)
with right:
    st.subheader(t("home_step_qk"))
    views.matrix(att.q, rows, ctx.out_dims, Titles(t("q_m"), t("dim")), name="Q")
    views.matrix(att.k, rows, ctx.out_dims, Titles(t("k_m"), t("dim")), name="K")
left, right = views.side_by_side(len(rows))
with left:
    st.subheader(t("home_step_factor"))
    marks = views.Marks(None if att.mask.all() else att.mask)
    views.matrix(att.factor, rows, rows, Titles(t("factor_m"), t("key_word"), t("query_word"), t("qk_raw")),
                 name="factor", marks=marks)
    st.markdown(views.positive_cells(att, rows, rows))
    views.matrix(att.weights, rows, rows, Titles(t("weights_m_soft" if s.softmax else "weights_m_raw"), t("key_word"),
                                                 t("query_word"), views.weights_value(s.softmax, s.scaled)),
                 name="weights", marks=views.Marks(marks.mask, weights=s.softmax))
    if views.own_hidden(att.mask):
        st.caption(ctx.own_note)
    st.page_link(pages.page("factor").script, label=t("home_go"), icon=go, query_params=links)
with right:
    st.subheader(t("home_step_z"))
    views.matrix(att.z, rows, ctx.out_dims, Titles(t("z_m"), t("dim")), name="Z")

downloads.menu(ctx)
st.subheader(t("home_more"))
more = st.container(horizontal=True)
for p in pages.others("home", "words", "factor"):  # the pages linked above are not listed again
    more.page_link(p.script, label=t(p.nav), icon=go, query_params=links)
