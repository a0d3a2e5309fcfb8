"""What a page shows while a fit it asked for is queued or running (ui/fair.py): its place in the queue or how far it
got, and Stop. The notice looks at the fit every POLL seconds and draws the page again once the fit has ended."""
import uuid
from collections.abc import Callable

import streamlit as st

from ui import fair
from ui.text import t

POLL = 0.5  # seconds between looks: a new place in the queue shows within this, and so does the fit's end


def me() -> str:
    """This session's name in the queue."""
    return st.session_state.setdefault("_fitter", uuid.uuid4().hex)


@st.fragment(run_every=POLL)
def panel(job: fair.Job, lang: str, key: str, progress: Callable[[fair.Job], None] | None = None,
          stopped: Callable[[fair.Job], None] | None = None):
    """Until `job` ends: its place in the queue, or how far it got (`progress(job)` draws that, else one line), and
    Stop, which calls `stopped(job)` after leaving the fit; once it has ended, the whole page again."""
    if job.ended.is_set():
        st.rerun()
    n = fair.ahead(job)
    if n:
        st.info(t("queue_wait", lang, n=n), icon=":material/hourglass_top:")
    elif job.stop.is_set():
        st.info(t("fit_stopping", lang, step=job.step), icon=":material/hourglass_bottom:")
    elif progress is not None:
        progress(job)
    else:
        st.info(t("fit_running", lang, step=job.step, total=job.steps), icon=":material/model_training:")
    st.button(t("learn_stop", lang), key=key, icon=":material/stop:", on_click=stop, args=(job, stopped))


def stop(job: fair.Job, then: Callable[[fair.Job], None] | None):
    """Stop's callback: this session waits for the fit no longer (it stops if nobody else does), then `then(job)`."""
    fair.leave(job, me())
    if then is not None:
        then(job)
