"""Class mode's database as the panels reach it (classroom/store.py): every call gives up by its deadline whatever the
database does, calls fail at once for a moment after a deadline missed, a call given up on before it started never
runs, and a SQLite file deleted under the server is made again; and the pixel that gives a browser its seat."""
import contextlib
import threading
import time

import pytest

from classroom import classes, seat, store
from classroom.limiter import Bucket
from tests.class_helpers import pixel, set_by


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """A class database of this test's own, and no pause left by another test."""
    monkeypatch.setenv("CLASS_DATA", str(tmp_path))
    monkeypatch.delenv("CLASS_DATABASE_URL", raising=False)
    monkeypatch.setattr(store, "_paused", [0.0])
    return tmp_path / "classes.sqlite"


def blocked(release: threading.Event, entered: threading.Event | None = None):
    """A database call that does not return until `release` is set (a database that stopped answering)."""
    def call(db, *, now):
        if entered is not None:
            entered.set()
        release.wait(60)
        return "late"
    return call


def test_a_call_the_database_does_not_answer_gives_up_and_the_next_ones_fail_at_once():
    release, ran = threading.Event(), []
    try:
        with pytest.raises(store.Unavailable):
            store.call(blocked(release))
        assert not release.is_set()  # it gave up while the call was still stuck
        with pytest.raises(store.Unavailable):
            store.call(lambda db, *, now: ran.append(now))  # paused: not even tried
        assert ran == []
    finally:
        release.set()


def occupy(call) -> None:
    """Keep a worker on `call`: whether its caller gives up first or `call` is released first does not matter here."""
    with contextlib.suppress(store.Unavailable):
        store.call(call)


def test_calls_given_up_on_before_a_worker_took_them_never_run(monkeypatch):
    release, ran = threading.Event(), []
    busy = []
    try:
        for _ in range(store.WORKERS):  # every worker stuck on the database
            entered = threading.Event()
            busy.append(threading.Thread(target=occupy, args=(blocked(release, entered),)))
            busy[-1].start()
            assert entered.wait(30)
        monkeypatch.setattr(store, "_paused", [0.0])
        with pytest.raises(store.Unavailable):
            store.call(lambda db, *, now: ran.append(now))
    finally:
        release.set()
        for thread in busy:
            thread.join(30)
    store._paused[0] = 0.0
    assert store.call(lambda db, *, now: "answered") == "answered"  # the workers are free again
    assert ran == []  # the caller had stopped waiting: its query was dropped, not run late


def test_a_person_s_mistake_passes_through_the_worker():
    with pytest.raises(classes.ClassError) as raised:
        store.call(classes.room, "ZZZZ2222")
    assert raised.value.code == "unknown"


def test_a_deleted_sqlite_file_is_made_again_with_its_tables_and_key(database):
    opened = store.call(classes.start, classes.Question(
        "relevance", "", "milk", ("cat", "drank"), 1, ("drank",), "angle"))
    key = store.secret()
    database.unlink()
    with pytest.raises(classes.ClassError) as raised:  # its classes are gone, and said so
        store.call(classes.room, opened.code)
    assert raised.value.code == "unknown" and database.exists()
    assert store.call(lambda db, *, now: classes.secret(db, "another")) == key  # browsers keep their seats
    store.call(classes.start, classes.Question("relevance", "", "milk", ("cat", "drank"), 1, ("drank",), "angle"))


def test_a_pixel_gives_a_browser_a_signed_seat_once_and_keeps_the_one_it_has(monkeypatch):
    monkeypatch.setattr(seat, "NEW_SEATS", Bucket(2, 0.0))
    first = pixel(seat.offer("", "", "", now=time.time()), client=("192.0.2.1", 1))
    cookie = set_by(first)["class_seat"]
    assert seat.verified(store.secret(), cookie) and list(set_by(first)) == ["class_seat"]
    assert all(part in first.headers["set-cookie"] for part in ("HttpOnly", "SameSite=strict", "Path=/"))
    nonce = seat.offer("", "", "", now=time.time())
    again = pixel(nonce, cookies={"class_seat": cookie}, client=("192.0.2.1", 1))
    assert "set-cookie" not in again.headers  # it keeps its seat, which the session is told
    assert seat.claimed(nonce, time.time()) == seat.verified(store.secret(), cookie)
    assert "class_seat" in set_by(pixel(seat.offer("", "", "", now=time.time()), client=("192.0.2.1", 1)))
    refused = seat.offer("", "", "", now=time.time())  # a third new seat for one address within the burst of 2
    assert "set-cookie" not in pixel(refused, client=("192.0.2.1", 1)).headers
    assert seat.claimed(refused, time.time()) == ""
    forged = seat.offer("", "", "", now=time.time())
    assert "set-cookie" not in pixel(forged, cookies={"class_seat": "abc.0123"}, client=("192.0.2.1", 1)).headers
    assert seat.claimed(forged, time.time()) == ""  # a forged cookie is no seat, and that address has no new one
    assert "class_seat" in set_by(pixel(seat.offer("", "", "", now=time.time()), client=("192.0.2.2", 1)))
    stranger = pixel("a nonce nobody offered", client=("192.0.2.3", 1))
    assert "set-cookie" not in stranger.headers and seat.claimed("a nonce nobody offered", time.time()) is None


def test_only_a_query_running_past_the_deadline_pauses_the_calls(monkeypatch):
    monkeypatch.setattr(store, "_running", {})
    assert not store.stuck()  # nothing running: a missed deadline was a queue on a busy process
    store._running["class-db-0"] = time.monotonic() - store.DEADLINE_S / 2
    assert not store.stuck()
    store._running["class-db-1"] = time.monotonic() - store.DEADLINE_S + store.HANDOVER_S / 2
    assert store.stuck()  # the database is not answering that one, handed to a worker a moment after it was asked
