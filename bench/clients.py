"""Bare websocket sessions that speak Streamlit's protocol as its frontend does: a visitor's edits, uploads and fits."""
import asyncio
import random
import time
import urllib.request

import requests
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from kit.text import t

PERIOD_S, EDIT_TIMEOUT_S, OPEN_TIMEOUT_S = 2.0, 20.0, 60.0
UPLOAD_TIMEOUT_S, TRAIN_TIMEOUT_S, FIT_TIMEOUT_S = 120, 300, 600
FINISHED_EARLY_FOR_RERUN = 2
XSRF = "_streamlit_xsrf"
EVICTED, NOTHING_HELD = t("upload_evicted"), t("upload_none")
PLACED = (t("queue_wait", n=0).split(":")[0], t("fit_running", step=0, total=0).split(":")[0])  # a fit's notices
WORDS = ("the black cat drank milk dog ate bone old man read paper she reads books ball is blue red big small "
         "house tree river city king queen child bird fish sun moon green car train fast slow quickly happy sad "
         "music song night day water bread cold warm dark light teacher student school letter wrote long").split()


def sentence(rng: random.Random) -> str:
    """A new sentence of 4 to 8 common words: a student's next try."""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 8))).capitalize()


def first_visit(url: str) -> tuple[str, str | None]:
    """GET the page as a browser does first: the Cookie header to send from now on, and which process served it."""
    with urllib.request.urlopen(url + "/", timeout=OPEN_TIMEOUT_S) as r:
        r.read()
        cookies = [c.split(";")[0] for c in r.headers.get_all("Set-Cookie") or []]
        return "; ".join(cookies), r.headers.get("X-Upstream")


async def stream(base: str, headers: dict[str, str] | None):
    """The session's websocket to /_stcore/stream, as the frontend opens it."""
    return await websockets.connect(base.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"],
                                    origin=base, additional_headers=headers or None, max_size=None,
                                    open_timeout=OPEN_TIMEOUT_S)


def rerun_with(widget: str, **value) -> BackMsg:
    """A rerun_script BackMsg whose widget states hold one widget's value (string_value=…, trigger_value=True, …)."""
    msg = BackMsg()
    msg.rerun_script.widget_states.widgets.add(id=widget, **value)
    return msg


class Student:
    """One Streamlit session over a bare websocket, timing every edit of the sentence box (`cache`: as a browser)."""

    def __init__(self, url: str, seed: int, query: str = "", cache: bool = False):
        self.url, self.rng, self.query = url, random.Random(seed), query
        self.cached: set[str] | None = set() if cache else None
        self.ws, self.widget, self.upstream, self.finished = None, None, None, None
        self.session_id, self.cookie = "", ""
        self.page, self.pages = "", {}  # the page to run ('' the home page), and every page's hash by its URL path
        self.ids: list[str] = []  # every widget id the session's runs have shown, in order
        self.alerts: list[str] = []  # the text of every st.info/warning/error, in order
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def open(self) -> None:
        """Load the page, open the session's websocket and run the page once, as the frontend does."""
        self.cookie, self.upstream = await asyncio.to_thread(first_visit, self.url)
        self.ws = await stream(self.url, {"Cookie": self.cookie} if self.cookie else None)
        await self.rerun(BackMsg())
        if self.widget is None:
            raise RuntimeError(f"no text box on {self.url}")

    async def rerun(self, msg: BackMsg, timeout: float = EDIT_TIMEOUT_S) -> float:
        """Send a rerun with the query string and page, read until its script_finished (kept): its seconds."""
        msg.rerun_script.query_string, msg.rerun_script.page_script_hash = self.query, self.page
        msg.rerun_script.cached_message_hashes.extend(sorted(self.cached or ()))
        start = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        done = await self.receive(lambda fwd: fwd.WhichOneof("type") == "script_finished"
                                  and fwd.script_finished != FINISHED_EARLY_FOR_RERUN, timeout)
        self.finished = done.script_finished
        return time.perf_counter() - start

    async def receive(self, done, timeout: float = EDIT_TIMEOUT_S) -> ForwardMsg:
        """Read ForwardMsgs, noting what the session needs from each, until done(msg); that message."""
        async with asyncio.timeout(timeout):
            while True:
                fwd = ForwardMsg()
                fwd.ParseFromString(await self.ws.recv())
                self.note(fwd)
                if done(fwd):
                    return fwd

    def note(self, fwd: ForwardMsg) -> None:
        """Keep the URL's query string, the session's and pages' ids, widget ids, alerts and exceptions."""
        kind = fwd.WhichOneof("type")
        if self.cached is not None and fwd.metadata.cacheable:  # a browser keeps it; its reruns send the hashes back
            self.cached.add(fwd.hash)
        if kind == "page_info_changed":
            self.query = fwd.page_info_changed.query_string
        elif kind == "new_session":
            self.session_id = fwd.new_session.initialize.session_id
        elif kind == "navigation":  # the entry's st.navigation lists the pages
            self.pages.update({p.url_pathname: p.page_script_hash for p in fwd.navigation.app_pages if p.url_pathname})
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            element = fwd.delta.new_element
            which = element.WhichOneof("type")
            if which == "text_input" and self.widget is None:
                self.widget = element.text_input.id
            elif which == "exception":
                self.errors.append(f"exception: {element.exception.message[:120]}")
            elif which == "alert":
                self.alerts.append(element.alert.body)
            if getattr(getattr(element, which), "id", ""):
                self.ids.append(getattr(element, which).id)

    async def edit(self) -> None:
        """Type a new sentence into the box and press Enter; note the latency or the error."""
        try:
            self.latencies.append(await self.rerun(rerun_with(self.widget, string_value=sentence(self.rng))))
        except (TimeoutError, websockets.ConnectionClosed) as e:
            self.errors.append(f"{type(e).__name__}: {e}"[:160])

    async def lesson(self, start: float, end: float, done: asyncio.Event | None = None) -> None:
        """Edit every PERIOD_S seconds from a random phase until `end` or `done`, never before the last edit ended."""
        due = start + self.rng.uniform(0, PERIOD_S)
        while due < end and self.ws is not None and not (done and done.is_set()):
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await self.edit()
            due += PERIOD_S

    async def close(self) -> None:
        """Close the websocket: the server ends the session."""
        if self.ws is not None:
            await self.ws.close()


async def open_all(students: list[Student], page: str = "") -> list[str]:
    """Open every student's session, 8 at a time, then go to `page` (if given): the errors of those that failed."""
    gate, errors = asyncio.Semaphore(8), []

    async def open_one(s: Student):
        async with gate:
            try:
                await s.open()
            except Exception as e:  # counted, and this student sits the lesson out
                errors.append(f"open: {type(e).__name__}: {e}"[:160])
                await s.close()
                s.ws = None

    await asyncio.gather(*(open_one(s) for s in students))
    if page:
        await asyncio.gather(*(to_page(s, page) for s in students if s.ws is not None))
    return errors


async def close_all(students: list[Student]) -> None:
    """Close every session's socket."""
    await asyncio.gather(*(s.close() for s in students))


def warm(url: str) -> None:
    """One student loads the page and edits a few times: imports, vectors and caches are ready before measuring."""
    asyncio.run(visit(url, 0, edits=3))


async def visit(url: str, seed: int, page: str = "", edits: int = 0) -> list[str]:
    """One visitor opens the home page (then `page`, if given), edits its sentence `edits` times and leaves: errors."""
    visitor = Student(url, seed)
    await visitor.open()
    if page:
        await to_page(visitor, page)
    for _ in range(edits):
        await visitor.edit()
    await visitor.close()
    return visitor.errors


async def to_page(student: Student, name: str) -> None:
    """Follow the link to a page by its URL path (a session's first run does not list the pages' hashes yet)."""
    msg = BackMsg()
    msg.rerun_script.page_name = name
    await student.rerun(msg, TRAIN_TIMEOUT_S)
    student.page = student.pages[name]


async def file_urls(student: Student, names: list[str]):
    """Ask for upload URLs as the uploader does when files are chosen."""
    ask = BackMsg()
    ask.file_urls_request.request_id, ask.file_urls_request.session_id = "1", student.session_id
    ask.file_urls_request.file_names.extend(names)
    await student.ws.send(ask.SerializeToString())
    answer = await student.receive(lambda fwd: fwd.WhichOneof("type") == "file_urls_response")
    return list(answer.file_urls_response.file_urls)


def put(student: Student, url: str, name: str, data: bytes, kind: str = "text/plain") -> int:
    """PUT one file as the frontend does, with the XSRF cookie and token: the status (204 taken, 0 cut off)."""
    try:
        r = requests.get(student.url + "/_stcore/health", timeout=10,
                         headers={"Cookie": student.cookie} if student.cookie else {})
        token = r.cookies.get(XSRF)
        cookie = "; ".join(c for c in (student.cookie, f"{XSRF}={token}") if c)
        r = requests.put(student.url + url, files={"file": (name, data, kind)}, timeout=UPLOAD_TIMEOUT_S,
                         headers={"Cookie": cookie, "X-Xsrftoken": token})
    except requests.RequestException:
        return 0
    return r.status_code


async def choose(student: Student, widget: str, urls, names: list[str], sizes: list[int]) -> None:
    """Rerun with the uploader `widget` (a key fragment) naming these files, as the frontend does once they are sent."""
    msg = BackMsg()
    state = msg.rerun_script.widget_states.widgets.add()
    state.id = next(i for i in reversed(student.ids) if widget in i)
    for u, name, size in zip(urls, names, sizes, strict=False):
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = u.file_id, name, size
        info.file_urls.CopyFrom(u)
    await student.rerun(msg, UPLOAD_TIMEOUT_S)


async def send(student: Student, name: str, data: bytes, widget: str = "-upload_files_",
               kind: str = "text/plain") -> int:
    """Choose a file in the uploader `widget` (vectors') as the frontend does (URL, PUT, rerun): the PUT's status."""
    (u,) = await file_urls(student, [name])
    code = await asyncio.to_thread(put, student, u.upload_url, name, data, kind)
    if code == 204:
        student.alerts.clear()
        await choose(student, widget, [u], [name], [len(data)])
    return code


async def upload(student: Student, name: str, data: bytes) -> float:
    """Choose the file in the session's uploader and wait for the page to be drawn with it; the seconds taken."""
    start = time.perf_counter()
    code = await send(student, name, data)
    if code != 204:
        raise RuntimeError(f"{student.url}: the upload of {name} was answered with HTTP {code}")
    return time.perf_counter() - start


def holds(student: Student) -> bool:
    """Whether the session's last run showed its own vectors (no 'nothing uploaded' notice, no error)."""
    return not any(a.startswith(NOTHING_HELD[:40]) or "could not be used" in a for a in student.alerts)


async def open_uploaders(url: str, n: int) -> tuple[list[Student], list[str]]:
    """n sessions on the home page with source=upload: those that opened, and the errors of those that did not."""
    students = [Student(url, seed=i, query="source=upload") for i in range(n)]
    errors = await open_all(students)
    return [s for s in students if s.ws is not None], errors


class Requester(Student):
    """A session that waits for a fit: when it asked, saw its place (or its fit running), the notice's fragment."""

    def __init__(self, url: str, seed: int, query: str = ""):
        super().__init__(url, seed, query)
        self.fragment, self.shown, self.interval = "", "", 0.5
        self.asked, self.placed_s, self.fitted_s = time.perf_counter(), None, None
        self.drawn: list[float] = []  # seconds from each ask of again() to its page drawn

    def note(self, fwd: ForwardMsg) -> None:
        """Also the waiting notice's fragment: the one a full run showed, none when its last full run showed none."""
        super().note(fwd)
        kind = fwd.WhichOneof("type")
        if kind == "new_session":
            self.shown = ""
        elif kind == "auto_rerun":
            self.shown, self.interval = fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval
        elif kind == "script_finished" and fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            self.fragment = self.shown
        if self.placed_s is None and self.alerts and self.alerts[-1].startswith(PLACED):
            self.placed_s = time.perf_counter() - self.asked

    async def look(self, press: str = "") -> int:
        """One look of the waiting notice (pressing the button `press`): how the run finished (full once fitted)."""
        msg = rerun_with(press, trigger_value=True) if press else BackMsg()
        msg.rerun_script.fragment_id, msg.rerun_script.is_auto_rerun = self.fragment, not press
        self.alerts.clear()
        await self.rerun(msg, FIT_TIMEOUT_S)
        return self.finished

    async def until_fitted(self) -> None:
        """Look every interval, as the frontend does, until the page is drawn without a waiting notice."""
        while self.fragment:
            await asyncio.sleep(self.interval)
            await self.look()

    async def again(self, what: str, message, done: asyncio.Event, period: float = 0.0,
                    timeout: float = TRAIN_TIMEOUT_S) -> None:
        """Send message() and wait for the page drawn, again every `period` s (from a random phase) until `done`."""
        due = time.monotonic() + self.rng.uniform(0, period)
        while not done.is_set() and self.ws is not None:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            msg = message()
            start = time.perf_counter()
            try:
                await self.rerun(msg, timeout)
                await self.until_fitted()
            except TimeoutError as e:
                self.errors.append(f"{what}: {type(e).__name__}")
                return
            self.drawn.append(time.perf_counter() - start)
            due = max(due + period, time.monotonic())
