"""What a page shows while a fit it asked for is queued or running (fits/queue.py): its place in the queue or how far it
got, and Stop. The notice looks at the fit every POLL seconds and draws the page again once the fit has ended."""
import functools
import uuid
from collections.abc import Callable

import streamlit as st

from fits import queue
from kit.text import t, with_language

POLL = 0.5  # seconds between looks: a new place in the queue shows within this, and so does the fit's end


def me() -> str:
    """This session's name in the queue."""
    return st.session_state.setdefault("_fitter", uuid.uuid4().hex)


def panel(job: queue.Job, key: str, progress: Callable[[queue.Job], None] | None = None,
          stopped: Callable[[queue.Job], None] | None = None, queued: str = "queue_wait"):
    """Until `job` ends, its place in the queue or how far it got, and Stop; once it has ended, the whole page again."""
    # progress(job) draws how far it got (else one line); Stop calls stopped(job) after leaving the fit
    # a look every POLL seconds may come in a script thread of its own: with_language keeps the run's language
    notice(job, with_language(functools.partial(status, job, key, progress, stopped, queued)))


@st.fragment(run_every=POLL)
def notice(job: queue.Job, draw: Callable[[], None]):
    """The whole page again once `job` has ended; until then, draw()."""
    if job.ended.is_set():
        st.rerun()
    draw()


def status(job: queue.Job, key: str, progress: Callable[[queue.Job], None] | None,
           stopped: Callable[[queue.Job], None] | None, queued: str = "queue_wait"):
    """The fit's place in the queue or how far it got, and Stop (panel)."""
    n = queue.ahead(job)
    if n:
        st.info(t(queued, n=n), icon=":material/hourglass_top:")
    elif job.stop.is_set():
        st.info(t("fit_stopping", step=job.step), icon=":material/hourglass_bottom:")
    elif progress is not None:
        progress(job)
    else:
        st.info(t("fit_running", step=job.step, total=job.steps), icon=":material/model_training:")
    st.button(t("learn_stop"), key=key, icon=":material/stop:", on_click=stop, args=(job, stopped))


def stop(job: queue.Job, then: Callable[[queue.Job], None] | None):
    """Stop's callback: this session waits for the fit no longer (it stops if nobody else does), then `then(job)`."""
    queue.leave(job, me())
    if then is not None:
        then(job)
