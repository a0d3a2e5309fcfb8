"""Shared fixtures: the real GloVe vectors once per session, small hand-built vector sets, and one Chromium and one
dashboard server for the browser tests."""
import numpy as np
import pytest

from engine.vectors import keyed_vectors, load_glove


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
    from tests import browser as b
    b.require_chromium()
    with b.chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def app_url(chromium):
    """Base URL of a Streamlit server started for this run and stopped afterwards."""
    from tests import browser as b
    with b.server() as url:
        yield url
