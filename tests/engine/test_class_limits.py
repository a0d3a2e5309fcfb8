"""Class mode's limits, keyed by what a script cannot renew for free, on SQLite and PostgreSQL: the client's address
(a forwarded one only from the trusted proxy), the token bucket, the browser's signed seat, and a class's door (joins
a minute from one address and from all, a seat's joins, closing, the cap, removing), the live classes' bound and the
schema's upgrade to version 2."""
import secrets

import pytest
import sqlalchemy as sa

from classroom import admission, classes, clients, seat
from classroom.classes import META, STUDENTS
from classroom.limiter import Bucket
from tests.engine.test_classroom import MILK, T0, join, refused


@pytest.mark.parametrize(("peer", "forwarded", "proxies", "found"), [
    ("203.0.113.5", None, "", "203.0.113.5"),
    ("203.0.113.5", "198.51.100.1", "", "203.0.113.5"),  # a header from anyone but the proxy is not read
    ("10.0.0.2", "198.51.100.1", "10.0.0.2", "198.51.100.1"),
    ("10.0.0.2", "6.6.6.6, 198.51.100.1", "10.0.0.0/24", "198.51.100.1"),  # what the client wrote itself is not read
    ("10.0.0.2", "198.51.100.1, 10.0.0.3", "10.0.0.0/24", "198.51.100.1"),  # two proxies of ours in a row
    ("10.0.0.2", "not an address", "10.0.0.2", "10.0.0.2"),
    ("10.0.0.2", "", "10.0.0.2", "10.0.0.2"),
    ("2001:db8:1:2:3:4:5:6", None, "", "2001:db8:1:2::/64"),  # one machine may take any address of its /64
    ("::ffff:192.0.2.9", None, "", "192.0.2.9"),
    (None, "198.51.100.1", "10.0.0.2", ""),
    ("127.0.0.1", "198.51.100.1", "junk, 127.0.0.1", "198.51.100.1"),
])
def test_the_client_s_address_is_the_peer_s_or_what_the_trusted_proxy_saw(peer, forwarded, proxies, found):
    assert clients.address(peer, forwarded, proxies) == found


def test_the_trusted_proxies_come_from_the_environment(monkeypatch):
    monkeypatch.setenv(clients.TRUSTED_ENV, "127.0.0.1")
    assert clients.address("127.0.0.1", "192.0.2.1") == "192.0.2.1"
    monkeypatch.delenv(clients.TRUSTED_ENV)
    assert clients.address("127.0.0.1", "192.0.2.1") == "127.0.0.1"


def test_a_bucket_takes_its_burst_then_its_rate_per_key_and_keeps_a_bounded_number_of_keys():
    bucket = Bucket(3, 0.5, keys=2)
    assert [bucket.allow("a", T0) for _ in range(4)] == [True, True, True, False]
    assert bucket.allow("b", T0) and not bucket.allow("a", T0 + 1.0) and bucket.allow("a", T0 + 2.0)
    assert not bucket.allow("a", T0 + 2.0)
    bucket.allow("c", T0 + 2.0)
    assert len(bucket) == 2  # the least recently seen key went
    assert all(bucket.allow("a", T0 + 100) for _ in range(3))  # waited long enough: full again, never more
    assert not bucket.allow("a", T0 + 100)


def test_a_seat_verifies_only_with_the_key_that_signed_it():
    key = secrets.token_urlsafe(24)
    cookie = seat.sign(key, "abc")
    assert seat.verified(key, cookie) == "abc"
    for forged in (seat.sign("another key", "abc"), "abc", "abc.", f"abd.{cookie.split('.')[1]}", "", None,
                   cookie + "0", "x" * 10_000):
        assert seat.verified(key, forged) is None


def test_the_site_s_key_is_made_once_and_shared(db):
    first = classes.secret(db, "one")
    assert first == "one" and classes.secret(db, "two") == "one"


def test_a_class_takes_a_minute_s_joins_from_one_address_and_from_all(db, monkeypatch):
    monkeypatch.setattr(admission, "JOINS_FROM_ONE", 3)
    monkeypatch.setattr(admission, "JOINS_IN_ALL", 5)
    opened = classes.start(db, MILK, now=T0)
    for i in range(3):
        join(db, opened.code, None, now=T0 + i, origin="school")
    refused("busy", join, db, opened.code, None, now=T0 + 3, origin="school")
    join(db, opened.code, None, now=T0 + 3, origin="home")  # another address is not held up by that one
    join(db, opened.code, None, now=T0 + 3, origin="cafe")
    refused("busy", join, db, opened.code, None, now=T0 + 4, origin="library")  # five this minute from all
    join(db, opened.code, None, now=T0 + admission.JOIN_WINDOW_S + 0.5, origin="school")  # the first has left it
    assert classes.room(db, opened.code, now=T0 + 61).joined == 6


def test_one_browser_joins_a_class_a_few_times_at_most(db):
    opened = classes.start(db, MILK, now=T0)
    for i in range(admission.SEAT_JOINS):
        join(db, opened.code, None, now=T0 + i, seat="my browser")
    refused("rejoined", join, db, opened.code, None, now=T0 + 9, seat="my browser")
    join(db, opened.code, None, now=T0 + 9, seat="another browser")


def test_closing_joining_keeps_the_students_and_lets_nobody_new_in(db):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0)
    admission.set_locked(db, opened.code, opened.teacher_key, True, now=T0 + 1)
    refused("locked", join, db, opened.code, None, now=T0 + 2)
    classes.answer(db, opened.code, token, 1, ["cat"], now=T0 + 2)  # who is in stays in
    room = classes.room(db, opened.code, now=T0 + 3)
    assert room.locked and room.joined == 1 and room.answered == 1
    refused("not_teacher", admission.set_locked, db, opened.code, "x" * 32, False, now=T0 + 3)
    admission.set_locked(db, opened.code, opened.teacher_key, False, now=T0 + 4)
    join(db, opened.code, None, now=T0 + 5)


def test_the_cap_refuses_students_without_its_number_and_the_teacher_can_raise_it(db):
    opened = classes.start(db, MILK, now=T0)
    assert classes.room(db, opened.code, now=T0).cap == classes.CAP
    admission.set_cap(db, opened.code, opened.teacher_key, 2, now=T0)
    join(db, opened.code, None, now=T0)
    join(db, opened.code, None, now=T0)
    assert refused("full", join, db, opened.code, None, now=T0 + 1).values == {}  # the student is not told the cap
    room = classes.room(db, opened.code, now=T0 + 1)
    assert (room.joined, room.cap) == (2, 2)  # what the teacher's panel says
    admission.set_cap(db, opened.code, opened.teacher_key, 3, now=T0 + 2)
    join(db, opened.code, None, now=T0 + 3)
    for bad in (0, admission.MAX_CAP + 1, "10", 2.5, True, None):
        refused("bad_cap", admission.set_cap, db, opened.code, opened.teacher_key, bad, now=T0 + 4)
    refused("not_teacher", admission.set_cap, db, opened.code, "x" * 32, 900, now=T0 + 4)
    assert classes.room(db, opened.code, now=T0 + 5).cap == 3


def test_a_removed_student_s_answers_stop_counting_their_token_stops_holding_and_their_seat_stays_out(db):
    opened = classes.start(db, MILK, now=T0)
    ana = join(db, opened.code, "Ana", now=T0, seat="ana's")
    bo = join(db, opened.code, "Bo", now=T0 + 1, seat="bo's")
    for token in (ana, bo):
        classes.answer(db, opened.code, token, 1, ["cat"], now=T0 + 2)
    listed = admission.roster(db, opened.code, opened.teacher_key, now=T0 + 3)
    assert [(s.number, s.nickname) for s in listed] == [(1, "Ana"), (2, "Bo")]
    refused("not_teacher", admission.remove, db, opened.code, "x" * 32, [2], now=T0 + 3)
    assert admission.remove(db, opened.code, opened.teacher_key, [2, 2, 99], now=T0 + 4) == 1
    room = classes.room(db, opened.code, now=T0 + 5)
    assert (room.joined, room.answered) == (1, 1)
    refused("removed", classes.answer, db, opened.code, bo, 1, ["drank"], now=T0 + 5)
    refused("removed", classes.mine, db, opened.code, bo, now=T0 + 5)
    refused("removed", join, db, opened.code, "Bo again", now=T0 + 6, seat="bo's")
    assert [s.number for s in admission.roster(db, opened.code, opened.teacher_key, now=T0 + 7)] == [1]
    assert admission.remove(db, opened.code, opened.teacher_key, [2], now=T0 + 8) == 0  # gone already
    assert [r["student"] for r in classes.answers(db, opened.code, opened.teacher_key, now=T0 + 9)] == [1]


def test_an_answer_counts_only_from_the_seat_that_joined(db):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0, seat="mine")
    refused("not_student", classes.answer, db, opened.code, token, 1, ["cat"], now=T0 + 1, seat="another")
    classes.answer(db, opened.code, token, 1, ["cat"], now=T0 + 1, seat="mine")
    assert classes.room(db, opened.code, now=T0 + 2).answered == 1


def test_the_stored_origin_is_keyed_and_names_no_address(db):
    opened = classes.start(db, MILK, now=T0)
    kept = admission.origin("198.51.100.7", "site key")
    join(db, opened.code, None, now=T0, origin=kept)
    with db.connect() as conn:
        stored = conn.execute(sa.select(STUDENTS.c.origin)).scalar_one()
    assert stored == kept and "198.51.100.7" not in stored and kept != admission.origin("198.51.100.7", "other key")


def test_the_oldest_idle_classes_make_room_for_a_new_one_and_busy_ones_are_kept(db, monkeypatch):
    monkeypatch.setattr(admission, "MAX_LIVE", 3)
    idle = admission.start(db, MILK, now=T0)
    older_idle = admission.start(db, MILK, now=T0 - 100)
    busy = admission.start(db, MILK, now=T0)
    now = T0 + admission.IDLE_S + 1
    classes.beat(db, busy.code, busy.teacher_key, now=now)  # its teacher's panel is open
    join(db, idle.code, None, now=T0)
    admission.start(db, MILK, now=now)
    refused("unknown", classes.room, db, older_idle.code, now=now)  # the oldest idle one closed first
    assert classes.room(db, idle.code, now=now).joined == 1
    admission.start(db, MILK, now=now)
    refused("unknown", classes.room, db, idle.code, now=now)
    with db.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(STUDENTS)).scalar_one() == 0  # its students too
    refused("too_many_classes", admission.start, db, MILK, now=now + 1)  # none idle: nothing closed, none opened
    assert classes.room(db, busy.code, now=now + 1).status == "asking"


def test_a_version_1_database_is_upgraded_with_its_classes_kept(engine):
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE class_meta (key VARCHAR(40) PRIMARY KEY, value VARCHAR(40))"))
        conn.execute(sa.text("INSERT INTO class_meta VALUES ('schema_version', '1')"))
        conn.execute(sa.text(
            "CREATE TABLE class_classes (code VARCHAR(8) PRIMARY KEY, teacher_hash VARCHAR(64) NOT NULL, created "
            "FLOAT NOT NULL, expires FLOAT NOT NULL, status VARCHAR(10) NOT NULL, question_no INTEGER NOT NULL, "
            "question TEXT NOT NULL, updated FLOAT NOT NULL)"))
        conn.execute(sa.text(
            "CREATE TABLE class_students (token_hash VARCHAR(64) PRIMARY KEY, class_code VARCHAR(8) NOT NULL "
            "REFERENCES class_classes (code) ON DELETE CASCADE, nickname VARCHAR(20), joined FLOAT NOT NULL)"))
        conn.execute(sa.text(
            "CREATE TABLE class_questions (class_code VARCHAR(8) REFERENCES class_classes (code) ON DELETE CASCADE, "
            "question_no INTEGER, question TEXT NOT NULL, asked FLOAT NOT NULL, "
            "PRIMARY KEY (class_code, question_no))"))
        conn.execute(sa.text(
            "CREATE TABLE class_answers (class_code VARCHAR(8) REFERENCES class_classes (code) ON DELETE CASCADE, "
            "question_no INTEGER, token_hash VARCHAR(64) REFERENCES class_students (token_hash) ON DELETE CASCADE, "
            "words TEXT NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (class_code, question_no, token_hash))"))
        conn.execute(sa.text("INSERT INTO class_classes VALUES ('ABCD2345', :key, :t, :end, 'asking', 1, :q, :t)"),
                     {"key": classes.digest("key"), "t": T0, "end": T0 + 100, "q": MILK.to_json()})
    classes.create(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.select(META.c.value).where(META.c.key == "schema_version")).scalar_one() == "3"
    room = classes.room(engine, "ABCD2345", now=T0 + 1)
    assert (room.cap, room.locked, room.joined) == (classes.CAP, False, 0)
    join(engine, "ABCD2345", "Ana", now=T0 + 2)
    assert classes.room(engine, "ABCD2345", now=T0 + 3).joined == 1
