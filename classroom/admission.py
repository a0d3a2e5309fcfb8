"""Who and what comes in, in SQL: students into a class, classes into the database.

A class is defended per class, where a script cannot spread out: it takes at most JOINS_FROM_ONE joins a minute from
one address and JOINS_IN_ALL from all of them (a whole class behind one school address gets in within a minute), at
most SEAT_JOINS students from one browser (its seat, classroom/seat.py), none while its teacher has closed joining,
and no more than its cap, which its teacher sees reached and can raise; the teacher can remove a student, whose seat
cannot join the class again. The rates are counted in the database, so every replica sees the same. Addresses are
stored only keyed (origin), never as they are.

The database holds at most MAX_LIVE classes: opening one more first closes the oldest idle ones (nobody acted in them
for IDLE_S, their teacher's panel closed), and is refused when none is idle."""
import hashlib
import hmac
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from classroom import classes
from classroom.classes import CLASSES, STUDENTS, Opened, Question, digest, live, normal_code, teacher
from classroom.questions import nickname_checked
from engine.errors import ClassError

JOINS_FROM_ONE, JOINS_IN_ALL, JOIN_WINDOW_S = 240, 600, 60.0
SEAT_JOINS = 3  # students one browser may be in one class: it left, or its tab lost its cookie, and joined again
MAX_CAP = 2000
MAX_LIVE, IDLE_S = 1000, 15 * 60.0


@dataclass(frozen=True)
class Student:
    """One student as the teacher's panel lists them: their number (by when they joined, as in the CSV), nickname
    and when they joined."""
    number: int
    nickname: str | None
    joined: float


def origin(address: str, key: str) -> str:
    """An address as the database keeps it: keyed with the site's secret, so that the stored form names nobody."""
    return hmac.new(key.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def join(engine: sa.Engine, code: str, nickname: str | None, *, now: float, seat: str, origin: str) -> str:
    """A new student of the class, joining from the browser `seat` at the keyed address `origin`: their token, which
    only they hold."""
    code, name = normal_code(code), nickname_checked(nickname)
    token = secrets.token_urlsafe(classes.SECRET_BYTES)
    with engine.begin() as conn:
        row = live(conn, code, now, for_update=True)  # joins to one class in turn: the counts below hold
        if row.status == "ended":
            raise ClassError("ended")
        if row.locked:
            raise ClassError("locked")
        admissible(conn, code, digest(seat), origin, now)
        if classes.headcount(conn, code) >= row.cap:
            raise ClassError("full")
        conn.execute(sa.insert(STUDENTS).values(token_hash=digest(token), class_code=code, nickname=name, joined=now,
                                                seat=digest(seat), origin=origin))
    return token


def admissible(conn: sa.Connection, code: str, seat_hash: str, origin: str, now: float) -> None:
    """Nothing when the class may take one more student from this seat and origin now; else the ClassError that says
    why not."""
    mine = sa.select(STUDENTS.c.removed).where(STUDENTS.c.class_code == code, STUDENTS.c.seat == seat_hash)
    seated = conn.execute(mine).scalars().all()
    if any(removed is not None for removed in seated):
        raise ClassError("removed")
    if len(seated) >= SEAT_JOINS:
        raise ClassError("rejoined", limit=SEAT_JOINS)
    same = sa.func.coalesce(sa.func.sum(sa.case((STUDENTS.c.origin == origin, 1), else_=0)), 0)
    recent = conn.execute(sa.select(sa.func.count(), same).where(
        STUDENTS.c.class_code == code, STUDENTS.c.joined > now - JOIN_WINDOW_S)).one()
    if recent[0] >= JOINS_IN_ALL or recent[1] >= JOINS_FROM_ONE:
        raise ClassError("busy")


def roster(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> list[Student]:
    """The class's students the teacher has not removed, by when they joined."""
    code = normal_code(code)
    with engine.connect() as conn:
        teacher(conn, code, teacher_key, now)
        rows = conn.execute(sa.select(STUDENTS.c.nickname, STUDENTS.c.joined, STUDENTS.c.removed).where(
            STUDENTS.c.class_code == code).order_by(STUDENTS.c.joined, STUDENTS.c.token_hash)).all()
    return [Student(n, r.nickname, r.joined) for n, r in enumerate(rows, 1) if r.removed is None]


def remove(engine: sa.Engine, code: str, teacher_key: str, numbers: list[int], *, now: float) -> int:
    """Remove the students with these numbers (roster's): their answers no longer count, their tokens no longer hold
    and their seats cannot join the class again. How many were removed."""
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        rows = conn.execute(sa.select(STUDENTS.c.token_hash, STUDENTS.c.removed).where(
            STUDENTS.c.class_code == code).order_by(STUDENTS.c.joined, STUDENTS.c.token_hash)).all()
        chosen = set(numbers)
        gone = [r.token_hash for n, r in enumerate(rows, 1) if n in chosen and r.removed is None]
        if gone:
            conn.execute(sa.delete(classes.ANSWERS).where(classes.ANSWERS.c.token_hash.in_(gone)))
            conn.execute(sa.update(STUDENTS).where(STUDENTS.c.token_hash.in_(gone)).values(removed=now))
            conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code).values(updated=now))
    return len(gone)


def set_cap(engine: sa.Engine, code: str, teacher_key: str, cap: object, *, now: float) -> None:
    """The most students the class takes from now on, 1 to MAX_CAP (ClassError('bad_cap') otherwise)."""
    if type(cap) is not int or not 1 <= cap <= MAX_CAP:
        raise ClassError("bad_cap", limit=MAX_CAP)
    teacher_sets(engine, code, teacher_key, now, cap=cap)


def set_locked(engine: sa.Engine, code: str, teacher_key: str, locked: bool, *, now: float) -> None:
    """Close joining (locked) or open it again."""
    teacher_sets(engine, code, teacher_key, now, locked=int(bool(locked)))


def teacher_sets(engine: sa.Engine, code: str, teacher_key: str, now: float, **values) -> None:
    """The teacher changes the class's row (their key checked first)."""
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code).values(updated=now, **values))


def start(engine: sa.Engine, question: Question, *, now: float, ttl: float = classes.TTL_S) -> Opened:
    """classes.start, within MAX_LIVE classes: the oldest idle ones are closed first to make room, and when none is
    idle, ClassError('too_many_classes')."""
    with engine.begin() as conn:
        open_now = conn.execute(sa.select(sa.func.count()).where(CLASSES.c.expires > now)).scalar_one()
        over = open_now - MAX_LIVE + 1
        if over > 0:
            idle = sa.select(CLASSES.c.code).where(CLASSES.c.expires > now, CLASSES.c.updated < now - IDLE_S)
            oldest = conn.execute(idle.order_by(CLASSES.c.updated).limit(over)).scalars().all()
            if len(oldest) < over:
                raise ClassError("too_many_classes")
            classes.drop(conn, CLASSES.c.code.in_(oldest))
    return classes.start(engine, question, now=now, ttl=ttl)
