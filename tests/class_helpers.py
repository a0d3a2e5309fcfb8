"""A browser for class mode's AppTest sessions: it loads the hidden pixels a page shows (classroom/seat.py), as a
browser loads images, and keeps the cookies their answers set. AppTest cannot hand a session cookies, so a session
learns its seat the way a page does when the browser had no cookie yet: from its pixel."""
import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie

from starlette.requests import Request

from classroom import seat

SRC = re.compile(r'src="[^"]*?(/_class/seat\?n=[^"]+)"')


def pixel(nonce: str, scheme: str = "http", forwarded: str | None = None, cookies: dict[str, str] | None = None,
          client: tuple[str, int] = ("127.0.0.1", 50000)):
    """The class seat's route answering a browser's request for the pixel: the response."""
    headers = [(b"x-forwarded-proto", forwarded.encode())] if forwarded else []
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    scope = {"type": "http", "method": "GET", "scheme": scheme, "path": seat.ROUTE, "headers": headers,
             "query_string": f"n={nonce}".encode(), "server": ("127.0.0.1", 80), "client": client}
    with ThreadPoolExecutor(1) as thread:  # a thread of its own: Playwright's sync API may hold this one's loop
        return thread.submit(asyncio.run, seat.seat(Request(scope))).result()


def set_by(response) -> dict[str, str]:
    """The cookies a response sets, by name ('' for one it deletes)."""
    jar = SimpleCookie()
    for value in response.headers.getlist("set-cookie"):
        jar.load(value)
    return {name: morsel.value.strip('"') for name, morsel in jar.items()}


def load_pixels(at, jar: dict[str, str] | None = None) -> dict[str, str]:
    """Load every pixel the session's page shows, with the cookies in `jar`, keeping what they set there: the jar."""
    jar = {} if jar is None else jar
    for html in at.get("html"):
        found = SRC.search(html.proto.body)
        if found:
            jar.update(set_by(pixel(found.group(1).split("n=", 1)[1], cookies=jar)))
    return jar
