"""Uploaded vectors, held for their visitors within one memory budget that the whole server process shares.

A visitor's session keeps only a Token; the vectors sit here, and the file they were read from is let go. When the
tab has been closed for longer than Streamlit's disconnected-session TTL, a sweeper releases its vectors (and when the
session ends, the token is collected and they go with it); when a new upload would pass the budget, the least
recently used uploads of other visitors are released and their owners told on their next run.
"""
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


def budget() -> int:
    """Bytes all uploads may hold together: ATTENTION_UPLOAD_BUDGET_MB, 300 unless set."""
    return int(float(os.environ.get(BUDGET_ENV, "300")) * 2**20)


def size_of(kv: KeyedVectors) -> int:
    """What an upload holds in memory: its matrix and its words."""
    return int(kv.vectors.nbytes) + WORD_BYTES * len(kv.index_to_key)


def keep(token: Token, kv: KeyedVectors, name: tuple) -> bool:
    """Hold kv for the token's visitor, releasing other visitors' least recently used uploads to stay in budget;
    False (nothing held) when this upload alone is larger than the budget."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    drop_files(name)
    size = size_of(kv)
    if size > budget():
        return False
    with lock:
        if id(token) not in held:
            weakref.finalize(token, release, id(token))
        held[id(token)] = Held(kv, name, size, time.monotonic(), ctx.session_id if ctx else "")
        while sum(h.size for h in held.values()) > budget():
            oldest = min((k for k in held if k != id(token)), key=lambda k: held[k].used)
            del held[oldest]
            away.pop(oldest, None)
            evicted.add(oldest)
    watch()
    return True


def drop_files(name: tuple) -> None:
    """Let go of the bytes of the files just read (held or refused), named by their (name, size) pairs, that Streamlit
    keeps for the running session until it ends (the frontend never deletes them once the uploader is gone): only the
    vectors count against the budget. Other uploaders' files stay."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    files = ctx.uploaded_file_mgr if ctx is not None else None
    if isinstance(files, MemoryUploadedFileManager):  # the manager Streamlit serves with, as its own chat_input checks
        for rec in list(files.file_storage.get(ctx.session_id, {}).values()):
            if (rec.name, len(rec.data)) in name:
                files.remove_file(ctx.session_id, rec.file_id)


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
    with lock:
        for key, h in list(held.items()):
            if not h.session or connected(h.session):
                away.pop(key, None)
            elif now - away.setdefault(key, now) >= reconnect_s():
                del held[key]
                away.pop(key)


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


def total() -> int:
    """Bytes all held uploads take."""
    with lock:
        return sum(h.size for h in held.values())
