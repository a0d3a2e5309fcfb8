"""Class mode's limits, keyed by what a script cannot renew for free, on SQLite and PostgreSQL: the client's address
(a forwarded one only from the trusted proxy), the token bucket, the browser's signed seat, and a class's door (joins
a minute from one address, the class's bucket of joins from all, a seat's joins, closing, the cap and its one-click
raise, removing, one by one or a minute's joins at once), the live classes' bound and the schema's upgrades."""
import secrets

import pytest
import sqlalchemy as sa

from classroom import admission, answering, classes, clients, seat
from classroom.classes import META, STUDENTS
from classroom.limiter import Bucket
from engine.errors import ClassError
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


def test_a_class_takes_a_minute_s_joins_from_one_address(db, monkeypatch):
    monkeypatch.setattr(admission, "JOINS_FROM_ONE", 3)
    opened = classes.start(db, MILK, now=T0)
    for i in range(3):
        join(db, opened.code, None, now=T0 + i, origin="school")
    assert refused("busy", join, db, opened.code, None, now=T0 + 3, origin="school").values == {"seconds": 57}
    join(db, opened.code, None, now=T0 + 3, origin="home")  # another address is not held up by that one
    join(db, opened.code, None, now=T0 + admission.JOIN_WINDOW_S + 0.5, origin="school")  # the first has left it
    assert classes.room(db, opened.code, now=T0 + 61).joined == 5


def test_a_class_of_30_arriving_together_all_get_in_at_once_and_the_default_cap_is_60(db):
    opened = classes.start(db, MILK, now=T0)
    assert classes.CAP == 60 and classes.room(db, opened.code, now=T0).cap == 60
    for i in range(30):  # one school address, the same second
        join(db, opened.code, f"s{i}", now=T0, origin="school")
    for i in range(30, 60):  # latecomers from home, one every 2 s
        join(db, opened.code, f"s{i}", now=T0 + 2 * i, origin=f"home {i}")
    assert refused("full", join, db, opened.code, None, now=T0 + 300, origin="home 61").values == {}
    assert classes.room(db, opened.code, now=T0 + 300).joined == 60


def test_75_s_of_joins_from_three_addresses_seat_at_most_90_with_the_cap_raised(db):
    opened = classes.start(db, MILK, now=T0)
    admission.set_cap(db, opened.code, opened.teacher_key, admission.MAX_CAP, now=T0)
    seated, refused_at, told = [], [], set()
    for i in range(75 * 4 + 1):  # a join every 0.25 s, from a phone, a home line and a VPN in turn
        now = T0 + i / 4
        try:
            join(db, opened.code, None, now=now, origin=("phone", "home", "vpn")[i % 3])
            seated.append(now)
        except ClassError as e:
            assert e.code == "busy", e
            refused_at.append(now)
            told.add(e.values["seconds"])
    assert len(seated) <= 90 and len(seated) == admission.JOIN_BURST + int(75 * admission.JOIN_RATE)  # 40 + 45
    after_burst = [at for at in seated if at > refused_at[0]]  # the burst spent: what the rate lets in
    assert max(sum(1 for at in after_burst if start <= at < start + 60) for start in after_burst) <= 60 * 0.6
    assert told == {2}  # the next token is never more than 1/0.6 s away
    assert classes.room(db, opened.code, now=T0 + 76).joined == len(seated)


def test_a_join_refused_for_another_reason_spends_no_token(db):
    opened = classes.start(db, MILK, now=T0)
    admission.set_cap(db, opened.code, opened.teacher_key, 1, now=T0)
    join(db, opened.code, None, now=T0)
    for _ in range(admission.JOIN_BURST):
        refused("full", join, db, opened.code, None, now=T0)
    admission.set_cap(db, opened.code, opened.teacher_key, admission.JOIN_BURST, now=T0)
    for _ in range(admission.JOIN_BURST - 1):  # the bucket held all but the first one's token
        join(db, opened.code, None, now=T0)
    assert refused("busy", join, db, opened.code, None, now=T0).values == {"seconds": 2}


def test_a_full_class_s_one_click_takes_30_more_up_to_the_most_a_class_may(db):
    opened = classes.start(db, MILK, now=T0)
    admission.set_cap(db, opened.code, opened.teacher_key, 1, now=T0)
    join(db, opened.code, None, now=T0)
    refused("full", join, db, opened.code, None, now=T0 + 1)
    refused("not_teacher", admission.raise_cap, db, opened.code, "x" * 32, now=T0 + 2)
    admission.raise_cap(db, opened.code, opened.teacher_key, now=T0 + 2)
    assert classes.room(db, opened.code, now=T0 + 2).cap == 1 + admission.CAP_STEP
    join(db, opened.code, None, now=T0 + 3)
    admission.set_cap(db, opened.code, opened.teacher_key, admission.MAX_CAP - 10, now=T0 + 4)
    for _ in range(2):
        admission.raise_cap(db, opened.code, opened.teacher_key, now=T0 + 5)
        assert classes.room(db, opened.code, now=T0 + 5).cap == admission.MAX_CAP


def test_the_teacher_sees_joins_by_minute_and_removes_a_minute_s_joins_in_one_action(db):
    opened, minute = classes.start(db, MILK, now=T0), T0 // 60 * 60 + 60
    script = [join(db, opened.code, None, now=minute + s, seat=f"fake {s}", origin="vpn") for s in (0, 30, 59.5)]
    ana = join(db, opened.code, "Ana", now=minute + 60, seat="ana's", origin="school")
    join(db, opened.code, "Bo", now=minute + 150, seat="bo's", origin="school")
    now = minute + 170
    refused("not_teacher", admission.joins_by_minute, db, opened.code, "x" * 32, now=now)
    counts = admission.joins_by_minute(db, opened.code, opened.teacher_key, now=now)
    assert len(counts) == admission.JOIN_MINUTES and counts[-1][0] == minute + 120 <= now < minute + 180
    assert counts[-3:] == [(minute, 3), (minute + 60, 1), (minute + 120, 1)] and sum(n for _, n in counts) == 5
    refused("not_teacher", admission.remove_joined_between, db, opened.code, "x" * 32, minute, minute + 60, now=now)
    assert admission.remove_joined_between(db, opened.code, opened.teacher_key, minute, minute + 60, now=now) == 3
    assert admission.remove_joined_between(db, opened.code, opened.teacher_key, minute, minute + 60, now=now) == 0
    assert [s.nickname for s in admission.roster(db, opened.code, opened.teacher_key, now=now)] == ["Ana", "Bo"]
    counts = admission.joins_by_minute(db, opened.code, opened.teacher_key, now=now + 1)
    assert counts[-3:] == [(minute, 0), (minute + 60, 1), (minute + 120, 1)]
    for s in (0, 30, 59.5):  # their seats cannot join again, their tokens no longer hold
        refused("removed", join, db, opened.code, None, now=now + 2, seat=f"fake {s}", origin="vpn")
    refused("removed", answering.answer, db, opened.code, script[0], 1, ["cat"], now=now + 2)
    answering.answer(db, opened.code, ana, 1, ["cat"], now=now + 2)
    assert classes.room(db, opened.code, now=now + 3).joined == 2


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
    answering.answer(db, opened.code, token, 1, ["cat"], now=T0 + 2)  # who is in stays in
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
        answering.answer(db, opened.code, token, 1, ["cat"], now=T0 + 2)
    listed = admission.roster(db, opened.code, opened.teacher_key, now=T0 + 3)
    assert [(s.number, s.nickname) for s in listed] == [(1, "Ana"), (2, "Bo")]
    refused("not_teacher", admission.remove, db, opened.code, "x" * 32, [2], now=T0 + 3)
    assert admission.remove(db, opened.code, opened.teacher_key, [2, 2, 99], now=T0 + 4) == 1
    room = classes.room(db, opened.code, now=T0 + 5)
    assert (room.joined, room.answered) == (1, 1)
    refused("removed", answering.answer, db, opened.code, bo, 1, ["drank"], now=T0 + 5)
    refused("removed", classes.mine, db, opened.code, bo, now=T0 + 5)
    refused("removed", join, db, opened.code, "Bo again", now=T0 + 6, seat="bo's")
    assert [s.number for s in admission.roster(db, opened.code, opened.teacher_key, now=T0 + 7)] == [1]
    assert admission.remove(db, opened.code, opened.teacher_key, [2], now=T0 + 8) == 0  # gone already
    assert [r["student"] for r in classes.answers(db, opened.code, opened.teacher_key, now=T0 + 9)] == [1]


def test_an_answer_counts_only_from_the_seat_that_joined(db):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0, seat="mine")
    refused("not_student", answering.answer, db, opened.code, token, 1, ["cat"], now=T0 + 1, seat="another")
    answering.answer(db, opened.code, token, 1, ["cat"], now=T0 + 1, seat="mine")
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


def test_a_version_3_database_is_upgraded_to_4_with_its_classes_and_students_kept(db):
    opened = classes.start(db, MILK, now=T0)
    for i in range(3):
        join(db, opened.code, f"s{i}", now=T0)
    with db.begin() as conn:  # as version 3 left it: no bucket
        conn.execute(sa.text("ALTER TABLE class_classes DROP COLUMN join_full"))
        conn.execute(sa.update(META).where(META.c.key == "schema_version").values(value="3"))
    classes.create(db)
    with db.connect() as conn:
        assert conn.execute(sa.select(META.c.value).where(META.c.key == "schema_version")).scalar_one() == "4"
    room = classes.room(db, opened.code, now=T0 + 1)
    assert (room.joined, room.cap) == (3, classes.CAP)
    for i in range(admission.JOIN_BURST):  # its bucket starts full
        join(db, opened.code, None, now=T0 + 1, origin=f"home {i}")
    refused("busy", join, db, opened.code, None, now=T0 + 1, origin="one more")


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
        assert conn.execute(sa.select(META.c.value).where(META.c.key == "schema_version")).scalar_one() == "4"
    room = classes.room(engine, "ABCD2345", now=T0 + 1)
    assert (room.cap, room.locked, room.joined) == (classes.CAP, False, 0)
    join(engine, "ABCD2345", "Ana", now=T0 + 2)
    assert classes.room(engine, "ABCD2345", now=T0 + 3).joined == 1
