"""A class role kept by the browser, so that reloading the page, or a replica restarting under it, does not lose it: a
teacher keeps the class they teach, a student their seat and their answers, and the room does not count them twice.

The key or token goes into an HttpOnly cookie of this site (SameSite=Strict, for a class's lifetime), never into the
address bar, where a teacher's projected screen would show it. A session cannot set a cookie itself (it talks over a
websocket), so the page shows a hidden 1-pixel image from ROUTE: its URL holds only a one-time nonce, kept in this
process's memory for NONCE_S (nginx's sticky cookie brings the image's request to the same replica), and the answer
sets the cookie. A new session reads the cookie (st.context.cookies); the class database decides whether it still
holds, and a stale one is dropped without a word."""
import secrets
import threading
import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from classroom import classes
from classroom.questions import normal_code
from engine.errors import ClassError

ROUTE = "/_class/seat"
COOKIES = {"key": "class_teacher", "token": "class_student"}  # a role's secret -> the cookie that keeps it
NONCE_S = 120.0
PIXEL = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
_offers: dict[str, tuple[float, str, str]] = {}  # nonce -> (until, cookie name, value; "" deletes it)
_lock = threading.Lock()


def offer(secret: str, code: str, value: str, *, now: float) -> str:
    """A one-time nonce that sets the cookie of role `secret` ("key" or "token") to code.value; with value "",
    one that deletes it."""
    nonce = secrets.token_urlsafe(24)
    with _lock:
        for old in [n for n, (until, _, _) in _offers.items() if until < now]:
            del _offers[old]
        _offers[nonce] = (now + NONCE_S, COOKIES[secret], f"{code}.{value}" if value else "")
    return nonce


def taken(nonce: str, now: float) -> tuple[str, str] | None:
    """(cookie name, value) for a nonce offered within NONCE_S, once; else None."""
    with _lock:
        found = _offers.pop(nonce, None)
    return found[1:] if found and found[0] >= now else None


async def seat(request: Request) -> Response:
    """ROUTE: the pixel, and the cookie its nonce was offered for (nothing for an unknown or stale nonce)."""
    response = Response(PIXEL, media_type="image/gif", headers={"Cache-Control": "no-store"})
    found = taken(request.query_params.get("n", "")[:64], time.time())
    if found:
        name, value = found
        https = request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"
        response.set_cookie(name, value, max_age=int(classes.TTL_S) if value else 0, path="/", httponly=True,
                            samesite="strict", secure=https)
    return response


ROUTES = [Route(ROUTE, seat, methods=["GET"])]


def code_of(typed: str) -> str | None:
    """A class code in its stored form, None for anything that is not one."""
    try:
        return normal_code(typed)
    except ClassError:
        return None


def kept(cookies: dict[str, str], secret: str) -> tuple[str, str] | None:
    """(class code, secret) from the cookie of role `secret`, if it is well formed."""
    code, _, value = cookies.get(COOKIES[secret], "").partition(".")
    code = code_of(code)
    return (code, value) if code and classes.well_formed(value) else None
