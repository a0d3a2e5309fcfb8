"""Open files, and a server short of them. Every tab's websocket and every held class question is an open file (a
descriptor), and a process holds at most its open-files limit: server/lifespan.py raises it to the hard limit as the
server starts, and watch_open_files() says in one line what that holds (connections, and students with a websocket
and a held class question each, against the class cap). Where the hard limit itself is low (a container or a host at
1,024), the server keeps answering:

- connections are accepted only while more than FLOOR descriptors are free (accepting()); then the listening socket is
  set aside until there is room again, so the health check, the page and the files they read always find some;
- the open descriptors are counted every CHECK_S (at once when accepting stops, at most every AGAIN_S); when fewer
  than FLOOR are free, or connections wait to be accepted, idle ones are closed (idle.py: accepted, nothing sent) to
  make room for them;
- while fewer than RESERVE are free, a new websocket is refused before its upgrade (Gate: HTTP 503, a Retry-After and
  a sentence), rather than taking the descriptors the page and the health check need;
- asyncio logs every accept() that failed for want of a descriptor with its traceback, thousands a second (Python
  3.11 tries its whole backlog again each time): quiet() counts them, and what happened is said in one line, at most
  once every SAY_S.

Counting reads /proc/self/fd (0.6 ms at 1,000 open); one descriptor is kept spare for it, so that it can count, and
close idle connections, when no other is free. Accepting is held back through the event loop's _accept_connection,
the one method asyncio's selector loops call for each listening socket that has connections waiting (elsewhere than
there, and than on Linux, nothing is counted and nothing held back)."""
import asyncio
import contextlib
import errno
import os
import time
from dataclasses import dataclass, field

from streamlit.logger import get_logger

from server import idle

RESERVE, FLOOR = 64, 32  # free descriptors below which no websocket is taken; which accepting always leaves free
CHECK_S, AGAIN_S, SAY_S, RETRY_S = 0.5, 0.2, 60.0, 10
PER_STUDENT = 2  # a student's websocket and the class question their panel holds
BUSY = (b"This server is holding as many connections as it has open files for. Try again in a minute, or ask whoever "
        b"runs it to raise its open-files limit.")
ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's message for it
log = get_logger(__name__)  # Streamlit's: its lines, at its level (info), where the server's own go


@dataclass
class Room:
    """What the process knows of its descriptors."""
    limit: int = 0  # its open-files limit
    free: int | None = None  # free at the last count; None: it cannot count here
    taken: int = 0  # connections and websockets let in since that count
    spare: int | None = None  # the descriptor kept spare for counting
    paused: dict = field(default_factory=dict)  # the listening sockets set aside: descriptor -> what resumes them
    # what was done for want of descriptors since it was last said (say_if_due)
    closed: int = 0
    refused: int = 0
    failed: int = 0
    said: float = float("-inf")
    woken: asyncio.Event | None = None  # what wakes the checks


room = Room()


@contextlib.contextmanager
def spared():
    """The spare descriptor set free for the time of the block, then taken again (if one is free by then)."""
    if room.spare is not None:
        os.close(room.spare)
        room.spare = None
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            room.spare = os.open(os.devnull, os.O_RDONLY)


def counted() -> int | None:
    """The descriptors open now (the spare one too), None where they cannot be counted."""
    if not idle.FDS.is_dir():
        return None
    try:
        with spared():
            return len(os.listdir(idle.FDS))  # the folder's own descriptor stands for the spare one
    except OSError:
        return room.limit  # not even the spare one was free


def free() -> int | None:
    """Descriptors free, as the last count and the connections let in since say; None where nothing is counted."""
    return None if room.free is None else room.free - room.taken


def short() -> bool:
    """Whether fewer than RESERVE descriptors are free."""
    left = free()
    return left is not None and left < RESERVE


def wake() -> None:
    """Have the checks run now (or as soon as AGAIN_S has passed since the last)."""
    if room.woken is not None:
        room.woken.set()


def accepting(loop: asyncio.AbstractEventLoop, original):
    """The loop's accept for a listening socket, taking as many connections as leave FLOOR descriptors free."""
    # when no more may come in: none, and the socket set aside until check() finds room
    def accept(protocol_factory, sock, sslcontext, server, backlog, *timeouts):
        left = free()
        if left is not None and left <= FLOOR:
            loop.remove_reader(sock.fileno())
            room.paused[sock.fileno()] = (sock, (accept, protocol_factory, sock, sslcontext, server, backlog,
                                                 *timeouts))
            return wake()
        most = backlog if left is None else min(backlog, left - FLOOR, max(1, idle.queued(sock)))
        room.taken += most  # at most: more than the queue held may not come in before the next call
        return original(protocol_factory, sock, sslcontext, server, most, *timeouts)
    return accept


def resume(loop: asyncio.AbstractEventLoop) -> None:
    """Let the listening sockets set aside accept again, once more than FLOOR descriptors are free."""
    left = free()
    if room.paused and (left is None or left > FLOOR):  # None: nothing counted, nothing held back
        for fd, (sock, handler) in list(room.paused.items()):
            if sock.fileno() == fd:  # a socket closed meanwhile (the server stopping) is let go
                loop.add_reader(fd, *handler)
        room.paused.clear()


def check(loop: asyncio.AbstractEventLoop) -> None:
    """Count the descriptors, let the sockets set aside accept again if there is room, and close idle connections."""
    # idle ones are closed until FLOOR are free besides one for each connection waiting to be accepted
    now = counted()
    room.free, room.taken = (None if now is None else room.limit - now), 0
    resume(loop)
    left = free()
    wanted = 0 if left is None else FLOOR - left + sum(idle.queued(sock) for sock, _ in room.paused.values())
    if wanted > 0 and idle.available():
        with spared():
            room.closed += idle.close_idle(wanted)
    say_if_due()


def say_if_due() -> None:
    """One line on what was done for want of descriptors, if anything was since the last, at most every SAY_S."""
    if not (room.closed or room.refused or room.failed) or time.monotonic() - room.said < SAY_S:
        return
    log.warning("Short of open files (limit %s, %s free): closed %s idle connections, refused %s websockets, "
                "accept() failed %s times (said at most once a minute)", f"{room.limit:,}", free(),
                f"{room.closed:,}", f"{room.refused:,}", f"{room.failed:,}")
    room.said, room.closed, room.refused, room.failed = time.monotonic(), 0, 0, 0


def quiet(previous):
    """The loop's exception handler: accept()s that failed for want of descriptors counted, anything else passed on."""
    # a counted failure also wakes the checks; the rest goes to `previous`, or asyncio's own
    def handler(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        failure = context.get("exception")
        if context.get("message") == ACCEPT_FAILED and isinstance(failure, OSError) and failure.errno in (
                errno.EMFILE, errno.ENFILE):
            room.failed += 1
            wake()
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)
    return handler


def limit_line(limit: int, hard: int, open_now: int | None, class_cap: int) -> tuple[bool, str]:
    """(whether it is a warning, the line) saying what the open-files limit holds."""
    limit_is = f"{limit:,}" + (" (the hard limit)" if limit == hard else f" (hard limit {hard:,})")
    if open_now is None:
        return False, f"Open files: limit {limit_is}."
    connections = max(0, limit - open_now - RESERVE)
    students = connections // PER_STUDENT
    line = (f"Open files: limit {limit_is}, {open_now:,} open: room for {connections:,} connections besides "
            f"{RESERVE} kept for the page and the health check, {students:,} students with a websocket and a held "
            f"class question each (a class takes up to {class_cap:,})")
    if students < class_cap:
        return True, line + "; fewer than a full class: raise the hard limit (ulimit -Hn; Compose: ulimits nofile)."
    return False, line + "."


def watch_open_files(loop: asyncio.AbstractEventLoop, limit: int, hard: int, class_cap: int) -> asyncio.Task:
    """At the server's start, before it listens: say what the limit holds and guard the accepts; the checks' task."""
    # Accept only while there is room, quiet the accepts that fail anyway, and check every CHECK_S; the task returned is
    # cancelled at the end.
    room.limit = limit
    open_now = counted()  # and the spare descriptor taken
    warning, line = limit_line(limit, hard, open_now, class_cap)
    (log.warning if warning else log.info)(line)
    loop.set_exception_handler(quiet(loop.get_exception_handler()))
    original = getattr(loop, "_accept_connection", None)
    if original is not None and idle.available():
        loop._accept_connection = accepting(loop, original)  # type: ignore[attr-defined]
    return loop.create_task(checking(loop), name="open-files")


async def checking(loop: asyncio.AbstractEventLoop) -> None:
    """check() every CHECK_S, or when woken but not within AGAIN_S of the last, for as long as the server runs."""
    room.woken = woken = asyncio.Event()
    while True:
        try:
            check(loop)
        except Exception:  # a count that failed in an unforeseen way holds nothing back (free() None) until the next
            log.exception("Counting open files failed")
            room.free, room.taken = None, 0
            resume(loop)
        await asyncio.sleep(AGAIN_S)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CHECK_S - AGAIN_S):
                await woken.wait()
        woken.clear()


class Gate:
    """ASGI middleware: a new websocket is refused while descriptors are short, before its upgrade."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            if short():
                room.refused += 1
                return await refuse(scope, send)
            room.taken += 1
        await self.app(scope, receive, send)


async def refuse(scope: dict, send) -> None:
    """Refuse a websocket: HTTP 503 with a Retry-After and BUSY where the server can (uvicorn can), else a close."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1013})  # try again later
        return
    await send({"type": "websocket.http.response.start", "status": 503,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"retry-after", str(RETRY_S).encode())]})
    await send({"type": "websocket.http.response.body", "body": BUSY})
