"""The server's guards, for st.App's middleware, in the order a request meets them: no new websocket while open files
are short (files.py), security headers and the closed metrics (headers.py), the page's script that tells Streamlit's
frontend where its server is (page_base.py), links too long for Streamlit sent on to their settings (links.py), and
the door of the upload endpoint, which admits every file into the memory ledger before its body is read
(upload_gate.py)."""
from collections.abc import Callable

from starlette.middleware import Middleware

from server import files, headers, links, page_base
from server.upload_gate import UploadGate


def middleware(readable: Callable[[list[tuple[str, str]]], dict[str, str]], pages: list[str]) -> list[Middleware]:
    """Every guard, in the order a request meets them, for st.App's middleware."""
    # `readable` keeps what a long link's settings are (lesson/settings.py's); `pages` are the URL names of the app's
    # pages but its root (kit/pages.py's)
    return [Middleware(files.Gate), headers.middleware(page_base.page(pages)), page_base.middleware(pages),
            links.middleware(readable), Middleware(UploadGate)]
