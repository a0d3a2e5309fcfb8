"""A class mode tab, a teacher's or a student's, over a bare websocket as the frontend has it; what it does in class."""
import asyncio
import contextlib
import json
import random
import re
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable

import httpx2
import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.clients import OPEN_TIMEOUT_S, first_visit, stream, warm
from bench.servers import HOME, started
from classroom import seat, watch
from kit.text import t

STEP_TIMEOUT_S, PHASE_TIMEOUT_S, OPEN_PHASE_S = 30.0, 60.0, 120.0
OPENING = 8  # tabs opened at once, as capacity.py opens its sessions
ASK, REVEAL, JOIN, END = t("class_ask"), t("class_reveal"), t("class_join"), t("class_end")
CODE, NICKNAME, PICK, ANSWERED = t("class_code"), t("class_nickname"), t("class_pick"), t("class_answered")
SEND = t("class_send")  # the answer form's button: a pick alone sends nothing
ANSWER_TEXT, SENT_TEXT = (t(key, **{name: "\0"}).split("\0")[0] for key, name in
                          (("class_answer", "order"), ("class_sent", "answer")))
ROOM = re.compile(r"room=([A-Z2-9]{8})")
SRC = re.compile(r'src="([^"]+)"')
FINISHED, FRAGMENT_FINISHED = ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
TRIGGER = "$$STREAMLIT_INTERNAL_KEY_{}__events"  # the widget a components.v2 trigger is sent as (the frontend's name)


class Tab:
    """One browser tab on one page over a bare websocket: a reader task, the panels' watches, the widgets it saw."""

    def __init__(self, base: str, path: str, query: str, name: str = "", address: str = ""):
        self.base, self.path, self.query, self.name = base, path, query, name
        self.page, self.cookie, self.upstream, self.ws, self.reader = "", "", None, None, None
        self.watches: dict[str, dict] = {}  # fragment id -> its class watch: trigger, url, shown, asked, retry
        self.watchers: dict[str, asyncio.Task] = {}  # fragment id -> the task that runs its watch
        self.watched: set[str] = set()  # the fragments whose watch this run drew
        self.http: httpx2.AsyncClient | None = None
        self.states: dict[str, WidgetState] = {}  # widget values this tab has set, sent with every rerun
        self.widgets: dict[str, tuple[str, str]] = {}  # a widget's label -> (its id, the fragment it is drawn in)
        self.options: dict[str, list[str]] = {}  # a radio's label -> its options
        self.captions: dict[str, list[str]] = {}  # a radio's label -> its options' captions
        self.values: dict[str, float] = {}  # a number input's label -> its value
        self.metrics: dict[str, str] = {}  # a metric's label -> its value
        self.successes: list[str] = []  # the text of every success message
        self.codes: list[str] = []  # the text of every code element
        self.counts: list[tuple[float, int]] = []  # (arrival, value) of every "Answered this question" metric
        self.sent_at = self.acked_at = self.revealed_at = None
        self.replies = 0  # answers to this tab's watches
        self.runs = self.fragment_runs = 0
        self.errors: list[str] = []
        self.closed = False
        self.waiters: list[tuple[Callable[[], bool], asyncio.Future]] = []
        self.kept: list[asyncio.Task] = []  # the pixels loaded that keep this tab's part in the class (cookies)
        self.via = {"X-Forwarded-For": address} if address else {}  # what a trusted proxy in front would add

    def headers(self) -> dict[str, str]:
        """The headers of every request this tab makes: its cookies, and what a proxy in front would add."""
        return ({"Cookie": self.cookie} if self.cookie else {}) | self.via

    async def open(self) -> None:
        """GET the site (nginx's cookie), open the websocket and run the page by its name and query string."""
        self.cookie, self.upstream = await asyncio.to_thread(first_visit, self.base)
        await self.connect(page_name=self.path)

    async def connect(self, showing: Callable[[], bool] = lambda: True, **send) -> None:
        """A websocket to the site, read in a task of its own, and a run of the page on it (send's) until showing()."""
        self.closed = False
        self.ws = await stream(self.base, self.headers())
        self.reader = asyncio.create_task(self.read())
        self.widgets.clear()
        runs = self.runs
        await self.send(**send)
        await self.until(lambda: self.runs > runs and showing(), OPEN_TIMEOUT_S, "a run on a new websocket")

    async def read(self) -> None:
        """Note every ForwardMsg as it arrives; wake the waiters."""
        try:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in self.ws:
                    fwd = ForwardMsg()
                    fwd.ParseFromString(raw)
                    self.note(fwd, time.perf_counter())
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
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "add_block":  # an expander's id, by its label
            if fwd.delta.add_block.WhichOneof("type") == "expandable":
                self.widgets[fwd.delta.add_block.expandable.label] = (fwd.delta.add_block.id, fwd.delta.fragment_id)
        elif kind == "script_finished":
            if fwd.script_finished == FINISHED:
                self.runs += 1
                self.stop_watches(set(self.watches) - self.watched)  # a panel no longer drawn: unmounted
                self.watched.clear()
            elif fwd.script_finished == FRAGMENT_FINISHED:
                self.fragment_runs += 1
        self.wake()

    def element(self, element, fragment: str, now: float) -> None:
        """Widgets by label, metrics, the teacher's count, the student's confirmation and reveal; errors."""
        which = element.WhichOneof("type")
        if which in ("button", "text_input", "radio", "number_input"):
            widget = getattr(element, which)
            self.widgets[widget.label] = (widget.id, fragment)
            if which == "radio":
                self.options[widget.label] = list(widget.options)
                self.captions[widget.label] = list(widget.captions)
            elif which == "number_input":
                self.values[widget.label] = widget.value
        elif which == "metric":
            self.metrics[element.metric.label] = element.metric.body
            if element.metric.label == ANSWERED:
                self.counts.append((now, int(element.metric.body)))
        elif which == "alert":
            body = element.alert.body
            if body.startswith(ANSWER_TEXT) and self.revealed_at is None:
                self.revealed_at = now
            elif element.alert.format == Alert.SUCCESS:
                self.successes.append(body)
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
            "backoff": data["backoff"] / 1000, "asked": old.get("asked") if old.get("shown") == data["stage"] else None}
        if data["every"]:
            raise RuntimeError(f"{self.name}: a watch with a timer, which no tab here asks for")
        if fragment not in self.watchers:
            self.watchers[fragment] = asyncio.create_task(self.looking(fragment, data["stage"]))

    async def looking(self, fragment: str, seen: str) -> None:
        """The watch's questions as classroom/watch.py's JavaScript asks them, one at a time, and its waits."""
        if self.http is None:
            self.http = httpx2.AsyncClient(timeout=watch.HOLD_S + STEP_TIMEOUT_S)
        misses = 0
        while not self.closed and fragment in self.watches:
            w = self.watches[fragment]
            try:
                answer = await self.http.get(f"{w['url']}&shown={urllib.parse.quote(seen)}",
                                             headers=self.headers() or None)
            except httpx2.HTTPError:
                answer = None
            later = int(answer.headers.get("retry-after", "0")) if answer is not None else 0
            if answer is None or answer.status_code != 200:
                misses += 1
                await asyncio.sleep(spread(max(later, min(w["retry"] * 2 ** (misses - 1), w["backoff"]))))
                continue
            self.replies, seen, misses = self.replies + 1, answer.text, 0
            w = self.watches.get(fragment)
            if w is not None and seen != w["shown"] and seen != w["asked"]:
                w["asked"] = seen
                value = json.dumps([{"event": "moved", "value": seen}])
                await self.send(fragment=fragment, extra=WidgetState(id=w["trigger"], json_trigger_value=value))
            if later:
                await asyncio.sleep(spread(later))

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
            request = urllib.request.Request(urllib.parse.urljoin(self.base + "/", src), headers=self.headers())
            with urllib.request.urlopen(request, timeout=STEP_TIMEOUT_S) as r:
                r.read()
                return r.headers.get_all("Set-Cookie") or []
        for header in await asyncio.to_thread(get):
            name, _, value = header.split(";")[0].partition("=")
            jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c) | {name: value}
            self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items() if v and '""' not in v)

    async def send(self, *, fragment: str = "", page_name: str = "", extra: WidgetState | None = None) -> None:
        """A rerun_script with the tab's query string, page and widget values (and a button's or a component's)."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash, rerun.page_name = self.query, self.page, page_name
        rerun.fragment_id = fragment
        rerun.widget_states.widgets.extend(self.states.values())
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
        await self.send(fragment=fragment, extra=WidgetState(id=widget, trigger_value=True))
        return at

    async def answer_with(self, word: str) -> None:
        """Pick `word` in the answer form and press its Send button, as a student does."""
        self.set(PICK, word)
        await self.press(SEND)

    async def knock(self, code: str, nickname: str) -> str:
        """Press Join with the class's code and a nickname: "in" once the panel shows, or the sentence refused with."""
        self.widgets.pop(PICK, None)
        for label, value in ((CODE, code), (NICKNAME, nickname)):
            self.set(label, value)
        seen, runs = len(self.errors), self.runs
        await self.press(JOIN)
        await self.until(lambda: self.runs > runs and (PICK in self.widgets or len(self.errors) > seen),
                         STEP_TIMEOUT_S, "panel after join")
        if PICK not in self.widgets:
            return self.errors[seen].split(": ", 1)[-1]
        self.states.clear()  # the form is gone; the frontend drops the values of widgets no longer shown
        return "in"

    async def answered(self, word: str, wait: float) -> str:
        """Send `word` as the answer: "sent" once the panel says so, or the sentence it was refused with."""
        seen, self.sent_at, self.acked_at = len(self.errors), time.perf_counter(), None
        await self.answer_with(word)
        await self.until(lambda: self.acked_at is not None or len(self.errors) > seen, wait, "answer")
        return "sent" if len(self.errors) == seen else self.errors[-1].split(": ", 1)[-1]

    def set(self, label: str, value: str) -> None:
        """Type or pick `value` in the widget called `label`."""
        widget = self.widgets[label][0]
        self.states[widget] = WidgetState(id=widget, string_value=value)

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


def spread(seconds: float) -> float:
    """A wait give or take half, as the watch's JavaScript spreads its waits."""
    return seconds * random.uniform(0.5, 1.5)


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


async def staged(base: str) -> tuple[Tab, str, str]:
    """A teacher asks the class: the teacher's tab, the class's code, and its stage as a watch is shown it."""
    teacher, code = await ask(base, "teacher")
    async with httpx2.AsyncClient(timeout=30) as client:
        return teacher, code, (await client.get(f"{base}/_class/stage?c={code}")).text


def link_tab(base: str, code: str, name: str, address: str = "") -> Tab:
    """A tab on the class's link (from `address`, as a trusted proxy names it)."""
    return Tab(base, "Class", f"room={code}", name, address)


async def join(student: Tab, code: str, nickname: str, reopen: bool = True) -> None:
    """The student opens the class's link (or reruns its page after a reconnect) and joins with a nickname."""
    if reopen:
        await student.open()
    said = await student.knock(code, nickname)
    if said != "in":
        raise RuntimeError(f"{student.name}: refused: {said}")


async def answer(student: Tab, rng: random.Random, delay: float) -> None:
    """After `delay` seconds, pick a word in the live panel; wait for the panel to say it was sent."""
    await asyncio.sleep(delay)
    word = rng.choice(student.options[PICK])
    student.sent_at, student.acked_at = time.perf_counter(), None
    await student.answer_with(word)
    await student.until(lambda: student.acked_at is not None, PHASE_TIMEOUT_S, "“Sent” after answering")


async def each(items, fn, limit: int = OPENING, deadline: float | None = None) -> list[str]:
    """fn(item) for every item, `limit` at a time, none started after `deadline` (time.monotonic()): the errors."""
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


def replicas(n: int, env: dict[str, str]):
    """n dashboard processes, ready and warm (a visitor's edits; a class asked, answered, revealed), stopped after."""
    return started([HOME] * n, env, [warm, lambda url: asyncio.run(warm_class(url))])


@contextlib.contextmanager
def one_server(env: dict[str, str]):
    """One warm dashboard process on a class database of its own (SQLite unless env names one), and its URL."""
    with tempfile.TemporaryDirectory() as folder, replicas(1, {"CLASS_DATA": folder, **env}) as (server,):
        yield server, env.get("CLASS_DATABASE_URL", f"sqlite:///{folder}/classes.sqlite")


async def warm_class(base: str) -> None:
    """One teacher, one student, one answer and the reveal: the class page's imports and charts are ready."""
    teacher, code = await ask(base, "warm-teacher")
    student = link_tab(base, code, "warm-student")
    try:
        await join(student, code, "warm")
        await answer(student, random.Random(0), 0)
        await teacher.press(REVEAL)
        await student.until(lambda: student.revealed_at is not None, PHASE_TIMEOUT_S, "the warm-up reveal")
    finally:
        await asyncio.gather(teacher.close(), student.close())
