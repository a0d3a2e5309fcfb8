"""Who and what comes in, in SQL: students into a class, classes into the database.

A class is defended per class, where a script cannot spread out. Its teacher's cap bounds how many are in: CAP (60, a
class of 30 with room for latecomers and second devices) until the teacher changes it, raised CAP_STEP at a time in one
click when it is reached. Its joins from every address together go through a token bucket kept in the class's row (every
replica counts the same): JOIN_BURST at once, then JOIN_RATE a second. The figures: a class of 30, even of 40, arriving
together all get in at once; latecomers trickle in at 36 a minute, which fills the burst again within 67 s, so a second
group of 30 a minute later gets in at once too; and a script joining without pause, from any number of addresses, seats
at most 40 + 0.6 × 75 = 85 students in 75 s and 36 a minute after its burst, which the teacher sees per minute and
removes in one action (joins_by_minute, remove_joined_between). One address takes at most JOINS_FROM_ONE joins a minute:
the burst, so a whole class behind one school address still gets in at once, while a script on one address leaves the
bucket's refill to the other addresses (against several addresses it is the bucket that holds). A browser (its seat,
classroom/seat.py) joins at most SEAT_JOINS times, nobody joins while the teacher has closed joining, and a student the
teacher removed cannot join again from that seat. Addresses are stored only keyed (origin), never as they are.

The database holds at most MAX_LIVE classes: opening one more first closes the oldest idle ones (nobody acted in them
for IDLE_S, their teacher's panel closed), and is refused when none is idle."""
import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from classroom import classes
from classroom.classes import CLASSES, STUDENTS, Opened, Question, digest, live, normal_code, teacher
from classroom.questions import nickname_checked
from engine.errors import ClassError

JOIN_BURST, JOIN_RATE = 40, 0.6  # a class's joins from every address: 40 at once, then 0.6 a second (36 a minute)
JOINS_FROM_ONE, JOIN_WINDOW_S = 40, 60.0  # joins a class takes from one address in any 60 s
SEAT_JOINS = 3  # students one browser may be in one class: it left, or its tab lost its cookie, and joined again
MAX_CAP, CAP_STEP = 2000, 30  # the most a teacher may set; what one click on a full class's button adds
JOIN_MINUTES = 10  # the minutes of joins the teacher's panel counts, the current one last
MAX_LIVE, IDLE_S = 1000, 15 * 60.0


@dataclass(frozen=True)
class Student:
    """One student as the teacher's panel lists them."""
    number: int  # by when they joined, as the CSV numbers them
    nickname: str | None
    joined: float


def origin(address: str, key: str) -> str:
    """An address as the database keeps it: keyed with the site's secret, so that the stored form names nobody."""
    return hmac.new(key.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]


def join(engine: sa.Engine, code: str, nickname: str | None, *, now: float, seat: str, origin: str) -> str:
    """A new student of the class, from browser `seat` at keyed address `origin`: their token, which only they hold."""
    code = normal_code(code)
    name = nickname_checked(nickname)
    token = secrets.token_urlsafe(classes.SECRET_BYTES)
    with engine.begin() as conn:
        row = live(conn, code, now, for_update=True)  # joins to one class in turn: the counts below hold
        if row.status == "ended":
            raise ClassError("ended")
        if row.locked:
            raise ClassError("locked")
        take_token(conn, code, now)  # the first write: on SQLite, from here on no other join interleaves
        admissible(conn, code, digest(seat), origin, now)
        if classes.headcount(conn, code) >= row.cap:
            raise ClassError("full")  # the transaction rolls back: the token is not spent
        conn.execute(sa.insert(STUDENTS).values(token_hash=digest(token), class_code=code, nickname=name, joined=now,
                                                seat=digest(seat), origin=origin))
    return token


def take_token(conn: sa.Connection, code: str, now: float) -> None:
    """Take a token from the class's join bucket, else ClassError('busy') with the seconds until one is back."""
    # The bucket is kept as the time it is full again (join_full): each join puts it 1 / JOIN_RATE later, from now at
    # the earliest, and no further than JOIN_BURST of them ahead of now. The update decides in the database, so two
    # joins at once cannot both take the last token.
    full = sa.case((CLASSES.c.join_full > now, CLASSES.c.join_full), else_=sa.literal(now, sa.Double)) + 1 / JOIN_RATE
    ahead = JOIN_BURST / JOIN_RATE  # how far ahead of now a full burst puts it
    taken = conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code, full <= now + ahead + 0.001)  # rounding
                         .values(join_full=full))
    if taken.rowcount != 1:
        later = conn.execute(sa.select(full).where(CLASSES.c.code == code)).scalar_one()
        raise busy(later - now - ahead)


def busy(wait: float) -> ClassError:
    """ClassError('busy') telling the student how many seconds to wait (at least 2)."""
    return ClassError("busy", seconds=max(2, math.ceil(wait)))


def admissible(conn: sa.Connection, code: str, seat_hash: str, origin: str, now: float) -> None:
    """Nothing when the class may take one more student from this seat and origin now; else a ClassError saying why."""
    mine = sa.select(STUDENTS.c.removed).where(STUDENTS.c.class_code == code, STUDENTS.c.seat == seat_hash)
    seated = conn.execute(mine).scalars().all()
    if any(removed is not None for removed in seated):
        raise ClassError("removed")
    if len(seated) >= SEAT_JOINS:
        raise ClassError("rejoined", limit=SEAT_JOINS)
    recent, oldest = conn.execute(sa.select(sa.func.count(), sa.func.min(STUDENTS.c.joined)).where(
        STUDENTS.c.class_code == code, STUDENTS.c.origin == origin, STUDENTS.c.joined > now - JOIN_WINDOW_S)).one()
    if recent >= JOINS_FROM_ONE:
        raise busy(oldest + JOIN_WINDOW_S - now)


def roster(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> list[Student]:
    """The class's students the teacher has not removed, by when they joined."""
    code = normal_code(code)
    with engine.connect() as conn:
        teacher(conn, code, teacher_key, now)
        rows = conn.execute(sa.select(STUDENTS.c.nickname, STUDENTS.c.joined, STUDENTS.c.removed).where(
            STUDENTS.c.class_code == code).order_by(STUDENTS.c.joined, STUDENTS.c.token_hash)).all()
    return [Student(n, r.nickname, r.joined) for n, r in enumerate(rows, 1) if r.removed is None]


def remove(engine: sa.Engine, code: str, teacher_key: str, numbers: list[int], *, now: float) -> int:
    """Remove the students with these (roster's) numbers: how many were removed."""
    # A removed student's answers no longer count, their token no longer holds and their seat cannot join the class
    # again.
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        rows = conn.execute(sa.select(STUDENTS.c.token_hash, STUDENTS.c.removed).where(
            STUDENTS.c.class_code == code).order_by(STUDENTS.c.joined, STUDENTS.c.token_hash)).all()
        chosen = set(numbers)
        gone = [r.token_hash for n, r in enumerate(rows, 1) if n in chosen and r.removed is None]
        return removed(conn, code, STUDENTS.c.token_hash.in_(gone), now) if gone else 0


def remove_joined_between(engine: sa.Engine, code: str, teacher_key: str, start: float, end: float, *,
                          now: float) -> int:
    """Remove, as remove does, the students who joined from `start` until before `end`: how many."""
    # start..end is a minute of joins_by_minute
    code = normal_code(code)
    with engine.begin() as conn:
        teacher(conn, code, teacher_key, now)
        return removed(conn, code, sa.and_(STUDENTS.c.joined >= start, STUDENTS.c.joined < end), now)


def removed(conn: sa.Connection, code: str, which: sa.ColumnElement[bool], now: float) -> int:
    """Remove the class's students `which` selects and the teacher has not removed yet: how many."""
    chosen = (STUDENTS.c.class_code == code, STUDENTS.c.removed.is_(None), which)
    conn.execute(sa.delete(classes.ANSWERS).where(
        classes.ANSWERS.c.token_hash.in_(sa.select(STUDENTS.c.token_hash).where(*chosen))))
    gone = conn.execute(sa.update(STUDENTS).where(*chosen).values(removed=now)).rowcount
    if gone:
        conn.execute(sa.update(CLASSES).where(CLASSES.c.code == code).values(updated=now))
    return gone


def joins_by_minute(engine: sa.Engine, code: str, teacher_key: str, *, now: float,
                    minutes: int = JOIN_MINUTES) -> list[tuple[float, int]]:
    """The last `minutes` clock minutes, the current one last: each one's start and how many still in joined in it."""
    code = normal_code(code)
    first = (now // 60 - (minutes - 1)) * 60
    starts = [first + 60 * i for i in range(minutes)]
    counts = [sa.func.count(sa.case((sa.and_(STUDENTS.c.joined >= s, STUDENTS.c.joined < s + 60), 1))) for s in starts]
    with engine.connect() as conn:
        teacher(conn, code, teacher_key, now)
        found = conn.execute(sa.select(*counts).where(STUDENTS.c.class_code == code, STUDENTS.c.removed.is_(None),
                                                      STUDENTS.c.joined >= first)).one()
    return list(zip(starts, found, strict=True))


def set_cap(engine: sa.Engine, code: str, teacher_key: str, cap: object, *, now: float) -> None:
    """The most students the class takes from now on, 1 to MAX_CAP (ClassError('bad_cap') otherwise)."""
    if type(cap) is not int or not 1 <= cap <= MAX_CAP:
        raise ClassError("bad_cap", limit=MAX_CAP)
    teacher_sets(engine, code, teacher_key, now, cap=cap)


def raise_cap(engine: sa.Engine, code: str, teacher_key: str, *, now: float) -> None:
    """Take CAP_STEP more students than the cap the class has now (MAX_CAP at most): a full class's one click."""
    more = sa.case((CLASSES.c.cap < MAX_CAP - CAP_STEP, CLASSES.c.cap + CAP_STEP), else_=MAX_CAP)
    teacher_sets(engine, code, teacher_key, now, cap=more)


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
    """classes.start within MAX_LIVE classes: the oldest idle ones closed first to make room (too few: ClassError)."""
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
