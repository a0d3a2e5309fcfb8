"""Running pages in Streamlit's AppTest, as the tests and the rerun benchmarks do."""
import functools
from contextlib import contextmanager
from pathlib import Path

from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.testing.v1 import AppTest

from fits import queue
from kit import pages

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "lesson" / "app.py"  # every run starts here and runs the page asked for
PAGES = [p.path for p in pages.STEPS[1:]]  # every step of the story but home, in menu order
FIT_TIMEOUT_S = 300  # the longest a run waits for the fits its page asked for
settling = True  # whether a run waits for its page's fits and runs again (see arrive)
ASKED = [0]  # fits asked of the queue in this process so far, joined ones included (counted by asking)


def counting(ask):
    """queue.ask, counting each fit asked for in ASKED."""
    # arrive() needs the count: a run that asked for a fit that ended before the run did still has its waiting
    # notice to draw the page again.
    def ask_and_count(*args, **kwargs):
        ASKED[0] += 1
        return ask(*args, **kwargs)
    return ask_and_count


queue.ask = counting(queue.ask)


def run_page(page: str | None = None, query: dict | None = None, timeout: float = 60) -> AppTest:
    """A fresh session on `page` (home when None) with URL parameters `query`, each run ending with its fits drawn."""
    at = from_root(arrive(AppTest.from_file(str(ENTRY), default_timeout=timeout)))
    at._bidi_component_manager = components()
    at.query_params.update(query or {})
    if page:
        at.switch_page(page)
    return at.run()


def from_root(at: AppTest) -> AppTest:
    """`at`, switching to a page named by its path from the repository root ('pages/2_Factor_matrix.py')."""
    # As the registry names it: AppTest reads a path from the entry's own folder.
    at.switch_page = lambda page: AppTest.switch_page(at, str(ROOT / page))
    return at


@functools.cache
def components() -> BidiComponentManager:
    """The installed custom components, found once per process and shared by every session, as a server shares them."""
    # A new AppTest would scan every installed package's metadata for them again (about 0.08 s of CPU, most of a
    # run).
    found = BidiComponentManager()
    found.discover_and_register_components(start_file_watching=False)
    return found


def arrive(at: AppTest) -> AppTest:
    """Make each run of `at` that asked for a fit, or left one queued or running, wait for the fits and run again."""
    # As the page's waiting notice reruns it in a browser once its fit has arrived.
    once = at._run

    def run(widget_state=None, timeout=None):
        asks = ASKED[0]
        done = once(widget_state, timeout)
        while settling and (queue.pending() or ASKED[0] != asks):
            queue.idle(FIT_TIMEOUT_S)
            asks = ASKED[0]
            done = once(at._tree.get_widget_states(), timeout)
        return done
    at._run = run
    return at


@contextmanager
def as_it_ends():
    """Inside: runs end when their script does, their fits still queued or running (to see the waiting notice)."""
    global settling
    settling = False
    try:
        yield
    finally:
        settling = True
