"""A lesson: classes opened, students joining within their limits, answering, the reveal; what is measured of it."""
import asyncio
import contextlib
import math
import random
import re
import time
from dataclasses import asdict, dataclass, field

import sqlalchemy as sa
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.class_door import BUSY, drawn_again, seen_at_the_door, set_cap
from bench.class_tab import (
    CODE,
    JOIN,
    NICKNAME,
    OPEN_PHASE_S,
    OPENING,
    PHASE_TIMEOUT_S,
    PICK,
    REVEAL,
    STEP_TIMEOUT_S,
    Tab,
    answer,
    ask,
    each,
    progress,
)
from bench.common import quantile, seconds
from bench.servers import busy_seconds, cpu_seconds, own_cpu, tree_cpu
from classroom import admission, classes
from classroom.classes import CAP
from kit.text import t

REVEAL_WINDOW_S, SETTLE_S = 3.0, 2.0
LATENCY_BUDGET_S, OUTSIDER_BUDGET = 2.0, 1.10
CAP_REACHED = t("class_cap_reached", cap=0).split("0")[0]  # what the teacher of a class at its cap is told
TOO_MANY, MINUTE_S = t("err_class_rate_limited", seconds=60), 60.0  # a seat's own limit on tries: "wait a minute"


@dataclass
class Site:
    """What a lesson runs against: the addresses tabs open, the class database, the processes whose CPU is counted."""
    bases: list[str]
    engine: sa.Engine
    replicas: list[int]
    database: int | None = None  # PostgreSQL's postmaster (its backends are its children)
    proxy: int | None = None  # nginx's master (its workers are its children)


@dataclass
class Klass:
    """One class: its teacher's tab, code, students, and what was measured."""
    teacher: Tab
    code: str
    students: list[Tab] = field(default_factory=list)
    revealed_at: float | None = None


def ranks(engine: sa.Engine, code: str) -> dict[str, tuple[int, float]]:
    """Each nickname's answer to question 1 of the class: its rank by the time the server took it, and that time."""
    a, s = classes.ANSWERS, classes.STUDENTS
    with engine.connect() as conn:
        rows = conn.execute(sa.select(s.c.nickname, a.c.at).join(s, a.c.token_hash == s.c.token_hash)
                            .where(a.c.class_code == code, a.c.question_no == 1).order_by(a.c.at)).all()
    return {nickname: (k, at) for k, (nickname, at) in enumerate(rows, 1)}


def answer_latencies(klass: Klass, ranked: dict[str, tuple[int, float]]) -> tuple[list[float], list[str]]:
    """For each student who answered: sent → the first teacher count that includes it (see the module's doc)."""
    latencies, errors = [], []
    for student in klass.students:
        if student.sent_at is None or student.acked_at is None:
            continue
        if student.name not in ranked:
            errors.append(f"{student.name}: answer not in the database")
            continue
        rank = ranked[student.name][0]
        seen = next((at for at, count in klass.teacher.counts if at >= student.sent_at and count >= rank), None)
        if seen is None:
            errors.append(f"{student.name}: the teacher's count never reached {rank}")
        else:
            latencies.append(seen - student.sent_at)
    return latencies, errors


@dataclass
class Stretch:
    """One phase of a lesson (students answering; the reveal reaching them): CPU, wall time, the panels' watches."""
    server_cpu_s: float = 0.0  # the replicas
    database_cpu_s: float = 0.0  # PostgreSQL, its backends included
    proxy_cpu_s: float = 0.0  # nginx
    client_cpu_s: float = 0.0  # this process, the tabs
    other_cpu_s: float = 0.0  # everything else the machine did meanwhile
    connections: int = 0  # new PostgreSQL sessions
    wall_s: float = 0.0
    fragment_runs: int = 0  # the panels' runs (their class moved on)
    replies: int = 0  # answers to the panels' watches

    def summary(self) -> str:
        wall = max(self.wall_s, 1e-9)
        cores = ", ".join(f"{name} {cpu / wall:.2f}" for name, cpu in (
            ("replicas", self.server_cpu_s), ("PostgreSQL", self.database_cpu_s), ("nginx", self.proxy_cpu_s),
            ("load generator", self.client_cpu_s), ("other processes", self.other_cpu_s)) if cpu or name == "replicas")
        opened = f", {self.connections / wall:.0f} new database connections/s" if self.database_cpu_s else ""
        return (f"{self.replies / wall:.1f} watch replies/s, {self.fragment_runs / wall:.1f} panel runs/s, "
                f"{seconds(self.server_cpu_s / max(1, self.fragment_runs))} replica CPU per panel run; "
                f"cores: {cores}{opened}")


@dataclass
class Joins:
    """How a lesson's students got in: the first press of Join, the last student in, the refusals waited out ("busy",
    and too many tries from one browser), the cap the teachers set (None: the default) and when a student still
    refused gives up (time.monotonic())."""
    deadline: float = math.inf
    first: float = math.inf
    last: float = -math.inf
    joined: int = 0
    busy: int = 0
    too_many: int = 0
    cap: int | None = None

    def took(self) -> float | None:
        """Seconds from the first press of Join to the last student in (None: nobody got in)."""
        return self.last - self.first if self.joined else None

    def summary(self) -> str:
        took = self.took()
        cap = f"the teacher raised the cap to {self.cap} at the door; " if self.cap else ""
        return (f"{cap}{self.joined} students in, the last {'—' if took is None else seconds(took)} after the first "
                f"join (refusals waited out: {self.busy} “busy”, {self.too_many} too many tries from one browser)")


@dataclass
class Lesson:
    """What one lesson (classes asked, joined, answered, revealed) measured."""
    joins: Joins = field(default_factory=Joins)
    answers: list[float] = field(default_factory=list)
    reveals: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    asking: Stretch = field(default_factory=Stretch)
    revealed: Stretch = field(default_factory=Stretch)
    split: dict[str, int] = field(default_factory=dict)
    tabs: int = 0
    during: dict = field(default_factory=dict)

    def ok(self) -> bool:
        return (not self.errors and quantile(self.answers, 0.95) <= LATENCY_BUDGET_S
                and quantile(self.reveals, 0.95) <= LATENCY_BUDGET_S)

    def values(self) -> dict:
        return {"joins": asdict(self.joins), "join_s": self.joins.took(), "answer_s": self.answers,
                "reveal_s": self.reveals, "errors": self.errors[:30],
                "error_count": len(self.errors), "asking": asdict(self.asking), "revealed": asdict(self.revealed),
                "split": self.split, "tabs": self.tabs, "during": self.during}

    def where(self) -> str:
        """Where the time went, for the table."""
        return f"while answering {self.asking.summary()}; after the reveal {self.revealed.summary()}"


class Meter:
    """CPU seconds of every part of the site, wall time and the panels' watches and runs over a stretch."""

    def __init__(self, site: Site, klasses: list["Klass"]):
        self.site, self.tabs, self.at = site, [t for k in klasses for t in [k.teacher, *k.students]], None

    def sample(self) -> tuple:
        site = self.site
        return (cpu_seconds(site.replicas), tree_cpu(site.database), tree_cpu(site.proxy), own_cpu(), busy_seconds(),
                database_sessions(site), time.monotonic(), sum(t.fragment_runs for t in self.tabs),
                sum(t.replies for t in self.tabs))

    def start(self) -> None:
        self.at = self.sample()

    def stop(self, into: Stretch) -> None:
        server, database, proxy, client, busy, sessions, wall, runs, replies = self.at
        now = self.sample()
        server, database, proxy, client = now[0] - server, now[1] - database, now[2] - proxy, now[3] - client
        into.server_cpu_s += server
        into.database_cpu_s += database
        into.proxy_cpu_s += proxy
        into.client_cpu_s += client
        into.other_cpu_s += max(0.0, now[4] - busy - server - database - proxy - client)
        into.connections += now[5] - sessions
        into.wall_s += now[6] - wall
        into.fragment_runs += now[7] - runs
        into.replies += now[8] - replies


def database_sessions(site: Site) -> int:
    """PostgreSQL's count of sessions opened so far (0 for SQLite)."""
    if site.database is None:
        return 0
    with site.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT sum(sessions) FROM pg_stat_database")).scalar_one() or 0)


async def open_classes(site: Site, classes: int, per_class: int, out: "Lesson") -> list["Klass"]:
    """`classes` teachers ask, 8 tabs opening at a time for at most OPEN_PHASE_S, each raising the cap first when its
    class is larger than the default (make_room); then `per_class` students each join (enter). Tabs go round the site's
    addresses."""
    klasses: list[Klass] = []
    deadline, bases = time.monotonic() + OPEN_PHASE_S, site.bases

    async def start(i: int):
        teacher, code = await ask(bases[i % len(bases)], f"teacher{i}")
        klasses.append(Klass(teacher, code))
        if per_class > CAP:
            out.joins.cap = await make_room(teacher, per_class)

    out.errors += await each(range(classes), start, deadline=deadline)
    for n, k in enumerate(klasses):
        k.students += [Tab(bases[(j * len(klasses) + n) % len(bases)], "Class", f"room={k.code}", f"c{n}s{j}")
                       for j in range(per_class)]
    codes, gate = {s.name: k.code for k in klasses for s in k.students}, asyncio.Semaphore(OPENING)
    students = [s for k in klasses for s in k.students]
    out.joins.deadline = time.monotonic() + OPEN_PHASE_S + per_class / admission.JOIN_RATE  # the bucket's pace
    out.errors += await each(students, lambda s: enter(s, codes[s.name], out.joins, gate), limit=len(students))
    out.tabs, out.split = sum(1 + len(k.students) for k in klasses), split(klasses)
    return klasses


async def make_room(teacher: Tab, size: int) -> int:
    """The teacher types the class's size as its cap at the door, as the frontend does (bench/class_door.py), before
    any student joins, then folds the door away, so that the lesson's runs of the panel read no more than before: the
    cap the panel showed. Through the door rather than in the database, so that it is what a teacher does."""
    door = seen_at_the_door(teacher)
    cap = await set_cap(teacher, door, size)
    teacher.states.pop(door["ids"][t("class_cap")], None)  # no longer drawn: the frontend drops its value
    await drawn_again(teacher, WidgetState(id=door["ids"][t("class_door")], bool_value=False))
    return int(cap)


async def enter(student: Tab, code: str, joins: Joins, gate: asyncio.Semaphore) -> None:
    """The student opens the class's link and joins, OPENING tabs at a time; told to wait ("busy" for some seconds, or
    a minute after too many tries), it waits as told (outside the gate) and tries again, as a student would, until
    joins.deadline."""
    async with gate:
        if time.monotonic() > joins.deadline:
            raise RuntimeError("not started within the time allowed")
        await student.open()
    while (wait := await knock(student, code, joins, gate)) is not None:
        if time.monotonic() + wait > joins.deadline:
            raise TimeoutError(f"told to wait {wait:g} s more at the end of the joins")
        await asyncio.sleep(wait)


async def knock(student: Tab, code: str, joins: Joins, gate: asyncio.Semaphore) -> float | None:
    """Press Join with the class's code and the tab's name as nickname: None once in, else the seconds a refusal said
    to wait ("busy", or too many tries: refusals the student waits out, not errors); RuntimeError for any other."""
    async with gate:
        for label, value in ((CODE, code), (NICKNAME, student.name)):
            student.set(label, value)
        seen, runs = len(student.errors), student.runs
        joins.first = min(joins.first, time.perf_counter())
        await student.press(JOIN)
        await student.until(lambda: student.runs > runs and (PICK in student.widgets or len(student.errors) > seen),
                            STEP_TIMEOUT_S, "panel after join")
    if PICK in student.widgets:
        student.states.clear()  # the form is gone; the frontend drops the values of widgets no longer shown
        joins.joined, joins.last = joins.joined + 1, max(joins.last, time.perf_counter())
        return None
    said = student.errors[seen].split(": ", 1)[-1]
    del student.errors[seen:]  # said once: as a refusal waited out, or as the error raised
    if said.startswith(BUSY):
        joins.busy += 1
        return int(re.findall(r"\d+", said)[0])
    if said == TOO_MANY:  # the browser's own limit on joins (classroom/limiter.py), told without a number
        joins.too_many += 1
        return MINUTE_S
    raise RuntimeError(f"refused: {said}")


async def lesson(site: Site, classes: int, per_class: int, window: float, during=None) -> Lesson:
    """Classes open, every student answers within `window` s, then (after `during`, if given, outside the measured
    stretches) every teacher reveals within REVEAL_WINDOW_S."""
    rng, out = random.Random(classes * 1000 + per_class), Lesson()
    klasses = await open_classes(site, classes, per_class, out)
    try:
        students = [s for k in klasses for s in k.students if PICK in s.widgets]
        progress(f"{len(klasses)} classes, {len(students)} students joined; answering")
        meter = Meter(site, klasses)
        meter.start()
        out.errors += await each(students, lambda s: answer(s, rng, rng.uniform(0, window)), limit=len(students))
        await settle(klasses)
        meter.stop(out.asking)
        if during is not None:
            out.during = await during()
        progress("revealing")
        meter.start()
        out.errors += await each(klasses, lambda k: reveal(k, rng.uniform(0, REVEAL_WINDOW_S)), limit=len(klasses))
        out.errors += await each(students, lambda s: s.until(lambda: s.revealed_at is not None, PHASE_TIMEOUT_S,
                                                             "the answer after the reveal"), limit=len(students))
        meter.stop(out.revealed)
        await tally(klasses, site.engine, out)
    finally:
        await asyncio.gather(*(tab.close() for k in klasses for tab in [k.teacher, *k.students]))
    return out


async def tally(klasses: list["Klass"], engine: sa.Engine, out: Lesson) -> None:
    """The latencies and errors of every tab into `out`."""
    for k in klasses:
        got, errors = answer_latencies(k, await asyncio.to_thread(ranks, engine, k.code))
        out.answers += got
        out.errors += errors
        out.reveals += [s.revealed_at - k.revealed_at for s in k.students if s.revealed_at and k.revealed_at]
    out.errors += [e for k in klasses for tab in [k.teacher, *k.students] for e in tab.errors
                   if not e.split(": ", 1)[-1].startswith(CAP_REACHED)]  # a class its cap's size: told so, rightly


def split(klasses: list[Klass]) -> dict[str, int]:
    """Tabs per process, as nginx's cookie placed them."""
    found: dict[str, int] = {}
    for tab in [k.teacher for k in klasses] + [s for k in klasses for s in k.students]:
        found[tab.upstream or tab.base] = found.get(tab.upstream or tab.base, 0) + 1
    return found


async def settle(klasses: list[Klass]) -> None:
    """Wait until every teacher's count has shown every answer its students saw sent (at most PHASE_TIMEOUT_S)."""
    async def one(k: Klass):
        given = sum(1 for s in k.students if s.acked_at is not None)
        with contextlib.suppress(TimeoutError, ConnectionError):
            await k.teacher.until(lambda: bool(k.teacher.counts) and k.teacher.counts[-1][1] >= given,
                                  PHASE_TIMEOUT_S, "every answer counted")
    await asyncio.gather(*(one(k) for k in klasses))
    await asyncio.sleep(SETTLE_S)


async def reveal(klass: Klass, delay: float) -> None:
    await asyncio.sleep(delay)
    klass.revealed_at = await klass.teacher.press(REVEAL)

