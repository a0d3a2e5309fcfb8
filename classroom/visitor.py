"""Who a session is to class mode: its browser's seat and its client's address, the keys of class mode's limits. A
Streamlit session is no key: a script renews it with every websocket it opens.

A session learns its seat from the seat cookie its websocket brought (st.context.cookies), else from a pixel its page
shows (classroom/seat.py): the browser loads the image, and the route notes the browser's seat for the image's nonce.
An action that needs a seat waits up to CLAIM_WAIT_S for the pixel the page has just shown, and without one says so in
a sentence. A script that never loads the pixel has no seat: it joins no class, opens none and answers nothing."""
import time

import streamlit as st

from classroom import admission, clients, seat, store
from classroom.limiter import (
    ANSWERS_PER_STUDENT,
    JOINS_PER_SEAT,
    STARTS_PER_ADDRESS,
    STARTS_PER_SEAT,
    Bucket,
    Limiter,
)
from engine.errors import ClassError
from server import runtime

SEAT, PIXEL, NONCES = "_class_seat", "_class_pixel", "_class_nonces"  # the session's seat, pixel, nonces offered
CLAIM_WAIT_S, CLAIM_POLL_S, NONCES_KEPT = 2.0, 0.05, 4
RATES: dict[str, Limiter | Bucket] = {
    "answer": Limiter(*ANSWERS_PER_STUDENT), "join": Limiter(*JOINS_PER_SEAT), "start": Limiter(*STARTS_PER_SEAT),
    "start_address": Bucket(*STARTS_PER_ADDRESS)}


def address() -> str:
    """The session's client address (classroom/clients.py), from its websocket's peer and headers."""
    return clients.address(runtime.peer(), (st.context.headers or {}).get("X-Forwarded-For"))


def seat_of(wait: float = 0.0) -> str | None:
    """The session's seat: its cookie's, else its pixel's browser's (waiting up to `wait` s for it); None while none."""
    ss = st.session_state
    if not ss.get(SEAT):
        ss[SEAT] = from_cookie() or claimed(wait)
    return ss[SEAT] or None


def from_cookie() -> str | None:
    """The seat in the cookie the session's websocket brought, if the site's key signed it."""
    cookie = (st.context.cookies or {}).get(seat.COOKIES["seat"])
    return seat.verified(store.secret(), cookie) if cookie else None


def claimed(wait: float) -> str | None:
    """The seat noted for one of the session's pixels, looked for until `wait` seconds have passed."""
    end = time.monotonic() + wait
    while True:
        found = next((s for s in map(lambda n: seat.claimed(n, time.time()), st.session_state.get(NONCES, ())) if s),
                     None)
        if found or time.monotonic() >= end:
            return found
        time.sleep(CLAIM_POLL_S)


def offered(secret: str = "", code: str = "", value: str = "") -> str:
    """A pixel's path that sets role `secret`'s cookie to code.value (seat.offer) and tells this session its seat."""
    # pixel() shows it from now on
    nonce = seat.offer(secret, code, value, now=time.time())
    st.session_state[NONCES] = [*st.session_state.get(NONCES, ())[-(NONCES_KEPT - 1):], nonce]
    st.session_state[PIXEL] = f"{seat.ROUTE}?n={nonce}"
    return st.session_state[PIXEL]


def pixel(base_url: str) -> None:
    """The hidden pixel the page shows: the last one offered, else, while the session has no seat, one giving it one."""
    try:
        if PIXEL not in st.session_state and seat_of() is None:
            offered()
    except store.Unavailable:  # no pixel: the database cannot say which seat a cookie holds
        return
    if PIXEL in st.session_state:
        st.html(f'<img src="{base_url}{st.session_state[PIXEL]}" alt="" width="1" height="1" hidden>')


def admitted(action: str, student: str = "") -> dict:
    """The arguments naming this session's seat (and keyed address) for `action`, once its limits allow it."""
    # action: "join", "start" or "answer" (the latter limited by the student's token); ClassError when not allowed
    key = store.secret()  # a database that does not answer is said as such, not as a missing seat
    found = seat_of(CLAIM_WAIT_S)
    now = time.time()
    if not found:
        raise ClassError("no_seat")
    if action == "answer":
        RATES["answer"].check(student, now)
        return {"seat": found}
    RATES[action].check(found, now)
    if action == "start":
        RATES["start_address"].check(address(), now)
        return {}
    return {"seat": found, "origin": admission.origin(address(), key)}
