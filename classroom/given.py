"""Every answer a student gives, kept in the order given (schema version 3): class_answers holds each student's latest
answer for the room's live counts, this log holds each one, so that the class's CSV has a row per answer given, a
changed answer two. Its rows are deleted with their class (classes.drop)."""
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Column, Double, ForeignKey, Integer, MetaData, String, Table, Text

from classroom.questions import CODE_LENGTH, Question

SCHEMA = MetaData()  # the log's table, and the two it refers to as classes.py defines them (only their keys here)
Table("class_classes", SCHEMA, Column("code", String(CODE_LENGTH), primary_key=True))
Table("class_students", SCHEMA, Column("token_hash", String(64), primary_key=True))
GIVEN = Table(
    "class_given", SCHEMA, Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_code", String(CODE_LENGTH), ForeignKey("class_classes.code", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("question_no", Integer, nullable=False),
    Column("token_hash", String(64), ForeignKey("class_students.token_hash", ondelete="CASCADE"), nullable=False),
    Column("words", Text, nullable=False),  # JSON list of keys, in the student's order
    Column("at", Double, nullable=False),
)
LATEST = sa.table("class_answers", *(sa.column(name) for name in ("class_code", "question_no", "token_hash", "words",
                                                                  "at")))


def to_v3(conn: sa.Connection) -> None:
    """Version 3: the log of answers given, started from the answers a database of version 2 holds."""
    # one a student and question: the earlier ones were never kept
    GIVEN.create(conn, checkfirst=True)
    names = ["class_code", "question_no", "token_hash", "words", "at"]
    conn.execute(sa.insert(GIVEN).from_select(names, sa.select(*(LATEST.c[n] for n in names)).order_by(LATEST.c.at)))


def log(conn: sa.Connection, values: dict[str, Any]) -> None:
    """Keep one answer given (the values of its class_answers row), in the transaction that recorded it."""
    conn.execute(sa.insert(GIVEN).values(**values))


def given(conn: sa.Connection, code: str) -> list[sa.Row]:
    """The class's answers as given, by question, then in the order given."""
    return list(conn.execute(sa.select(GIVEN).where(GIVEN.c.class_code == code).order_by(
        GIVEN.c.question_no, GIVEN.c.at, GIVEN.c.id)).all())


def row(number: int, q: Question, words: tuple[str, ...], student: tuple[int, str | None], at: float,
        since: tuple[float, float]) -> dict[str, Any]:
    """One answer given as a row of the class's CSV: the question, who gave what, whether right, and when."""
    # times in UTC, and in seconds after the class opened and after the question was asked (`since`: those two moments)
    opened, asked = since
    return {"question_no": number, "sentence": " ".join(q.sentence), "query": q.query,
            "right_answer": " > ".join(q.answer), "student": student[0], "nickname": student[1],
            "answer": " > ".join(words), "right": words == q.answer,
            "time_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(at)),
            "seconds_since_class_opened": round(at - opened, 1), "seconds_since_question": round(at - asked, 1)}
