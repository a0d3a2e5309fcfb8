"""The least a page's own control can be, for bench.browser: the dashboard's frame, and in its part (frame.part) the
query word and one heatmap of the rows with that word's row outlined. The word reruns the part alone, and the chart
keeps its spec: only its data changes (the outline), which the browser redraws in place."""
import streamlit as st

from kit import pages, tables, text, views
from kit.charts import Titles
from kit.text import t
from kit.views import Marks
from lesson import frame, sidebar

settings = sidebar.current()
text.use(settings.lang)
st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
st.navigation([st.Page(p.script, title=t(p.nav), default=p is pages.PAGES[0]) for p in pages.PAGES],
              position="hidden")  # the menu's links name these pages; this script draws the page itself


def outlined_row(ctx: frame.Context):
    """The query word, and the rows with its row outlined."""
    rows = ctx.enc.labels
    q = views.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1])
    views.matrix(ctx.enc.x, rows, tables.dims(ctx.kv.vector_size), Titles(t("x_m"), t("dim")), name="x",
                 marks=Marks(selected=q))


frame.RUN.set(frame.context(pages.page("learn"), settings))
frame.part(outlined_row, "query")
