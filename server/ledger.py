"""The process's memory ledger: every byte a visitor can make the server hold, within one budget.

It counts the uploaded vectors held for their visitors, the files Streamlit stores for each session (claimed or not),
the files still arriving (server/upload_gate.py admits each before its body is read, at most one file's worth per
session), and the working memory reserved for a parse or a fit. A visitor's session keeps only a Token; the vectors
sit here, and the file they were read from is let go. When something new would pass the budget, the least recently
used uploads of idle visitors (not used for IDLE_S) are released and their owners told on their next run; a visitor's
own upload never is, and what does not fit then is refused. When a tab has been closed for longer than Streamlit's
disconnected-session TTL, a sweeper ends its session, which lets go of its files, its vectors and its fits.
"""
import ctypes
import gc
import os
import threading
import time
import weakref
from dataclasses import dataclass

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine.vocabulary import Vocabulary
from server import runtime

BUDGET_ENV = "ATTENTION_UPLOAD_BUDGET_MB"
WORD_BYTES = 128  # a vocabulary entry: Python string, list slot and dict entry (tests/app/test_uploads.py counts them)
IDLE_S = 2.0  # an upload not used for this long (no run of its page in progress) may be released for another's
FLIGHT = 2  # bytes a file costs while it arrives, per byte of its body: the parsed form and the copy it is read into


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
in_flight: dict[str, int] = {}  # session id -> bytes counted for the files it is sending
reserved: dict[object, int] = {}  # a parse's or a fit's key -> the working memory counted for it
results: dict[tuple[str, str], int] = {}  # (session id, what) -> bytes of a fit's result the session keeps
shared: dict[str, int] = {}  # what the server keeps for every visitor (page 8's model runs by sentence) -> bytes
refused: dict[str, str] = {}  # session id -> why its last file was refused at the door ("share" or "room"), until told
REFUSALS_KEPT = 1000
away: dict[str, float] = {}  # session id -> time.monotonic() it was first seen disconnected
server_loop: list = []  # the server's event loop, noted at its start (server/lifespan.py)
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
    words = kv.index_to_key
    return int(kv.vectors.nbytes) + (words.nbytes if isinstance(words, Vocabulary) else WORD_BYTES * len(words))


def session_of() -> str:
    """The running script's session id ('' outside a server)."""
    return runtime.session_id()


def make_room(key: object, size: int, session: str) -> bool:
    """Count `size` bytes of working memory for `key` for the session, releasing idle uploads if need be."""
    # key: a file about to be parsed, a fit about to run. False (nothing counted) when they do not fit; unreserve(key)
    # gives them back.
    with lock:
        before = len(held)
        fits = evict_for(session, size)
        if fits:
            reserved[key] = reserved.get(key, 0) + size
        released = len(held) < before
    if released:
        give_back()
    return fits


def keep_result(session: str, what: str, result) -> None:
    """Count the arrays of a fit's result that the session keeps as `what`, in place of the last; let go with it."""
    # what: its last live run, corpus run or upload's fit
    with lock:
        results[(session, what)] = nbytes(result)


def keep_shared(what: str, size: int) -> None:
    """Count `size` bytes the server keeps for every visitor as `what`, in place of what it counted for it before."""
    with lock:
        shared[what] = size


def nbytes(found) -> int:
    """Bytes of the numpy arrays in a result: its fields, lists, tuples and dicts, walked through."""
    if isinstance(found, np.ndarray):
        return int(found.nbytes)
    if isinstance(found, dict):
        return sum(nbytes(v) for v in found.values())
    if isinstance(found, (list, tuple)):
        return sum(nbytes(v) for v in found)
    if hasattr(found, "__dataclass_fields__"):
        return sum(nbytes(getattr(found, name)) for name in found.__dataclass_fields__)
    return 0


def unreserve(key: object) -> None:
    """Give back what make_room counted for `key`."""
    with lock:
        reserved.pop(key, None)


def hold_upload(token: Token, kv: KeyedVectors, name: tuple) -> bool:
    """Hold kv for the token's visitor, releasing idle uploads, least recently used first; False if it does not fit."""
    # False: nothing held, not even the upload it replaces
    session = session_of()
    size = size_of(kv)
    with lock:
        reserved.pop(token, None)  # the parse's room, now taken by what it made
        if id(token) not in held:
            weakref.finalize(token, release, id(token))
        held.pop(id(token), None)  # the upload it replaces
        if size > budget() or not evict_for(session, size):
            return False
        held[id(token)] = Held(kv, name, size, time.monotonic(), session)
    give_back()
    watch()
    return True


def used() -> int:
    """Every byte the ledger counts (under lock): uploads held, files stored and arriving, working memory reserved."""
    return (sum(h.size for h in held.values()) + stored() + sum(in_flight.values()) + sum(reserved.values())
            + sum(results.values()) + sum(shared.values()))


def evict_for(session: str, extra: int) -> bool:
    """Release idle uploads, least recently used first, till all counted and `extra` fit the budget: whether they do."""
    # Under lock. Nothing is released when they would not fit even so. The session's own upload is never released
    # (outside a server, where there are no session ids, every upload is another's); the owners of those released are
    # told on their next run.
    now = time.monotonic()
    others = ((h.used, k) for k, h in held.items() if h.session != session or not session)
    idle = sorted((used_at, k) for used_at, k in others if now - used_at >= IDLE_S)
    over = used() + extra - budget()
    if over > sum(held[k].size for _, k in idle):
        return False  # releasing every idle upload would not make room: release none
    for _, oldest in idle:
        if over <= 0:
            break
        over -= held.pop(oldest).size
        evicted.add(oldest)
    return True


def admit(session: str, size: int) -> bool:
    """Whether a file of `size` bytes may start arriving for the session; when True, it is counted until landed()."""
    # Called before its body is read: at most one file's worth (server.maxUploadSize) stored and arriving per session,
    # and room in the budget for FLIGHT times its size, made by releasing idle visitors' uploads if need be.
    with lock:
        before = len(held)
        mine = stored(session) + in_flight.get(session, 0) // FLIGHT
        within_share = mine + size <= session_cap()
        admitted = within_share and evict_for(session, FLIGHT * size)
        if admitted:
            in_flight[session] = in_flight.get(session, 0) + FLIGHT * size
        else:
            refused[session] = "room" if within_share else "share"
            while len(refused) > REFUSALS_KEPT:
                refused.pop(next(iter(refused)))
        released = len(held) < before
    if released:
        give_back()
    watch()
    return admitted


def refusal(session: str) -> str | None:
    """Why the session's last file was refused at the door, if it was since last asked; then forgotten."""
    # "share": one file's worth per visitor; "room": the budget is in use by active visitors
    with lock:
        return refused.pop(session, None)


def landed(session: str, size: int) -> None:
    """The file admitted for the session has arrived (stored, and counted there) or failed."""
    with lock:
        left = in_flight.get(session, 0) - FLIGHT * size
        if left > 0:
            in_flight[session] = left
        else:
            in_flight.pop(session, None)


def session_cap() -> int:
    """Bytes of files one session may have stored and arriving: one file of Streamlit's largest upload size."""
    return int(st.get_option("server.maxUploadSize")) * 2**20


def stored(session: str | None = None) -> int:
    """Bytes of the files Streamlit stores for the session (for every session when None): claimed or not."""
    storage = runtime.storage()
    sessions = list(storage.values()) if session is None else [storage.get(session, {})]
    return sum(len(rec.data) for files in sessions for rec in list(files.values()))


def map_large_blocks() -> None:
    """Have glibc give every block of LARGE_BLOCK bytes or more its own mapping, returned to the system when freed."""
    # By default glibc raises that threshold to the largest block freed so far (up to 32 MiB) and keeps such blocks in
    # the heap of the thread that freed them; reading a 45 MB upload in a script thread then left ~60 MB there. Called
    # once at server start; nothing happens where the C library has no mallopt (not glibc).
    mallopt = getattr(LIBC, "mallopt", None)
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, LARGE_BLOCK)


def give_back(collect: bool = True) -> None:
    """Collect what the released vectors leave in reference cycles, and return freed memory to the system at once."""
    # The runner's collection after every run is off (.streamlit/config.toml), so a released upload caught in a cycle
    # would wait for the next full collection (measured in bench/attack.py: 35 MB kept per upload released). glibc keeps
    # what a thread frees in that thread's heap for its next use, and each script run is a new thread: after an upload
    # is read or released, ~150 MB would stay with the process (measured in bench/hosting.py). The trim is skipped where
    # the C library has no malloc_trim (not glibc). `collect` False: the trim alone, for work that leaves no cycles (a
    # full collection walks every object of the process: tens of milliseconds that no other thread runs).
    if collect:
        gc.collect()
    trim = getattr(LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


def file_bytes(files) -> list[tuple[str, bytes]]:
    """The uploader's files as (name, bytes), read from the copy Streamlit holds for the session where there is one."""
    # the uploader hands the script a second copy of each file, closed here so that only one is in memory
    stored = {(rec.name, len(rec.data)): rec.data for rec in runtime.own_files().values()}
    pairs = [(f.name, stored.get((f.name, f.size)) or f.getvalue()) for f in files]
    for f in files:
        f.close()
    return pairs


def drop_files(name: tuple) -> None:
    """Let go of the files just read (held or refused), named by their (name, size) pairs, that Streamlit keeps."""
    # Streamlit keeps them for the running session until it ends (the frontend never deletes them once the uploader is
    # gone): only the vectors count against the budget. Other uploaders' files stay.
    for rec in list(runtime.own_files().values()):
        if (rec.name, len(rec.data)) in name:
            runtime.remove_own_file(rec.file_id)


def watch() -> None:
    """Start the sweeper where a Streamlit server runs, unless it already runs."""
    with lock:
        if (sweeper and sweeper[0].is_alive()) or not runtime.running():
            return
        sweeper[:] = [threading.Thread(target=sweep_forever, name="upload-sweeper", daemon=True)]
        sweeper[0].start()


def sweep_forever() -> None:
    """Every SWEEP_S seconds, end the sessions gone for good that hold files or uploads."""
    while runtime.running():  # until the server stops (or, in tests, its runtime is torn down)
        time.sleep(SWEEP_S)
        sweep(runtime.connected, time.monotonic(), end_session)


def sweep(connected, now: float, end=lambda session: None) -> list[str]:
    """Release uploads and files of sessions gone longer than a reconnect may take, end(session) each: those ended."""
    # Streamlit forgets such a session only at the next write to its session store (another tab closing): on a quiet
    # server the session, its files, its token and the upload it holds would otherwise stay for as long as no one else
    # leaves.
    with lock:
        sessions = {h.session for h in held.values() if h.session} | set(runtime.storage()) | {s for s, _ in results}
        offline = {s for s in sessions if not connected(s)}
        ttl = reconnect_s()
        for session in set(away) - offline:  # back, or holding nothing any more
            del away[session]
        gone = [s for s in offline if now - away.setdefault(s, now) >= ttl]
        for key in [k for k, h in held.items() if h.session in gone]:
            del held[key]
        for key in [k for k in results if k[0] in gone]:
            del results[key]
        for session in gone:
            del away[session]
    for session in gone:
        end(session)
    if gone:
        give_back()
    return gone


def end_session(session: str) -> None:
    """Let go of a session's files and have Streamlit end it on the server's event loop, unless it came back."""
    # The files go here: Streamlit's store of disconnected sessions forgets them at the same TTL without ending them,
    # and a session it forgot keeps its files for as long as the server runs.
    runtime.remove_files(session)
    loop = server_loop[0] if server_loop else None
    if loop is not None and not loop.is_closed():
        loop.call_soon_threadsafe(runtime.close_if_gone, session)


def reconnect_s() -> float:
    """How long Streamlit lets a closed tab's session be taken up again: server.disconnectedSessionTTL."""
    return float(st.get_option("server.disconnectedSessionTTL"))


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
        evicted.discard(key)
    give_back()


def total() -> int:
    """Bytes all held uploads take."""
    with lock:
        return sum(h.size for h in held.values())
