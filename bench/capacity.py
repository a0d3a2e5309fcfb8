"""Capacity: how many students one server process serves, with bare websocket clients that speak Streamlit's protocol.

A student is one Streamlit session, opened as the frontend opens it: GET the page (nginx sets its route cookie
there), open /_stcore/stream, send a rerun_script BackMsg with the URL's query string, read ForwardMsgs until
script_finished. That first run names the sentence box (a text_input delta carries its widget id). Then, every
PERIOD_S seconds from a random phase, the student types a new sentence: the BackMsg the frontend sends on Enter, a
rerun_script whose widget_states hold the box's new text and whose query string is the one the app last put in the
URL (page_info_changed). The latency of an edit runs from sending it to its script_finished. A widget state, not a
query string: the dashboard reads the URL only on a session's first run, and the hello app never. Every sentence is
new, so no cache answers for the server. Errors: failed opens, exception elements, closed sockets, edits slower than
EDIT_TIMEOUT_S. Server CPU per edit: the server processes' CPU seconds (psutil) over the run / edits.

Rows: K sessions on one dashboard process next to the same workload on bench/hello_app.py in the same run; then the
dashboard through nginx (deploy/nginx/nginx.conf) in front of 1, 2 and 3 processes, raising K until p95 passes 1 s.
Only 127.0.0.1 is contacted, every edit has a timeout and every run a fixed length. Run alone:
python -m bench.capacity [--quick]
"""
import asyncio
import os
import random
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.common import Row, Server, free_port, ratio, seconds, since, snapshot

HOME, HELLO = "dashboard.py", "bench/hello_app.py"
PERIOD_S, EDIT_TIMEOUT_S, OPEN_TIMEOUT_S = 2.0, 20.0, 60.0
LEVELS, DURATION_S = (10, 20, 40, 80), 30.0
QUICK_LEVELS, QUICK_DURATION_S = (10, 20), 6.0
SWEEP_STEP, SWEEP_MAX, SWEEP_DURATION_S = 10, 200, 20.0
QUICK_SWEEP = 40
PROCESSES = (1, 2, 3)
P95_BUDGET_S, CPU_BUDGET, BUDGET_SESSIONS = 1.0, 1.5, 40
FINISHED_EARLY_FOR_RERUN = 2
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


class Student:
    """One Streamlit session over a bare websocket, timing every edit of the sentence box."""

    def __init__(self, url: str, seed: int):
        self.url, self.rng = url, random.Random(seed)
        self.ws, self.widget, self.query, self.upstream = None, None, "", None
        self.session_id, self.cookie = "", ""
        self.page, self.pages = "", {}  # the page to run ('' the home page), and every page's hash by its URL path
        self.ids: list[str] = []  # every widget id the session's runs have shown, in order
        self.alerts: list[str] = []  # the text of every st.info/warning/error, in order
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def open(self) -> None:
        """Load the page, open the session's websocket and run the page once, as the frontend does."""
        self.cookie, self.upstream = await asyncio.to_thread(first_visit, self.url)
        self.ws = await websockets.connect(
            self.url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], origin=self.url,
            additional_headers={"Cookie": self.cookie} if self.cookie else None, max_size=None,
            open_timeout=OPEN_TIMEOUT_S)
        await self.rerun(BackMsg())
        if self.widget is None:
            raise RuntimeError(f"no text box on {self.url}")

    async def rerun(self, msg: BackMsg, timeout: float = EDIT_TIMEOUT_S) -> float:
        """Send a rerun with the current query string and page; read until its script_finished; its seconds."""
        msg.rerun_script.query_string, msg.rerun_script.page_script_hash = self.query, self.page
        start = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        await self.receive(lambda fwd: fwd.WhichOneof("type") == "script_finished"
                           and fwd.script_finished != FINISHED_EARLY_FOR_RERUN, timeout)
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
        msg = BackMsg()
        state = msg.rerun_script.widget_states.widgets.add()
        state.id, state.string_value = self.widget, sentence(self.rng)
        try:
            self.latencies.append(await self.rerun(msg))
        except (TimeoutError, websockets.ConnectionClosed) as e:
            self.errors.append(f"{type(e).__name__}: {e}"[:160])

    async def lesson(self, start: float, end: float) -> None:
        """Edit every PERIOD_S seconds from a random phase until `end`, never before the last edit has finished."""
        due = start + self.rng.uniform(0, PERIOD_S)
        while due < end and self.ws is not None:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            await self.edit()
            due += PERIOD_S

    async def close(self) -> None:
        """Close the websocket: the server ends the session."""
        if self.ws is not None:
            await self.ws.close()


@dataclass
class Result:
    """One workload: K students editing for a while on one URL."""
    sessions: int
    latencies: list[float]
    errors: list[str]
    server_cpu_s: float
    client_cpu_s: float
    upstreams: dict[str, int] = field(default_factory=dict)
    others: float = 0.0  # cores kept busy meanwhile by processes other than the servers and this one

    @property
    def edits(self) -> int:
        """Edits that finished."""
        return len(self.latencies)

    def quantile(self, q: float) -> float:
        """The q-quantile of the edit latencies (nearest rank), inf without any."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("inf")

    @property
    def cpu_per_edit(self) -> float:
        """Server CPU seconds per finished edit."""
        return self.server_cpu_s / max(1, self.edits)

    def ok(self) -> bool:
        """p95 within budget and no error."""
        return not self.errors and self.quantile(0.95) <= P95_BUDGET_S

    def summary(self) -> str:
        """p50, p95, CPU per edit and errors, for a table cell."""
        return (f"p50 {seconds(self.quantile(0.5))}, p95 {seconds(self.quantile(0.95))}, "
                f"{seconds(self.cpu_per_edit)} CPU/edit, {len(self.errors)} errors")


async def open_all(students: list[Student]) -> list[str]:
    """Open every student's session, 8 at a time; the errors (a student that failed to open sits the rest out)."""
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
    return errors


async def workload(url: str, sessions: int, duration: float, pids: list[int]) -> Result:
    """`sessions` students open the page (8 at a time), then edit every PERIOD_S seconds for `duration` seconds."""
    students = [Student(url, seed=sessions * 1000 + i) for i in range(sessions)]
    errors = await open_all(students)
    before = snapshot(pids)
    start = before[-1]
    await asyncio.gather(*(s.lesson(start, start + duration) for s in students))
    server, client, others = since(before, pids)
    await asyncio.gather(*(s.close() for s in students))
    upstreams: dict[str, int] = {}
    for s in students:
        upstreams[s.upstream or "direct"] = upstreams.get(s.upstream or "direct", 0) + 1
    errors += [e for s in students for e in s.errors]
    return Result(sessions, [t for s in students for t in s.latencies], errors, server, client, upstreams, others)


def measure(url: str, sessions: int, duration: float, pids: list[int]) -> Result:
    """workload() in its own event loop."""
    return asyncio.run(workload(url, sessions, duration, pids))


def warm(url: str) -> None:
    """One student loads the page and edits a few times: imports, vectors and caches are ready before measuring."""
    async def go():
        s = Student(url, seed=0)
        await s.open()
        for _ in range(3):
            await s.edit()
        await s.close()
    asyncio.run(go())


def one_process(quick: bool) -> list[Row]:
    """K students on one dashboard process, next to K on the hello app; the same levels, alternating apps."""
    levels, duration = (QUICK_LEVELS, QUICK_DURATION_S) if quick else (LEVELS, DURATION_S)
    results: dict[str, dict[int, Result]] = {HOME: {}, HELLO: {}}
    home, hello = distinct_ports([Server(HOME), Server(HELLO)])
    with home, hello:
        servers = {HOME: home, HELLO: hello}
        for server in servers.values():
            warm(server.url)
        for k in levels:
            for name, server in servers.items():
                results[name][k] = measure(server.url, k, duration, [server.proc.pid])
    rows = []
    for k in levels:
        mine, floor = results[HOME][k], results[HELLO][k]
        cpu_ratio = mine.cpu_per_edit / floor.cpu_per_edit
        judged = k <= BUDGET_SESSIONS
        rows.append(Row(
            f"capacity · {k} sessions, 1 process",
            f"{k} bare websocket sessions each typing a new sentence every {PERIOD_S:g} s for {duration:g} s into one "
            f"dashboard process ({mine.edits} edits; edit → script_finished); CPU/edit = server CPU / edits; next to "
            f"the same on the hello app; load generator CPU {mine.client_cpu_s:.1f} s; other processes kept "
            f"{mine.others:.1f} cores busy meanwhile",
            mine.summary(), f"hello {floor.summary()}", f"{cpu_ratio:.2f}× CPU",
            f"CPU ≤ {CPU_BUDGET:g}× hello" + (f", p95 ≤ {P95_BUDGET_S:g} s" if judged else ""),
            cpu_ratio <= CPU_BUDGET and not mine.errors and (mine.ok() or not judged),
            {"dashboard": result_values(mine), "hello": result_values(floor)}))
    return rows


def result_values(r: Result) -> dict:
    """A result's raw samples for the JSON file."""
    return {"sessions": r.sessions, "latencies_s": r.latencies, "errors": r.errors[:20], "error_count": len(r.errors),
            "server_cpu_s": r.server_cpu_s, "client_cpu_s": r.client_cpu_s, "upstreams": r.upstreams,
            "other_cores": r.others}


def behind_nginx(quick: bool) -> list[Row]:
    """The dashboard through nginx before 1, 2, 3 processes: most sessions with p95 ≤ 1 s (quick: 1, 2 at 40)."""
    from deploy import proxy

    if not proxy.NGINX.exists():
        return [Row("capacity · through nginx", "nginx in front of 1, 2, 3 processes",
                    f"skipped: {proxy.NGINX} not found (apt-get install nginx)")]
    counts = PROCESSES[:2] if quick else PROCESSES
    servers = distinct_ports([Server(HOME) for _ in counts])
    sweeps: dict[int, list[Result]] = {}
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
            warm(server.url)
        start = 2 * SWEEP_STEP
        for n in counts:
            with tempfile.TemporaryDirectory() as workdir:
                port = free_port()
                nginx = proxy.start(Path(workdir), [s.url.removeprefix("http://") for s in servers[:n]],
                                    f"127.0.0.1:{port}")
                try:
                    wait_health(f"http://127.0.0.1:{port}")
                    pids = [s.proc.pid for s in servers[:n]]
                    url = f"http://127.0.0.1:{port}"
                    quick_level = [measure(url, QUICK_SWEEP, QUICK_DURATION_S, pids)] if quick else None
                    sweeps[n] = quick_level or sweep(url, pids, start)
                    start = capacity(sweeps[n]) + SWEEP_STEP
                finally:
                    nginx.terminate()
                    nginx.wait(10)
    finally:
        for server in servers:
            server.stop()
    return [sweep_row(n, sweeps[n], sweeps[counts[0]], quick) for n in counts]


def sweep(url: str, pids: list[int], start: int) -> list[Result]:
    """Sessions in SWEEP_STEP steps from `start`, up while within budget, down while not, till a pass meets a fail."""
    results: dict[int, Result] = {}
    k = start
    while SWEEP_STEP <= k <= SWEEP_MAX and k not in results:
        results[k] = measure(url, k, SWEEP_DURATION_S, pids)
        k += SWEEP_STEP if results[k].ok() else -SWEEP_STEP
    return [results[k] for k in sorted(results)]


def capacity(results: list[Result]) -> int:
    """The most sessions of a sweep whose p95 stayed within budget with no error (0 if none)."""
    return max([r.sessions for r in results if r.ok()], default=0)


def sweep_row(n: int, results: list[Result], single: list[Result], quick: bool) -> Row:
    """One line per process count: its capacity next to one process's."""
    steps = "; ".join(f"{r.sessions}: p95 {seconds(r.quantile(0.95))}, {len(r.errors)} err, split "
                      f"{'/'.join(str(v) for v in sorted(r.upstreams.values(), reverse=True))}, "
                      f"{r.others:.1f} cores busy elsewhere (nginx too)" for r in results)
    values = {"processes": n, "levels": [result_values(r) for r in results]}
    if quick:
        r, one = results[0], single[0]
        return Row(f"capacity · through nginx, {n} process{'es' if n > 1 else ''}",
                   f"{r.sessions} sessions through nginx (sticky cookie) for {QUICK_DURATION_S:g} s; ({steps})",
                   r.summary(), f"1 process: p95 {seconds(one.quantile(0.95))}",
                   ratio(r.quantile(0.95), one.quantile(0.95)), "—", None, values)
    mine, one, cores = capacity(results), capacity(single), psutil.cpu_count()
    return Row(f"capacity · through nginx, {n} process{'es' if n > 1 else ''}",
               f"the most sessions (steps of {SWEEP_STEP}, {SWEEP_DURATION_S:g} s each) with p95 ≤ "
               f"{P95_BUDGET_S:g} s and no error, through nginx's sticky cookie, {cores} cores; sessions per process "
               f"as nginx split them ({steps})",
               f"{mine} sessions ({mine / n:.0f} per process, {mine / cores:.0f} per core)",
               f"1 process: {one} sessions",
               f"{mine / one:.2f}×" if one else "—", "more than 1 process" if n == 2 else "—",
               mine > one if n == 2 else None, values)


def distinct_ports(servers: list[Server]) -> list[Server]:
    """The servers, each on its own port (free_port() may hand out one port twice before anything binds it)."""
    while len({s.port for s in servers}) < len(servers):
        servers = [Server(s.script) for s in servers]
    return servers


def wait_health(url: str, timeout: float = 30) -> None:
    """Poll url's health endpoint until it answers ok."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{url} did not answer its health check within {timeout:.0f} s")


def run(quick: bool) -> list[Row]:
    """Every capacity row: one process next to the hello app, then through nginx."""
    return one_process(quick) + behind_nginx(quick)


if __name__ == "__main__":
    from bench.common import table

    began, load = time.perf_counter(), os.getloadavg()[0]
    print(table(run("--quick" in sys.argv)))
    print(f"\n{psutil.cpu_count()} cores, load average {load:.1f} at the start and {os.getloadavg()[0]:.1f} at the "
          f"end; {time.perf_counter() - began:.0f} s")
