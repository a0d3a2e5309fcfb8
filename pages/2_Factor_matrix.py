import streamlit as st

from engine.attention import attend
from ui import page, sidebar
from ui.text import t

s = sidebar.render("factor")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("factor_title", lang))
st.markdown(t("factor_intro", lang))

enc = page.sentence_rows(kv, s.sentence, s)
if enc is None:
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled, softmax=s.softmax)
rows = enc.labels

c1, c2, c3 = st.columns([1, 1, 2])
c1.toggle(t("scaled", lang), key="scaled")
c2.toggle(t("softmax", lang), key="softmax")
page.attention_view(att, rows, rows, s, picker=c3)
