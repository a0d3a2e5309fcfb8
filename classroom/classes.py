"""Class mode: a teacher opens a class on a predict-first question, students join with a short code and answer, the
room's counts show live, the teacher reveals, moves on, ends and downloads the answers. Everything lives in a SQL
database through SQLAlchemy Core (a SQLite file in one process, PostgreSQL for several replicas); time comes in as
`now`, in seconds. Teacher keys and student tokens are stored as SHA-256 hashes only."""
import hashlib
import hmac
import json
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Column, Double, ForeignKey, Integer, MetaData, String, Table, Text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateColumn

from classroom import given
from classroom.questions import (
    ALPHABET,
    CODE_LENGTH,
    MAX_NICKNAME,
    Question,
    checked,
    normal_code,
)
from engine.errors import ClassError

SCHEMA_VERSION = 4
CODE_TRIES = 10
SECRET_BYTES = 24  # teacher keys and student tokens: 192 bits
TTL_S = 12 * 3600
MAX_SECRET, MAX_QUESTIONS = 100, 200
CAP = 60  # students a class takes until its teacher raises (or lowers) it: near a real class (admission.py)
UPSERTS: dict[str, Callable[..., Any]] = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}
LOCK_KEY = 7_411_730_001  # a PostgreSQL advisory lock: replicas starting together create the tables in turn

METADATA = MetaData()
META = Table("class_meta", METADATA, Column("key", String(40), primary_key=True), Column("value", String(40)))
CLASSES = Table(
    "class_classes", METADATA, Column("code", String(CODE_LENGTH), primary_key=True),
    Column("teacher_hash", String(64), nullable=False),  # SHA-256 of the teacher key, hex
    Column("created", Double, nullable=False), Column("expires", Double, nullable=False, index=True),
    Column("status", String(10), nullable=False),  # "asking", "revealed" or "ended"
    Column("question_no", Integer, nullable=False), Column("question", Text, nullable=False),  # the current one, JSON
    Column("updated", Double, nullable=False),
    Column("cap", Integer, nullable=False, server_default=str(CAP)),  # version 2: the teacher's cap on students
    Column("locked", Integer, nullable=False, server_default="0"),  # version 2: 1 while the teacher closed joining
    Column("join_full", Double, nullable=False, server_default="0"),  # version 4: when its join bucket is full again
)


def class_code(**options: Any) -> Column:
    """The column naming a row's class: deleting the class deletes the row (sweep also deletes explicitly)."""
    return Column("class_code", String(CODE_LENGTH), ForeignKey(CLASSES.c.code, ondelete="CASCADE"), **options)


QUESTIONS = Table(  # every question a class has asked, for the answers' CSV
    "class_questions", METADATA, class_code(primary_key=True), Column("question_no", Integer, primary_key=True),
    Column("question", Text, nullable=False), Column("asked", Double, nullable=False),
)
STUDENTS = Table(
    "class_students", METADATA, Column("token_hash", String(64), primary_key=True),
    class_code(nullable=False, index=True), Column("nickname", String(MAX_NICKNAME)),
    Column("joined", Double, nullable=False),
    Column("seat", String(64)),  # version 2: SHA-256 of the browser's seat (classroom/seat.py), hex
    Column("origin", String(32)),  # version 2: the client's address, keyed (admission.origin): never the address
    Column("removed", Double),  # version 2: when the teacher removed the student; their seat cannot join again
)
ANSWERS = Table(
    "class_answers", METADATA, class_code(primary_key=True), Column("question_no", Integer, primary_key=True),
    Column("token_hash", String(64), ForeignKey(STUDENTS.c.token_hash, ondelete="CASCADE"), primary_key=True),
    Column("words", Text, nullable=False),  # JSON list of keys, in the student's order
    Column("at", Double, nullable=False),
)


@dataclass(frozen=True)
class Opened:
    code: str
    teacher_key: str  # shown to the teacher once; the database keeps only its hash


@dataclass(frozen=True)
class Room:
    status: str  # "asking", "revealed" or "ended"
    question_no: int
    question: Question
    joined: int  # students
    answered: int  # students who answered the current question
    first: tuple[int, ...]  # how many put each key first, in keys' order
    right: int  # how many gave the whole right answer
    expires: float
    teacher_seen: float  # when the teacher's panel last looked (beat), or last acted
    cap: int = CAP  # students the class takes
    locked: bool = False  # the teacher has closed joining


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def digest(secret: str) -> str:
    """The stored form of a teacher key or student token: SHA-256, hex (they are random, so no salt is needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def well_formed(secret: object) -> bool:
    return isinstance(secret, str) and secret.isascii() and 0 < len(secret) <= MAX_SECRET


def create(engine: sa.Engine) -> None:
    """Create the tables, or upgrade them to SCHEMA_VERSION; ClassError('db_version') for a newer or unknown one."""
    if engine.dialect.name not in UPSERTS:
        raise ValueError(f"class mode runs on SQLite or PostgreSQL, not {engine.dialect.name}")
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        META.create(conn, checkfirst=True)
        stored = conn.execute(sa.select(META.c.value).where(META.c.key == "schema_version")).scalar_one_or_none()
        found = 0 if stored is None else int(stored) if stored.isdigit() else -1
        if not 0 <= found <= SCHEMA_VERSION:
            raise ClassError("db_version", found=stored, known=SCHEMA_VERSION)
        for step in UPGRADES[found:]:
            step(conn)
        if found == 0:
            conn.execute(sa.insert(META).values(key="schema_version", value=str(SCHEMA_VERSION)))
        elif found < SCHEMA_VERSION:
            conn.execute(sa.update(META).where(META.c.key == "schema_version").values(value=str(SCHEMA_VERSION)))


def to_v1(conn: sa.Connection) -> None:
    """Version 1: the classes, their questions, students and answers."""
    METADATA.create_all(conn, tables=[CLASSES, QUESTIONS, STUDENTS, ANSWERS], checkfirst=True)


def to_v2(conn: sa.Connection, columns: tuple | None = None) -> None:
    """Version 2: a class's cap and lock; a student's seat, keyed address and removal."""
    # A database made at version 1 gets the columns (a fresh one has them from to_v1); given `columns`, a later
    # version's (to_v4).
    for table, names in columns or ((CLASSES, ("cap", "locked")), (STUDENTS, ("seat", "origin", "removed"))):
        there = {c["name"] for c in sa.inspect(conn).get_columns(table.name)}
        for name in (n for n in names if n not in there):
            spec = CreateColumn(table.c[name]).compile(dialect=conn.dialect)
            conn.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {spec}"))


def to_v4(conn: sa.Connection) -> None:
    """Version 4: a class's bucket of joins (admission.py); a class made before it starts with its bucket full."""
    to_v2(conn, ((CLASSES, ("join_full",)),))


UPGRADES = (to_v1, to_v2, given.to_v3, to_v4)  # UPGRADES[v] takes a database from version v to v + 1


def secret(engine: sa.Engine, proposed: str) -> str:
    """The site's key for signing seats (seat.py), shared by every replica: the one stored, else `proposed`."""
    # `proposed` is stored when none is yet
    with engine.begin() as conn:
        stmt = UPSERTS[conn.dialect.name](META).values(key="seat_secret", value=proposed)
        conn.execute(stmt.on_conflict_do_nothing(index_elements=[META.c.key]))
        return conn.execute(sa.select(META.c.value).where(META.c.key == "seat_secret")).scalar_one()


def start(engine: sa.Engine, question: Question, *, now: float, ttl: float = TTL_S) -> Opened:
    """Open a class asking question number 1 for ttl seconds: its code and the teacher's key."""
    checked(question)
    key = secrets.token_urlsafe(SECRET_BYTES)
    for _ in range(CODE_TRIES):
        code = new_code()
        try:
            with engine.begin() as conn:
                conn.execute(sa.insert(CLASSES).values(
                    code=code, teacher_hash=digest(key), created=now, expires=now + ttl, status="asking",
                    question_no=1, question=question.to_json(), updated=now, cap=CAP))  # not an older default
                conn.execute(sa.insert(QUESTIONS).values(class_code=code, question_no=1, question=question.to_json(),
                                                      asked=now))
            return Opened(code, key)
        except sa.exc.IntegrityError:  # the code is taken
            continue
    raise RuntimeError(f"no free class code in {CODE_TRIES} tries")


def live(conn: sa.Connection, code: str, now: float, *, for_update: bool = False) -> sa.Row:
    """The class's row, else ClassError('unknown') or ('expired') when there is none to use."""
    # for_update: the row stays locked until the transaction ends, where the database can lock a row
    query = sa.select(CLASSES).where(CLASSES.c.code == code)
    row = conn.execute(query.with_for_update() if for_update else query).one_or_none()
    if row is None:
        raise ClassError("unknown")
    if row.expires <= now:
        raise ClassError("expired")
    return row


def teacher(conn: sa.Connection, code: str, teacher_key: object, now: float) -> sa.Row:
    """The class's row when teacher_key is its key, else ClassError('not_teacher')."""
    row = live(conn, code, now)
    if not (well_formed(teacher_key) and hmac.compare_digest(row.teacher_hash, digest(str(teacher_key)))):
        raise ClassError("not_teacher")
    return row


def student(conn: sa.Connection, code: str, token: object, seat: str | None = None) -> str:
    """The token's hash when it joined this class from this seat; else ClassError('removed') or ('not_student')."""
    # The seat is compared only when one is given and the student has one stored.
    if well_formed(token):
        token_hash = digest(str(token))
        found = conn.execute(sa.select(STUDENTS.c.class_code, STUDENTS.c.seat, STUDENTS.c.removed)
                             .where(STUDENTS.c.token_hash == token_hash)).one_or_none()
        if found is not None and found.class_code == code:
            if found.removed is not None:
                raise ClassError("removed")
            if seat is None or found.seat is None or hmac.compare_digest(found.seat, digest(seat)):
                return token_hash
    raise ClassError("not_student")


def headcount(conn: sa.Connection, code: str) -> int:
    """The class's students, those the teacher removed left out."""
    return conn.execute(sa.select(sa.func.count()).where(STUDENTS.c.class_code == code,
                                                         STUDENTS.c.removed.is_(None))).scalar_one()


def asking(row: sa.Row, question_no: object) -> None:
    """Nothing when the class takes answers to question_no, else the ClassError that says why not."""
    if row.status == "ended":
        raise ClassError("ended")
    if type(question_no) is not int or question_no != row.question_no:
        raise ClassError("stale_question", current=row.question_no)
    if row.status != "asking":
        raise ClassError("not_asking")


def reveal(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> None:
    """Close answers to the current question and show everyone the right one."""
    code = normal_code(code)
    with engine.begin() as conn:
        if teacher(conn, code, teacher_key, now).status == "ended":
            raise ClassError("ended")
        conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code, CLASSES.c.status != "ended")
                     .values(status="revealed", updated=now))


def advance(engine: sa.Engine, code: str, teacher_key: str, question: Question, *, now: float) -> int:
    """Ask the next question (answers open again): its number."""
    code = normal_code(code)
    checked(question)
    with engine.begin() as conn:
        row = teacher(conn, code, teacher_key, now)
        if row.status == "ended":
            raise ClassError("ended")
        number = row.question_no + 1
        if number > MAX_QUESTIONS:
            raise ClassError("too_many_questions", limit=MAX_QUESTIONS)
        moved = conn.execute(sa.update(CLASSES).where(  # not if another tab of the teacher's moved on first
            CLASSES.c.code == code, CLASSES.c.question_no == row.question_no, CLASSES.c.status != "ended",
        ).values(status="asking", question_no=number, question=question.to_json(), updated=now))
        if moved.rowcount != 1:
            raise ClassError("stale_question", current=number)
        conn.execute(sa.insert(QUESTIONS).values(class_code=code, question_no=number, question=question.to_json(),
                                              asked=now))
    return number


def end(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> None:
    """End the class: no more joining or answering; the room and the answers stay readable until it expires."""
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code).values(status="ended", updated=now))


def room(engine: sa.Engine, code: str, *, now: float) -> Room:
    """The class as everyone sees it: status, question and the counts of answers to it."""
    code = normal_code(code)
    with engine.connect() as conn:
        row = live(conn, code, now)
        joined = headcount(conn, code)
        tallies = conn.execute(sa.select(ANSWERS.c.words, sa.func.count()).where(
            ANSWERS.c.class_code == code, ANSWERS.c.question_no == row.question_no).group_by(ANSWERS.c.words)).all()
    q = Question.from_json(row.question)
    orders = Counter[tuple[str, ...]]()
    for words, n in tallies:
        orders[tuple(json.loads(words))] += n
    firsts = Counter[str]()
    for order, n in orders.items():
        firsts[order[0]] += n
    return Room(row.status, row.question_no, q, joined, orders.total(), tuple(firsts[k] for k in q.keys),
                orders[q.answer], row.expires, row.updated, row.cap, bool(row.locked))


def beat(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> None:
    """The teacher's panel is open: students can tell a class whose teacher is still there from one left behind."""
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code).values(updated=now))


def teachers(engine: sa.Engine, *, now: float) -> dict[str, str]:
    """Every live class's code and the hash of its teacher key (the watch route's look-up, classroom/holds.py)."""
    with engine.connect() as conn:
        found = conn.execute(sa.select(CLASSES.c.code, CLASSES.c.teacher_hash).where(CLASSES.c.expires > now))
        return dict(found.all())


def teaches(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> None:
    """Nothing when teacher_key is the key of live class `code` (a teacher coming back); else ClassError."""
    with engine.connect() as conn:
        teacher(conn, normal_code(code), teacher_key, now)


def mine(engine: sa.Engine, code: str, token: str, *, now: float) -> tuple[str, ...] | None:
    """The student's answer to the current question, None before they give one."""
    code = normal_code(code)
    with engine.connect() as conn:
        row = live(conn, code, now)
        token_hash = student(conn, code, token)
        words = conn.execute(sa.select(ANSWERS.c.words).where(
            ANSWERS.c.class_code == code, ANSWERS.c.question_no == row.question_no,
            ANSWERS.c.token_hash == token_hash)).scalar_one_or_none()
    return None if words is None else tuple(json.loads(words))


def answers(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> list[dict[str, Any]]:
    """Every answer given in the class for its CSV, by question then time (a changed answer is two)."""
    # students are numbered by when they joined, as roster numbers them
    code = normal_code(code)
    with engine.connect() as conn:
        row = teacher(conn, code, teacher_key, now)
        joined = conn.execute(sa.select(STUDENTS.c.token_hash, STUDENTS.c.nickname, STUDENTS.c.removed).where(
            STUDENTS.c.class_code == code).order_by(STUDENTS.c.joined, STUDENTS.c.token_hash)).all()
        asked = conn.execute(sa.select(QUESTIONS.c.question_no, QUESTIONS.c.question, QUESTIONS.c.asked)
                             .where(QUESTIONS.c.class_code == code)).all()
        log = given.given(conn, code)
    students = {s.token_hash: (n, s.nickname) for n, s in enumerate(joined, 1) if s.removed is None}  # removed: out
    questions = {number: (Question.from_json(q), when) for number, q, when in asked}
    return [given.row(a.question_no, questions[a.question_no][0], tuple(json.loads(a.words)), students[a.token_hash],
                      a.at, (row.created, questions[a.question_no][1])) for a in log if a.token_hash in students]


def sweep(engine: sa.Engine, *, now: float) -> int:
    """Delete every class past its expiry (ended or not) with its questions, students and answers: how many."""
    with engine.begin() as conn:
        return drop(conn, CLASSES.c.expires <= now)


def drop(conn: sa.Connection, which: sa.ColumnElement[bool]) -> int:
    """Delete the classes `which` selects with their questions, students and answers: how many."""
    gone = sa.select(CLASSES.c.code).where(which)
    for table in (given.GIVEN, ANSWERS, STUDENTS, QUESTIONS):  # SQLite cascades only with its foreign_keys pragma on
        conn.execute(sa.delete(table).where(table.c.class_code.in_(gone)))
    return conn.execute(sa.delete(CLASSES).where(which)).rowcount
