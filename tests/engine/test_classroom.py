"""Class mode's engine on SQLite and PostgreSQL: the schema and its version, codes and secrets, a class from its first
question to the CSV, what is refused (forged keys and tokens, stale or malformed answers, hostile text), expiry and
sweeping, a restart, and the rate limiter."""
import base64
import hashlib
import json
import secrets
import threading
import time
from dataclasses import replace

import pytest
import sqlalchemy as sa

from classroom import admission, answering, classes
from classroom.classes import ANSWERS, CLASSES, META, QUESTIONS, STUDENTS, Question
from classroom.given import GIVEN
from classroom.questions import ALPHABET, normal_code
from engine.errors import ClassError

T0 = 1_700_000_000.0
MILK = Question(view="relevance", link="?sentence=the+black+cat+drank+the+milk&query=milk", query="milk",
                keys=("the", "black", "cat", "drank", "milk"), ordered=1, answer=("drank",), reason="angle")
ORDER = Question(view="relevance", link="?sentence=the+black+cat+drank+the+milk&query=milk&order=3", query="milk",
                 keys=("black", "cat", "drank"), ordered=3, answer=("drank", "cat", "black"), reason="length")
TABLES = ("class_meta", "class_classes", "class_questions", "class_students", "class_answers", "class_given")
INJECTIONS = ("'; DROP TABLE class_answers; --", 'x" OR "1"="1', "Robert'); DROP TABLE class_classes;--",
              "%(code)s", ":code", "?", "\\'; SELECT pg_sleep(10); --", "1; DELETE FROM class_students")


def refused(code: str, call, *args, **kwargs) -> ClassError:
    """The ClassError call raised, checked to have `code`."""
    with pytest.raises(ClassError) as raised:
        call(*args, **kwargs)
    assert raised.value.code == code, raised.value
    return raised.value


def join(engine, code, nickname, *, now: float, seat: str | None = None, origin: str = "o") -> str:
    """admission.join from a browser of its own (a new seat each time, unless one is given)."""
    return admission.join(engine, code, nickname, now=now, seat=seat or secrets.token_urlsafe(8), origin=origin)


def everything(engine) -> list[str]:
    """Every value in every class-mode table, as text."""
    with engine.connect() as conn:
        return [str(v) for t in (META, CLASSES, QUESTIONS, STUDENTS, ANSWERS) for r in conn.execute(sa.select(t))
                for v in r]


def rows(engine, table, code: str) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table).where(table.c.class_code == code)).scalar()


def test_creating_the_schema_twice_keeps_the_classes_and_records_the_version(engine):
    classes.create(engine)
    opened = classes.start(engine, MILK, now=T0)
    classes.create(engine)
    assert set(TABLES) <= set(sa.inspect(engine).get_table_names())
    with engine.connect() as conn:
        assert conn.execute(sa.select(META.c.key, META.c.value)).all() == [("schema_version", "4")]
    assert classes.room(engine, opened.code, now=T0 + 1).question == MILK


@pytest.mark.parametrize("stored", ["5", "99", "one", ""])
def test_a_database_of_a_newer_or_unknown_version_is_refused(engine, stored):
    classes.create(engine)
    with engine.begin() as conn:
        conn.execute(sa.update(META).values(value=stored))
    error = refused("db_version", classes.create, engine)
    assert error.values == {"found": stored, "known": classes.SCHEMA_VERSION}


def test_codes_are_eight_characters_of_the_alphabet_and_differ(db):
    codes = [classes.start(db, MILK, now=T0).code for _ in range(40)]
    assert all(len(code) == 8 and set(code) <= set(ALPHABET) for code in codes)
    assert len(set(codes)) == len(codes)
    assert not set("01ILO") & set(ALPHABET)
    typed = f"  {codes[0][:4].lower()}-{codes[0][4:]} "
    assert classes.room(db, typed, now=T0).status == "asking"


def test_a_taken_code_is_drawn_again(db, monkeypatch):
    draws = iter(["AAAAAAAA", "AAAAAAAA", "BBBBBBBB"])
    monkeypatch.setattr(classes, "new_code", lambda: next(draws))
    assert classes.start(db, MILK, now=T0).code == "AAAAAAAA"
    assert classes.start(db, ORDER, now=T0).code == "BBBBBBBB"
    assert classes.room(db, "AAAAAAAA", now=T0).question == MILK


@pytest.mark.parametrize("typed", ["ABCDEFG", "ABCDEFGHJ", "ABCDEFG0", "ABCDEFGI", "ABCDÉFGH", "", None, 12345678,
                                   "A" * 1_000_000, "ABCD_EFGH", "ABCD\nEFGH"])
def test_what_cannot_be_a_code_is_refused_before_the_database(typed):
    refused("bad_code", classes.room, object(), typed, now=T0)
    refused("bad_code", join, object(), typed, "Ana", now=T0)


def test_normal_code_ignores_case_spaces_and_dashes():
    assert normal_code(" abcd-efgh ") == "ABCDEFGH"
    assert normal_code("ab cd ef gh") == "ABCDEFGH"


def test_the_teacher_key_and_tokens_are_long_and_stored_only_as_hashes(db):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, "Ana", now=T0)
    for secret in (opened.teacher_key, token):
        assert len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) * 8 >= 128
    stored = everything(db)
    assert not [v for v in stored if opened.teacher_key in v or token in v]
    assert hashlib.sha256(opened.teacher_key.encode()).hexdigest() in stored
    assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_a_class_from_its_first_question_to_the_csv(db):
    told = replace(ORDER, sentence=("the", "black", "cat", "drank", "the", "milk"), position=6)
    opened = classes.start(db, MILK, now=T0)
    ana, bo, cy = (join(db, opened.code, name, now=T0 + i) for i, name in enumerate(("  Ana  ", None, "")))
    answering.answer(db, opened.code, ana, 1, ["cat"], now=T0 + 10)
    answering.answer(db, opened.code, ana, 1, ["drank"], now=T0 + 12)  # changed before the reveal
    answering.answer(db, opened.code, bo, 1, ("black",), now=T0 + 15)
    assert classes.mine(db, opened.code, ana, now=T0 + 16) == ("drank",)
    assert classes.mine(db, opened.code, cy, now=T0 + 16) is None
    room = classes.room(db, opened.code, now=T0 + 16)
    assert (room.status, room.question_no, room.joined, room.answered, room.right) == ("asking", 1, 3, 2, 1)
    assert room.first == (0, 1, 0, 1, 0)  # the, black, cat, drank, milk
    classes.reveal(db, opened.code, opened.teacher_key, now=T0 + 20)
    refused("not_asking", answering.answer, db, opened.code, cy, 1, ["milk"], now=T0 + 21)
    assert classes.room(db, opened.code, now=T0 + 21).status == "revealed"
    assert classes.advance(db, opened.code, opened.teacher_key, told, now=T0 + 30) == 2
    refused("stale_question", answering.answer, db, opened.code, cy, 1, ["milk"], now=T0 + 31)
    assert classes.mine(db, opened.code, ana, now=T0 + 31) is None
    answering.answer(db, opened.code, ana, 2, ["drank", "cat", "black"], now=T0 + 40)
    answering.answer(db, opened.code, cy, 2, ["drank", "black", "cat"], now=T0 + 45.5)
    room = classes.room(db, opened.code, now=T0 + 46)
    assert (room.status, room.question, room.answered, room.first, room.right) == ("asking", told, 2, (0, 0, 2), 1)
    classes.end(db, opened.code, opened.teacher_key, now=T0 + 50)
    refused("ended", answering.answer, db, opened.code, bo, 2, ["cat", "drank", "black"], now=T0 + 51)
    refused("ended", join, db, opened.code, "Late", now=T0 + 51)
    refused("ended", classes.reveal, db, opened.code, opened.teacher_key, now=T0 + 51)
    refused("ended", classes.advance, db, opened.code, opened.teacher_key, MILK, now=T0 + 51)
    assert classes.room(db, opened.code, now=T0 + 52).status == "ended"
    said = [(1, "", "drank", 1, "Ana", "cat", False, 10.0), (1, "", "drank", 1, "Ana", "drank", True, 12.0),
            (1, "", "drank", 2, None, "black", False, 15.0),
            (2, "the black cat drank the milk", "drank > cat > black", 1, "Ana", "drank > cat > black", True, 40.0),
            (2, "the black cat drank the milk", "drank > cat > black", 3, None, "drank > black > cat", False, 45.5)]
    asked = {1: 0.0, 2: 30.0}  # after the class opened: question 1 at once, question 2 at T0 + 30
    assert classes.answers(db, opened.code, opened.teacher_key, now=T0 + 52) == [  # one row per answer given
        {"question_no": n, "sentence": sentence, "query": "milk", "right_answer": right_answer, "student": student,
         "nickname": nickname, "answer": answer, "right": right, "seconds_since_class_opened": seconds,
         "seconds_since_question": seconds - asked[n],
         "time_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(T0 + seconds))}
        for n, sentence, right_answer, student, nickname, answer, right, seconds in said]


@pytest.mark.parametrize("question, words", [
    (MILK, ["tea"]), (MILK, ["drank", "cat"]), (MILK, []), (MILK, "drank"), (MILK, [1]), (MILK, ["DRANK"]),
    (MILK, [" drank"]), (MILK, ["drank" * 1000]), (MILK, None), (MILK, {"drank": 1}),
    (ORDER, ["drank", "drank", "cat"]), (ORDER, ["drank", "cat"]), (ORDER, ["drank", "cat", "black", "black"]),
    (ORDER, ["drank", "cat", "milk"]),
])
def test_an_answer_must_be_the_asked_number_of_distinct_keys(db, question, words):
    opened = classes.start(db, question, now=T0)
    token = join(db, opened.code, None, now=T0)
    refused("bad_answer", answering.answer, db, opened.code, token, 1, words, now=T0 + 1)
    assert classes.room(db, opened.code, now=T0 + 1).answered == 0


@pytest.mark.parametrize("number", [0, 2, -1, True, "1", 1.0, None])
def test_an_answer_to_another_question_than_the_current_is_refused(db, number):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0)
    assert refused("stale_question", answering.answer, db, opened.code, token, number, ["cat"], now=T0).values == {
        "current": 1}


def test_a_forged_teacher_key_is_refused(db):
    opened = classes.start(db, MILK, now=T0)
    other = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0)
    answering.answer(db, opened.code, token, 1, ["cat"], now=T0)
    for forged in (other.teacher_key, opened.teacher_key[:-1], opened.teacher_key + "x", token, "", None, "é" * 30,
                   opened.teacher_key.upper(), hashlib.sha256(opened.teacher_key.encode()).hexdigest()):
        refused("not_teacher", classes.reveal, db, opened.code, forged, now=T0)
        refused("not_teacher", classes.advance, db, opened.code, forged, ORDER, now=T0)
        refused("not_teacher", classes.end, db, opened.code, forged, now=T0)
        refused("not_teacher", classes.answers, db, opened.code, forged, now=T0)
    room = classes.room(db, opened.code, now=T0)
    assert (room.status, room.question_no, room.answered) == ("asking", 1, 1)


def test_a_token_writes_only_its_own_row(db):
    opened = classes.start(db, MILK, now=T0)
    other = classes.start(db, MILK, now=T0)
    ana, bo = (join(db, opened.code, name, now=T0) for name in ("Ana", "Bo"))
    stranger = join(db, other.code, "Cy", now=T0)
    answering.answer(db, opened.code, bo, 1, ["cat"], now=T0)
    forged = (stranger, opened.teacher_key, ana[:-1] + ("A" if ana[-1] != "A" else "B"), "", None,
              hashlib.sha256(bo.encode()).hexdigest(), "x" * 10_000)
    for token in forged:
        refused("not_student", answering.answer, db, opened.code, token, 1, ["drank"], now=T0)
        refused("not_student", classes.mine, db, opened.code, token, now=T0)
    answering.answer(db, opened.code, ana, 1, ["drank"], now=T0 + 1)
    assert classes.mine(db, opened.code, bo, now=T0 + 1) == ("cat",)
    assert classes.mine(db, opened.code, ana, now=T0 + 1) == ("drank",)
    assert classes.room(db, opened.code, now=T0 + 1).first == (0, 0, 1, 1, 0)
    assert classes.room(db, other.code, now=T0 + 1).answered == 0


def test_an_answer_is_not_written_once_the_class_stops_asking(db):
    """The write itself checks the class, so an answer racing the teacher's reveal or next question is not kept."""
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0)
    classes.reveal(db, opened.code, opened.teacher_key, now=T0)
    values = {"class_code": opened.code, "question_no": 1, "token_hash": classes.digest(token),
              "words": json.dumps(["cat"]), "at": T0}
    with db.begin() as conn:
        assert answering.upsert_answer(conn, values) is False
        assert answering.upsert_answer(conn, {**values, "question_no": 2}) is False
    classes.advance(db, opened.code, opened.teacher_key, ORDER, now=T0)
    with db.begin() as conn:
        assert answering.upsert_answer(conn, {**values, "question_no": 2, "at": T0 + 1}) is True
        assert answering.upsert_answer(conn, {**values, "question_no": 2, "at": T0 + 2}) is True  # replaces it
        assert answering.upsert_answer(conn, {**values, "question_no": 2, "at": T0 + 12 * 3600}) is False  # expired
    assert rows(db, ANSWERS, opened.code) == 1


def test_injected_sql_is_kept_as_plain_data_and_the_tables_survive(db):
    hostile = Question(view=INJECTIONS[0], link="?q=" + INJECTIONS[1], query=INJECTIONS[2], keys=INJECTIONS[:6],
                       ordered=2, answer=(INJECTIONS[3], INJECTIONS[0]), reason="angle")
    opened = classes.start(db, hostile, now=T0)
    for code in INJECTIONS:
        refused("bad_code", classes.room, db, code, now=T0)
    tokens = [join(db, opened.code, text[:20], now=T0) for text in INJECTIONS]
    for token, i in zip(tokens, range(len(INJECTIONS)), strict=True):
        answering.answer(db, opened.code, token, 1, [INJECTIONS[i % 6], INJECTIONS[(i + 1) % 6]], now=T0 + i)
        refused("bad_answer", answering.answer, db, opened.code, token, 1, [INJECTIONS[6], INJECTIONS[7]], now=T0)
    room = classes.room(db, opened.code, now=T0 + 9)
    assert room.question == hostile and room.joined == room.answered == len(INJECTIONS)
    assert room.first == (2, 2, 1, 1, 1, 1)
    listed = classes.answers(db, opened.code, opened.teacher_key, now=T0 + 9)
    assert [row["nickname"] for row in listed] == [text[:20] for text in INJECTIONS]
    assert listed[3]["answer"] == f"{INJECTIONS[3]} > {INJECTIONS[4]}" and listed[3]["query"] == INJECTIONS[2]
    assert set(TABLES) <= set(sa.inspect(db).get_table_names())


def test_an_expired_class_is_refused_and_swept_with_its_students_and_answers(db):
    opened = classes.start(db, MILK, now=T0, ttl=100)
    ended = classes.start(db, MILK, now=T0, ttl=100)
    kept = classes.start(db, MILK, now=T0, ttl=1000)
    tokens = {code: join(db, code, "Ana", now=T0) for code in (opened.code, ended.code, kept.code)}
    for code, token in tokens.items():
        answering.answer(db, code, token, 1, ["cat"], now=T0 + 1)
    token = tokens[opened.code]
    classes.end(db, ended.code, ended.teacher_key, now=T0 + 2)
    assert classes.sweep(db, now=T0 + 99.9) == 0
    calls = (
        lambda: classes.room(db, opened.code, now=T0 + 100),
        lambda: join(db, opened.code, None, now=T0 + 100),
        lambda: classes.mine(db, opened.code, token, now=T0 + 100),
        lambda: answering.answer(db, opened.code, token, 1, ["cat"], now=T0 + 100),
        lambda: classes.reveal(db, opened.code, opened.teacher_key, now=T0 + 100),
        lambda: classes.advance(db, opened.code, opened.teacher_key, ORDER, now=T0 + 100),
        lambda: classes.end(db, opened.code, opened.teacher_key, now=T0 + 100),
        lambda: classes.answers(db, opened.code, opened.teacher_key, now=T0 + 100),
    )
    for call in calls:
        refused("expired", call)
    assert classes.sweep(db, now=T0 + 100) == 2
    for code in (opened.code, ended.code):
        assert [rows(db, table, code) for table in (QUESTIONS, STUDENTS, ANSWERS, GIVEN)] == [0, 0, 0, 0]
        refused("unknown", classes.room, db, code, now=T0 + 100)
    assert [rows(db, table, kept.code) for table in (QUESTIONS, STUDENTS, ANSWERS, GIVEN)] == [1, 1, 1, 1]
    assert classes.room(db, kept.code, now=T0 + 100).answered == 1


def test_deleting_a_class_cascades_to_its_rows_in_the_database_itself(db):
    opened = classes.start(db, MILK, now=T0)
    answering.answer(db, opened.code, join(db, opened.code, None, now=T0), 1, ["cat"], now=T0)
    with db.begin() as conn:
        if conn.dialect.name == "sqlite":  # SQLite enforces foreign keys only when asked, per connection
            conn.exec_driver_sql("PRAGMA foreign_keys = ON")
        conn.execute(sa.delete(CLASSES).where(CLASSES.c.code == opened.code))
    assert [rows(db, table, opened.code) for table in (QUESTIONS, STUDENTS, ANSWERS, GIVEN)] == [0, 0, 0, 0]


def test_a_class_survives_a_restart(db_url):
    first = sa.create_engine(db_url)
    classes.create(first)
    opened = classes.start(first, MILK, now=T0)
    token = join(first, opened.code, "Ana", now=T0)
    answering.answer(first, opened.code, token, 1, ["drank"], now=T0 + 1)
    first.dispose()
    again = sa.create_engine(db_url)
    classes.create(again)
    assert classes.mine(again, opened.code, token, now=T0 + 2) == ("drank",)
    classes.reveal(again, opened.code, opened.teacher_key, now=T0 + 2)
    room = classes.room(again, opened.code, now=T0 + 3)
    assert (room.status, room.joined, room.right) == ("revealed", 1, 1)
    again.dispose()


def test_many_students_answering_at_once_are_all_counted(db):
    opened = classes.start(db, MILK, now=T0)
    tokens = [join(db, opened.code, f"s{i}", now=T0) for i in range(16)]
    barrier = threading.Barrier(len(tokens))
    failures = []

    def answers_three_times(i: int, token: str):
        barrier.wait()
        try:
            for word in ("the", "cat", MILK.keys[i % 5]):
                answering.answer(db, opened.code, token, 1, [word], now=T0 + 1)
        except Exception as e:  # noqa: BLE001 - reported below with the thread's number
            failures.append((i, e))
    threads = [threading.Thread(target=answers_three_times, args=pair) for pair in enumerate(tokens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    room = classes.room(db, opened.code, now=T0 + 2)
    assert room.answered == 16 and room.first == (4, 3, 3, 3, 3)


def test_a_full_class_and_too_many_questions_are_refused(db, monkeypatch):
    monkeypatch.setattr(classes, "MAX_QUESTIONS", 2)
    opened = classes.start(db, MILK, now=T0)
    admission.set_cap(db, opened.code, opened.teacher_key, 2, now=T0)
    join(db, opened.code, None, now=T0)
    join(db, opened.code, None, now=T0)
    refused("full", join, db, opened.code, None, now=T0)
    assert classes.advance(db, opened.code, opened.teacher_key, ORDER, now=T0) == 2
    refused("too_many_questions", classes.advance, db, opened.code, opened.teacher_key, MILK, now=T0)
    assert classes.room(db, opened.code, now=T0).joined == 2


def test_unknown_codes_are_unknown(db):
    refused("unknown", classes.room, db, "ABCDEFGH", now=T0)
    refused("unknown", join, db, "ABCDEFGH", "Ana", now=T0)


def test_the_teachers_beat_is_what_students_see_of_the_teacher(db):
    opened = classes.start(db, MILK, now=T0)
    assert classes.room(db, opened.code, now=T0 + 5).teacher_seen == T0
    classes.beat(db, opened.code, opened.teacher_key, now=T0 + 30)
    assert classes.room(db, opened.code, now=T0 + 31).teacher_seen == T0 + 30
    refused("not_teacher", classes.beat, db, opened.code, "x" * 32, now=T0 + 40)
    assert classes.room(db, opened.code, now=T0 + 41).teacher_seen == T0 + 30
