"""How the floor apps open, as the dashboard's entry (lesson/app.py) does: the visitor's Settings and language, the
page's config and the hidden navigation the menu's links name, then the frame of a story page (frame.context)."""
import streamlit as st

from kit import pages, text
from kit.text import t
from lesson import frame, sidebar


def story_page(name: str = "learn") -> frame.Context:
    """The frame of story page `name`, opened as the entry opens it, and set as this run's Context."""
    settings = sidebar.current()
    text.use(settings.lang)
    st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
    st.navigation([st.Page(p.script, title=t(p.nav), default=p is pages.PAGES[0]) for p in pages.PAGES],
                  position="hidden")  # the menu's links name these pages; the floor app draws the page itself
    ctx = frame.context(pages.page(name), settings)
    frame.RUN.set(ctx)
    return ctx
