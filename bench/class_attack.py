"""Class mode attacked by scripts: a class filled, fake votes, held and unknown questions, PostgreSQL stopped."""
import asyncio
import contextlib
import importlib
import math
import re
import resource
import tempfile
import time

import psutil
import sqlalchemy as sa

from bench import class_flood as flood
from bench.class_lesson import BUSY, remove_busiest_minute, set_cap
from bench.class_tab import CODE, JOIN, OPENING, PICK, REVEAL, Tab, ask, link_tab, one_server, replicas, staged
from bench.clients import warm
from bench.common import Row, cli, seconds
from bench.servers import HOME, nginx, started
from classroom import admission, classes, watch
from harness import postgres

SCRIPT, SCHOOL = "198.51.100.7", "203.0.113.9"  # the script's address and a real student's, as a proxy names them
FAKES, FILL_S, FILL_MOST, VOTERS, VOTE_S = 2000, 75.0, 90, 80, 20.0
FILLERS = (SCRIPT, "192.0.2.44", "198.51.100.90")  # the fill's addresses: a phone, a home line, a VPN
HOLDS, IDLE, SOFT = 2000, 1100, 1024
STUDENTS, STOP_S, TOLD_S = 6, 60.0, 3.0
TRUSTED = {"CLASS_TRUSTED_PROXIES": "127.0.0.1"}


async def try_join(student: Tab, code: str) -> str:
    """Open the class's link, load its pixel (the seat), join: "in", or the sentence it was refused with."""
    await student.open()
    await asyncio.gather(*student.kept)
    return await student.knock(code, student.name[:20])


async def all_join(tabs: list[Tab], code: str, deadline: float, close: bool) -> list[str]:
    """try_join for every tab, OPENING at a time, none started after `deadline`; closed after, with close."""
    gate = asyncio.Semaphore(OPENING)

    async def one(t: Tab) -> str:
        async with gate:
            if time.monotonic() > deadline:
                return "not started"
            try:
                return await try_join(t, code)
            except (TimeoutError, ConnectionError, OSError, KeyError) as e:
                return f"{type(e).__name__}"
            finally:
                if close:
                    await t.close()
    return list(await asyncio.gather(*(one(t) for t in tabs)))


async def honest_answers(student: Tab, times: int, gap: float, wait: float = 10.0) -> tuple[list[str], list[float]]:
    """The honest student answers `times` times, `gap` s apart: what each was told, and each "sent"'s seconds."""
    outcomes, took = [], []
    for i in range(times):
        try:
            outcomes.append(await student.answered(student.options[PICK][(i + 1) % 2], wait))
            took += [student.acked_at - student.sent_at] if student.acked_at is not None else []
        except TimeoutError:
            outcomes.append(f"no answer within {wait:g} s")
        await asyncio.sleep(gap)
    return outcomes, took


async def fill(url: str) -> dict:
    """The fill attack, the cap out of the way first; a real student after it; the busiest minute's joins removed."""
    teacher, code = await ask(url, "teacher")
    cap = await set_cap(teacher, admission.MAX_CAP)
    start = time.monotonic()
    tabs = [link_tab(url, code, f"fake-{i}", FILLERS[i % len(FILLERS)]) for i in range(FAKES)]
    said = await all_join(tabs, code, start + FILL_S, True)
    elapsed = time.monotonic() - start
    real: list[str] = []
    while len(real) < 3 and (not real or real[-1].startswith(BUSY)):  # told to wait: waits as told, tries again
        await asyncio.sleep(int(re.findall(r"\d+", real[-1])[0]) + 0.5 if real else 0)
        real += await all_join([link_tab(url, code, f"real-{len(real)}", SCHOOL)], code, math.inf, True)
    removal = await remove_busiest_minute(teacher)
    await teacher.close()
    refused = {s: said.count(s) for s in set(said) if s not in ("in", "not started")}
    return {"in": said.count("in"), "tried": FAKES - said.count("not started"), "refused": refused,
            "elapsed_s": elapsed, "real": real, "cap": cap, **removal}


def fill_row(v: dict) -> Row:
    busy = sum(n for s, n in v["refused"].items() if s.startswith(BUSY))
    real = " → ".join(re.sub(r"^.*?(\d+).*$", r"busy, wait \1 s", s) if s.startswith(BUSY) else s for s in v["real"])
    others = "".join(f", {n} {s!r}" for s, n in v["refused"].items() if not s.startswith(BUSY))
    filled = (classes.CAP - admission.JOIN_BURST) / admission.JOIN_RATE  # the default cap, at the bucket's pace
    return Row("class attack · fill", f"the teacher raises the cap out of the way (to {v['cap']:.0f}; the default cap "
               f"of {classes.CAP} would be full after about {filled:.0f} s, the teacher told so with a button that "
               f"lets {admission.CAP_STEP} more in); scripted tabs join from three addresses (a phone, a home line, a "
               f"VPN), a new seat each, {OPENING} at a time for {FILL_S:g} s; then a real student from another "
               f"address; then the teacher removes everyone who joined in the busiest minute with one button",
               f"{v['in']} fakes seated of {v['tried']} tries in {v['elapsed_s']:.0f} s ({busy} told busy{others}); "
               f"real student: {real}; the teacher removed {v['removed']} who joined at "
               f"{v['minute']} ({v['counted']} counted), {v['after']} of {v['before']} students left",
               "before: 500 of 500 seats in about 55 s from three addresses", "—",
               f"≤ {FILL_MOST} seated in {FILL_S:g} s, the real student in, the minute's joins removed in one action",
               v["in"] <= FILL_MOST and v["real"][-1] == "in" and v["removed"] == v["counted"] > 0
               and v["after"] == v["before"] - v["removed"], v)


async def votes(url: str, database: str) -> dict:
    """The fake votes: fakes answer at 30 a minute while a real student answers; then a replayed token."""
    teacher, code = await ask(url, "teacher")
    fakes = [link_tab(url, code, f"fake-{i}", SCRIPT) for i in range(VOTERS)]
    joined = [t for t, s in zip(fakes, await all_join(fakes, code, math.inf, False), strict=True) if s == "in"]
    real = link_tab(url, code, "real", SCHOOL)
    assert await try_join(real, code) == "in", real.errors

    async def voting(t: Tab) -> None:
        for i in range(int(VOTE_S / 2)):
            await t.answer_with(t.options[PICK][i % 2])
            await asyncio.sleep(2.0)

    outcomes = (await asyncio.gather(honest_answers(real, 5, VOTE_S / 5), *(voting(t) for t in joined)))[0][0]
    replay = await replayed(url, joined[0])
    await asyncio.gather(teacher.close(), real.close(), *(t.close() for t in joined))
    return {"joined": len(joined), "real": outcomes, "replay": replay, **counted(database, code)}


async def replayed(url: str, fake: Tab) -> str:
    """A tab with a fake's student cookie but another seat answers: what it is told."""
    cookie = "; ".join(c for c in fake.cookie.split("; ") if c.startswith("class_student="))
    other = Tab(url, "Class", "", "replay", SCRIPT)
    other.cookie = cookie  # a tab opened with it (Tab.open would take the site's first cookies instead)
    await other.connect(lambda: PICK in other.widgets, page_name=other.path)  # the panel the cookie brings back
    said = await other.answered(other.options[PICK][-1], 10)
    await other.close()
    return said


def counted(database: str, code: str) -> dict:
    """The class's answers in the database: all, and those from students with a seat the teacher did not remove."""
    query = sa.text("SELECT count(*), count(s.seat) FROM class_answers a JOIN class_students s "
                    "ON a.token_hash = s.token_hash WHERE a.class_code = :code")
    engine = sa.create_engine(database)
    try:
        with engine.connect() as conn:
            total, seated = conn.execute(query, {"code": code}).one()
    finally:
        engine.dispose()
    return {"answers": total, "seated": seated}


def votes_row(v: dict) -> Row:
    refused = [o for o in v["real"] if o != "sent"]
    said = f" ({refused[0]})" if refused else ""
    return Row("class attack · fake votes", f"{v['joined']} fakes joined from one address answer every 2 s for "
               f"{VOTE_S:g} s; a real student answers 5 times; a tab with a fake's token but another seat answers",
               f"real student refused {len(refused)} of 5{said}; {v['seated']} of {v['answers']} answers from the "
               f"seat that joined; replay: {v['replay']}", "before: real student refused 1 of 5, every fake vote "
               "counted", "—", "real never refused, no answer without its seat",
               not refused and v["seated"] == v["answers"] and v["replay"] != "sent", v)


async def held_flood(url: str, pids: list[int], idle: int = 0) -> dict:
    """HOLDS questions on a live class's stage (and `idle` idle sockets) while a bystander edits and visitors come."""
    teacher, code, stage = await staged(url)
    held = flood.Flood(int(url.rsplit(":", 1)[1]), [f"/_class/stage?c={code}&shown={stage}"] * HOLDS, watch.HOLD_S)
    found = await flood.under(url, pids, held, idle)
    await teacher.close()
    return found


def holds_row(where: str, v: dict) -> Row:
    ratio = v["edit_s"] / v["idle_edit_s"]
    idle = f", and {IDLE:,} idle sockets" if v.get("idle") else ""
    complaints = f"; {v['complaints']} nginx complaints" if "complaints" in v else ""
    return Row(f"class attack · {HOLDS:,} holds, {where}", f"{HOLDS:,} questions held on a live class from one "
               f"address, each asked again as its hold would end{idle}; {flood.VISITORS} new visitors; a bystander's "
               f"edits", f"{v['visitors']} of {v['of']} websockets opened; edit {seconds(v['edit_s'])} against "
               f"{seconds(v['idle_edit_s'])} idle; {v['held']} held, answered {v['statuses']}{complaints}",
               v.get("before", "—"), f"{ratio:.2f}×", "every websocket opens, edit ≤ 2× idle",
               v["visitors"] == v["of"] and ratio <= 2.0 and not v.get("complaints"), v)


def holds_rows() -> list[Row]:
    """The held flood through nginx (two replicas, PostgreSQL) and directly at a soft limit of 1,024."""
    rows = []
    with postgres.cluster() as (pg, _), replicas(2, {"CLASS_DATABASE_URL": pg, **TRUSTED}) as backends, \
            nginx(backends) as (front, proxy_pid, log):
        v = asyncio.run(held_flood(front, [b.proc.pid for b in backends] + [proxy_pid]))
        v["complaints"] = log.read_text().count("worker_connections are not enough")
        v["before"] = "before: 8 of 22 refused, 101,000 connections closed unanswered"
        rows.append(holds_row("through nginx", v))
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    with tempfile.TemporaryDirectory() as folder, \
            started([HOME], {"CLASS_DATA": folder, **TRUSTED}, [warm], (min(SOFT, hard), hard)) as (server,):
        v = asyncio.run(held_flood(server.url, [server.proc.pid], idle=IDLE))
        v |= {"idle": IDLE, "open_files": flood.open_files(server.proc.pid),
              "before": "before: new visitors timed out, health 5 s"}
        rows.append(holds_row(f"direct, started at {SOFT:,} open files (now {v['open_files'][0]:,})", v))
    return rows


async def unknown_flood(url: str, pids: list[int]) -> dict:
    """HOLDS distinct unknown codes, each asked every 20 s, while a bystander edits."""
    paths = [f"/_class/stage?c={c}&shown=unknown" for c in flood.unknown_codes(HOLDS)]
    unknown = flood.Flood(int(url.rsplit(":", 1)[1]), paths, watch.HOLD_S, spread=watch.HOLD_S)
    return await flood.under(url, pids, unknown, quiet=10.0)


def unknown_row(v: dict) -> Row:
    ratio, above = v["edit_s"] / v["idle_edit_s"], v["cores"] - v["idle_cores"]
    return Row(f"class attack · {HOLDS:,} unknown codes", f"{HOLDS:,} distinct unknown codes, each asked every 20 s "
               f"(100 a second); a bystander's edits", f"{above:.3f} core above idle ({v['idle_cores']:.3f}); edit "
               f"{seconds(v['edit_s'])} against {seconds(v['idle_edit_s'])} idle; answered {v['statuses']}",
               "before: 2,000 reads a second, edit 5.8×", f"{ratio:.2f}×", "≤ 0.1 core, edit ≤ 1.3× idle",
               above <= 0.1 and ratio <= 1.3, v)


async def stopped(url: str, database: str, postmaster: int) -> dict:
    """PostgreSQL stopped while students answer and a newcomer joins; resumed; the answers and the reveal after."""
    teacher, code = await ask(url, "teacher")
    students = [link_tab(url, code, f"student-{i}", SCHOOL) for i in range(STUDENTS)]
    assert await all_join(students, code, math.inf, False) == ["in"] * STUDENTS
    pg = [psutil.Process(postmaster), *psutil.Process(postmaster).children(recursive=True)]
    for p in pg:
        p.suspend()
    stopped_at = time.monotonic()
    try:
        told = await asyncio.gather(*(told_after(s, i) for i, s in enumerate(students)), newcomer(url, code))
        await asyncio.sleep(max(0.0, stopped_at + STOP_S - time.monotonic()))
    finally:
        for p in pg:
            p.resume()
    end, answers = time.monotonic() + 60, 0
    while time.monotonic() < end and answers < STUDENTS:
        await asyncio.sleep(1.0)
        answers = await asyncio.to_thread(lambda: counted(database, code)["answers"])
    await teacher.until(lambda: REVEAL in teacher.widgets, 60, "the reveal button")
    await teacher.press(REVEAL)
    revealed = await asyncio.gather(*(s.until(lambda s=s: s.revealed_at is not None, 60, "the reveal")
                                      for s in students), return_exceptions=True)
    await asyncio.gather(teacher.close(), *(s.close() for s in students))
    return {"told_s": told, "answers": answers, "revealed": sum(r is None for r in revealed)}


async def told_after(student: Tab, i: int) -> float:
    """The seconds from a student's answer to the sentence their tab shows (inf if none within 15 s)."""
    seen, sent = len(student.errors), time.monotonic()
    await student.answer_with(student.options[PICK][i % 2])
    with contextlib.suppress(TimeoutError, ConnectionError):
        await student.until(lambda: len(student.errors) > seen, 15, "the sentence")
        return time.monotonic() - sent
    return math.inf


async def newcomer(url: str, code: str) -> float:
    """The seconds from a newcomer's press of Join to the sentence it is told (inf if none within 15 s)."""
    late = link_tab(url, code, "newcomer", SCHOOL)
    try:
        await late.open()
        await asyncio.gather(*late.kept)
        seen = len(late.errors)
        late.set(CODE, code)
        start = await late.press(JOIN)
        await late.until(lambda: len(late.errors) > seen or PICK in late.widgets, 15, "the sentence")
        return time.perf_counter() - start if len(late.errors) > seen else math.inf
    except (TimeoutError, ConnectionError):
        return math.inf
    finally:
        await late.close()


def stopped_row(v: dict) -> Row:
    worst = max(v["told_s"])
    return Row("class attack · PostgreSQL stopped", f"SIGSTOP to every PostgreSQL process for {STOP_S:g} s while "
               f"{STUDENTS} students answer and a newcomer joins; then SIGCONT",
               f"told within {seconds(worst)} (students {', '.join(f'{s:.1f}' for s in v['told_s'][:-1])} s, newcomer "
               f"{v['told_s'][-1]:.1f} s); "
               f"{v['answers']} of {STUDENTS} answers counted after; reveal reached {v['revealed']} of {STUDENTS}",
               "before: answers hung 90.1–90.2 s, tabs frozen", "—", f"told ≤ {TOLD_S:g} s, no answer lost",
               worst <= TOLD_S and v["answers"] == STUDENTS and v["revealed"] == STUDENTS, v)


def run_one(name: str) -> list[Row]:
    """One attack on servers of its own: its rows."""
    if name == "fill":
        with one_server(TRUSTED) as (server, _):
            return [fill_row(asyncio.run(fill(server.url)))]
    if name == "votes":
        with one_server(TRUSTED) as (server, database):
            return [votes_row(asyncio.run(votes(server.url, database)))]
    if name == "holds":
        return holds_rows()
    if name == "unknown":
        with one_server(TRUSTED) as (server, _):
            return [unknown_row(asyncio.run(unknown_flood(server.url, [server.proc.pid])))]
    with postgres.cluster() as (pg, postmaster), one_server(TRUSTED | {"CLASS_DATABASE_URL": pg}) as (server, database):
        return [stopped_row(asyncio.run(stopped(server.url, database, postmaster)))]


ATTACKS = ("fill", "votes", "holds", "unknown", "stopped")
MORE = ("bench.class_crowd", "bench.class_edges")  # issue 59's attacks, each module with its ATTACKS and run_one


def run(quick: bool, names: tuple[str, ...] = ()) -> list[Row]:
    """Every attack, or those named (python -m bench runs them all; --quick skips them: about 15 minutes)."""
    if quick and not names:
        return [Row("class attacks", "the ten attacks on class mode", "skipped in --quick")]
    attacks = dict.fromkeys(ATTACKS, run_one)  # every attack's name -> the run_one that runs it: this module's, MORE's
    for module in map(importlib.import_module, MORE):
        attacks |= dict.fromkeys(module.ATTACKS, module.run_one)
    return [row for name in names or attacks for row in attacks[name](name)]


if __name__ == "__main__":
    cli(run, names=True)
