"""Shared fixtures: the real GloVe vectors once per session, small hand-built vector sets, and one Chromium and one
dashboard server per process for the tests that drive a browser. Each test is marked with its folder's kind, and
pytest-xdist gives its workers whole units of tests."""
import gc
import itertools
import os
import re
import shutil
import tempfile

import numpy as np
import pytest

from engine.formats import keyed_vectors
from engine.sources import load_glove

KINDS = ("engine", "app", "browser", "deploy", "host")  # tests/<kind>/, each a marker registered in pytest.ini
SECONDS = {"engine": 0.05, "app": 0.4, "deploy": 1.0}  # about what one test of a kind takes (measured, 2 workers)
ODD_VALUE = re.compile(r"::test_odd_but_valid_url_values_draw_a_stable_view\[(?:home|pages/.+?\.py)-(.+)\]$")
SAME_FIT = re.compile(r"::test_settings_change_the_numbers_shown\[.+-position-0\.6\]$")  # every page: one new fit
FIRST_VIEW = re.compile(r"::test_every_page_(?:has_no_wcag_violations|draws_its_charts_without_errors)\[(.+)\]$")


def pytest_configure(config):
    """Every server and AppTest of the run keeps its classes in a folder of its own, not the app's var/. With
    pytest-xdist's workers, one BLAS thread per process: the workers already take every CPU, and OpenBLAS's
    threads on top of them fight over the same cores (two fits at once took four times as long). The workers and the
    servers they start inherit it."""
    if config.getoption("numprocesses", None):
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ["CLASS_DATA"] = config.class_data = tempfile.mkdtemp(prefix="classes-")  # class mode's SQLite file


def pytest_unconfigure(config):
    """The run's class folder goes with it (its servers have stopped by now)."""
    shutil.rmtree(getattr(config, "class_data", ""), ignore_errors=True)


def pytest_collection_modifyitems(items):
    """Mark each test with its folder's kind, and put the host lane and the slow ones first. In a pytest-xdist worker,
    spread the tests that drive Chromium evenly in time through the rest: a browser test waits for its page much of the
    time, which another worker's CPU-bound tests fill, where two browser tests at once would leave the CPUs idle."""
    for item in items:
        if item.path.parent.name in KINDS:
            item.add_marker(item.path.parent.name)
    # the longest first: they must not be last (the host lane, one unit of about two minutes, first of all)
    items.sort(key=lambda item: (item.get_closest_marker("host") is None, item.get_closest_marker("slow") is None))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        browser = [item for item in items if "chromium" in item.fixturenames]
        items[:] = spread(browser, [item for item in items if "chromium" not in item.fixturenames])


def pytest_collection_finish(session):
    """What collection imported lives as long as the run: frozen out of the garbage collector, as the server freezes
    what its warm-up made (server/lifespan.py), so that each full collection the memory ledger asks for around a fit
    or an upload (ledger.give_back) walks only what the tests made since, not every module again."""
    gc.collect()
    gc.freeze()


def spread(few: list, many: list) -> list:
    """`few` placed at even intervals of the time `many` take (by SECONDS), each list's own order kept."""
    starts = list(itertools.accumulate((SECONDS.get(x.path.parent.name, 1) for x in many), initial=0.0))
    step = starts[-1] / max(1, len(few))
    keyed = [((i + 0.5) * step, x) for i, x in enumerate(few)] + list(zip(starts[:-1], many, strict=True))
    return [x for _, x in sorted(keyed, key=lambda pair: pair[0])]


def unit(nodeid: str) -> str:
    """The tests that run on one pytest-xdist worker: a deploy or host module's (what its fixtures start once); the
    pages of one odd URL value in tests/app/test_hostile.py (a fit it asks for is made once per process); the
    accessibility check and the drawing check of one page in one language (they share its first view, first_views);
    every page with the position weight of test_settings_change_the_numbers_shown, and the odd values d_k 50, 100 and
    300 (the head they ask for is fitted once per process); else one."""
    path = nodeid.split("::")[0]
    odd, first = ODD_VALUE.search(nodeid), FIRST_VIEW.search(nodeid)
    if path.startswith(("tests/deploy/", "tests/host/")):
        return path
    if SAME_FIT.search(nodeid):
        return f"{path}[position-0.6]"
    if odd:  # a d_k above the vectors' 50 dimensions is 50: one fit
        return f"{path}[{'d_k-50' if odd[1] in ('d_k-100', 'd_k-300') else odd[1]}]"
    return f"first view [{first[1]}]" if first else nodeid


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # pytest-xdist's hook, for pytest.ini's `-n logical`
def pytest_xdist_auto_num_workers(config):
    """A worker per CPU, and one more when browser tests run: they wait for their pages part of the time, and with a
    worker per CPU two waited at once often enough to leave 9% of the CPUs idle over the whole suite (2% with one more;
    567 s against 546 s on 2 CPUs). The fast lane (`-m "not browser and ..."`) keeps the CPUs busy by itself: one more
    worker there took 172 s against 151 s. PYTEST_XDIST_AUTO_NUM_WORKERS still says otherwise."""
    told = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    waiting = "not browser" not in (config.getoption("markexpr", "") or "")
    return int(told) if told.isdigit() else len(os.sched_getaffinity(0)) + waiting


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook
def pytest_xdist_make_scheduler(config, log):
    """Units of tests (unit) go to the next free worker, the biggest first."""
    from xdist.scheduler import LoadScopeScheduling

    class ByUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit(nodeid)
    return ByUnit(config, log)


@pytest.fixture(scope="session")
def glove():
    """GloVe 6B 50d from the installed package, loaded once per test session."""
    return load_glove()


@pytest.fixture
def make_kv():
    """Build KeyedVectors from {word: row}, in the given (frequency) order."""
    return lambda rows: keyed_vectors(list(rows), np.array(list(rows.values()), dtype=np.float32))


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole run, shared by every test that drives a browser (Playwright's sync API
    allows one at a time per process)."""
    from tests import browser_helpers as b
    b.require_chromium()
    with b.chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def first_views(chromium):
    """Pages a test only read, kept by address for the next test that opens the same one (browser_helpers.first_view);
    closed at the end of the run."""
    from tests import browser_helpers as b
    kept: dict = {}
    yield kept
    for page in kept.values():
        b.leave(page)


@pytest.fixture(scope="session")
def app_url(chromium):
    """Base URL of a Streamlit server started for this run and stopped afterwards."""
    from tests import browser_helpers as b
    with b.server() as url:
        yield url
