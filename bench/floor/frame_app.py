"""The least a story page can be, for bench.browser: the dashboard's own frame around one heatmap of the rows."""
import streamlit as st

from kit import pages, tables, text, views
from kit.charts import Titles
from kit.text import t
from lesson import frame, sidebar

settings = sidebar.current()
text.use(settings.lang)
st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
st.navigation([st.Page(p.script, title=t(p.nav), default=p is pages.PAGES[0]) for p in pages.PAGES],
              position="hidden")  # the menu's links name these pages; this script draws the page itself
ctx = frame.context(pages.page("learn"), settings)
views.matrix(ctx.enc.x, ctx.enc.labels, tables.dims(ctx.kv.vector_size), Titles(t("x_m"), t("dim")), name="x")
