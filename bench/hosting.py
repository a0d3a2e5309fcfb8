"""Hosting: a shared server's memory with visitors and uploads, and its fairness while others train or fit."""
import asyncio
import tempfile
import time
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg

from bench import uploading as up
from bench.clients import EVICTED, Student, close_all, holds, open_all, open_uploaders, upload, warm
from bench.common import MB, Row, cli, errors, seconds
from bench.hosting_fits import FIT_UPLOAD_MB, fairness_row, fits_row
from bench.hosting_model import model_rows
from bench.servers import HOME, PEAK_EVERY_S, Peak, Server, started

MODEL_WINDOW_S, QUICK_MODEL_WINDOW_S = 25.0, 8.0  # each window of the page-8 rows: alone, then with page 8 busy
ROWS = ("crowd", "fairness", "uploads", "release", "fits", "model", "tier")


async def uploads_held(server: Server, path: Path, n: int) -> dict:
    """n sessions upload the file one after another; RSS after each, the peak; then each reruns once more."""
    students, errors = await open_uploaders(server.url, n)
    data, idle, after, took, kept = path.read_bytes(), server.rss_mb(), [], [], []
    with Peak(server.rss_mb) as peak:
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


def uploads_row(server: Server, path: Path, plan: up.Plan) -> Row:
    """Sessions each holding an upload: the peak RSS against idle + the uploads' budget + a margin."""
    v = asyncio.run(uploads_held(server, path, plan.uploaders))
    ceiling = v["idle_mb"] + up.BUDGET_MB + up.MARGIN_MB
    evicted, told = sum(not h for h in v["held_at_end"]), sum(v["told"])
    fair_told = all(told_ == (not held) for told_, held in zip(v["told"], v["held_at_end"], strict=False))
    how = (f"{plan.uploaders} bare sessions on source=upload each upload a {path.stat().st_size / MB:.0f} MB GloVe "
           f"text file ({up.DIMS} dims), one after another, through Streamlit's upload endpoint; server RSS after each "
           f"({', '.join(f'{x:.0f}' for x in v['after_mb'])} MB), peak sampled every {PEAK_EVERY_S:g} s, final after "
           f"every session reran once; {evicted} evicted, {told} told on their next rerun; uploads took "
           f"{seconds(min(v['upload_s']))}–{seconds(max(v['upload_s']))}; {errors(v)}")
    met = v["peak_mb"] <= ceiling and all(v["kept_on_upload"]) and fair_told and not v["errors"]
    return Row(f"hosting · {plan.uploaders} sessions holding a {up.UPLOAD_MB} MB upload", how,
               f"peak {v['peak_mb']:.0f} MB, final {v['final_mb']:.0f} MB", f"idle {v['idle_mb']:.0f} MB",
               f"+{v['peak_mb'] - v['idle_mb']:.0f} MB",
               f"peak ≤ idle + {up.BUDGET_MB} + {up.MARGIN_MB} MB = {ceiling:.0f} MB; the evicted told", met, v)


async def crowd(server: Server, n: int) -> dict:
    """n sessions open the home page and edit the sentence EDITS times; RSS with all of them still open."""
    idle = server.rss_mb()
    students = [Student(server.url, seed=1000 + i) for i in range(n)]
    errors = await open_all(students)
    for _ in range(up.EDITS):
        await asyncio.gather(*(s.edit() for s in students if s.ws is not None))
    rss = server.rss_mb()
    await close_all(students)
    return {"idle_mb": idle, "rss_mb": rss, "errors": errors + [e for s in students for e in s.errors]}


def crowd_row(server: Server, plan: up.Plan) -> Row:
    """Many sessions on the built-in vectors: server RSS against its budget."""
    v = asyncio.run(crowd(server, plan.crowd))
    return Row(f"hosting · {plan.crowd} sessions on the built-in vectors",
               f"{plan.crowd} bare sessions open the home page (400k-word GloVe) and each edit the sentence {up.EDITS} "
               f"times; server RSS with all open, next to the warmed server with none; {errors(v)}",
               f"{v['rss_mb']:.0f} MB", f"warmed, none open {v['idle_mb']:.0f} MB",
               f"+{v['rss_mb'] - v['idle_mb']:.0f} MB",
               f"≤ {up.CROWD_BUDGET_MB} MB", v["rss_mb"] <= up.CROWD_BUDGET_MB and not v["errors"], v)


async def closed_tab(server: Server, path: Path) -> dict:
    """One session uploads the file and closes its socket; RSS every SAMPLE_S seconds for WATCH_S seconds."""
    (student,), errors = await open_uploaders(server.url, 1)
    before = server.rss_mb()
    await upload(student, path.name, path.read_bytes())
    held, kept = server.rss_mb(), holds(student)
    await student.close()
    start, samples = time.monotonic(), []
    while time.monotonic() - start < up.WATCH_S:
        await asyncio.sleep(up.SAMPLE_S - (time.monotonic() - start) % up.SAMPLE_S)
        samples.append((round(time.monotonic() - start, 1), server.rss_mb()))
    gone = next((s for s, mb in samples if mb <= held - up.DROP_MB), None)
    return {"before_mb": before, "held_mb": held, "samples": samples, "released_s": gone, "kept": kept,
            "errors": errors + student.errors}


def release_row(path: Path, plan: up.Plan) -> Row:
    """How long a closed tab's upload stays in the server's memory."""
    budget = f"≤ {up.RELEASE_BUDGET_S} s"
    if not plan.release:
        return Row("hosting · a closed tab's upload released", f"watches for {up.WATCH_S} s", "skipped with --quick",
                   budget=budget)
    with started([HOME], warm=[warm]) as (server,):
        v = asyncio.run(closed_tab(server, path))
    gone = v["released_s"]
    trace = ", ".join(f"{s:.0f} s {mb:.0f}" for s, mb in v["samples"])
    return Row("hosting · a closed tab's upload released",
               f"one session uploads the {up.UPLOAD_MB} MB file (RSS {v['before_mb']:.0f} → {v['held_mb']:.0f} MB), "
               f"then closes its socket (disconnectedSessionTTL 60 s); RSS every {up.SAMPLE_S} s for {up.WATCH_S} s "
               f"({trace} MB); released = RSS {up.DROP_MB} MB or more below its level with the upload; given back "
               f"{v['held_mb'] - v['samples'][-1][1]:.0f} of the {v['held_mb'] - v['before_mb']:.0f} MB the upload "
               "added (the allocator keeps the rest for reuse)",
               f"not within {up.WATCH_S} s" if gone is None else f"after {gone:.0f} s", "TTL 60 s", "—", budget,
               gone is not None and gone <= up.RELEASE_BUDGET_S and v["kept"] and not v["errors"], v)


def run(quick: bool, only: tuple[str, ...] = ()) -> list[Row]:
    """Every hosting row (or those in `only`), each upload figure on a fresh server that holds none."""
    plan = up.QUICK if quick else up.FULL
    wanted = set(only or ROWS)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = up.glove_text(Path(tmp) / "vectors.txt", up.UPLOAD_MB) if wanted & {"uploads", "release"} else None
        if wanted & {"crowd", "fairness"}:
            with started([HOME], warm=[warm]) as (server,):
                rows += [crowd_row(server, plan)] if "crowd" in wanted else []
                rows += [fairness_row(server, plan)] if "fairness" in wanted else []
        if "uploads" in wanted:
            with started([HOME], warm=[warm]) as (server,):
                rows.append(uploads_row(server, path, plan))
        rows += [release_row(path, plan)] if "release" in wanted else []
        if "fits" in wanted:
            with started([HOME], warm=[warm]) as (server,):
                rows.append(fits_row(server, plan, up.glove_text(Path(tmp) / "fits.txt", FIT_UPLOAD_MB)))
    rows += model_rows(MODEL_WINDOW_S if plan is up.FULL else QUICK_MODEL_WINDOW_S, plan is up.FULL, wanted)
    return rows


if __name__ == "__main__":
    cli(run, names=True)
