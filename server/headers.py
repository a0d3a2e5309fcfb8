"""What the server says and refuses on every request, in one ASGI middleware that dashboard.py hands to st.App: the
security headers (a Content-Security-Policy first), /_stcore/metrics closed unless the operator opens it, and websockets
only from this server's own pages. Served directly or behind deploy/'s nginx (which adds none of its own), a browser
gets the same."""
import base64
import hashlib
import os
import re
from urllib.parse import urlsplit

from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse

METRICS_ENV = "ATTENTION_METRICS"
METRICS_PATH = "/_stcore/metrics"
# A Host header as browsers send it: a name or an address, and a port; anything else stays out of the policy.
HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
FIXED = {"X-Frame-Options": "SAMEORIGIN", "X-Content-Type-Options": "nosniff",
         "Referrer-Policy": "strict-origin-when-cross-origin",
         "Permissions-Policy": "camera=(), microphone=(), geolocation=()"}


def script_hashes(index_html: bytes) -> list[str]:
    """The CSP source of each inline <script> of a page: 'sha256-' and the base64 digest of its text."""
    scripts = re.findall(rb"<script>(.*?)</script>", index_html, flags=re.S)
    return [f"'sha256-{base64.b64encode(hashlib.sha256(s).digest()).decode()}'" for s in scripts]


def content_security_policy(host: str | None, scripts: list[str]) -> str:
    """What Streamlit's page needs, checked in Chromium on every page, with no framing by other sites."""
    # Its own scripts and the inline ones hashed; blob: modules (a components.v2 component's inline JavaScript, class
    # mode's watch; only a script already running on the page can make one); WebAssembly (protobuf's 64-bit numbers;
    # Vega draws without 'unsafe-eval'); inline styles; data:/blob: images and workers; its websocket to the host it was
    # reached at.
    sockets = f" ws://{host} wss://{host}" if host and HOST.fullmatch(host) else ""
    return "; ".join([
        "default-src 'self'", " ".join(["script-src 'self' blob: 'wasm-unsafe-eval'", *scripts]),
        "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:", "font-src 'self' data:",
        "media-src 'self' data: blob:", f"connect-src 'self'{sockets}", "worker-src 'self' blob:", "frame-src 'self'",
        "frame-ancestors 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"])


def security_headers(host: str | None, scripts: list[str]) -> list[tuple[bytes, bytes]]:
    """Every security header of a response to a request for `host`, as ASGI header pairs."""
    values = {**FIXED, "Content-Security-Policy": content_security_policy(host, scripts)}
    return [(name.lower().encode(), value.encode("latin-1")) for name, value in values.items()]


def same_origin(origin: str | None, host: str | None) -> bool:
    """True when a websocket may open: its page is on the very host and port the browser reached this server at."""
    # Streamlit's own check lets any page of localhost or this machine's addresses in, whatever its port. The scheme is
    # not compared: where TLS ends in front, an https page's websocket arrives as ws://.
    if origin is None:  # not a browser
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc.lower() == host.lower()


def header(scope: dict, name: bytes) -> str | None:
    """The first value of a request header (lower-case name), or None."""
    return next((value.decode("latin-1") for key, value in scope["headers"] if key == name), None)


class Guard:
    """ASGI middleware: refuses foreign websockets and, unless opened, the metrics; adds the security headers."""
    # a websocket closed before it opens is an HTTP 403; the metrics are a 404; the headers go on every HTTP response

    def __init__(self, app, page: bytes, metrics: bool = False):
        self.app, self.metrics, self.scripts = app, metrics, script_hashes(page)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(header(scope, b"origin"), header(scope, b"host")):
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = security_headers(header(scope, b"host"), self.scripts)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        if not self.metrics and scope["path"].rstrip("/").endswith(METRICS_PATH):
            await PlainTextResponse("Not Found", status_code=404)(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def middleware(page: bytes) -> Middleware:
    """The Guard for st.App, allowing the inline scripts of `page` (the index.html the app serves)."""
    # metrics open when the operator set ATTENTION_METRICS=1
    return Middleware(Guard, page=page, metrics=os.environ.get(METRICS_ENV) == "1")
