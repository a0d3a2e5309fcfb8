"""A student's answer, as the class database takes it: every check first (the words, the class asking this question,
the student and their seat), then one statement that inserts or replaces the answer only while the class still asks
it, and the answer kept in the log of answers given (given.py). The statement is built once per database kind and its
values bound at each call: a room answering together costs the writer (store.write) little more than the rows."""
import functools
import json
from typing import Any

import sqlalchemy as sa

from classroom import given
from classroom.classes import ANSWERS, CLASSES, UPSERTS, asking, live, student
from classroom.questions import MAX_ORDERED, MAX_WORD, Question, is_order, normal_code, plain
from engine.errors import ClassError

COLUMNS = ("class_code", "question_no", "token_hash", "words", "at")  # an answer's values, as upsert_answer binds them


def answer(engine: sa.Engine, code: str, token: str, question_no: int, words: list[str], *, now: float,
           seat: str | None = None) -> None:
    """Record or change a student's order of keys for the current question while the class is asking."""
    # given a seat, the answer is taken only from the seat the student joined from
    with engine.begin() as conn:
        recorded(conn, code, token, question_no, words, now=now, seat=seat)


def recorded(conn: sa.Connection, code: str, token: str, question_no: int, words: list[str], *, now: float,
             seat: str | None = None) -> None:
    """answer() on a connection whose transaction the caller commits (store.write writes many in one)."""
    # Every check comes before the first write, so a ClassError leaves nothing written (store.written goes on with the
    # other answers).
    code = normal_code(code)
    if not (isinstance(words, list | tuple) and len(words) <= MAX_ORDERED and all(plain(w, MAX_WORD) for w in words)):
        raise ClassError("bad_answer")
    row = live(conn, code, now)
    asking(row, question_no)
    token_hash = student(conn, code, token, seat)
    if not is_order(words, (q := Question.from_json(row.question)).keys, q.ordered):
        raise ClassError("bad_answer")
    values = {"class_code": code, "question_no": question_no, "token_hash": token_hash,
              "words": json.dumps(list(words), ensure_ascii=False), "at": now}
    if not upsert_answer(conn, values):  # the teacher revealed or moved on since the row was read
        asking(live(conn, code, now), question_no)
        raise ClassError("not_asking")
    given.log(conn, values)


def upsert_answer(conn: sa.Connection, values: dict[str, Any]) -> bool:
    """Insert or replace an answer in one statement, only while its class asks its question; False if it did not."""
    kept = {"preserve_rowcount": True}  # SQLAlchemy keeps an INSERT's rowcount only when asked
    return conn.execute(upsert(conn.dialect.name), values, execution_options=kept).rowcount > 0


@functools.cache
def upsert(dialect: str) -> sa.Insert:
    """upsert_answer's statement for SQLite or PostgreSQL, its values bound by name (COLUMNS)."""
    open_now = sa.exists().where(CLASSES.c.code == sa.bindparam("class_code"), CLASSES.c.status == "asking",
                                 CLASSES.c.question_no == sa.bindparam("question_no"),
                                 CLASSES.c.expires > sa.bindparam("at"))
    row = sa.select(*(sa.bindparam(name, type_=ANSWERS.c[name].type) for name in COLUMNS)).where(open_now)
    stmt = UPSERTS[dialect](ANSWERS).from_select(list(COLUMNS), row)
    return stmt.on_conflict_do_update(index_elements=list(ANSWERS.primary_key),
                                      set_={"words": stmt.excluded.words, "at": stmt.excluded.at})
