import streamlit as st

from ui import page, views
from ui.text import t

ctx = page.context("factor")
s, lang, att, rows = ctx.s, ctx.lang, ctx.att, ctx.enc.labels

c1, c2, c3 = st.columns([1, 1, 2])
c1.toggle(t("scaled", lang), key="scaled")
c2.toggle(t("softmax", lang), key="softmax")
views.attention_view(att, rows, rows, lang, softmax=s.softmax, picker=c3)
