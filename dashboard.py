"""`streamlit run dashboard.py` serves the dashboard: Streamlit imports this file, finds `app` and runs lesson/app.py
in it (the entry: it runs the scripts of pages/, as listed in kit/pages.py's PAGES). Two wings are put together
here: the server's guards (server/: security headers, metrics closed, websockets from its own pages only; the page's
script telling the frontend where its server is, given the pages' URL names; long links sent on to their settings; the
upload door, which admits every file into the memory ledger before it is read) and class mode's routes (classroom/:
the seat a browser keeps, the watch that tells a class panel its class moved on). The lifespan warms the app up as the
server starts (lesson/warm.py) and releases the class watches when it is told to stop; importing this file starts
nothing, but has the server believe X-Forwarded-For from the proxies class mode trusts alone (server/forwarded.py)."""
import os

import streamlit as st

from classroom import classes, clients, seat, watch
from kit import pages
from lesson import settings, warm
from server import forwarded, guards
from server.lifespan import of

forwarded.follow(os.environ.get(clients.TRUSTED_ENV, ""))
lifespan = of(warm.up, watch.release, class_cap=classes.CAP)
app = st.App("lesson/app.py", lifespan=lifespan, routes=seat.ROUTES + watch.ROUTES,
             middleware=guards.middleware(settings.readable, [p.url_path for p in pages.PAGES if p.url_path]))
