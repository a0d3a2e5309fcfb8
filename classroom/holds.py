"""Which of the watch route's questions are held (classroom/watch.py), so that holding cannot be turned against the
server: a code no live class has is answered at once (no watch, no task, no read of its own: the live classes' codes
are read at most every REFRESH_S, whatever the number of codes asked for); at most HELD_PER_ADDRESS questions are held
for one client address and HELD_PER_PROCESS in all, the rest answered at once with LATER, after which the browser's
watch waits before it asks again; and the teacher's stage (the counts) goes only to the browser holding the class's
teacher key. Everything here runs on the server's event loop."""
import asyncio
import hmac
import time
from collections import Counter

from classroom import classes, seat, store

REFRESH_S = 0.5
HELD_PER_ADDRESS, HELD_PER_PROCESS = 400, 4000  # a class of 200 behind one address holds one question a tab
LATER, LATER_S, UNKNOWN_S = "later", 5, 30  # the answer to a question not held; Retry-After for it, for an unknown code
SOON_S = 1  # Retry-After when the live classes were read too recently to tell
_teachers: dict[str, str] = {}  # the live classes' codes -> their teacher key's hash, as last read
_read = [float("-inf")]  # time.monotonic() when the last read ended
_reading: list[asyncio.Task] = []  # the last read, on the loop it runs on
_held: Counter[str] = Counter()  # client address -> questions held now
_holding = [0]


async def look(code: str) -> str:
    """"live" when `code` names a live class; "unknown" when a read of the live classes after it was asked for says
    it does not; "later" when the last read ended less than REFRESH_S ago (ask again); "down" when the database did
    not answer."""
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
    kept = seat.kept(cookies, "key")
    stored = _teachers.get(code)
    return bool(kept and stored and kept[0] == code and hmac.compare_digest(stored, classes.digest(kept[1])))


def hold(address: str) -> bool:
    """Count one more question held for `address`, if it and the process are within their limits; False when not."""
    if _held[address] >= HELD_PER_ADDRESS or _holding[0] >= HELD_PER_PROCESS:
        return False
    _held[address] += 1
    _holding[0] += 1
    return True


def let_go(address: str) -> None:
    """A question held for `address` was answered."""
    _holding[0] -= 1
    _held[address] -= 1
    if _held[address] <= 0:
        del _held[address]


def forget_teachers() -> None:
    """The next look reads the live classes again (tests; a class this process just opened is read on its first
    miss anyway)."""
    _teachers.clear()
    _read[0] = float("-inf")
