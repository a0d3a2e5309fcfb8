"""`streamlit run dashboard.py` serves the dashboard: Streamlit finds `app` here and runs home.py and pages/ in it,
with the start-up work of ui/server.py."""
import streamlit as st

from ui.server import lifespan

app = st.App("home.py", lifespan=lifespan)
