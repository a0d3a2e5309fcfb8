"""A page section's own fit in the one queue (fits/queue.py): its step cap, Train, Stop while the fit is queued or
running (found again on every rerun), and its result, kept in the session once it ends."""
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from fits import queue, waiting
from kit.text import t
from server import ledger


@dataclass(frozen=True)
class Runner:
    """Where a section keeps its fit in the session, and what it makes of the fit's end."""

    running: str  # session key: the fit queued or running (`job`) with the inputs it was started from
    result: str  # session key: the last fit's inputs, with its result under `field`
    field: str  # the result's name beside the inputs
    ledger: str  # the result's name in the memory ledger (server/ledger.py)
    explained: type[Exception]  # a failure the section says in its own words; any other is raised

    def section(self, parts: Callable[[queue.Job | None], None]) -> None:
        """Draw the section with parts(ended): `ended` is the fit ended since the last look, if any."""
        # the ended fit's results are drawn in its turn (queue.showing)
        ended = self.finish()
        with queue.showing(ended):
            parts(ended)

    def current(self) -> dict | None:
        """The fit queued or running, with its inputs; None when there is none."""
        return st.session_state.get(self.running)

    def finish(self) -> queue.Job | None:
        """The fit that ended since the last look, if any, its result kept beside its inputs."""
        # a stopped fit's result is the steps it reached; one that failed keeps its error; one that left the queue
        # before it began leaves nothing
        ss = st.session_state
        running = ss.get(self.running)
        if running is None or not running["job"].ended.is_set():
            return None
        inputs = dict(ss.pop(self.running))
        job = inputs.pop("job")
        if job.error is not None and not isinstance(job.error, self.explained):
            raise job.error
        if job.result is not None:
            ss[self.result] = inputs | {self.field: job.result}
            ledger.keep_result(ledger.session_of(), self.ledger, job.result)
        return job

    def pressed(self, label: str, key: str, disabled: bool = False) -> bool:
        """Train: whether it was clicked while no fit of this section is queued or running."""
        # a click sent for a disabled button starts nothing
        idle = self.current() is None
        clicked = st.button(label, key=key, type="primary", icon=":material/play_arrow:", disabled=disabled or not idle)
        return clicked and idle

    def start(self, work: Callable[[Callable[..., bool]], Any], steps: int, nbytes: int, /, **inputs) -> dict:
        """Queue the fit work(report) of `steps` steps holding `nbytes`; its job with `inputs`, kept in the session."""
        # hold=True: the fit keeps its turn until the page has drawn its results
        job = queue.ask(queue.Job(work, steps, nbytes, hold=True), waiting.me())
        running = st.session_state[self.running] = dict(inputs, job=job)
        return running


def cap_steps(key: str, asked: int, bound: int) -> None:
    """Hold the step setting `key` to `bound`, the most steps one fit may take here, saying so when more was asked."""
    # more comes from a link, or was asked for another sentence
    if asked > bound:
        st.session_state[key] = bound
        st.info(t("learn_steps_capped", asked=asked, max=bound))


def steps_input(where, key: str, bound: int, n: int, d: int, d_k: int) -> None:
    """The steps box, up to `bound`: the most steps one fit on n words of d dimensions through d_k may take."""
    where.number_input(t("learn_steps"), min_value=1, max_value=bound, step=50, key=key,
                       help=t("learn_steps_bound", max=bound, n=n, d=d, d_k=d_k))
