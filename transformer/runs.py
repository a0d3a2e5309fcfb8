"""Page 8's runs of the real model share the server fairly. A sentence the model has not read yet takes its turn in the
one queue of fits (fits/queue.py): its working memory is counted in the ledger before it runs, it lets others' pages go
first between layers, and its page is drawn in its turn, one after another, each chart letting others go first. What
a run read is kept for every visitor in one cache by sentence (CACHE_BYTES at most, counted in the ledger), so a
sentence read once is drawn at once for anyone. Until a run arrives, the page shows its place in line with Stop."""
import threading
from collections import OrderedDict
from contextlib import contextmanager

import streamlit as st

from engine import minilm, minilm_files
from engine.corpus import CorpusError
from engine.errors import CodedError
from engine.minilm import ModelError
from fits import queue, waiting
from kit.text import error_text, t
from server import ledger
from transformer.model import Seen, read

CACHE_BYTES = 32 * 2**20  # sentences read, kept for everyone: about 16 of the longest, hundreds of the usual
# the longest a run, or its page drawn in its turn, waits for another visitor's page at once: longer than most take to
# draw, so that each is drawn alone (a run has 6 layers and its page a dozen charts: 5 s at most in all)
YIELDS_S = 0.3
INLINE_S = 1.0  # how long a page waits in its own run for a run at the head of the line before it shows the notice
RUN, STOP = "_model_run", "model_stop"  # session keys: this visitor's run in the queue, and its Stop button

lock = threading.Lock()
cache: "OrderedDict[tuple, Seen]" = OrderedDict()  # (model folder, words) -> what the model read, oldest first


def cached(key: tuple) -> Seen | None:
    """What the model read for `key`, if it is kept (then kept longest of all)."""
    with lock:
        if key in cache:
            cache.move_to_end(key)
        return cache.get(key)


def store(key: tuple, seen: Seen) -> None:
    """Keep `seen` for everyone, letting go of the sentences read longest ago beyond CACHE_BYTES; the ledger told."""
    with lock:
        cache[key] = seen
        size = sum(map(ledger.nbytes, cache.values()))
        while len(cache) > 1 and size > CACHE_BYTES:
            size -= ledger.nbytes(cache.popitem(last=False)[1])
    ledger.keep_shared("model runs", size)


def ask(m: minilm.Model, key: tuple) -> queue.Job:
    """This visitor's run of the model on `key`'s words, queued (or joined, when another visitor asked for it too)."""
    folder, words = key
    pieces = len(minilm.pieces(m, list(words)).ids)  # a sentence of too many pieces is said before it queues

    def work(report) -> Seen:
        return read(m, words, after=report)

    job = queue.Job(work, m.layers, minilm.run_bytes(m, pieces), key=("model", *key),
                    keep=lambda seen: store(key, seen), hold=True, cycles=False, yields=YIELDS_S)
    st.session_state[RUN] = queue.ask(job, waiting.me())
    return st.session_state[RUN]


def mine(key: tuple) -> queue.Job | None:
    """This visitor's run for `key`, if there is one; a run for another sentence is left."""
    # it stops if nobody else waits for it
    job = st.session_state.get(RUN)
    if job is not None and job.key != ("model", *key):
        queue.leave(job, waiting.me(), wait=0)
        del st.session_state[RUN]
        return None
    return job


def arrived(job: queue.Job) -> bool:
    """Whether the run has ended, waiting for it up to INLINE_S in this run when it is next in line or running."""
    if not job.ended.is_set() and queue.ahead(job) == 0:
        with queue.aside():
            job.ended.wait(INLINE_S)
    return job.ended.is_set()


@contextmanager
def reading(m: minilm.Model, words: list[str]):
    """Inside: the sentence as the model read it, drawn in its run's turn when it was read just now."""
    # kept by the model's folder and the words; until it arrives the page shows its place in line with Stop and stops
    # there; a sentence of too many pieces, or no room, says so
    key = (str(minilm_files.folder()), tuple(words))
    job = mine(key)
    found = cached(key) if job is None else None
    if found is not None:
        yield found
        return
    try:
        job = job or ask(m, key)
    except ModelError as e:
        st.warning(error_text(e))
        st.stop()
    if not arrived(job):
        waiting.panel(job, STOP, progress=running, queued="model_queue_wait")
        st.stop()
    ended(job)
    with queue.showing(job):
        yield job.result


def running(job: queue.Job) -> None:
    """How far the run has got, layer by layer (waiting.panel draws it with Stop)."""
    st.info(t("model_running", layer=job.step, layers=job.steps), icon=":material/hourglass_top:")


def ended(job: queue.Job) -> None:
    """A run that ended without what it read says why and stops the page, with a button that asks again."""
    # why: an error in the sentence, or Stop; the same sentence is not run again until the button is pressed
    if job.result is not None:
        del st.session_state[RUN]
        return
    error = job.error
    if isinstance(error, CorpusError) and error.code == "no_room":  # the queue says it in a fit's words
        error = ModelError("no_room", **error.values)
    if error is not None and not isinstance(error, CodedError):
        del st.session_state[RUN]
        raise error
    if error is None:
        st.info(t("model_run_stopped"), icon=":material/stop_circle:")
    else:
        st.warning(error_text(error))
    if st.button(t("model_run_again"), key="model_run_again", icon=":material/play_arrow:"):
        del st.session_state[RUN]
        st.rerun()
    st.stop()
