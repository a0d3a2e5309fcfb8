"""The entry: every run starts here (st.App in dashboard.py names this script; it sits in lesson/, not beside pages/,
so that Streamlit never runs a page script without it). It reads the visitor's Settings and sets the run's language
from them (every text from here on reads it), finds the page asked for in kit/pages.py's PAGES, opens it (a step of the
story with its sidebar, vectors, layer weights and the sentence through the layers: frame.context; the class page with
the menu alone: frame.lobby) and runs it; the page reads what was opened with
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
page = routes[chosen]
frame.RUN.set(frame.context(page, settings) if page.step else frame.lobby(page, settings))
chosen.run()
