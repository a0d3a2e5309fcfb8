"""Uploaded vectors, held for their visitors within one memory budget that the whole server process shares.

A visitor's session keeps only a Token; the vectors sit here. When the session ends (its tab closed and Streamlit's
disconnected-session TTL passed), the token is collected and its vectors go with it; when a new upload would pass
the budget, the least recently used uploads of other visitors are released and their owners told on their next run.
"""
import os
import threading
import time
import weakref
from dataclasses import dataclass

from gensim.models import KeyedVectors

BUDGET_ENV = "ATTENTION_UPLOAD_BUDGET_MB"
WORD_BYTES = 100  # a vocabulary entry's Python string and dict slot, roughly


class Token:
    """A visitor's claim on an upload, kept in their session state."""


@dataclass
class Held:
    kv: KeyedVectors
    name: tuple  # the files' (name, size) pairs, to tell a new upload from the one held
    size: int  # bytes: the float32 matrix and the vocabulary
    used: float  # time.monotonic() of the last run that used it


held: dict[int, Held] = {}  # id(token) -> its upload
evicted: set[int] = set()  # tokens whose upload was released for others; told once
lock = threading.Lock()


def budget() -> int:
    """Bytes all uploads may hold together: ATTENTION_UPLOAD_BUDGET_MB, 300 unless set."""
    return int(float(os.environ.get(BUDGET_ENV, "300")) * 2**20)


def size_of(kv: KeyedVectors) -> int:
    """What an upload holds in memory: its matrix and its words."""
    return int(kv.vectors.nbytes) + WORD_BYTES * len(kv.index_to_key)


def keep(token: Token, kv: KeyedVectors, name: tuple) -> bool:
    """Hold kv for the token's visitor, releasing other visitors' least recently used uploads to stay in budget;
    False (nothing held) when this upload alone is larger than the budget."""
    size = size_of(kv)
    if size > budget():
        return False
    with lock:
        if id(token) not in held:
            weakref.finalize(token, release, id(token))
        held[id(token)] = Held(kv, name, size, time.monotonic())
        while sum(h.size for h in held.values()) > budget():
            oldest = min((k for k in held if k != id(token)), key=lambda k: held[k].used)
            del held[oldest]
            evicted.add(oldest)
    return True


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


def total() -> int:
    """Bytes all held uploads take."""
    with lock:
        return sum(h.size for h in held.values())
