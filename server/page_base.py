"""Where the page finds its server. Opened at a page's own address (/Three_kinds), Streamlit 1.67's frontend looks for
its server first under that address (/Three_kinds/_stcore/health and …/host-config: two 404s, two console errors)
and then one segment up. It looks under `window.__streamlit.BACKEND_BASE_URL` (and its parent) instead when
that is set, and reads the page's name from the address less that base. This ASGI middleware, which dashboard.py hands
to st.App, puts one inline script into Streamlit's index.html (the answer for the app's root and every page's address)
that sets it in the browser from the page's own location: the address less a last segment that names one of the app's
pages. So it holds at /, at a page, and under a prefix (a proxy's, or server.baseUrlPath). Every other response passes
as it came; no path is read from disk but the installed index.html, once."""
import json
from collections.abc import Iterable
from importlib.resources import files

from starlette.middleware import Middleware

# The page's base path (ending in /) from its location's path, a function of (path, the app's page URL names).
BASE = ("(path, pages) => { const parts = path.replace(/\\/+$/, '').split('/'); let last = parts[parts.length - 1]; "
        "try { last = decodeURIComponent(last); } catch (e) {} if (pages.includes(last)) parts.pop(); "
        "return parts.join('/') + '/'; }")
# What a page request is sent without: its answer comes whole, uncompressed and fresh, so that it can be read here.
DROPPED = {b"accept-encoding", b"if-none-match", b"if-modified-since", b"range", b"if-range"}
# What an answer changed here no longer says as it came: its length (told anew), the validators of the file on disk.
STALE = {b"content-length", b"etag", b"last-modified"}


def streamlit_index() -> bytes:
    """The index.html the installed Streamlit serves as every page."""
    return (files("streamlit") / "static" / "index.html").read_bytes()


def script(names: Iterable[str]) -> bytes:
    """The inline script setting window.__streamlit's BACKEND_BASE_URL for a page of the app whose pages are `names`."""
    pages = json.dumps(sorted(names)).replace("<", "\\u003c")
    return (f"window.__streamlit = {{BACKEND_BASE_URL: location.origin + ({BASE})(location.pathname, {pages})}};"
            .encode())


def with_script(index: bytes, code: bytes) -> bytes:
    """index.html with `code` as an inline script at the end of its head, where it runs before Streamlit's module."""
    return index.replace(b"</head>", b"<script>" + code + b"</script>\n  </head>", 1)


def page(names: Iterable[str]) -> bytes:
    """The page the app serves: Streamlit's index.html with the script for the pages `names`."""
    return with_script(streamlit_index(), script(names))


def asks_for_page(path: str, names: frozenset[str]) -> bool:
    """Whether a request's (decoded) path may be answered with the page: the app's root (ending in /) or a page's."""
    return path.rsplit("/", 1)[-1] in names | {""}


def plain(scope: dict) -> dict:
    """The request as passed on: a GET, without the headers in DROPPED and without Starlette's pathsend."""
    # a HEAD goes on as a GET (its headers are then those of the GET); pathsend's file never passes through here
    extensions = {k: v for k, v in scope.get("extensions", {}).items() if k != "http.response.pathsend"}
    return {**scope, "method": "GET", "extensions": extensions,
            "headers": [(k, v) for k, v in scope["headers"] if k not in DROPPED]}


def answer(messages: list[dict], index: bytes, served: bytes, head: bool) -> list[dict]:
    """The messages to send for a page request: `served` in place of a body that is Streamlit's `index`."""
    # its length told and the file's validators dropped; anything else as it came; no body at all for a HEAD
    if not messages:
        return []
    start, rest = messages[0], messages[1:]
    body = b"".join(m.get("body", b"") for m in rest if m["type"] == "http.response.body")
    if start["type"] == "http.response.start" and start["status"] == 200 and body == index:
        headers = [(k, v) for k, v in start.get("headers", []) if k not in STALE]
        start, body = {**start, "headers": [*headers, (b"content-length", str(len(served)).encode())]}, served
        rest = [{"type": "http.response.body", "body": body}]
    if head:
        rest = [{"type": "http.response.body", "body": b""}]
    return [start, *rest]


class PageBase:
    """ASGI middleware: a GET or HEAD of the app's root or a page is answered with the page holding the script."""
    # only when Streamlit answers it with its index.html; every other request passes untouched

    def __init__(self, app, names: Iterable[str]):
        self.app = app
        self.names = frozenset(names)
        self.index = streamlit_index()
        self.served = page(self.names)

    async def __call__(self, scope, receive, send):
        if (scope["type"] != "http" or scope["method"] not in ("GET", "HEAD")
                or not asks_for_page(scope["path"], self.names)):
            await self.app(scope, receive, send)
            return
        messages = []

        async def collect(message):
            messages.append(message)

        await self.app(plain(scope), receive, collect)
        for message in answer(messages, self.index, self.served, head=scope["method"] == "HEAD"):
            await send(message)


def middleware(names: Iterable[str]) -> Middleware:
    """PageBase, for st.App's middleware, for an app whose pages' URL names are `names`."""
    return Middleware(PageBase, names=names)
