"""Every fit takes turns in one queue per process, served by one worker thread: page 5's live training and its corpus
run, and the corpus fits behind learned weights that the project does not ship. A page never fits inside its own run:
it asks for a fit, draws what it can and shows the fit's place in the queue with Stop (fits/waiting.py) until it
arrives. Each fit's work is bounded in steps (FIT_WORK) and per step (STEP_WORK), so no fit holds the core for long and
Stop takes effect within a step, keeping the steps reached. Page 5's fits keep their turn until their page has drawn the
results (`hold`; the charts cost as much as the training), so that thirty students pressing Train together draw one
after another. A Python process runs one thread at a time, so the fit with the turn also gives way: at each step, and
before each chart of its results, it waits while another visitor's page is being drawn (GIVE_WAY_S at most each time, so
it always moves on)."""
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engine.corpus import CorpusError
from engine.errors import CodedError
from server import ledger, runtime

# One unit of work is about 0.26 ns of one core on the machine of bench/README.md's figures: FIT_WORK is about 10 s of
# CPU, STEP_WORK about 0.3 s, so that Stop ends a fit within half a second
FIT_WORK = 40_000_000_000
STEP_WORK = 1_200_000_000
PER_WORD = 3_000  # a word's cost in a step beyond its d × d_k products: scores, softmax, the loop around them
MIN_WIDTH = 32  # a narrower d_k costs as much: each word's d numbers are read anyway
UPDATE_WORDS = 64  # Adam's update of W_Q and W_K costs about as much as this many words
HELD_SHARE = 0.5  # a held-out word is only scored, not trained on: about half a training word
SCORE_COLUMNS = 120  # numbers a scored word holds besides its q and k: scores, softmax and masks over ~30 words
STOP_WAIT = 0.3  # the longest Stop waits for the fit to end its step, so that the steps reached are there to show
LOOK_EVERY = 25  # steps between a running fit's looks at whether the tab that asked for it is still open
HOLD_S = 3.0  # the longest a held fit keeps its turn for its page to draw the results (a closed tab never does)
GIVE_WAY_S, GIVE_WAY_POLL = 0.1, 0.002  # the longest the worker waits for others' pages at once, and how often it looks


@dataclass(eq=False)
class Job:
    """One fit: what it runs, who waits for it, how far it got and what it gave."""

    work: Callable[[Callable[..., bool]], Any]  # work(report) -> result; report(step, *values) is False to stop
    steps: int
    bytes: int  # working memory while it runs (fit_bytes), counted in the server's memory ledger (server/ledger.py)
    key: tuple | None = None  # asking again for a queued or running fit with this key joins it (None: never)
    keep: Callable[[Any], None] | None = None  # told the result of a fit that ran to its end, by the worker
    hold: bool = False  # whether the fit keeps its turn until its page has drawn the result (showing)
    waiting: set = field(default_factory=set)  # who waits for it
    started: bool = False
    step: int = 0  # the last step reported
    values: list = field(default_factory=list)  # what each report gave, step by step
    result: Any = None
    error: Exception | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    shown: threading.Event = field(default_factory=threading.Event)  # its page has drawn the result
    session: str = field(default_factory=ledger.session_of)  # the session that asked first: its upload stays
    inputs: Callable[[], bool] = lambda: True  # whether what it fits on is still there (a released upload is not)
    cycles: bool = True  # whether what it leaves may sit in reference cycles: a full collection after it (give_back)
    yields: float = GIVE_WAY_S  # the longest it waits for others' pages at once (give_way): a fit of many steps
    # waits at each, so its own is short; a run of a few steps may wait as long as most pages take to draw


lock = threading.Condition()
line: list[Job] = []  # the queue, first in line first
running: Job | None = None  # the fit with the turn: computing, or ended and held for its page
worker: threading.Thread | None = None
pages: weakref.WeakSet = weakref.WeakSet()  # the script threads drawing a page (the frame adds each: drawing())
turn: weakref.WeakSet = weakref.WeakSet()  # the script threads drawing the results of the fit with the turn


def step_work(words: int, d: int, d_k: int) -> int:
    """The work of one step on `words` words of d dimensions through W_Q, W_K [d, d_k]."""
    return (words + UPDATE_WORDS) * (d * max(d_k, MIN_WIDTH) + PER_WORD)


def max_steps(words: int, d: int, d_k: int) -> int:
    """The most steps one fit may take when each step reads this many words."""
    return max(1, FIT_WORK // step_work(words, d, d_k))


def max_d_k(words: int, d: int) -> int:
    """The widest d_k for which one step on this many words stays within STEP_WORK; 0 when none does."""
    # below MIN_WIDTH every d_k costs the same, so no narrower one helps
    most = (STEP_WORK // (words + UPDATE_WORDS) - PER_WORD) // d
    return most if most >= MIN_WIDTH else 0


class TooLarge(CodedError):
    """One step of a fit would take longer than a shared server allows: d, d_k and the widest d_k that would do."""

    CODES, TEXT_PREFIX = ("too_large", "too_large_any"), "fit_"


def check_step(words: int, d: int, d_k: int) -> None:
    """TooLarge when one step on `words` words of d dimensions through W_Q, W_K [d, d_k] exceeds STEP_WORK."""
    if step_work(words, d, d_k) > STEP_WORK:
        most = max_d_k(words, d)
        raise TooLarge("too_large" if most else "too_large_any", d=d, d_k=d_k, max=most)


def reads(train: int, held_out: int = 0, every: int = 1) -> int:
    """Words one step reads: its training words, and its held-out words at the share of steps that measure them."""
    return train + int(HELD_SHARE * held_out / every)


def fit_bytes(d: int, d_k: int, words: int, at_once: int | None = None, snapshots: int = 0) -> int:
    """Working memory of a fit on `words` word rows of d numbers through d_k, in bytes."""
    # 8 bytes a float64: word rows; q, k, scores and softmax of the `at_once` words scored at once (all by default);
    # W_Q, W_K, their gradients and Adam's moments; `snapshots` copies of W_Q, W_K, rows, q and k kept for scrubbing,
    # counted twice: as kept and as stacked at the end
    at_once = words if at_once is None else at_once
    rows = words * d + at_once * (2 * d_k + SCORE_COLUMNS) + 6 * d * d_k
    kept = 2 * snapshots * (2 * d * d_k + words * (d + 2 * d_k))
    return 8 * (rows + kept)


def ask(job: Job, who: str) -> Job:
    """`job` queued for `who`, or the unstopped fit with its key already queued or running, which `who` joins."""
    global worker
    with lock:
        same = next((j for j in [running, *line] if j is not None and job.key is not None and j.key == job.key
                     and not j.stop.is_set()), None)
        if same is not None:
            same.waiting.add(who)
            return same
        job.waiting.add(who)
        line.append(job)
        if worker is None or not worker.is_alive():
            worker = threading.Thread(target=serve, name="fits", daemon=True)
            worker.start()
        lock.notify()
    return job


def ahead(job: Job) -> int:
    """Fits before this one: those queued before it and the one running (0 once it runs or has ended)."""
    with lock:
        return line.index(job) + (running is not None) if job in line else 0


def leave(job: Job, who: str, wait: float = STOP_WAIT) -> None:
    """`who` waits no longer; a fit nobody waits for leaves the queue or, running, stops at the end of its step."""
    with lock:
        job.waiting.discard(who)
        if job.waiting or job.ended.is_set():
            return
        if job in line:
            line.remove(job)
            job.ended.set()
            return
        job.stop.set()
    job.ended.wait(wait)  # so that the steps reached are there to show


def serve() -> None:
    """The worker: the queued fits one after another, for as long as the process lives."""
    global running
    while True:
        with lock:
            while not line:
                lock.wait()
            running = line.pop(0)
            running.started = True
        run(running)
        if running.hold and running.result is not None:
            running.shown.wait(HOLD_S)
        with lock:
            running = None


def run(job: Job) -> None:
    """One fit: its result or error kept on it, `keep` told of a result reached without a stop; its inputs let go."""
    def report(step: int, *values) -> bool:
        if not job.stop.is_set():  # a stopped fit does not wait for others' pages first
            give_way()
        job.step = step
        job.values.append(values)
        if step % LOOK_EVERY == 0 and abandoned(job):
            job.stop.set()
        return not job.stop.is_set()

    try:
        if abandoned(job):  # queued for a tab closed since, or for an upload released since: nobody would see it
            job.stop.set()
            return
        if not ledger.make_room(job, job.bytes, job.session):  # idle visitors' uploads may make room, no one else's
            raise CorpusError("no_room", mb=f"{job.bytes / 2**20:,.0f}", budget=f"{ledger.budget() / 2**20:,.0f}")
        job.result = job.work(report)
        if job.keep is not None and not job.stop.is_set():
            job.keep(job.result)
    except Exception as e:  # the page that waits says what went wrong (no known sentence, no room, numbers too large)
        job.error = e
    finally:
        ledger.unreserve(job)
        job.work = job.keep = None  # let go of what it fitted on (an upload's vectors) while its result is kept
        job.ended.set()
        ledger.give_back(job.cycles)  # the fit's working memory, back to the system now rather than kept by this thread


def abandoned(job: Job) -> bool:
    """Whether the fit would hold the queue for a page nobody sees: its one visitor's tab closed, or its inputs gone."""
    # inputs gone: an upload released for others, whose page now shows the built-in vectors
    with lock:
        alone = len(job.waiting) == 1
    return not job.inputs() or (alone and not runtime.connected(job.session))


def pending() -> bool:
    """Whether a fit is queued or running (one that has ended but keeps its turn for its page is not)."""
    with lock:
        return bool(line) or (running is not None and not running.ended.is_set())


def idle(timeout: float) -> bool:
    """Wait until no fit is pending, `timeout` seconds at most; whether that came."""
    end = time.monotonic() + timeout
    while pending():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


@contextmanager
def aside():
    """Inside: the running script thread waits for a fit rather than drawing, so the fit does not give way to it."""
    me = threading.current_thread()
    with lock:
        was = me in pages
        pages.discard(me)
    try:
        yield
    finally:
        if was:
            pages.add(me)


def drawing() -> None:
    """Note that the running script thread draws a page, until it ends (called by every page's opening)."""
    pages.add(threading.current_thread())


@contextmanager
def showing(job: Job | None):
    """Inside: the script thread draws `job`'s result (None: nothing to note) in its turn, giving way to others."""
    # on leaving, the queue moves on (job.shown)
    if job is None:
        yield
        return
    me = threading.current_thread()
    with lock:
        turn.add(me)
    try:
        yield
    finally:
        with lock:
            turn.discard(me)
        job.shown.set()


def give_way() -> None:
    """In the fit with the turn, wait while another visitor's page is drawn, the fit's `yields` seconds at most."""
    # the fit with the turn: the worker, or a page drawing its results; elsewhere this does nothing
    me = threading.current_thread()
    if me is not worker and me not in turn:
        return
    job = running
    end = time.monotonic() + (job.yields if job is not None else GIVE_WAY_S)
    while others_drawing(me) and time.monotonic() < end:
        time.sleep(GIVE_WAY_POLL)


def others_drawing(me: threading.Thread) -> bool:
    """Whether a script thread other than `me`, not drawing a fit's results, is drawing a page."""
    with lock:
        return any(t is not me and t not in turn and t.is_alive() for t in list(pages))
