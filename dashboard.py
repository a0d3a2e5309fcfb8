"""`streamlit run dashboard.py` serves the dashboard: Streamlit imports this file, finds `app` and runs app.py in it
(the entry: it runs home.py and steps/, as listed in ui/pages.py's PAGES), behind ui/headers.py's guard (security
headers, metrics closed, websockets from its own pages only), ui/links.py's check of over-long links and
ui/upload_gate.py's door to the upload endpoint (every file admitted into the memory ledger before it is read), with
ui/class_seat.py's route that lets a browser keep its part in a class and ui/class_watch.py's that tells a class
panel when its class moved on. Its
lifespan (ui/server.py) starts the warm-up as the server starts; importing this file starts nothing."""
import streamlit as st
from starlette.middleware import Middleware

from ui import class_seat, class_watch, headers, links
from ui.server import lifespan
from ui.upload_gate import UploadGate

app = st.App("app.py", lifespan=lifespan, routes=class_seat.ROUTES + class_watch.ROUTES,
             middleware=[headers.middleware(), links.middleware(), Middleware(UploadGate)])
