"""Fits on a shared server: a visitor's edits while others train, and several fits at once in the one queue."""
import asyncio
import math
import os
import time
from pathlib import Path

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench import clients
from bench.capacity import Result, window
from bench.clients import PERIOD_S, Requester, Student, close_all, open_all
from bench.common import MB, Row, errors, quantile, seconds
from bench.servers import Server, since, snapshot
from bench.uploading import DIMS, FULL, Plan

FAIR_RATIO = 2.0
FIT_LINK = "q_preset=run&k_preset=run&run_steps={steps}&d_k=50&run_seed={seed}"  # "use these weights", d_k changed
FIT_LINKS, FIT_UPLOADS, FIT_UPLOAD_MB = 3, 2, 10
PLACE_BUDGET_S, STOP_BUDGET_S = 1.0, 0.5


def train(student: Requester):
    """Pressing Train on the learning page, as the message to send again and again."""
    button = next(i for i in reversed(student.ids) if i.endswith("-train"))
    return lambda: clients.rerun_with(button, trigger_value=True)


async def bystander_alone(server: Server, span: float) -> tuple[Student, Result]:
    """A bystander on the home page, and its edits every PERIOD_S s for `span` s alone."""
    bystander = Student(server.url, seed=7)
    await bystander.open()
    return bystander, await window([bystander], span, [server.proc.pid])


async def bystander_edits(server: Server, trainers: int, span: float) -> dict:
    """A bystander edits every PERIOD_S s for `span` s alone, then as long again while `trainers` sessions train."""
    bystander, alone = await bystander_alone(server, span)
    crowd = [Requester(server.url, seed=2000 + i) for i in range(trainers)]
    errors = await open_all(crowd, "Learning")
    done = asyncio.Event()
    training = [asyncio.create_task(s.again("train", train(s), done)) for s in crowd if s.ws is not None]
    await asyncio.sleep(PERIOD_S)  # the queue has formed
    busy = await window([bystander], span, [server.proc.pid])
    done.set()
    await asyncio.gather(*training)
    await close_all([bystander, *crowd])
    return {"alone_s": alone.latencies, "busy_s": busy.latencies, "runs_s": [t for s in crowd for t in s.drawn],
            "other_cores": [alone.others, busy.others],
            "errors": errors + [e for s in [bystander, *crowd] for e in s.errors]}


def fairness_row(server: Server, plan: Plan) -> Row:
    """A bystander's edit p95 while others train, against twice its p95 alone."""
    load_before = os.getloadavg()
    v = asyncio.run(bystander_edits(server, plan.trainers, plan.window_s))
    v["load_before"], v["load_after"] = load_before, os.getloadavg()
    alone, busy = (quantile(v[k], 0.95) for k in ("alone_s", "busy_s"))
    runs = sorted(v["runs_s"])
    how = (f"a bystander edits the home page's sentence every {PERIOD_S:g} s for {plan.window_s:g} s alone "
           f"({len(v['alone_s'])} edits), then as long again while {plan.trainers} sessions press Train on the "
           f"learning page again and again ({len(v['busy_s'])} edits; {len(runs)} runs, press → finished median "
           f"{seconds(runs[len(runs) // 2]) if runs else '—'}, max {seconds(runs[-1]) if runs else '—'}); other "
           f"processes kept {v['other_cores'][0]:.2f} and {v['other_cores'][1]:.2f} cores busy in the two windows; "
           f"load average {v['load_before'][0]:.2f} before, {v['load_after'][0]:.2f} after; {errors(v)}")
    judged = plan is FULL  # a quick window holds too few edits for a p95
    return Row(f"hosting · bystander's edit while {plan.trainers} sessions train", how,
               f"p95 {seconds(busy)} (p50 {seconds(quantile(v['busy_s'], 0.5))})",
               f"alone p95 {seconds(alone)}", f"{busy / alone:.2f}×", f"≤ {FAIR_RATIO:g}× alone",
               (busy <= FAIR_RATIO * alone and not v["errors"]) if judged else None, v)


async def fitted(student: Requester, asking) -> None:
    """Ask for a fit (`asking`: open the link, or upload vectors the learned weights need a fit on) and wait for it."""
    student.asked = time.perf_counter()
    await asking
    await student.until_fitted()
    student.fitted_s = time.perf_counter() - student.asked


async def stop_running_fit(url: str, steps: int, errors: list[str]) -> tuple[float, int]:
    """A link's fit, stopped once past its first step: seconds from Stop to the page drawn (inf: none), the step."""
    student = Requester(url, seed=3900, query=FIT_LINK.format(steps=steps, seed=99))
    await student.open()
    step, end = 0, time.monotonic() + clients.FIT_TIMEOUT_S
    while step == 0 and student.fragment and time.monotonic() < end:
        await asyncio.sleep(student.interval)
        await student.look()
        running = [a for a in student.alerts if a.startswith(clients.PLACED[1])]
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
    """A bystander edits alone, then while links and uploads each wait for a fit; then Stop on one more link's fit."""
    url, pid = server.url, server.proc.pid
    bystander, alone = await bystander_alone(server, plan.window_s)
    links = [Requester(url, 3000 + i, FIT_LINK.format(steps=plan.fit_steps, seed=i)) for i in range(FIT_LINKS)]
    uploaders = [Requester(url, 3100 + i, "source=upload") for i in range(FIT_UPLOADS)]
    errors = await open_all(uploaders)  # on the built-in vectors until their files arrive
    data, done = path.read_bytes(), asyncio.Event()
    before, cpu = snapshot([pid]), time.perf_counter()
    editing = asyncio.create_task(bystander.lesson(time.monotonic(), math.inf, done))
    await asyncio.gather(*(fitted(s, s.open()) for s in links),
                         *(fitted(s, clients.upload(s, path.name, data)) for s in uploaders))
    done.set()
    await editing
    server_cpu, _, busy_cores = since(before, [pid])
    stop_s, stop_step = await stop_running_fit(url, plan.fit_steps, errors)
    requesters = [*links, *uploaders]
    await close_all([bystander, *requesters])
    return {"alone_s": alone.latencies, "busy_s": bystander.latencies[len(alone.latencies):],
            "placed_s": [s.placed_s for s in requesters], "fitted_s": [s.fitted_s for s in requesters],
            "stop_s": stop_s, "stop_step": stop_step, "server_cpu_s": server_cpu, "wall_s": time.perf_counter() - cpu,
            "other_cores": [alone.others, busy_cores],
            "errors": errors + [e for s in [bystander, *requesters] for e in s.errors]}


def fits_row(server: Server, plan: Plan, path: Path) -> Row:
    """Fits through the one queue: a bystander's edit p95 against its alone, each requester's place, Stop."""
    v = asyncio.run(fits_at_once(server, plan, path))
    alone, busy = (quantile(v[k], 0.95) for k in ("alone_s", "busy_s"))
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


