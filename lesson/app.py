"""The entry: every run starts here (st.App in dashboard.py names this script; it sits in lesson/, not beside pages/,
so that Streamlit never runs a page script without it). It reads the visitor's Settings and sets the run's language
from them (every text from here on reads it), finds the page asked for in kit/pages.py's PAGES, opens it (sidebar,
vectors, layer weights, the sentence through the layers: frame.context) and runs it; the page reads what was opened with
frame.current()."""
import streamlit as st

from kit import pages, text
from kit.text import t
from lesson import frame, sidebar

settings = sidebar.current()
text.use(settings.lang)  # once per run, before the first text
st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
routes = {st.Page(p.script, title=t(p.nav), default=p is pages.PAGES[0]): p for p in pages.PAGES}
chosen = st.navigation(list(routes), position="hidden")  # the sidebar draws its own links (lesson/sidebar.py)
frame.RUN.set(frame.context(routes[chosen], settings))
chosen.run()
