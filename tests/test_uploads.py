"""Uploads share one memory budget per server: least recently used released first, each released with its session."""
import gc

import numpy as np
import pytest

from engine.vectors import keyed_vectors
from ui import uploads


def vectors(rows: int) -> object:
    return keyed_vectors([f"w{i}" for i in range(rows)], np.zeros((rows, 100), dtype=np.float32))


@pytest.fixture
def budget(monkeypatch):
    """A budget of 1 MB, and nothing held before or after."""
    monkeypatch.setenv(uploads.BUDGET_ENV, "1")
    uploads.held.clear()
    uploads.evicted.clear()
    yield
    uploads.held.clear()
    uploads.evicted.clear()


def test_the_least_recently_used_upload_of_another_visitor_makes_room(budget):
    a, b, c = uploads.Token(), uploads.Token(), uploads.Token()
    assert uploads.keep(a, vectors(1000), ("a.txt", 1)) and uploads.keep(b, vectors(1000), ("b.txt", 1))
    uploads.get(a)  # a was used after b
    assert uploads.keep(c, vectors(1000), ("c.txt", 1))  # 3 × 0.5 MB > 1 MB: b goes
    assert uploads.get(b) is None and uploads.get(a) is not None and uploads.get(c) is not None
    assert uploads.total() <= uploads.budget()
    assert uploads.was_evicted(b) and not uploads.was_evicted(b)  # told once
    assert not uploads.was_evicted(a)


def test_an_upload_larger_than_the_budget_is_refused_and_holds_nothing(budget):
    token = uploads.Token()
    assert not uploads.keep(token, vectors(4000), ("big.txt", 1))
    assert uploads.get(token) is None and uploads.total() == 0


def test_an_ended_session_releases_its_upload(budget):
    token = uploads.Token()
    uploads.keep(token, vectors(100), ("a.txt", 1))
    assert uploads.total() > 0
    del token
    gc.collect()
    assert uploads.total() == 0 and not uploads.held


def test_the_page_tells_an_evicted_visitor(budget):
    from tests.app import messages, run_page, uploader
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "the cat"})
    uploader(at).set_value([("v.txt", b"the 1 2 3\ncat 3 2 1\n", "text/plain")])
    at.run()
    assert any("2 words of 3 dimensions" in c.value for c in at.sidebar.caption)
    other = uploads.Token()
    assert uploads.keep(other, vectors(2097), ("other.txt", 1))  # 1,048,500 bytes: with this page's, over 1 MiB
    at.run()
    assert "released to make room" in messages(at)
    assert not any("2 words of 3 dimensions" in c.value for c in at.sidebar.caption)
