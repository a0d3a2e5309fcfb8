"""Class mode under load: teachers and students as bare websocket tabs that speak Streamlit's protocol (no browser).

A tab opens as the frontend opens it (GET for nginx's route cookie, /_stcore/stream, a first rerun_script by the page's
name and query string), reads every ForwardMsg in a task of its own, and keeps what the frontend keeps: the page's
script hash (navigation), the URL's query string (page_info_changed) and widget values it has set. A widget inside a
fragment (its delta carries the fragment_id) sends its rerun with that fragment_id, as the frontend does. A class
panel's watch (classroom/watch.py's component) is run as its JavaScript runs: one GET of its URL at a time with the
tab's cookies and the stage last seen (the server holds it until the stage moves), and when the answer differs from
the stage the panel shows, the fragment's rerun with the component's trigger. No page a tab opens reruns a fragment
on a timer (run_every): one that asked would be an error here, as a watch with a timer is.

A teacher opens page 2 with predict=1 and presses "Ask the class" (a button found by its label in the deltas); the
session switches to the class page, whose code element holds the link with the class's code. A student opens
/Class?room=CODE, submits the join form with a nickname of its own, and picks a word in the radio of the live panel
(a fragment rerun with the radio's value). The nickname ties each answer in the database to the tab that gave it.

- Answer → teacher: from sending a student's answer until the teacher's panel (rerun by its watch when the count moved)
  shows an "Answered this question" count that includes it. Answers are ranked by the time the server took them
  (the answers table's `at`): the k-th is included in the first count ≥ k that arrives after it was sent.
- Reveal → student: from the teacher's click on "Reveal the answer" until the student's panel shows the answer text.
- Watch replies: the answers to the panels' watches (one when a class's stage moved, or after the route's hold);
  panel runs: the fragment runs they caused; the replicas' CPU over a stretch includes both.
- Restart: students spread over three replicas answer; one replica without the teacher gets SIGTERM and is started
  again on the same address; its students reconnect (their sessions are gone: the frontend's reconnect reruns the page)
  with the cookies the class page's pixel set, as a browser keeps them (classroom/seat.py), so they come back in their
  seats; the database must still count every answer given before, and no student twice.
- Outsiders: capacity.py's sessions typing a sentence every 2 s on the home page of one process, alone, then with
  30 classes on the same process; in windows that alternate classes alone and classes + typing, CPU per edit =
  (server CPU − the classes' own rate from the windows on either side × the window) / edits.

Only 127.0.0.1 is contacted, every wait has a timeout, and every process started here is stopped at the end.
python -m bench.classroom [--quick]
"""
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx2
import psutil
import sqlalchemy as sa
import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.capacity import HOME, Student, busy_seconds, cpu_seconds, first_visit, open_all, wait_health, warm
from bench.common import ROOT, Row, Server, free_port, seconds
from classroom import classes, seat, watch
from harness import postgres
from kit.text import t

OPEN_TIMEOUT_S, STEP_TIMEOUT_S, PHASE_TIMEOUT_S, OPEN_PHASE_S = 60.0, 30.0, 60.0, 120.0
REVEAL_WINDOW_S, SETTLE_S = 3.0, 2.0
LATENCY_BUDGET_S, OUTSIDER_BUDGET = 2.0, 1.10
FULL = {"answer_s": 10.0, "crowds": (60, 200), "classes": 30, "per_class": 5, "restart": 30, "editors": 10,
        "window_s": 6.0, "rounds": 8}
QUICK = {"answer_s": 5.0, "crowds": (60,), "classes": 10, "per_class": 3, "restart": 12, "editors": 10,
         "window_s": 5.0, "rounds": 3}
OPENING = 8  # tabs opened at once, as capacity.py opens its sessions
BEFORE = "8272dfe"  # the commit before class mode's pages (1775cce): what a visitor's edit cost then
ASK, REVEAL, JOIN, END = t("class_ask"), t("class_reveal"), t("class_join"), t("class_end")
CODE, NICKNAME, PICK, ANSWERED = t("class_code"), t("class_nickname"), t("class_pick"), t("class_answered")
ANSWER_TEXT, SENT_TEXT = (t(key, **{name: "\0"}).split("\0")[0] for key, name in
                          (("class_answer", "order"), ("class_sent", "answer")))
ROOM = re.compile(r"room=([A-Z2-9]{8})")
SRC = re.compile(r'src="([^"]+)"')
FINISHED, FRAGMENT_FINISHED = ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
TRIGGER = "$$STREAMLIT_INTERNAL_KEY_{}__events"  # the widget a components.v2 trigger is sent as (the frontend's name)


class Tab:
    """One browser tab on one page over a bare websocket: a reader task, the panels' watches, the widgets it saw."""

    def __init__(self, base: str, path: str, query: str, name: str = ""):
        self.base, self.path, self.query, self.name = base, path, query, name
        self.page, self.cookie, self.upstream, self.ws, self.reader = "", "", None, None, None
        self.watches: dict[str, dict] = {}  # fragment id -> its class watch: trigger, url, shown, asked, retry
        self.watchers: dict[str, asyncio.Task] = {}  # fragment id -> the task that runs its watch
        self.watched: set[str] = set()  # the fragments whose watch this run drew
        self.http: httpx2.AsyncClient | None = None
        self.states: dict[str, WidgetState] = {}  # widget values this tab has set, sent with every rerun
        self.widgets: dict[str, tuple[str, str]] = {}  # a widget's label -> (its id, the fragment it is drawn in)
        self.options: dict[str, list[str]] = {}  # a radio's label -> its options
        self.codes: list[str] = []  # the text of every code element
        self.counts: list[tuple[float, int]] = []  # (arrival, value) of every "Answered this question" metric
        self.sent_at = self.acked_at = self.revealed_at = None
        self.replies = 0  # answers to this tab's watches
        self.runs = self.fragment_runs = 0
        self.errors: list[str] = []
        self.closed = False
        self.waiters: list[tuple[Callable[[], bool], asyncio.Future]] = []
        self.kept: list[asyncio.Task] = []  # the pixels loaded that keep this tab's part in the class (cookies)

    async def open(self) -> None:
        """GET the site (nginx's cookie), open the websocket and run the page by its name and query string."""
        self.cookie, self.upstream = await asyncio.to_thread(first_visit, self.base)
        await self.connect()
        runs = self.runs
        await self.send(page_name=self.path)
        await self.until(lambda: self.runs > runs, OPEN_TIMEOUT_S, "first run")

    async def connect(self) -> None:
        """A websocket to the tab's site, read in a task of its own."""
        self.closed = False
        self.ws = await websockets.connect(
            self.base.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], origin=self.base,
            additional_headers={"Cookie": self.cookie} if self.cookie else None, max_size=None,
            open_timeout=OPEN_TIMEOUT_S)
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        """Note every ForwardMsg as it arrives; wake the waiters."""
        try:
            async for raw in self.ws:
                fwd = ForwardMsg()
                fwd.ParseFromString(raw)
                self.note(fwd, time.perf_counter())
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.stop_watches()
            self.wake()

    def note(self, fwd: ForwardMsg, now: float) -> None:
        """Keep what the frontend keeps, and the times this benchmark needs."""
        kind = fwd.WhichOneof("type")
        if kind == "navigation":  # the entry's st.navigation names the page that runs
            if fwd.navigation.page_script_hash != self.page:
                self.stop_watches()
            self.page = fwd.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = fwd.page_info_changed.query_string
        elif kind == "auto_rerun":
            self.errors.append(f"{self.name}: a fragment on a timer, which no tab here runs")
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            self.element(fwd.delta.new_element, fwd.delta.fragment_id, now)
        elif kind == "script_finished":
            if fwd.script_finished == FINISHED:
                self.runs += 1
                self.stop_watches(set(self.watches) - self.watched)  # a panel no longer drawn: unmounted
                self.watched.clear()
            elif fwd.script_finished == FRAGMENT_FINISHED:
                self.fragment_runs += 1
        self.wake()

    def element(self, element, fragment: str, now: float) -> None:
        """Widgets by label; the teacher's count, the student's confirmation and reveal; errors."""
        which = element.WhichOneof("type")
        if which in ("button", "text_input", "radio"):
            widget = getattr(element, which)
            self.widgets[widget.label] = (widget.id, fragment)
            if which == "radio":
                self.options[widget.label] = list(widget.options)
        elif which == "metric" and element.metric.label == ANSWERED:
            self.counts.append((now, int(element.metric.body)))
        elif which == "alert":
            body = element.alert.body
            if body.startswith(ANSWER_TEXT) and self.revealed_at is None:
                self.revealed_at = now
            elif element.alert.format in (Alert.ERROR, Alert.WARNING):
                self.errors.append(f"{self.name}: {body[:120]}")
        elif which == "markdown" and element.markdown.body.startswith(SENT_TEXT):
            if self.sent_at is not None and self.acked_at is None:
                self.acked_at = now
        elif which == "code":
            self.codes.append(element.code.code_text)
        elif which == "html" and seat.ROUTE in element.html.body:  # the pixel that keeps this tab's part
            self.kept.append(asyncio.create_task(self.keep(SRC.search(element.html.body).group(1))))
        elif which == "bidi_component" and element.bidi_component.component_name == "class_watch":
            self.watch(fragment, element.bidi_component)
        elif which == "exception":
            self.errors.append(f"{self.name}: exception {element.exception.message[:120]}")

    def watch(self, fragment: str, component) -> None:
        """A panel's watch drawn (again): what it shows now; its task started on its first drawing."""
        data, old = json.loads(component.json), self.watches.get(fragment, {})
        self.watched.add(fragment)
        self.watches[fragment] = {"trigger": TRIGGER.format(component.id), "url": urllib.parse.urljoin(
            self.base + "/", data["url"]), "shown": data["stage"], "retry": data["retry"] / 1000,
            "asked": old.get("asked") if old.get("shown") == data["stage"] else None}
        if data["every"]:
            raise RuntimeError(f"{self.name}: a watch with a timer, which no tab here asks for")
        if fragment not in self.watchers:
            self.watchers[fragment] = asyncio.create_task(self.looking(fragment, data["stage"]))

    async def looking(self, fragment: str, seen: str) -> None:
        """The watch's questions, one at a time, each with the stage last seen; the fragment's rerun with the trigger
        when an answer is not what the panel shows (once per stage). A failed question is asked again `retry` later."""
        if self.http is None:
            self.http = httpx2.AsyncClient(timeout=watch.HOLD_S + STEP_TIMEOUT_S)
        while not self.closed and fragment in self.watches:
            w = self.watches[fragment]
            try:
                answer = await self.http.get(f"{w['url']}&shown={urllib.parse.quote(seen)}",
                                             headers={"Cookie": self.cookie} if self.cookie else None)
            except httpx2.HTTPError:
                answer = None
            if answer is None or answer.status_code != 200:
                await asyncio.sleep(w["retry"])
                continue
            self.replies, seen = self.replies + 1, answer.text
            w = self.watches.get(fragment)
            if w is not None and seen != w["shown"] and seen != w["asked"]:
                w["asked"] = seen
                value = json.dumps([{"event": "moved", "value": seen}])
                await self.send(fragment=fragment, extra=WidgetState(id=w["trigger"], json_trigger_value=value))

    def stop_watches(self, fragments: set[str] | None = None) -> None:
        """Stop the watches of these fragments (None: all)."""
        for fragment in list(self.watches) if fragments is None else fragments:
            self.watches.pop(fragment, None)
            task = self.watchers.pop(fragment, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def keep(self, src: str) -> None:
        """Load the pixel as a browser would, with this tab's cookies, and keep the cookie its answer sets."""
        def get() -> list[str]:
            request = urllib.request.Request(urllib.parse.urljoin(self.base + "/", src),
                                             headers={"Cookie": self.cookie} if self.cookie else {})
            with urllib.request.urlopen(request, timeout=STEP_TIMEOUT_S) as r:
                r.read()
                return r.headers.get_all("Set-Cookie") or []
        for header in await asyncio.to_thread(get):
            name, _, value = header.split(";")[0].partition("=")
            jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c) | {name: value}
            self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items() if v and '""' not in v)

    async def send(self, *, fragment: str = "", press: str = "", page_name: str = "",
                   extra: WidgetState | None = None) -> None:
        """A rerun_script with the tab's query string, page and widget values (and a button's or component's
        trigger)."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash, rerun.page_name = self.query, self.page, page_name
        rerun.fragment_id = fragment
        rerun.widget_states.widgets.extend(self.states.values())
        if press:
            state = rerun.widget_states.widgets.add()
            state.id, state.trigger_value = press, True
        if extra is not None:
            rerun.widget_states.widgets.append(extra)
        try:
            await self.ws.send(msg.SerializeToString())
        except websockets.ConnectionClosed:
            self.closed = True

    async def press(self, label: str) -> float:
        """Click the button called `label` (in its fragment, if it is drawn in one): when the click was sent."""
        widget, fragment = self.widgets[label]
        at = time.perf_counter()
        await self.send(fragment=fragment, press=widget)
        return at

    def set(self, label: str, value: str) -> tuple[str, str]:
        """Type or pick `value` in the widget called `label`: its id and fragment."""
        widget, fragment = self.widgets[label]
        self.states[widget] = WidgetState(id=widget, string_value=value)
        return widget, fragment

    async def until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Wait until condition() holds (checked as each message arrives); TimeoutError or ConnectionError."""
        if condition():
            return
        if self.closed:
            raise ConnectionError(f"{self.name}: closed before {what}")
        done = asyncio.get_running_loop().create_future()
        self.waiters.append((condition, done))
        try:
            async with asyncio.timeout(timeout):
                await done
        except TimeoutError:
            raise TimeoutError(f"{self.name}: no {what} within {timeout:g} s") from None
        finally:
            self.waiters = [w for w in self.waiters if w[1] is not done]
        if not condition():
            raise ConnectionError(f"{self.name}: closed before {what}")

    def wake(self) -> None:
        for condition, done in self.waiters:
            if not done.done() and (self.closed or condition()):
                done.set_result(None)

    async def close(self) -> None:
        self.stop_watches()
        if self.http is not None:
            await self.http.aclose()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self.reader, 5)


async def ask(base: str, name: str) -> tuple[Tab, str]:
    """A teacher opens page 2 with predict first and asks the class: the tab (now on the class page) and the code."""
    teacher = Tab(base, "Factor_matrix", "predict=1", name)
    await teacher.open()
    if ASK not in teacher.widgets:
        raise RuntimeError(f"{name}: no “{ASK}” button on page 2 with predict=1")
    await teacher.press(ASK)
    await teacher.until(lambda: REVEAL in teacher.widgets and any(ROOM.search(c) for c in teacher.codes),
                        OPEN_TIMEOUT_S, "class page")
    return teacher, next(ROOM.search(c).group(1) for c in teacher.codes if ROOM.search(c))


async def join(student: Tab, code: str, nickname: str, reopen: bool = True) -> None:
    """The student opens the class's link (or reruns its page after a reconnect) and joins with a nickname."""
    if reopen:
        await student.open()
    student.widgets.pop(PICK, None)
    for label, value in ((CODE, code), (NICKNAME, nickname)):
        student.set(label, value)
    runs = student.runs
    await student.press(JOIN)
    await student.until(lambda: student.runs > runs and PICK in student.widgets, STEP_TIMEOUT_S, "panel after join")
    student.states.clear()  # the form is gone; the frontend drops the values of widgets no longer shown


async def answer(student: Tab, rng: random.Random, delay: float) -> None:
    """After `delay` seconds, pick a word in the live panel; wait for the panel to say it was sent."""
    await asyncio.sleep(delay)
    word = rng.choice(student.options[PICK])
    student.sent_at, student.acked_at = time.perf_counter(), None
    _, fragment = student.set(PICK, word)
    await student.send(fragment=fragment)
    await student.until(lambda: student.acked_at is not None, PHASE_TIMEOUT_S, "“Sent” after answering")


async def each(items, fn, limit: int = OPENING, deadline: float | None = None) -> list[str]:
    """fn(item) for every item, `limit` at a time, none started after `deadline` (time.monotonic()); the errors (an
    item that fails or never starts sits the rest out)."""
    gate, errors = asyncio.Semaphore(max(1, limit)), []

    async def one(item):
        async with gate:
            name = getattr(item, "name", item)
            if deadline is not None and time.monotonic() > deadline:
                errors.append(f"{name}: not started within the time allowed")
                return
            try:
                await fn(item)
            except (TimeoutError, ConnectionError, OSError, RuntimeError, KeyError, websockets.WebSocketException) as e:
                errors.append(f"{name}: {type(e).__name__}: {e}"[:200])

    await asyncio.gather(*(one(item) for item in items))
    return errors


def progress(message: str) -> None:
    """A line on stderr, so that a long run shows where it is."""
    print(f"[classroom {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


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


# --- processes: PostgreSQL, replicas, nginx ---------------------------------------------------------------------

@contextlib.contextmanager
def replicas(n: int, env: dict[str, str]) -> Iterator[list[Server]]:
    """n dashboard processes on distinct ports, ready and warm; stopped at the end."""
    found: list[Server] = []
    try:
        while len(found) < n:
            replica = Server(HOME, env=env)
            if replica.port not in {r.port for r in found}:
                found.append(replica.start())
        for replica in found:
            replica.wait_ready()
        for replica in found:
            warm(replica.url)
            asyncio.run(warm_class(replica.url))
        yield found
    finally:
        for replica in found:
            replica.stop()


async def warm_class(base: str) -> None:
    """One teacher, one student, one answer and the reveal: the class page's imports and charts are ready."""
    teacher, code = await ask(base, "warm-teacher")
    student = Tab(base, "Class", f"room={code}", "warm-student")
    try:
        await join(student, code, "warm")
        await answer(student, random.Random(0), 0)
        await teacher.press(REVEAL)
        await student.until(lambda: student.revealed_at is not None, PHASE_TIMEOUT_S, "the warm-up reveal")
    finally:
        await asyncio.gather(teacher.close(), student.close())


@contextlib.contextmanager
def nginx(backends: list[Server]) -> Iterator[tuple[str, int]]:
    """nginx with deploy/nginx/nginx.conf in front of the replicas: its URL and its master's process id."""
    from deploy import proxy

    with tempfile.TemporaryDirectory() as workdir:
        port = free_port()
        proc = proxy.start(Path(workdir), [r.url.removeprefix("http://") for r in backends], f"127.0.0.1:{port}")
        try:
            wait_health(f"http://127.0.0.1:{port}")
            yield f"http://127.0.0.1:{port}", proc.pid
        finally:
            proc.terminate()
            proc.wait(10)


# --- the rows --------------------------------------------------------------------------------------------------

def lesson_row(figure: str, how: str, result: Lesson) -> Row:
    measured = (f"answer → teacher {p50_p95(result.answers)}; reveal → students {p50_p95(result.reveals)}; "
                f"{len(result.errors)} errors")
    return Row(figure, f"{how}; tabs per process {'/'.join(str(v) for v in result.split.values())}; {result.where()}",
               measured, "—", "—", f"p95 ≤ {LATENCY_BUDGET_S:g} s each", result.ok(), result.values())


def restart_row(v: dict) -> Row:
    kept = v["before_in_db"] == v["before"] and v["room_after"] >= v["before"]
    how = (f"{v['students']} students on 3 replicas (PostgreSQL, nginx) answer; the replica with {v['on_killed']} of "
           f"them (not the teacher's) gets SIGTERM and starts again on its port ({seconds(v['down_s'])} until "
           f"healthy); they reconnect as the frontend does, with the cookies their tab's pixel set "
           f"(classroom/seat.py); any shown the join form joins again and answers again "
           f"({seconds(v['rejoin_s'])} from the kill until all were back); the database's answers checked by nickname")
    measured = (f"{v['before_in_db']} of {v['before']} answers given before the restart still counted; "
                f"{v['seated']} of {v['on_killed']} came back in their seats; the room then counts "
                f"{v['room_after']} answers and {v['joined_after']} students for {v['tabs']} tabs; reveal reached "
                f"{v['revealed']} of {v['tabs']}; after its own replica restarted, the teacher's tab shows "
                f"{v['teacher_after_restart']}; {len(v['errors'])} errors")
    return Row("class · replica restarted mid-question", how, measured, "—", "—",
               "no answer lost; no one counted twice",
               kept and v["joined_after"] == v["tabs"] and v["room_after"] == v["before"] and not v["errors"], v)


async def bounce(replica: Server, tabs: list[Tab]) -> float:
    """SIGTERM to the replica, started again on its port: the seconds until it is healthy; its tabs are cut off."""
    killed = time.perf_counter()
    replica.proc.terminate()
    await asyncio.to_thread(replica.proc.wait, 30)
    replica.start()
    await asyncio.to_thread(replica.wait_ready)
    await asyncio.gather(*(tab.until(lambda tab=tab: tab.closed, 10, "the closed websocket") for tab in tabs),
                         return_exceptions=True)
    return time.perf_counter() - killed


async def reconnect(tab: Tab) -> None:
    """The frontend's reconnect: a new websocket (the same cookie, so the same replica), then a rerun of the page
    with the widget values it held; on a restarted replica the session is new."""
    await tab.connect()
    tab.widgets.clear()
    runs = tab.runs
    await tab.send()
    await tab.until(lambda: tab.runs > runs, OPEN_TIMEOUT_S, "the rerun after reconnecting")


async def restart(base: str, engine: sa.Engine, backends: list[Server], n: int) -> dict:
    """Students answer, the replica with most of them (not the teacher's) restarts, they join again and answer
    again; the answers kept; the reveal; then the teacher's own replica restarts: what the teacher's tab shows."""
    rng, by_address = random.Random(3), {r.url.removeprefix("http://"): r for r in backends}
    teacher, code = await ask(base, "teacher-r")
    students = [Tab(base, "Class", f"room={code}", f"r{i}") for i in range(n)]
    errors = await each(students, lambda s: join(s, code, s.name))
    joined = [s for s in students if PICK in s.widgets]
    errors += await each(joined, lambda s: answer(s, rng, rng.uniform(0, 3)), limit=len(joined))
    before = {s.name for s in joined if s.acked_at is not None}
    counts = {a: sum(1 for s in joined if s.upstream == a) for a in by_address if a != teacher.upstream}
    victim = max(counts, key=counts.get)
    moved = [s for s in joined if s.upstream == victim]
    killed = time.perf_counter()
    down = await bounce(by_address[victim], moved)

    seated: list[Tab] = []

    async def back(s: Tab):
        await reconnect(s)
        if JOIN not in s.widgets:  # the browser kept the seat (classroom/seat.py)
            seated.append(s)
            return
        s.name = f"{s.name}-again"
        await join(s, code, s.name, reopen=False)
        await answer(s, rng, 0)

    errors += await each(moved, back)
    rejoin = time.perf_counter() - killed
    in_db = set(await asyncio.to_thread(ranks, engine, code))
    room = await asyncio.to_thread(classes.room, engine, code, now=time.time())
    await teacher.press(REVEAL)
    await asyncio.gather(*(s.until(lambda s=s: s.revealed_at is not None, PHASE_TIMEOUT_S, "the reveal")
                           for s in joined), return_exceptions=True)
    errors += [e for tab in [teacher, *students] for e in tab.errors]
    await asyncio.gather(*(tab.close() for tab in students))
    await bounce(by_address[teacher.upstream], [teacher])
    await reconnect(teacher)
    teacher_sees = "the join form" if JOIN in teacher.widgets else "the class" if END in teacher.widgets else "?"
    await teacher.close()
    return {"students": n, "tabs": len(joined), "on_killed": len(moved), "before": len(before),
            "before_in_db": len(before & in_db), "room_after": room.answered, "joined_after": room.joined,
            "seated": len(seated), "revealed": sum(1 for s in joined if s.revealed_at is not None), "down_s": down,
            "rejoin_s": rejoin,
            "teacher_after_restart": teacher_sees, "errors": errors[:30]}


def replicated(quick: bool) -> list[Row]:
    """Big classes, many classes, and a restart, on three replicas behind nginx sharing one PostgreSQL."""
    plan, rows = QUICK if quick else FULL, []
    with postgres.cluster() as (url, postmaster), replicas(3, {"CLASS_DATABASE_URL": url}) as backends, \
            nginx(backends) as (front, proxy):
        site = Site([front], sa.create_engine(url), [r.proc.pid for r in backends], postmaster, proxy)
        try:
            for crowd in plan["crowds"]:
                progress(f"one class of {crowd} on 3 replicas")
                rows.append(lesson_row(
                    f"class · {crowd} students, 3 replicas", f"one teacher asks on page 2 (predict=1), {crowd} "
                    f"students join through nginx and answer at random within {plan['answer_s']:g} s, then the "
                    "teacher reveals; every panel's watch waits on its class's stage, as the browser's does; "
                    "PostgreSQL 15 on the same machine", asyncio.run(lesson(site, 1, crowd, plan["answer_s"]))))
            progress(f"{plan['classes']} classes on 3 replicas")
            rows.append(lesson_row(
                f"class · {plan['classes']} classes, 3 replicas", f"{plan['classes']} teachers with "
                f"{plan['per_class']} students each through nginx, PostgreSQL; answers within {plan['answer_s']:g} s, "
                f"reveals within {REVEAL_WINDOW_S:g} s",
                asyncio.run(lesson(site, plan["classes"], plan["per_class"], plan["answer_s"]))))
            progress("a replica restarted mid-question")
            rows.append(restart_row(asyncio.run(restart(front, site.engine, backends, plan["restart"]))))
        finally:
            site.engine.dispose()
    return rows


def single(quick: bool) -> list[Row]:
    """Many classes on one process with SQLite, and what they cost the people typing on the same process."""
    plan = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="bench-class-") as folder, \
            replicas(1, {"CLASS_DATA": folder}) as (server,):
        pid = server.proc.pid
        site = Site([server.url], sa.create_engine(f"sqlite:///{Path(folder) / 'classes.sqlite'}"), [pid])
        try:
            progress("typing on one process, no class")
            alone = asyncio.run(typing_alone(server.url, pid, plan))
            progress(f"{plan['classes']} classes on one process, then typing beside them")
            many = asyncio.run(lesson(site, plan["classes"], plan["per_class"], plan["answer_s"],
                                      during=lambda: outsiders(server.url, pid, plan)))
        finally:
            site.engine.dispose()
    return [
        lesson_row(f"class · {plan['classes']} classes, 1 process", f"{plan['classes']} teachers with "
                   f"{plan['per_class']} students each on one process, SQLite; answers within {plan['answer_s']:g} s, "
                   f"reveals within {REVEAL_WINDOW_S:g} s (after the outsiders' windows below)", many),
        outsider_row(alone, many.during, plan),
    ]


def before_and_now(plan: dict) -> Row:
    """CPU per edit for visitors in no class, this tree against BEFORE (the commit before class mode's pages), both
    served at once, their typing windows taken in turn so that drift on the machine hits both alike."""
    from bench.ab import worktree

    with tempfile.TemporaryDirectory(prefix="bench-before-") as tmp:
        other = worktree(BEFORE, Path(tmp))
        try:
            with Server("dashboard.py") as ours, Server("dashboard.py", root=other) as theirs:
                servers = (ours, theirs)
                for server in servers:  # warm: the first edits fill the caches
                    asyncio.run(typing(server.url, server.proc.pid, plan, None))
                got: dict[Server, list[dict]] = {server: [] for server in servers}
                for i in range(2 * plan["rounds"]):
                    server = servers[i % 2] if i // 2 % 2 == 0 else servers[1 - i % 2]
                    got[server].append(asyncio.run(typing(server.url, server.proc.pid, plan, None)))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)
    now, before = ({k: sum(w[k] for w in got[s]) for k in ("cpu_s", "edits")} for s in servers)
    mine, base = now["cpu_s"] / max(1, now["edits"]), before["cpu_s"] / max(1, before["edits"])
    errors = [e for s in servers for w in got[s] for e in w["errors"]]
    how = (f"{plan['editors']} sessions type a sentence every 2 s on the home page (capacity.py's workload), no "
           f"class open; this tree and {BEFORE} (before class mode's pages) served side by side, {plan['rounds']} "
           f"windows of {plan['window_s']:g} s each, in turn ({now['edits']} and {before['edits']} edits); "
           f"{len(errors)} errors")
    return Row("class · CPU per edit outside any class, against before class mode", how, f"{seconds(mine)} CPU/edit",
               f"{BEFORE} {seconds(base)}", f"{mine / base:.2f}×", f"≤ {OUTSIDER_BUDGET:.2f}×",
               mine <= OUTSIDER_BUDGET * base and not errors, {"now": now, "before": before, "errors": errors[:10]})


async def typing(url: str, pid: int, plan: dict, editors: list[Student] | None) -> dict:
    """capacity.py's editors typing every 2 s for one window: edits, CPU seconds, latencies."""
    own = editors is None
    if own:
        editors = [Student(url, seed=500 + i) for i in range(plan["editors"])]
        errors = await open_all(editors)
    else:
        errors = []
    for e in editors:
        e.latencies.clear()
    cpu, start = cpu_seconds([pid]), time.monotonic()
    await asyncio.gather(*(e.lesson(start, start + plan["window_s"]) for e in editors))
    out = {"cpu_s": cpu_seconds([pid]) - cpu, "wall_s": time.monotonic() - start,
           "edits": sum(len(e.latencies) for e in editors), "latencies_s": [x for e in editors for x in e.latencies],
           "errors": errors + [x for e in editors for x in e.errors]}
    if own:
        await asyncio.gather(*(e.close() for e in editors))
    return out


async def typing_alone(url: str, pid: int, plan: dict) -> dict:
    """The editors' windows with no class open, as many and as long as beside the classes (one untimed first, while
    caches fill), summed."""
    editors = [Student(url, seed=600 + i) for i in range(plan["editors"])]
    errors = await open_all(editors)
    await typing(url, pid, plan, editors)
    windows = [await typing(url, pid, plan, editors) for _ in range(plan["rounds"])]
    await asyncio.gather(*(e.close() for e in editors))
    return {"cpu_s": sum(w["cpu_s"] for w in windows), "edits": sum(w["edits"] for w in windows),
            "latencies_s": [x for w in windows for x in w["latencies_s"]],
            "errors": errors + [x for w in windows for x in w["errors"]]}


async def quiet(pid: int, window: float) -> dict:
    """The server's CPU over a window with only the classes running."""
    cpu, start = cpu_seconds([pid]), time.monotonic()
    await asyncio.sleep(window)
    return {"cpu_s": cpu_seconds([pid]) - cpu, "wall_s": time.monotonic() - start}


async def outsiders(url: str, pid: int, plan: dict) -> dict:
    """With the classes asking: windows of classes alone and of classes + typing, alternating, then the editors'
    CPU per edit with the classes' own rate (from the quiet windows on either side) taken out."""
    editors = [Student(url, seed=700 + i) for i in range(plan["editors"])]
    errors = await open_all(editors)
    windows = [await quiet(pid, plan["window_s"])]
    for _ in range(plan["rounds"]):
        windows.append(await typing(url, pid, plan, editors))
        windows.append(await quiet(pid, plan["window_s"]))
    await asyncio.gather(*(e.close() for e in editors))
    busy = windows[1::2]
    extra = []
    for i, w in enumerate(busy):
        left, right = windows[2 * i], windows[2 * i + 2]
        rate = (left["cpu_s"] + right["cpu_s"]) / (left["wall_s"] + right["wall_s"])
        extra.append((w["cpu_s"] - rate * w["wall_s"], w["edits"], rate))
    return {"windows": windows, "extra": extra, "errors": errors + [x for w in busy for x in w["errors"]],
            "latencies_s": [x for w in busy for x in w["latencies_s"]]}


def outsider_row(alone: dict, busy: dict, plan: dict) -> Row:
    """CPU per edit for people in no class, without and with the classes on their process."""
    base = alone["cpu_s"] / max(1, alone["edits"])
    spent, edits = sum(x[0] for x in busy["extra"]), sum(x[1] for x in busy["extra"])
    mine = spent / max(1, edits)
    spread = [x[0] / max(1, x[1]) for x in busy["extra"]]
    rates = [x[2] for x in busy["extra"]]
    how = (f"{plan['editors']} sessions type a sentence every 2 s on the home page of one process (capacity.py's "
           f"workload) for {plan['rounds']} windows of {plan['window_s']:g} s ({alone['edits']} edits), then "
           f"{plan['rounds']} windows of "
           f"{plan['window_s']:g} s with {plan['classes']}×{plan['per_class']} class tabs watching on the "
           f"same process ({edits} edits), between windows of the classes alone (they kept {min(rates):.2f}–"
           f"{max(rates):.2f} cores busy); per window {', '.join(seconds(s) for s in spread)} (median "
           f"{seconds(sorted(spread)[len(spread) // 2])}); edit p95 "
           f"{seconds(quantile(alone['latencies_s'], 0.95))} alone, {seconds(quantile(busy['latencies_s'], 0.95))} "
           f"with the classes")
    r = mine / base
    return Row(f"class · CPU per edit outside any class, beside {plan['classes']} classes on its process", how,
               f"{seconds(mine)} CPU/edit with the classes",
               f"no class {seconds(base)}", f"{r:.2f}×", f"≤ {OUTSIDER_BUDGET:.2f}×",
               r <= OUTSIDER_BUDGET and not alone["errors"] and not busy["errors"],
               {"alone": alone, "with_classes": busy})


def run(quick: bool) -> list[Row]:
    """Every class-mode row."""
    from deploy import proxy

    rows = []
    if proxy.NGINX.exists():
        rows += replicated(quick)
    else:
        rows.append(Row("class · 3 replicas", "nginx in front of 3 processes", f"skipped: {proxy.NGINX} not found"))
    return rows + single(quick) + [before_and_now(QUICK if quick else FULL)]


if __name__ == "__main__":
    from bench.common import table

    began, load = time.perf_counter(), os.getloadavg()[0]
    print(table(run("--quick" in sys.argv)))
    print(f"\n{psutil.cpu_count()} cores, load average {load:.1f} at the start and {os.getloadavg()[0]:.1f} at the "
          f"end; {time.perf_counter() - began:.0f} s")
