"""Uploads share one memory budget per server: least recently used released first, each released with its session."""
import gc

import numpy as np
import pytest

from engine.vectors import keyed_vectors
from ui import uploads


def vectors(rows: int, dims: int = 100) -> object:
    return keyed_vectors([f"w{i}" for i in range(rows)], np.zeros((rows, dims), dtype=np.float32))


@pytest.fixture
def budget(monkeypatch):
    """A budget of 1 MB, and nothing held before or after."""
    monkeypatch.setenv(uploads.BUDGET_ENV, "1")
    for registry in (uploads.held, uploads.evicted, uploads.away):
        registry.clear()
    yield
    for registry in (uploads.held, uploads.evicted, uploads.away):
        registry.clear()


@pytest.fixture
def session(monkeypatch):
    """A script run of session 's' whose vectors uploader holds the file f1 and the corpus uploader f2, as Streamlit's
    upload endpoint leaves them."""
    from types import SimpleNamespace

    from streamlit.runtime import scriptrunner
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.uploaded_file_manager import UploadedFileRec

    files = MemoryUploadedFileManager("/upload")
    files.add_file("s", UploadedFileRec("f1", "v.txt", "text/plain", b"the 1 2 3\n"))
    files.add_file("s", UploadedFileRec("f2", "corpus.csv", "text/csv", b"sentence,query\n"))
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx",
                        lambda suppress_warning=False: SimpleNamespace(session_id="s", uploaded_file_mgr=files))
    return files


def test_the_least_recently_used_upload_of_another_visitor_makes_room(budget):
    a, b, c = uploads.Token(), uploads.Token(), uploads.Token()
    assert uploads.keep(a, vectors(900), ("a.txt", 1)) and uploads.keep(b, vectors(900), ("b.txt", 1))
    uploads.get(a)  # a was used after b
    assert uploads.keep(c, vectors(900), ("c.txt", 1))  # 3 × 0.45 MiB > 1 MiB: b goes
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
    assert uploads.keep(other, vectors(1, 262_068), ("other.txt", 1))  # 1,048,400 bytes: with this page's 280, over 1 MiB
    at.run()
    assert "released to make room" in messages(at)
    assert not any("2 words of 3 dimensions" in c.value for c in at.sidebar.caption)


def test_reading_an_upload_lets_go_of_the_file_streamlit_holds_for_the_session(budget, session):
    from ui import sidebar
    assert sidebar.read_upload([("v.txt", b"the 1 2 3\n")], "en") is None and uploads.total() > 0
    assert session.get_files("s", ["f1"]) == []  # the bytes went: only the vectors count against the budget
    assert [f.name for f in session.get_files("s", ["f2"])] == ["corpus.csv"]  # another uploader's file stays


def test_an_arriving_file_is_counted_before_the_uploader_copies_it(session):
    assert uploads.arriving(("txt", "vec", "bin", "npy")) == len(b"the 1 2 3\n")  # the corpus CSV is not vectors
    assert uploads.arriving(("csv",)) == len(b"sentence,query\n")


def test_an_upload_is_read_from_streamlits_copy_and_the_uploaders_copy_is_closed(session):
    from copy import deepcopy

    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    stored = session.get_files("s", ["f1"])[0]
    given = deepcopy(UploadedFile(stored, FileURLs()))  # what st.file_uploader returns: a copy of the bytes
    assert given.getvalue() is not stored.data
    [(name, data)] = uploads.file_bytes([given])
    assert name == "v.txt" and data is stored.data and given.closed  # one copy in memory, not two
    elsewhere = UploadedFile(type(stored)("f9", "w.txt", "text/plain", b"cat 1\n"), FileURLs())  # not in the store
    assert uploads.file_bytes([elsewhere]) == [("w.txt", b"cat 1\n")]


def test_room_for_a_file_is_made_before_it_is_read(budget):
    a, b, me = uploads.Token(), uploads.Token(), uploads.Token()
    assert uploads.keep(a, vectors(900), ("a.txt", 1)) and uploads.keep(b, vectors(900), ("b.txt", 1))
    assert uploads.keep(me, vectors(100), ("mine.txt", 1))
    uploads.get(a)  # b is now the least recently used
    uploads.make_room(me, 300_000)  # 2 × 0.45 + 0.05 + 0.29 MiB > 1 MiB: one of the others must go, b first
    assert uploads.get(b) is None and uploads.get(a) is not None and uploads.get(me) is not None
    assert uploads.was_evicted(b)
    assert uploads.total() + 300_000 <= uploads.budget()
    uploads.make_room(me, 2**21)  # more than the budget: every other upload goes, the visitor's own stays until read
    assert uploads.get(a) is None and uploads.get(me) is not None
    uploads.make_room(me, 0)  # nothing arriving: nothing happens
    assert uploads.get(me) is not None


def test_a_closed_tabs_upload_is_released_once_it_can_no_longer_reconnect(budget, session, monkeypatch):
    monkeypatch.setattr(uploads, "reconnect_s", lambda: 60.0)
    token = uploads.Token()  # kept alive, as Streamlit keeps an ended session until its store next changes
    assert uploads.keep(token, vectors(10), (("v.txt", 10),))
    gone, back = (lambda session_id: False), (lambda session_id: session_id == "s")
    uploads.sweep(gone, now=1000.0)  # the tab closed
    uploads.sweep(back, now=1030.0)  # and came back within the TTL
    uploads.sweep(gone, now=1040.0)  # closed again
    uploads.sweep(gone, now=1099.0)
    assert uploads.get(token) is not None  # it may still reconnect
    uploads.sweep(gone, now=1100.0)
    assert uploads.get(token) is None and uploads.total() == 0 and not uploads.away
    assert not uploads.was_evicted(token)  # no one is left to tell


def test_a_refused_upload_lets_go_of_the_file_too(budget, session):
    from ui import sidebar
    assert "is not a number" in sidebar.read_upload([("v.txt", b"the 1 2 x\n")], "en")  # refused
    assert session.get_files("s", ["f1"]) == [] and uploads.total() == 0


def test_the_budget_counts_what_a_word_really_costs(glove):
    import sys
    import tracemalloc

    from engine.vectors import keyed_vectors
    words = [w.encode().decode() for w in glove.index_to_key[:50_000]]  # strings of their own, as an upload has
    tracemalloc.start()
    try:
        kv = keyed_vectors(words, np.zeros((len(words), 2), dtype=np.float32))
        index = tracemalloc.get_traced_memory()[0] - kv.vectors.nbytes
    finally:
        tracemalloc.stop()
    per_word = (index + sum(map(sys.getsizeof, words))) / len(words)
    assert 0.8 * uploads.WORD_BYTES <= per_word <= uploads.WORD_BYTES, per_word
