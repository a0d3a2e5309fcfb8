"""A lesson (classes opened, students joining within their limits, answering, the reveal), and the teacher's door."""
import asyncio
import contextlib
import math
import os
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field, fields

import sqlalchemy as sa
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench import class_tab as tabs
from bench.class_tab import PICK, STEP_TIMEOUT_S, Tab, answer, ask, each, link_tab, progress
from bench.common import quantile, seconds
from bench.servers import busy_seconds, cpu_seconds, tree_cpu
from classroom import admission, classes
from classroom.classes import CAP
from kit.text import t

REVEAL_WINDOW_S, SETTLE_S = 3.0, 2.0
LATENCY_BUDGET_S, OUTSIDER_BUDGET = 2.0, 1.10
CAP_REACHED = t("class_cap_reached", cap=0).split("0")[0]  # what the teacher of a class at its cap is told
TOO_MANY, MINUTE_S = t("err_class_rate_limited", seconds=60), 60.0  # a seat's own limit on tries: "wait a minute"
BUSY = t("err_class_busy", seconds=0).split("0")[0]  # how a refusal for the class's rate of joins begins
DOOR, CAP_BOX, JOINED = t("class_door"), t("class_cap"), t("class_joined")


async def drawn_again(teacher: Tab, *states: WidgetState, showing=lambda: True) -> None:
    """The teacher's page run again with these widget values (kept, as the frontend keeps them) until `showing`."""
    teacher.states |= {state.id: state for state in states}
    runs = teacher.runs
    await teacher.send()
    await teacher.until(lambda: teacher.runs > runs and showing(), STEP_TIMEOUT_S, "the teacher's panel drawn again")


async def set_cap(teacher: Tab, cap: int) -> float:
    """The teacher opens the door and types `cap` as the class's cap: the cap the panel then shows."""
    await drawn_again(teacher, showing=lambda: DOOR in teacher.widgets)
    await drawn_again(teacher, WidgetState(id=teacher.widgets[DOOR][0], bool_value=True),
                      showing=lambda: CAP_BOX in teacher.widgets)
    await drawn_again(teacher, WidgetState(id=teacher.widgets[CAP_BOX][0], double_value=cap),
                      showing=lambda: teacher.values[CAP_BOX] == cap)
    return teacher.values[CAP_BOX]


async def remove_busiest_minute(teacher: Tab) -> dict:
    """The teacher removes with one button the joins of the minute the most students still in joined."""
    await drawn_again(teacher)
    picker, before = t("class_joins_minute"), int(teacher.metrics[JOINED])
    counts = [int(re.findall(r"\d+", c)[0]) for c in teacher.captions.get(picker, [])]
    if not counts:  # nobody still in joined lately
        return {"minute": None, "counted": 0, "removed": 0, "before": before, "after": before}
    minute = teacher.options[picker][counts.index(max(counts))]
    teacher.set(picker, minute)
    await drawn_again(teacher)
    said = len(teacher.successes)
    await teacher.press(t("class_remove_minute"))
    await teacher.until(lambda: len(teacher.successes) > said, STEP_TIMEOUT_S, "the removal's message")
    removed = int(re.findall(r"\d+", teacher.successes[-1])[0])
    await drawn_again(teacher)
    return {"minute": minute, "counted": max(counts), "removed": removed, "before": before,
            "after": int(teacher.metrics[JOINED])}


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
    """How a lesson's students got in: first press of Join, last student in, refusals waited out, the cap set."""
    deadline: float = math.inf  # when a student still refused gives up (time.monotonic())
    first: float = math.inf
    last: float = -math.inf
    joined: int = 0
    busy: int = 0
    too_many: int = 0  # refusals for too many tries from one browser
    cap: int | None = None  # None: the default

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

    def where(self) -> str:
        """Where the time went, for the table."""
        return f"while answering {self.asking.summary()}; after the reveal {self.revealed.summary()}"


class Meter:
    """CPU seconds of every part of the site, wall time and the panels' watches and runs over a stretch."""

    def __init__(self, site: Site, klasses: list["Klass"]):
        self.site, self.tabs, self.at = site, [t for k in klasses for t in [k.teacher, *k.students]], None

    def sample(self) -> tuple:
        site = self.site
        return (cpu_seconds(site.replicas), tree_cpu(site.database), tree_cpu(site.proxy), cpu_seconds([os.getpid()]),
                busy_seconds(), database_sessions(site), time.monotonic(), sum(t.fragment_runs for t in self.tabs),
                sum(t.replies for t in self.tabs))

    def start(self) -> None:
        self.at = self.sample()

    def stop(self, into: Stretch) -> None:
        """Add what grew since start() to `into`, field by field (sample() holds them in Stretch's order)."""
        grown = [now - then for now, then in zip(self.sample(), self.at, strict=True)]
        grown[4] = max(0.0, grown[4] - sum(grown[:4]))  # the machine's busy seconds less the site's and this process's
        for f, more in zip(fields(Stretch), grown, strict=True):
            setattr(into, f.name, getattr(into, f.name) + more)


def database_sessions(site: Site) -> int:
    """PostgreSQL's count of sessions opened so far (0 for SQLite)."""
    if site.database is None:
        return 0
    with site.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT sum(sessions) FROM pg_stat_database")).scalar_one() or 0)


async def open_classes(site: Site, classes: int, per_class: int, out: "Lesson") -> list["Klass"]:
    """Teachers ask (making room for a class over the default cap), then students join; tabs go round the addresses."""
    klasses: list[Klass] = []
    deadline, bases = time.monotonic() + tabs.OPEN_PHASE_S, site.bases

    async def start(i: int):
        teacher, code = await ask(bases[i % len(bases)], f"teacher{i}")
        klasses.append(Klass(teacher, code))
        if per_class > CAP:
            out.joins.cap = await make_room(teacher, per_class)

    out.errors += await each(range(classes), start, deadline=deadline)
    for n, k in enumerate(klasses):
        k.students += [link_tab(bases[(j * len(klasses) + n) % len(bases)], k.code, f"c{n}s{j}")
                       for j in range(per_class)]
    codes, gate = {s.name: k.code for k in klasses for s in k.students}, asyncio.Semaphore(tabs.OPENING)
    students = [s for k in klasses for s in k.students]
    out.joins.deadline = time.monotonic() + tabs.OPEN_PHASE_S + per_class / admission.JOIN_RATE  # the bucket's pace
    out.errors += await each(students, lambda s: enter(s, codes[s.name], out.joins, gate), limit=len(students))
    out.tabs, out.split = sum(1 + len(k.students) for k in klasses), split(klasses)
    return klasses


async def make_room(teacher: Tab, size: int) -> int:
    """The teacher types the class's size as its cap at the door, as a teacher does, then folds the door away."""
    cap = await set_cap(teacher, size)
    teacher.states.pop(teacher.widgets[CAP_BOX][0], None)  # no longer drawn: the frontend drops its value
    await drawn_again(teacher, WidgetState(id=teacher.widgets[DOOR][0], bool_value=False))  # the panel as before
    return int(cap)


async def enter(student: Tab, code: str, joins: Joins, gate: asyncio.Semaphore) -> None:
    """The student opens the class's link and joins; told to wait, it waits as told and tries again, as students do."""
    async with gate:
        if time.monotonic() > joins.deadline:
            raise RuntimeError("not started within the time allowed")
        await student.open()
    while (wait := await knock(student, code, joins, gate)) is not None:
        if time.monotonic() + wait > joins.deadline:
            raise TimeoutError(f"told to wait {wait:g} s more at the end of the joins")
        await asyncio.sleep(wait)


async def knock(student: Tab, code: str, joins: Joins, gate: asyncio.Semaphore) -> float | None:
    """Join with the tab's name as nickname: None once in, else the seconds a refusal said to wait (or RuntimeError)."""
    async with gate:
        seen = len(student.errors)
        joins.first = min(joins.first, time.perf_counter())
        said = await student.knock(code, student.name)
    if said == "in":
        joins.joined, joins.last = joins.joined + 1, max(joins.last, time.perf_counter())
        return None
    del student.errors[seen:]  # said once: as a refusal waited out, or as the error raised
    if said.startswith(BUSY):
        joins.busy += 1
        return int(re.findall(r"\d+", said)[0])
    if said == TOO_MANY:  # the browser's own limit on joins (classroom/limiter.py), told without a number
        joins.too_many += 1
        return MINUTE_S
    raise RuntimeError(f"refused: {said}")


async def lesson(site: Site, classes: int, per_class: int, window: float, during=None) -> Lesson:
    """Classes open, students answer within `window` s, `during()` runs unmeasured, teachers reveal within 3 s."""
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
        out.errors += await each(students, lambda s: s.until(lambda: s.revealed_at is not None, tabs.PHASE_TIMEOUT_S,
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
    every = [k.teacher for k in klasses] + [s for k in klasses for s in k.students]
    return dict(Counter(tab.upstream or tab.base for tab in every))


async def settle(klasses: list[Klass]) -> None:
    """Wait until every teacher's count has shown every answer its students saw sent (at most PHASE_TIMEOUT_S)."""
    async def one(k: Klass):
        given = sum(1 for s in k.students if s.acked_at is not None)
        with contextlib.suppress(TimeoutError, ConnectionError):
            await k.teacher.until(lambda: bool(k.teacher.counts) and k.teacher.counts[-1][1] >= given,
                                  tabs.PHASE_TIMEOUT_S, "every answer counted")
    await asyncio.gather(*(one(k) for k in klasses))
    await asyncio.sleep(SETTLE_S)


async def reveal(klass: Klass, delay: float) -> None:
    await asyncio.sleep(delay)
    klass.revealed_at = await klass.teacher.press(tabs.REVEAL)

