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
Then page 8's model runs (bench/hosting_model.py): a bystander on page 3 while ten visitors retype the longest sentence
page 8 accepts, and a class of thirty with ten on page 8 against the 690 MB tier.
Run alone: python -m bench.hosting [--quick] [crowd] [fairness] [uploads] [release] [fits] [model] [tier]   (no name:
every row)
"""
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg

from bench.capacity import HOME, Student, open_all, warm
from bench.common import MB, Row, Server, seconds
from bench.hosting_fits import FIT_UPLOAD_MB, fairness_row, fits_row
from bench.hosting_model import model_rows
from bench.uploading import (
    BUDGET_MB,
    CROWD_BUDGET_MB,
    DIMS,
    DROP_MB,
    EDITS,
    EVICTED,
    FULL,
    MARGIN_MB,
    PEAK_EVERY_S,
    QUICK,
    RELEASE_BUDGET_S,
    SAMPLE_S,
    UPLOAD_MB,
    WATCH_S,
    Peak,
    Plan,
    close_all,
    errors,
    glove_text,
    holds,
    open_uploaders,
    upload,
)

MODEL_WINDOW_S, QUICK_MODEL_WINDOW_S = 25.0, 8.0  # each window of the page-8 rows: alone, then with page 8 busy


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


def run(quick: bool, only: tuple[str, ...] = ()) -> list[Row]:
    """Every hosting row (or those named in `only`): crowd and fairness on one server, uploads and release on fresh
    ones, so that each upload figure starts from a server that holds none."""
    plan, wanted = (QUICK if quick else FULL), set(only or ("crowd", "fairness", "uploads", "release", "fits", "model",
                                                           "tier"))
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
    rows += model_rows(MODEL_WINDOW_S if plan is FULL else QUICK_MODEL_WINDOW_S, plan is FULL, wanted)
    return rows


if __name__ == "__main__":
    from bench.common import table

    began, load = time.perf_counter(), os.getloadavg()
    print(table(run("--quick" in sys.argv, tuple(a for a in sys.argv[1:] if not a.startswith("--")))))
    print(f"\n{os.cpu_count()} cores, load average {load[0]:.2f} at the start and {os.getloadavg()[0]:.2f} at the "
          f"end; {time.perf_counter() - began:.0f} s")
