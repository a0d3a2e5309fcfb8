"""`streamlit run dashboard.py` serves the dashboard: Streamlit imports this file, finds `app` and runs home.py and
pages/ in it. Importing it also starts the warm-up in ui/server.py, at the earliest moment there is."""
import streamlit as st

from ui.server import start_warm_up

start_warm_up()
app = st.App("home.py")
