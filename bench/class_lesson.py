"""A lesson for bench/classroom.py: classes opened on a site, their students answering and the teachers revealing, and
what is measured of it (latencies by the database's order of answers, CPU over stretches)."""
import asyncio
import contextlib
import random
import time
from dataclasses import asdict, dataclass, field

import psutil
import sqlalchemy as sa

from bench.class_tab import OPEN_PHASE_S, PHASE_TIMEOUT_S, PICK, REVEAL, Tab, answer, ask, each, join, progress
from bench.common import busy_seconds, cpu_seconds, seconds
from classroom import classes

REVEAL_WINDOW_S, SETTLE_S = 3.0, 2.0
LATENCY_BUDGET_S, OUTSIDER_BUDGET = 2.0, 1.10


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


def quantile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (inf without values)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("inf")


def p50_p95(values: list[float]) -> str:
    return f"p50 {seconds(quantile(values, 0.5))}, p95 {seconds(quantile(values, 0.95))}"


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
class Lesson:
    """What one lesson (classes asked, answered, revealed) measured."""
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
        return {"answer_s": self.answers, "reveal_s": self.reveals, "errors": self.errors[:30],
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


def tree_cpu(pid: int | None) -> float:
    """User + system CPU seconds of a process, its live descendants and the children it has reaped."""
    if pid is None:
        return 0.0
    try:
        root = psutil.Process(pid)
        t = root.cpu_times()
        total = t.user + t.system + t.children_user + t.children_system
        for child in root.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                c = child.cpu_times()
                total += c.user + c.system
        return total
    except psutil.NoSuchProcess:
        return 0.0


def database_sessions(site: Site) -> int:
    """PostgreSQL's count of sessions opened so far (0 for SQLite)."""
    if site.database is None:
        return 0
    with site.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT sum(sessions) FROM pg_stat_database")).scalar_one() or 0)


def own_cpu() -> float:
    times = psutil.Process().cpu_times()
    return times.user + times.system


async def open_classes(site: Site, classes: int, per_class: int, out: "Lesson") -> list["Klass"]:
    """`classes` teachers ask and `per_class` students each join, 8 tabs opening at a time for at most OPEN_PHASE_S;
    tabs go round the site's addresses."""
    klasses: list[Klass] = []
    deadline, bases = time.monotonic() + OPEN_PHASE_S, site.bases

    async def start(i: int):
        teacher, code = await ask(bases[i % len(bases)], f"teacher{i}")
        klasses.append(Klass(teacher, code))

    out.errors += await each(range(classes), start, deadline=deadline)
    for n, k in enumerate(klasses):
        k.students += [Tab(bases[(j * len(klasses) + n) % len(bases)], "Class", f"room={k.code}", f"c{n}s{j}")
                       for j in range(per_class)]
    codes = {s.name: k.code for k in klasses for s in k.students}
    out.errors += await each([s for k in klasses for s in k.students], lambda s: join(s, codes[s.name], s.name),
                             deadline=deadline)
    out.tabs, out.split = sum(1 + len(k.students) for k in klasses), split(klasses)
    return klasses


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
    out.errors += [e for k in klasses for tab in [k.teacher, *k.students] for e in tab.errors]


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

