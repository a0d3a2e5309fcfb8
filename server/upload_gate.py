"""The door to Streamlit's upload endpoint: each file is admitted into the memory ledger (server/ledger.py) before its
body is read, or refused with a sentence. Streamlit would otherwise take any number of files of up to
server.maxUploadSize into any session and keep them until the session ends, claimed by an uploader or not."""
import re

from server import ledger

UPLOAD_PATH = re.compile(r"/_stcore/upload_file/(?P<session>[^/]+)/[^/]+$")
REFUSED = {
    411: b"An upload must say its length.",
    413: b"This file does not fit: the server holds one file per visitor at a time, within the memory it shares "
         b"between all visitors. Try again in a minute, or with a smaller file.",
}


def content_length(scope: dict) -> int | None:
    """The request's Content-Length, None when it is missing or not a number."""
    value = dict(scope["headers"]).get(b"content-length", b"")
    return int(value) if value.isdigit() else None


class UploadGate:
    """Pure ASGI middleware: PUTs to the upload endpoint are counted as they arrive, refused when there is no room."""
    # the request body passes through untouched; no room: in the session's share or the server's budget

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        found = UPLOAD_PATH.search(scope.get("path", "")) if scope["type"] == "http" else None
        if found is None or scope["method"] != "PUT":
            return await self.app(scope, receive, send)
        session, size = found["session"], content_length(scope)
        if size is None:
            return await refuse(receive, send, 411)
        if not ledger.admit(session, size):
            return await refuse(receive, send, 413)
        try:
            await self.app(scope, receive, send)
        finally:
            ledger.landed(session, size)


async def refuse(receive, send, status: int) -> None:
    """Answer with the status and its sentence, after reading and dropping the body piece by piece (nothing kept)."""
    # a connection closed on a body still arriving is reset, and the browser would never see the answer
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": REFUSED[status]})
