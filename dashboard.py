"""`streamlit run dashboard.py` serves the dashboard: Streamlit imports this file, finds `app` and runs lesson/app.py in
it (the entry: it runs the scripts of pages/, as listed in lesson/pages.py's PAGES), behind server/headers.py's guard
(security headers, metrics closed, websockets from its own pages only), server/links.py's check of over-long links and
server/upload_gate.py's door to the upload endpoint (every file admitted into the memory ledger before it is read), with
classroom/seat.py's route that lets a browser keep its part in a class and classroom/watch.py's that tells a class panel
when its class moved on. Its lifespan (server/lifespan.py) starts the warm-up as the server starts; importing this file
starts nothing."""
import streamlit as st
from starlette.middleware import Middleware

from classroom import seat, watch
from server import headers, links
from server.lifespan import lifespan
from server.upload_gate import UploadGate

app = st.App("lesson/app.py", lifespan=lifespan, routes=seat.ROUTES + watch.ROUTES,
             middleware=[headers.middleware(), links.middleware(), Middleware(UploadGate)])
