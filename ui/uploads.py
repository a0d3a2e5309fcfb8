"""Uploaded vectors, held for their visitors within one memory budget that the whole server process shares.

A visitor's session keeps only a Token; the vectors sit here, and the file they were read from is let go. When the
tab has been closed for longer than Streamlit's disconnected-session TTL, a sweeper releases its vectors (and when the
session ends, the token is collected and they go with it); when a new upload would pass the budget, the least
recently used uploads of other visitors are released and their owners told on their next run.
"""
import ctypes
import os
import threading
import time
import weakref
from dataclasses import dataclass

from gensim.models import KeyedVectors
from streamlit.runtime import scriptrunner
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

BUDGET_ENV = "ATTENTION_UPLOAD_BUDGET_MB"
WORD_BYTES = 128  # a vocabulary entry: its Python string, list slot and dict entry (tests/test_uploads.py counts them)


class Token:
    """A visitor's claim on an upload, kept in their session state."""


@dataclass
class Held:
    kv: KeyedVectors
    name: tuple  # the files' (name, size) pairs, to tell a new upload from the one held
    size: int  # bytes: the float32 matrix and the vocabulary
    used: float  # time.monotonic() of the last run that used it
    session: str = ""  # the visitor's Streamlit session id ('' outside a server)


held: dict[int, Held] = {}  # id(token) -> its upload
evicted: set[int] = set()  # tokens whose upload was released for others; told once
away: dict[int, float] = {}  # id(token) -> time.monotonic() its session was first seen disconnected
sweeper: list[threading.Thread] = []  # the one thread per process that looks for them
lock = threading.Lock()
SWEEP_S = 5.0  # seconds between its looks


def c_library():
    """The C library the process runs on, to ask it for memory back; None where it cannot be opened so (Windows)."""
    try:
        return ctypes.CDLL(None)
    except (OSError, TypeError):
        return None


LIBC = c_library()
M_MMAP_THRESHOLD, LARGE_BLOCK = -3, 2**20  # glibc's mallopt parameter, and blocks from 1 MiB on


def budget() -> int:
    """Bytes all uploads may hold together: ATTENTION_UPLOAD_BUDGET_MB, 300 unless set."""
    return int(float(os.environ.get(BUDGET_ENV, "300")) * 2**20)


def size_of(kv: KeyedVectors) -> int:
    """What an upload holds in memory: its matrix and its words."""
    return int(kv.vectors.nbytes) + WORD_BYTES * len(kv.index_to_key)


def make_room(token: Token, size: int) -> None:
    """Before a file of `size` bytes is read for the token's visitor: release other visitors' least recently used
    uploads until everything held and that many bytes fit the budget, so that reading it never stands on top of a full
    budget. A vectors file is about as long as the vectors it holds or longer (text spells each number out), so its
    size stands for them; keep() checks the real size once they are read."""
    if not size:
        return
    with lock:
        evict_for(token, size)
    give_back()


def keep(token: Token, kv: KeyedVectors, name: tuple) -> bool:
    """Hold kv for the token's visitor, releasing other visitors' least recently used uploads to stay in budget;
    False (nothing held) when this upload alone is larger than the budget."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    size = size_of(kv)
    if size > budget():
        return False
    with lock:
        if id(token) not in held:
            weakref.finalize(token, release, id(token))
        held[id(token)] = Held(kv, name, size, time.monotonic(), ctx.session_id if ctx else "")
        evict_for(token, 0)
    give_back()
    watch()
    return True


def evict_for(token: Token, extra: int) -> None:
    """Release other visitors' least recently used uploads until all held and `extra` bytes fit the budget (under
    lock); their owners are told on their next run."""
    while held and sum(h.size for h in held.values()) + extra > budget():
        others = [k for k in held if k != id(token)]
        if not others:
            return
        oldest = min(others, key=lambda k: held[k].used)
        del held[oldest]
        away.pop(oldest, None)
        evicted.add(oldest)


def map_large_blocks() -> None:
    """Have glibc give every block of LARGE_BLOCK bytes or more its own mapping, returned to the system when freed.
    By default glibc raises that threshold to the largest block freed so far (up to 32 MiB) and keeps such blocks in
    the heap of the thread that freed them; reading a 45 MB upload in a script thread then left ~60 MB there. Called
    once at server start; nothing happens where the C library has no mallopt (not glibc)."""
    mallopt = getattr(LIBC, "mallopt", None)
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)


def give_back() -> None:
    """Return freed memory to the system at once. glibc keeps what a thread frees in that thread's heap for its next
    use, and each script run is a new thread: after an upload is read or released, ~150 MB would stay with the process
    (measured in bench/hosting.py). Nothing happens where the C library has no malloc_trim (not glibc)."""
    trim = getattr(LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


def arriving(types: tuple[str, ...]) -> int:
    """Bytes of the files with these extensions that have reached the running session and that Streamlit holds for it:
    a new upload, before the uploader hands it to the script (as a copy, which is why room is made first)."""
    storage = session_files()
    return sum(len(rec.data) for rec in storage.values() if rec.name.lower().endswith(tuple(f".{t}" for t in types)))


def file_bytes(files) -> list[tuple[str, bytes]]:
    """The uploader's files as (name, bytes), read from the copy Streamlit holds for the session where there is one:
    the uploader hands the script a second copy of each file, closed here so that only one is in memory."""
    stored = {(rec.name, len(rec.data)): rec.data for rec in session_files().values()}
    pairs = [(f.name, stored.get((f.name, f.size)) or f.getvalue()) for f in files]
    for f in files:
        f.close()
    return pairs


def session_files() -> dict:
    """The running session's uploaded files as Streamlit holds them, file id -> record ({} outside a server)."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    files = ctx.uploaded_file_mgr if ctx is not None else None
    if isinstance(files, MemoryUploadedFileManager):  # the manager Streamlit serves with, as its own chat_input checks
        return files.file_storage.get(ctx.session_id, {})
    return {}


def drop_files(name: tuple) -> None:
    """Let go of the bytes of the files just read (held or refused), named by their (name, size) pairs, that Streamlit
    keeps for the running session until it ends (the frontend never deletes them once the uploader is gone): only the
    vectors count against the budget. Other uploaders' files stay."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    for rec in list(session_files().values()):
        if (rec.name, len(rec.data)) in name:
            ctx.uploaded_file_mgr.remove_file(ctx.session_id, rec.file_id)


def watch() -> None:
    """Start the sweeper where a Streamlit server runs, unless it already runs."""
    from streamlit.runtime import Runtime

    with lock:
        if (sweeper and sweeper[0].is_alive()) or not Runtime.exists():
            return
        sweeper[:] = [threading.Thread(target=sweep_forever, name="upload-sweeper", daemon=True)]
        sweeper[0].start()


def sweep_forever() -> None:
    """Every SWEEP_S seconds, release the uploads of sessions gone for good."""
    from streamlit.runtime import Runtime

    while True:
        time.sleep(SWEEP_S)
        try:
            runtime = Runtime.instance()
        except RuntimeError:  # the server stopped (or, in tests, its runtime was torn down): nothing left to sweep
            return
        sweep(runtime.is_active_session, time.monotonic())


def sweep(connected, now: float) -> None:
    """Release the uploads of sessions disconnected for longer than a reconnect may take. Streamlit forgets such a
    session only at the next write to its session store (another tab closing): on a quiet server the session, its
    token and the upload it holds would otherwise stay for as long as no one else leaves."""
    gone = False
    with lock:
        for key, h in list(held.items()):
            if not h.session or connected(h.session):
                away.pop(key, None)
            elif now - away.setdefault(key, now) >= reconnect_s():
                del held[key]
                away.pop(key)
                gone = True
    if gone:
        give_back()


def reconnect_s() -> float:
    """How long Streamlit lets a closed tab's session be taken up again: server.disconnectedSessionTTL."""
    from streamlit import config

    return float(config.get_option("server.disconnectedSessionTTL"))


def get(token: Token) -> Held | None:
    """The token's upload, marked as just used; None when there is none."""
    with lock:
        h = held.get(id(token))
        if h is not None:
            h.used = time.monotonic()
        return h


def was_evicted(token: Token) -> bool:
    """Whether the token's upload was released for others since it was last asked (then forgotten)."""
    with lock:
        if id(token) in evicted:
            evicted.discard(id(token))
            return True
        return False


def release(key: int) -> None:
    """Drop an upload: its session has ended."""
    with lock:
        held.pop(key, None)
        away.pop(key, None)
        evicted.discard(key)
    give_back()


def total() -> int:
    """Bytes all held uploads take."""
    with lock:
        return sum(h.size for h in held.values())
