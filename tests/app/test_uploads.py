"""The memory ledger: uploads, stored and arriving files and working memory share one budget per server; idle visitors'
uploads are released least recently used first, a visitor's own never, and each is released with its session."""
import gc

import numpy as np
import pytest

from engine.formats import keyed_vectors
from server import ledger, runtime


def vectors(rows: int, dims: int = 100) -> object:
    return keyed_vectors([f"w{i}" for i in range(rows)], np.zeros((rows, dims), dtype=np.float32))


REGISTRIES = (ledger.held, ledger.evicted, ledger.away, ledger.in_flight, ledger.reserved, ledger.refused,
              ledger.results, ledger.shared)


@pytest.fixture
def budget(monkeypatch):
    """A budget of 1 MB in which every upload counts as idle at once, and nothing held before or after."""
    monkeypatch.setenv(ledger.BUDGET_ENV, "1")
    monkeypatch.setattr(ledger, "IDLE_S", 0.0)
    for registry in REGISTRIES:
        registry.clear()
    yield
    for registry in REGISTRIES:
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
    monkeypatch.setattr(runtime, "storage", lambda: files.file_storage)
    return files


def test_the_least_recently_used_upload_of_another_visitor_makes_room(budget):
    a, b, c = ledger.Token(), ledger.Token(), ledger.Token()
    assert ledger.hold_upload(a, vectors(900), ("a.txt", 1)) and ledger.hold_upload(b, vectors(900), ("b.txt", 1))
    ledger.get(a)  # a was used after b
    assert ledger.hold_upload(c, vectors(900), ("c.txt", 1))  # 3 × 0.45 MiB > 1 MiB: b goes
    assert ledger.get(b) is None and ledger.get(a) is not None and ledger.get(c) is not None
    assert ledger.total() <= ledger.budget()
    assert ledger.was_evicted(b) and not ledger.was_evicted(b)  # told once
    assert not ledger.was_evicted(a)


def test_an_upload_larger_than_the_budget_is_refused_and_holds_nothing(budget):
    token = ledger.Token()
    assert not ledger.hold_upload(token, vectors(4000), ("big.txt", 1))
    assert ledger.get(token) is None and ledger.total() == 0


def test_an_ended_session_releases_its_upload(budget):
    token = ledger.Token()
    ledger.hold_upload(token, vectors(100), ("a.txt", 1))
    assert ledger.total() > 0
    del token
    gc.collect()
    assert ledger.total() == 0 and not ledger.held


def test_the_page_tells_an_evicted_visitor(budget):
    from tests.apptest_helpers import messages, run_page, uploader
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "the cat"})
    uploader(at).set_value([("v.txt", b"the 1 2 3\ncat 3 2 1\n", "text/plain")])
    at.run()
    assert any("2 words of 3 dimensions" in c.value for c in at.sidebar.caption)
    other, mine = ledger.Token(), ledger.total()
    dims = (2**20 - ledger.WORD_BYTES - mine) // 4 + 1  # alone within the 1 MiB, with this page's upload over it
    assert ledger.hold_upload(other, vectors(1, dims), ("other.txt", 1))
    at.run()
    assert "released to make room" in messages(at)
    assert not any("2 words of 3 dimensions" in c.value for c in at.sidebar.caption)


def qk_switch(at):
    """The banner's switch between W_Q's and W_K's presets."""
    return next(g for g in at.get("button_group") if g.key == "_qk_choice")


def weights_shown(at) -> tuple[str, str | None]:
    """The banner's sentence on W_Q and W_K, and the choice its switch highlights."""
    (banner,) = [m.value for m in at.markdown if "W_Q and W_K" in m.value]
    return banner, qk_switch(at).value


def test_learned_weights_that_fall_back_to_random_are_said_and_highlighted_as_random():
    from tests.apptest_helpers import messages, run_page, uploader
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "zq xv"})
    uploader(at).set_value([("v.txt", b"zq 1 2 3\nxv 3 2 1\n", "text/plain")])  # words of no training sentence
    at.run()
    assert "know none of the training sentences" in messages(at)
    for _ in range(2):
        banner, choice = weights_shown(at)
        assert banner.startswith("**W_Q and W_K are random** (seeds 1 and 2)") and choice == "random"
        qk_switch(at).set_value("trained")  # asking for the learned weights again falls back again
        at.run()
        assert not at.exception


def test_choosing_upload_before_a_file_shows_glove_with_the_shipped_head_and_fits_nothing():
    from fits import queue
    from harness.apptest import ASKED
    from tests.apptest_helpers import messages, run_page
    asked = ASKED[0]
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload"})
    assert not at.exception and ASKED[0] == asked and not queue.pending()  # no fit queued, none waited for
    banner, choice = weights_shown(at)
    assert banner.startswith("**W_Q and W_K were learned from 7,479 real English sentences**") and choice == "trained"
    assert "No vectors uploaded yet" in " ".join(i.value for i in at.sidebar.info) and "Learning" not in messages(at)


def test_reading_an_upload_lets_go_of_the_file_streamlit_holds_for_the_session(budget, session):
    from vectors import chosen
    assert chosen.read_upload([("v.txt", b"the 1 2 3\n")]) is None and ledger.total() > 0
    assert session.get_files("s", ["f1"]) == []  # the bytes went: only the vectors count against the budget
    assert [f.name for f in session.get_files("s", ["f2"])] == ["corpus.csv"]  # another uploader's file stays


def test_the_page_says_why_a_file_was_turned_away_at_the_door(budget, monkeypatch):
    from tests.apptest_helpers import messages, run_page
    monkeypatch.setattr(ledger, "session_of", lambda: "s")
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "the cat"})
    ledger.refused["s"] = "share"  # as the upload gate leaves it
    at.run()
    assert "That file was not taken" in messages(at) and "50 MB of files per visitor" in messages(at)
    at.run()
    assert "That file was not taken" not in messages(at)  # said once


def test_a_kept_result_counts_in_the_ledger_until_its_session_ends(budget, monkeypatch):
    from engine.fit import Fit
    monkeypatch.setattr(ledger, "reconnect_s", lambda: 60.0)
    fit = Fit(np.zeros((50, 16)), np.zeros((50, 16)), *[np.zeros(3)] * 5, 2, False, 10, 0)
    ledger.keep_result("s", "corpus", fit)
    ledger.keep_result("s", "corpus", fit)  # a new run's result replaces the last one
    assert ledger.used() == 2 * 50 * 16 * 8 + 5 * 3 * 8  # W_Q, W_K and five curves
    ledger.sweep(lambda session: False, now=0.0)
    assert ledger.sweep(lambda session: False, now=60.0) == ["s"] and ledger.used() == 0


def test_stored_files_count_whether_an_uploader_names_them_or_not(session):
    assert ledger.stored("s") == len(b"the 1 2 3\n") + len(b"sentence,query\n") == ledger.stored()
    assert ledger.stored("t") == 0


def test_a_session_may_send_one_files_worth_at_a_time(budget, session, monkeypatch):
    monkeypatch.setattr(ledger, "session_cap", lambda: 100)
    held = ledger.stored("s")  # 25 bytes already stored
    assert ledger.admit("s", 100 - held)  # fits the session's share
    assert ledger.in_flight == {"s": ledger.FLIGHT * (100 - held)}
    assert not ledger.admit("s", 1)  # a second file while the first arrives: refused
    assert ledger.refusal("s") == "share" and ledger.refusal("s") is None  # told once, on the visitor's next run
    assert ledger.admit("t", 100)  # another session has its own share
    ledger.landed("s", 100 - held)
    ledger.landed("t", 100)
    assert ledger.in_flight == {}


def test_a_file_arriving_is_counted_against_the_budget_and_releases_only_idle_uploads(budget, session, monkeypatch):
    idle, busy = ledger.Token(), ledger.Token()
    assert ledger.hold_upload(idle, vectors(1000), ("idle.txt", 1))  # 0.5 MiB
    monkeypatch.setattr(ledger, "IDLE_S", 60.0)
    assert ledger.hold_upload(busy, vectors(600), ("busy.txt", 1))  # 0.3 MiB, just used
    ledger.held[id(idle)].used -= 120  # not used for two minutes
    assert ledger.admit("x", 150_000)  # 2 × 0.14 MiB: only the idle upload can make room, and does
    assert ledger.get(idle) is None and ledger.was_evicted(idle) and ledger.get(busy) is not None
    assert not ledger.admit("y", 250_000)  # no idle upload left: refused, the busy one stays
    assert ledger.refusal("y") == "room"
    assert ledger.get(busy) is not None and "y" not in ledger.in_flight
    ledger.landed("x", 150_000)


def test_an_upload_is_read_from_streamlits_copy_and_the_uploaders_copy_is_closed(session):
    from copy import deepcopy

    from streamlit.proto.Common_pb2 import FileURLs
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    stored = session.get_files("s", ["f1"])[0]
    given = deepcopy(UploadedFile(stored, FileURLs()))  # what st.file_uploader returns: a copy of the bytes
    assert given.getvalue() is not stored.data
    [(name, data)] = ledger.file_bytes([given])
    assert name == "v.txt" and data is stored.data and given.closed  # one copy in memory, not two
    elsewhere = UploadedFile(type(stored)("f9", "w.txt", "text/plain", b"cat 1\n"), FileURLs())  # not in the store
    assert ledger.file_bytes([elsewhere]) == [("w.txt", b"cat 1\n")]


def test_room_for_a_file_is_made_before_it_is_read(budget):
    a, b, me = ledger.Token(), ledger.Token(), ledger.Token()
    assert ledger.hold_upload(a, vectors(900), ("a.txt", 1)) and ledger.hold_upload(b, vectors(900), ("b.txt", 1))
    assert ledger.hold_upload(me, vectors(100), ("mine.txt", 1))
    for token, session in ((a, "a"), (b, "b"), (me, "me")):
        ledger.held[id(token)].session = session
    ledger.get(a)  # b is now the least recently used
    assert ledger.make_room(me, 300_000, "me")  # 2 × 0.45 + 0.05 + 0.29 MiB > 1 MiB: one of the others goes, b
    assert ledger.get(b) is None and ledger.get(a) is not None and ledger.get(me) is not None
    assert ledger.was_evicted(b) and ledger.reserved == {me: 300_000}
    assert ledger.total() + 300_000 <= ledger.budget()
    ledger.unreserve(me)
    assert not ledger.make_room(me, 2**21, "me")  # more than the budget: refused, and no other upload goes for it
    assert ledger.get(a) is not None and ledger.get(me) is not None and not ledger.reserved
    assert not ledger.was_evicted(a)


def test_a_file_that_cannot_fit_even_after_every_idle_upload_goes_releases_none(budget, session, monkeypatch):
    idle, busy = ledger.Token(), ledger.Token()
    assert ledger.hold_upload(idle, vectors(400), ("idle.txt", 1))  # 0.2 MiB
    monkeypatch.setattr(ledger, "IDLE_S", 60.0)
    assert ledger.hold_upload(busy, vectors(1000), ("busy.txt", 1))  # 0.5 MiB, just used
    ledger.held[id(idle)].used -= 120
    assert not ledger.admit("x", 300_000)  # 2 × 0.29 MiB: room only if the busy one went too, so refused
    assert ledger.get(idle) is not None and not ledger.was_evicted(idle)


def test_a_selection_that_will_be_refused_releases_no_one(budget, session):
    from vectors import chosen
    other = ledger.Token()
    assert ledger.hold_upload(other, vectors(1900), ("other.txt", 1))  # 0.95 MiB of the 1 MiB budget
    big = [(f"v{i}.txt", b"x" * 200_000) for i in range(3)]  # three files: "upload one vectors file"
    assert "one" in chosen.read_upload(big)
    assert ledger.get(other) is not None and not ledger.reserved


def test_a_closed_tabs_upload_is_released_once_it_can_no_longer_reconnect(budget, session, monkeypatch):
    monkeypatch.setattr(ledger, "reconnect_s", lambda: 60.0)
    token = ledger.Token()  # kept alive, as Streamlit keeps an ended session until its store next changes
    assert ledger.hold_upload(token, vectors(10), (("v.txt", 10),))
    ledger.held[id(token)].session = "s"
    gone, back = (lambda session_id: False), (lambda session_id: session_id == "s")
    ended = []
    assert ledger.sweep(gone, now=1000.0, end=ended.append) == []  # the tab closed
    ledger.sweep(back, now=1030.0)  # and came back within the TTL
    ledger.sweep(gone, now=1040.0)  # closed again
    ledger.sweep(gone, now=1099.0, end=ended.append)
    assert ledger.get(token) is not None and not ended  # it may still reconnect
    assert ledger.sweep(gone, now=1100.0, end=ended.append) == ["s"] == ended  # its session ended: files and all
    assert ledger.get(token) is None and ledger.total() == 0 and not ledger.away
    assert not ledger.was_evicted(token)  # no one is left to tell


def test_a_closed_tabs_unclaimed_files_are_let_go_with_its_session(budget, session, monkeypatch):
    monkeypatch.setattr(ledger, "reconnect_s", lambda: 60.0)
    gone, ended = (lambda session_id: False), []
    ledger.sweep(gone, now=0.0, end=ended.append)  # files stored for "s", never named in an uploader; tab closed
    assert ledger.sweep(gone, now=60.0, end=ended.append) == ["s"] == ended


def test_a_refused_upload_lets_go_of_the_file_too(budget, session):
    from vectors import chosen
    assert "is not a number" in chosen.read_upload([("v.txt", b"the 1 2 x\n")])  # refused
    assert session.get_files("s", ["f1"]) == [] and ledger.total() == 0


def test_the_budget_counts_what_a_word_really_costs(glove):
    import sys
    import tracemalloc

    from engine.formats import keyed_vectors
    words = [w.encode().decode() for w in glove.index_to_key[:50_000]]  # strings of their own, as an upload has
    tracemalloc.start()
    try:
        kv = keyed_vectors(words, np.zeros((len(words), 2), dtype=np.float32))
        index = tracemalloc.get_traced_memory()[0] - kv.vectors.nbytes
    finally:
        tracemalloc.stop()
    per_word = (index + sum(map(sys.getsizeof, words))) / len(words)
    assert 0.8 * ledger.WORD_BYTES <= per_word <= ledger.WORD_BYTES, per_word
