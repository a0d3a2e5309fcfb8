"""Students' answers reach the class database through one writer (classroom/store.py write): answers given together
are written in one transaction, a mistake in one of them leaves the others written, and on SQLite (in WAL mode) a
reader holding the file does not keep an answer past its deadline."""
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from classroom import admission, answering, classes, store
from engine.errors import ClassError
from tests.app.test_class_store import database  # noqa: F401 (the fixture: a database of each test's own)

STUDENTS = 80
QUEUED_S = 60  # the longest the answers may take to queue behind a busy writer
QUESTION = classes.Question("relevance", "", "milk", ("cat", "drank"), 1, ("drank",), "angle")


def seated(n: int) -> tuple[str, list[str]]:
    """A class with its cap raised for n students, and their tokens."""
    opened = store.call(classes.start, QUESTION)
    store.call(admission.set_cap, opened.code, opened.teacher_key, n)
    tokens = []
    for i in range(n):
        with store.engine().begin() as conn:  # seated directly: the join limits are not what is tested here
            token = f"token-{i:03d}"
            conn.execute(sa.insert(classes.STUDENTS).values(token_hash=classes.digest(token), class_code=opened.code,
                                                            joined=0.0, seat=classes.digest(f"seat-{token}")))
        tokens.append(token)
    return opened.code, tokens


def answer_all(code: str, tokens: list[str]) -> list[object]:
    """Every token's answer through the writer at once: None for each answer written, else what it raised."""
    def one(token: str):
        try:
            store.write(answering.recorded, code, token, 1, ["drank"], seat=f"seat-{token}")
        except (ClassError, store.Unavailable) as e:
            return e
        return None
    with ThreadPoolExecutor(len(tokens)) as pool:
        return list(pool.map(one, tokens))


def answers_in(code: str) -> int:
    with store.engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).where(classes.ANSWERS.c.class_code == code)).scalar_one()


def test_answers_given_together_are_written_in_one_transaction(monkeypatch):
    # a deadline longer than it takes a loaded machine to start the 80 answers' threads: past the 2 s one, the busy
    # write would give up and pause the class, and the answers not yet queued would be refused, never queued
    monkeypatch.setattr(store, "DEADLINE_S", QUEUED_S)
    code, tokens = seated(STUDENTS)
    commits: list[int] = []
    sa.event.listen(store.engine(), "commit", lambda conn: commits.append(1))
    entered, release = threading.Event(), threading.Event()
    busy = threading.Thread(target=store.write, args=(lambda conn, *, now: entered.set() or release.wait(QUEUED_S),))
    busy.start()
    # the writer busy before the answers come: else it may take some of them into the busy job's batch, where they
    # wait unseen by the queue
    assert entered.wait(QUEUED_S), "the busy write never started"
    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(answer_all, code, tokens)
        end = time.monotonic() + QUEUED_S
        while store._writes.qsize() < STUDENTS and time.monotonic() < end:
            threading.Event().wait(0.01)
        queued = store._writes.qsize()
        release.set()
        assert queued == STUDENTS, f"{queued} of {STUDENTS} answers queued in {QUEUED_S} s"
        outcomes = done.result()
    busy.join()
    assert outcomes == [None] * STUDENTS and answers_in(code) == STUDENTS
    assert len(commits) == 2  # the busy job's, then every answer's


def test_a_mistake_in_one_answer_leaves_the_others_of_its_transaction_written():
    code, tokens = seated(3)
    outcomes = answer_all(code, [tokens[0], "not-a-token", tokens[2]])
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], ClassError) and outcomes[1].code == "not_student"
    assert answers_in(code) == 2


def test_a_reader_holding_the_sqlite_file_does_not_keep_answers_past_their_deadline(database):  # noqa: F811
    code, tokens = seated(STUDENTS)
    reader = sqlite3.connect(database, timeout=0)
    try:
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM class_students").fetchone()[0] == STUDENTS  # its lock is held
        assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        outcomes = answer_all(code, tokens)
    finally:
        reader.close()
    assert outcomes == [None] * STUDENTS and answers_in(code) == STUDENTS
