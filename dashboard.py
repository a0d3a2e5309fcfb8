"""`streamlit run dashboard.py` serves the dashboard: Streamlit imports this file, finds `app` and runs home.py and
pages/ in it, behind ui/headers.py's guard (security headers, metrics closed, websockets from its own pages only),
ui/links.py's check of over-long links and ui/upload_gate.py's door to the upload endpoint (every file admitted into
the memory ledger before it is read). Importing it also starts the warm-up in ui/server.py, at the earliest moment
there is."""
import streamlit as st
from starlette.middleware import Middleware

from ui import headers, links
from ui.server import start_warm_up
from ui.upload_gate import UploadGate

start_warm_up()
app = st.App("home.py", middleware=[headers.middleware(), links.middleware(), Middleware(UploadGate)])
