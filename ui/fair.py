"""Training shares the server fairly: each run's work is bounded, and runs take turns, one at a time per process (a
run on the learning page keeps its turn until its results are drawn, which costs as much as the training), so that
thirty students pressing Train together queue instead of slowing everyone's page down. A Python process runs one
thread at a time, so the run that has the turn also gives way: at each step and before each chart it waits while
another visitor's page is being drawn (GIVE_WAY_S at most each time, so it always moves on)."""
import itertools
import threading
import time
import weakref
from contextlib import contextmanager

SLOTS = 1  # training runs at once per server process: the other core stays free for everyone's page
WORK = 16_000_000  # word-dimension steps one run may do: 5,000 steps on 64 words of GloVe's 50 dimensions
CORPUS_WORK = 600_000_000  # the same for a corpus fit: 2,000 steps on the built-in corpus's ~6,000 words of 50
POLL = 0.2  # seconds between looks at the queue; each look is also a moment at which Stop can end the wait
GIVE_WAY_S, GIVE_WAY_POLL = 0.1, 0.002  # the longest a run waits for others' pages at once, and how often it looks

lock = threading.Lock()
running = 0
waiting: list[int] = []  # tickets in the order the runs asked
tickets = itertools.count()
pages: weakref.WeakSet = weakref.WeakSet()  # the script threads drawing a page (page.context adds each)
training: weakref.WeakSet = weakref.WeakSet()  # those in a run's turn or its queue: not counted as others' pages


def max_steps(words: int, dims: int, work: int = WORK) -> int:
    """The most steps one run may take on this many words of this many dimensions."""
    return max(1, work // max(1, words * dims))


@contextmanager
def turn(show_position):
    """Wait for a free slot, calling show_position(n) (n runs ahead, 1 = next) meanwhile; hold it while inside."""
    global running
    ticket = next(tickets)
    with lock:
        waiting.append(ticket)
        training.add(threading.current_thread())
    try:
        while not take(ticket):
            show_position(ahead(ticket))
            time.sleep(POLL)
    except BaseException:  # Stop pressed while waiting: leave the queue
        with lock:
            if ticket in waiting:
                waiting.remove(ticket)
            training.discard(threading.current_thread())
        raise
    try:
        yield
    finally:
        with lock:
            running -= 1
            training.discard(threading.current_thread())


def drawing() -> None:
    """Note that the running script thread draws a page, until it ends (called by every page's opening)."""
    pages.add(threading.current_thread())


def give_way() -> None:
    """In a run that has its turn: wait while another visitor's page is being drawn, GIVE_WAY_S at most; elsewhere
    nothing."""
    me = threading.current_thread()
    if me not in training:
        return
    end = time.monotonic() + GIVE_WAY_S
    while others_drawing(me) and time.monotonic() < end:
        time.sleep(GIVE_WAY_POLL)


def others_drawing(me: threading.Thread) -> bool:
    """Whether a script thread other than `me`, not training or queued, is drawing a page."""
    with lock:
        return any(t is not me and t not in training and t.is_alive() for t in list(pages))


def take(ticket: int) -> bool:
    """Start the run if it is first in the queue and a slot is free."""
    global running
    with lock:
        if running < SLOTS and waiting and waiting[0] == ticket:
            waiting.pop(0)
            running += 1
            return True
        return False


def ahead(ticket: int) -> int:
    """Runs before this one: those in the queue before it, and those running."""
    with lock:
        return (waiting.index(ticket) if ticket in waiting else 0) + running
