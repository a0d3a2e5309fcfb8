"""Which of the watch route's questions are held (classroom/watch.py), so that holding cannot be turned against the
server: a code no live class has is answered at once (no watch, no task, no read of its own: the live classes' codes
are read at most every REFRESH_S, whatever the number of codes asked for); at most HELD_PER_SEAT questions are held for
one browser (its seat cookie, classroom/seat.py; the browsers without one share one allowance per address),
HELD_PER_ADDRESS for one client address and HELD_PER_PROCESS in all. A question over them is answered at once with
the class's stage and a Retry-After of LATER_S, so that its watch asks again a moment later: a browser over the
allowance sees a change within about LATER_S, and one classmate holding many questions cannot use up the address's
allowance of the rest of the room, who each hold their own. The teacher's stage (the counts) goes only to the
browser holding the class's teacher key. Everything here runs on the server's event loop."""
import asyncio
import hmac
import time
from collections import Counter

from classroom import classes, seat, store

REFRESH_S = 0.5
# a browser opens 6 connections to a site at most (HTTP/1.1): one held question for each tab of the class it shows;
# a class of 200 behind one address holds one question a tab
HELD_PER_SEAT, HELD_PER_ADDRESS, HELD_PER_PROCESS = 6, 400, 4000
LATER_S, UNKNOWN_S = 1, 30  # Retry-After for a question not held (answered with the stage), for an unknown code
DOWN_S = 5  # Retry-After while the database does not answer
LATER = "later"  # the answer when the live classes were read too recently to tell (ask again after SOON_S)
SOON_S = 1
_teachers: dict[str, str] = {}  # the live classes' codes -> their teacher key's hash, as last read
_read = [float("-inf")]  # time.monotonic() when the last read ended
_reading: list[asyncio.Task] = []  # the last read, on the loop it runs on
_held: Counter[str] = Counter()  # client address -> questions held now
_seated: Counter[tuple[str, str]] = Counter()  # (client address, seat or "" for none) -> questions held now
_holding = [0]


async def look(code: str) -> str:
    """Whether `code` names a live class: "live", "unknown", "later" (ask again) or "down" (no database)."""
    # "unknown" comes only from a read of the live classes made after the question was asked; "later" when the last read
    # ended less than REFRESH_S ago
    if code in _teachers:
        return "live"
    loop, task = asyncio.get_running_loop(), _reading[0] if _reading else None
    if task is None or task.get_loop() is not loop or task.done():
        if task is not None and task.get_loop() is loop and time.monotonic() - _read[0] < REFRESH_S:
            return "later"
        task = loop.create_task(read_teachers())
        _reading[:] = [task]
    answered = await asyncio.shield(task)  # the questions that came meanwhile share it
    return "live" if code in _teachers else "unknown" if answered else "down"


async def read_teachers() -> bool:
    """Read the live classes' codes and teacher keys' hashes: whether the database answered."""
    try:
        found = await asyncio.to_thread(store.call, classes.teachers)
    except store.Unavailable:
        return False
    finally:
        _read[0] = time.monotonic()
    _teachers.clear()
    _teachers.update(found)
    return True


def teaches(code: str, cookies: dict[str, str]) -> bool:
    """Whether the cookies hold the teacher key of class `code` (a live class `look` found)."""
    kept = seat.code_and_secret(cookies, "key")
    stored = _teachers.get(code)
    return bool(kept and stored and kept[0] == code and hmac.compare_digest(stored, classes.digest(kept[1])))


async def seat_of(cookies: dict[str, str]) -> str:
    """The browser's seat as its signed cookie says; "" without one, or while the database holding the key is down."""
    cookie = cookies.get(seat.COOKIES["seat"])
    if not cookie:
        return ""
    try:
        key = store.secret_now() or await asyncio.to_thread(store.secret)
    except store.Unavailable:
        return ""
    return seat.verified(key, cookie) or ""


def hold(address: str, browser: str = "") -> bool:
    """Count one more question held for seat `browser` at `address`; False when it, the address or process is full."""
    if (_seated[address, browser] >= HELD_PER_SEAT or _held[address] >= HELD_PER_ADDRESS
            or _holding[0] >= HELD_PER_PROCESS):
        return False
    _seated[address, browser] += 1
    _held[address] += 1
    _holding[0] += 1
    return True


def let_go(address: str, browser: str = "") -> None:
    """A question held for the seat `browser` at `address` was answered."""
    _holding[0] -= 1
    for counter, key in ((_held, address), (_seated, (address, browser))):
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]


def forget_teachers() -> None:
    """Have the next look read the live classes again."""
    # for tests: a class this process just opened is read on its first miss anyway
    _teachers.clear()
    _read[0] = float("-inf")
