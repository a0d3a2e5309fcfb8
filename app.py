"""The entry: every run starts here. It reads the visitor's Settings and sets the run's language from them (every text
from here on reads it), finds the page asked for in ui/pages.py's PAGES, opens it (sidebar, vectors, layer weights, the
sentence through the layers: page.context) and runs it; the page reads what was opened with page.current()."""
import streamlit as st

from ui import page, pages, sidebar, text
from ui.text import t

settings = sidebar.current()
text.use(settings.lang)  # once per run, before the first text
st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
routes = {st.Page(p.path, title=t(f"nav_{p.name}"), default=p is pages.PAGES[0]): p for p in pages.PAGES}
chosen = st.navigation(list(routes), position="hidden")  # the sidebar draws its own links (ui/sidebar.py)
page.RUN.set(page.context(routes[chosen], settings))
chosen.run()
