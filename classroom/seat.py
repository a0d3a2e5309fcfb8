"""What a browser keeps of class mode in its cookies, set by a hidden pixel: its seat, and its role in a class.

The seat is the browser's own: a random id signed with the site's key (classes.secret, shared by every replica), in an
HttpOnly cookie for SEAT_S. Class mode's limits are keyed by it (classroom/visitor.py), not by the Streamlit session,
which a script renews with every websocket it opens: a new seat is handed out only for a nonce a session of this
process offered, at most limiter.SEATS_PER_ADDRESS to one address, and a forged one does not verify.

The role lets reloading the page, or a replica restarting under it, keep a class: a teacher keeps the class they
teach, a student their place and their answers, and the room does not count them twice. The key or token goes into an
HttpOnly cookie of this site (SameSite=Strict, for a class's lifetime), never into the address bar, where a teacher's
projected screen would show it.

A session cannot set a cookie itself (it talks over a websocket), so the page shows a hidden 1-pixel image from ROUTE:
its URL holds only a one-time nonce, kept in this process's memory for NONCE_S (nginx's sticky cookie brings the
image's request to the same replica). The answer sets the cookies the nonce was offered for, and the route notes which
seat the browser has (claimed), for the session that offered the nonce. A new session reads the cookies
(st.context.cookies); the class database decides whether a role still holds, and a stale one is dropped without a
word."""
import asyncio
import hashlib
import hmac
import secrets
import threading
import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from classroom import classes, clients, store
from classroom.limiter import SEATS_PER_ADDRESS, Bucket
from classroom.questions import normal_code
from engine.errors import ClassError

ROUTE = "/_class/seat"
COOKIES = {"key": "class_teacher", "token": "class_student", "seat": "class_seat"}  # what -> the cookie keeping it
NONCE_S = 120.0
SEAT_S = 30 * 24 * 3600
PIXEL = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
_offers: dict[str, tuple[float, str, str]] = {}  # nonce -> (until, cookie name or "" for none, value; "" deletes it)
_claims: dict[str, tuple[float, str]] = {}  # nonce -> (until, the seat its pixel's browser has; "" when none)
_lock = threading.Lock()
NEW_SEATS = Bucket(*SEATS_PER_ADDRESS)


def offer(secret: str, code: str, value: str, *, now: float) -> str:
    """A one-time nonce that sets the cookie of role `secret` ("key" or "token") to code.value."""
    # value "": one that deletes it; secret "": one that sets nothing but the seat
    nonce = secrets.token_urlsafe(24)
    with _lock:
        for kept in (_offers, _claims):
            for old in [n for n, found in kept.items() if found[0] < now]:
                del kept[old]
        _offers[nonce] = (now + NONCE_S, COOKIES[secret] if secret else "", f"{code}.{value}" if value else "")
    return nonce


def taken(nonce: str, now: float) -> tuple[str, str] | None:
    """(cookie name, value) for a nonce offered within NONCE_S, once; else None."""
    with _lock:
        found = _offers.pop(nonce, None)
    return found[1:] if found and found[0] >= now else None


def claimed(nonce: str, now: float) -> str | None:
    """The seat of the browser that loaded the pixel of `nonce` ("" when it could be given none), None until then."""
    with _lock:
        found = _claims.get(nonce)
    return found[1] if found and found[0] >= now else None


def sign(key: str, seat: str) -> str:
    """A seat's id with its signature: the cookie's value."""
    return f"{seat}.{hmac.new(key.encode(), seat.encode(), hashlib.sha256).hexdigest()[:32]}"


def verified(key: str, cookie: str | None) -> str | None:
    """The seat a cookie's value holds, when the site's key signed it; else None."""
    seat, _, _ = (cookie or "")[:100].partition(".")
    return seat if seat and hmac.compare_digest(sign(key, seat), (cookie or "")[:100]) else None


async def seat(request: Request) -> Response:
    """ROUTE: the pixel, with the cookie its nonce was offered for and a seat for a browser that has none."""
    # an unknown or stale nonce gets the pixel alone
    response = Response(PIXEL, media_type="image/gif", headers={"Cache-Control": "no-store"})
    now = time.time()
    nonce = request.query_params.get("n", "")[:64]
    found = taken(nonce, now)
    if found is None:
        return response
    https = request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"
    name, value = found
    if name:
        response.set_cookie(name, value, max_age=int(classes.TTL_S) if value else 0, path="/", httponly=True,
                            samesite="strict", secure=https)
    have = await seat_of(request, now)
    if have and have[1]:
        response.set_cookie(COOKIES["seat"], have[1], max_age=SEAT_S, path="/", httponly=True, samesite="strict",
                            secure=https)
    with _lock:
        _claims[nonce] = (now + NONCE_S, have[0] if have else "")
    return response


async def seat_of(request: Request, now: float) -> tuple[str, str] | None:
    """(the browser's seat, the cookie to set: "" when it has one) for a pixel's request: its own, else a new one."""
    # None when its address may have no more new seats, or the database holds no key to sign with
    try:
        key = store.secret_now() or await asyncio.to_thread(store.secret)
    except store.Unavailable:
        return None
    have = verified(key, request.cookies.get(COOKIES["seat"]))
    if have:
        return have, ""
    address = clients.address(request.client.host if request.client else None, request.headers.get("x-forwarded-for"))
    if not NEW_SEATS.allow(address, now):
        return None
    fresh = secrets.token_urlsafe(16)
    return fresh, sign(key, fresh)


ROUTES = [Route(ROUTE, seat, methods=["GET"])]


def code_of(typed: str) -> str | None:
    """A class code in its stored form, None for anything that is not one."""
    try:
        return normal_code(typed)
    except ClassError:
        return None


def code_and_secret(cookies: dict[str, str], secret: str) -> tuple[str, str] | None:
    """(class code, secret) from the cookie of role `secret`, if it is well formed."""
    code, _, value = cookies.get(COOKIES[secret], "").partition(".")
    code = code_of(code)
    return (code, value) if code and classes.well_formed(value) else None
