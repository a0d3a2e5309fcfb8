"""Class mode under load: teachers and students as bare websocket tabs on replicas behind nginx, and on one process."""
import asyncio
import functools
import random
import time

import sqlalchemy as sa

from bench import class_tab as tabs
from bench.capacity import window, workload
from bench.class_lesson import LATENCY_BUDGET_S, OUTSIDER_BUDGET, REVEAL_WINDOW_S, Lesson, Site, lesson, ranks
from bench.class_tab import JOIN, PICK, REVEAL, Tab, answer, ask, each, join, link_tab, one_server, progress, replicas
from bench.clients import Student, close_all, open_all
from bench.common import Row, cli, in_turn, p50_p95, quantile, seconds
from bench.servers import HOME, Server, nginx, worktree
from classroom import classes
from harness import postgres

FULL = {"answer_s": 10.0, "crowds": (60, 200), "classes": 30, "per_class": 5, "restart": 30, "editors": 10,
        "window_s": 6.0, "rounds": 8}
QUICK = {"answer_s": 5.0, "crowds": (60,), "classes": 10, "per_class": 3, "restart": 12, "editors": 10,
         "window_s": 5.0, "rounds": 3}
BEFORE = "8272dfe"  # the commit before class mode's pages (1775cce): what a visitor's edit cost then


def lesson_row(figure: str, how: str, result: Lesson) -> Row:
    measured = (f"{result.joins.summary()}; answer → teacher {p50_p95(result.answers)}; reveal → students "
                f"{p50_p95(result.reveals)}; {len(result.errors)} errors")
    return Row(figure, f"{how}; tabs per process {'/'.join(str(v) for v in result.split.values())}; {result.where()}",
               measured, "—", "—", f"p95 ≤ {LATENCY_BUDGET_S:g} s each", result.ok(), {"lesson": result})


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


async def restart(base: str, engine: sa.Engine, backends: list[Server], n: int) -> dict:
    """The replica with most students (not the teacher's) restarts mid-question, then the teacher's own: what stays."""
    rng, by_address = random.Random(3), {r.url.removeprefix("http://"): r for r in backends}
    teacher, code = await ask(base, "teacher-r")
    students = [link_tab(base, code, f"r{i}") for i in range(n)]
    errors = await each(students, lambda s: join(s, code, s.name))
    joined = [s for s in students if PICK in s.widgets]
    errors += await each(joined, lambda s: answer(s, rng, rng.uniform(0, 3)), limit=len(joined))
    before = {s.name for s in joined if s.acked_at is not None}
    counts = {a: sum(1 for s in joined if s.upstream == a) for a in by_address if a != teacher.upstream}
    victim = max(counts, key=counts.get)
    moved = [s for s in joined if s.upstream == victim]
    killed = time.perf_counter()
    down = await bounce(by_address[victim], moved)
    seated, more = await come_back(moved, code, rng)
    errors += more
    rejoin = time.perf_counter() - killed
    in_db = set(await asyncio.to_thread(ranks, engine, code))
    room = await asyncio.to_thread(classes.room, engine, code, now=time.time())
    await teacher.press(REVEAL)
    await asyncio.gather(*(s.until(lambda s=s: s.revealed_at is not None, tabs.PHASE_TIMEOUT_S, "the reveal")
                           for s in joined), return_exceptions=True)
    errors += [e for tab in [teacher, *students] for e in tab.errors]
    await asyncio.gather(*(tab.close() for tab in students))
    teacher_sees = await restarted_under(teacher, by_address[teacher.upstream])
    return {"students": n, "tabs": len(joined), "on_killed": len(moved), "before": len(before),
            "before_in_db": len(before & in_db), "room_after": room.answered, "joined_after": room.joined,
            "seated": len(seated), "revealed": sum(1 for s in joined if s.revealed_at is not None), "down_s": down,
            "rejoin_s": rejoin,
            "teacher_after_restart": teacher_sees, "errors": errors[:30]}


async def come_back(moved: list[Tab], code: str, rng: random.Random) -> tuple[list[Tab], list[str]]:
    """Every tab cut off reconnects: those back in their seats (classroom/seat.py; the others join again), errors."""
    seated: list[Tab] = []

    async def back(s: Tab):
        await s.connect()  # the frontend's reconnect: same cookie, same replica, the values it held
        if JOIN not in s.widgets:
            seated.append(s)
            return
        s.name = f"{s.name}-again"
        await join(s, code, s.name, reopen=False)
        await answer(s, rng, 0)

    return seated, await each(moved, back)


async def restarted_under(teacher: Tab, replica: Server) -> str:
    """The teacher's own replica restarted, the tab reconnected: what it shows."""
    await bounce(replica, [teacher])
    await teacher.connect()
    sees = "the join form" if JOIN in teacher.widgets else "the class" if tabs.END in teacher.widgets else "?"
    await teacher.close()
    return sees


async def bounce(replica: Server, cut: list[Tab]) -> float:
    """SIGTERM to the replica, started again on its port: the seconds until it is healthy; its tabs are cut off."""
    killed = time.perf_counter()
    replica.proc.terminate()
    await asyncio.to_thread(replica.proc.wait, 30)
    replica.start()
    await asyncio.to_thread(replica.wait_ready)
    await asyncio.gather(*(tab.until(lambda tab=tab: tab.closed, 10, "the closed websocket") for tab in cut),
                         return_exceptions=True)
    return time.perf_counter() - killed


def replicated(quick: bool) -> list[Row]:
    """Big classes, many classes, and a restart, on three replicas behind nginx sharing one PostgreSQL."""
    plan, rows = QUICK if quick else FULL, []
    with postgres.cluster() as (url, postmaster), replicas(3, {"CLASS_DATABASE_URL": url}) as backends, \
            nginx(backends) as (front, proxy, _):
        site = Site([front], sa.create_engine(url), [r.proc.pid for r in backends], postmaster, proxy)
        try:
            for crowd in plan["crowds"]:
                progress(f"one class of {crowd} on 3 replicas")
                rows.append(lesson_row(
                    f"class · {crowd} students, 3 replicas", f"one teacher asks on page 2 (predict=1), {crowd} "
                    f"students join through nginx (told to wait, each waits as told and tries again) and answer at "
                    f"random within {plan['answer_s']:g} s, then the "
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
    with one_server({}) as (server, database):
        pid = server.proc.pid
        site = Site([server.url], sa.create_engine(database), [pid])
        try:
            progress("typing on one process, no class")
            alone = asyncio.run(typing(server.url, pid, plan, 600, beside=False))
            progress(f"{plan['classes']} classes on one process, then typing beside them")
            many = asyncio.run(lesson(site, plan["classes"], plan["per_class"], plan["answer_s"],
                                      during=lambda: typing(server.url, pid, plan, 700, beside=True)))
        finally:
            site.engine.dispose()
    return [
        lesson_row(f"class · {plan['classes']} classes, 1 process", f"{plan['classes']} teachers with "
                   f"{plan['per_class']} students each on one process, SQLite; answers within {plan['answer_s']:g} s, "
                   f"reveals within {REVEAL_WINDOW_S:g} s (after the outsiders' windows below)", many),
        outsider_row(alone, many.during, plan),
    ]


def before_and_now(plan: dict) -> Row:
    """CPU per edit outside any class, this tree against BEFORE served at once, their windows taken in turn."""
    def typed(server: Server):
        return asyncio.run(workload(server.url, plan["editors"], plan["window_s"], [server.proc.pid], seed=500))

    with worktree(BEFORE) as other, Server(HOME) as ours, Server(HOME, root=other) as theirs:
        servers = (ours, theirs)
        calls = {server: functools.partial(typed, server) for server in servers}
        in_turn(calls, 1)  # warm: the first edits fill the caches
        got = in_turn(calls, plan["rounds"], swap=True)
    now, before = ({"cpu_s": sum(w.server_cpu_s for w in got[s]), "edits": sum(w.edits for w in got[s])}
                   for s in servers)
    mine, base = now["cpu_s"] / max(1, now["edits"]), before["cpu_s"] / max(1, before["edits"])
    errors = [e for s in servers for w in got[s] for e in w.errors]
    how = (f"{plan['editors']} sessions type a sentence every 2 s on the home page (capacity.py's workload), no "
           f"class open; this tree and {BEFORE} (before class mode's pages) served side by side, {plan['rounds']} "
           f"windows of {plan['window_s']:g} s each, in turn ({now['edits']} and {before['edits']} edits); "
           f"{len(errors)} errors")
    return Row("class · CPU per edit outside any class, against before class mode", how, f"{seconds(mine)} CPU/edit",
               f"{BEFORE} {seconds(base)}", f"{mine / base:.2f}×", f"≤ {OUTSIDER_BUDGET:.2f}×",
               mine <= OUTSIDER_BUDGET * base and not errors, {"now": now, "before": before, "errors": errors[:10]})


async def typing(url: str, pid: int, plan: dict, seed: int, beside: bool) -> dict:
    """Editors typing in `rounds` windows after an untimed one (`beside` the classes: between windows of them alone)."""
    editors = [Student(url, seed=seed + i) for i in range(plan["editors"])]
    errors = await open_all(editors)
    windows = [await window([] if beside else editors, plan["window_s"], [pid])]
    for _ in range(plan["rounds"]):
        windows.append(await window(editors, plan["window_s"], [pid]))
        if beside:
            windows.append(await window([], plan["window_s"], [pid]))
    await close_all(editors)
    typed = [w for w in windows[1:] if w.sessions]
    return {"windows": windows, "cpu_s": sum(w.server_cpu_s for w in typed), "edits": sum(w.edits for w in typed),
            "latencies_s": [x for w in typed for x in w.latencies],
            "errors": errors + [e for s in editors for e in s.errors]}


def outsider_row(alone: dict, busy: dict, plan: dict) -> Row:
    """CPU per edit for people in no class, without and with the classes on their process."""
    base = alone["cpu_s"] / max(1, alone["edits"])
    idle = busy["windows"][0::2]  # the classes alone, on either side of each window of typing beside them
    typed = busy["windows"][1::2]
    rates = [(a.server_cpu_s + b.server_cpu_s) / (a.wall_s + b.wall_s) for a, b in zip(idle, idle[1:], strict=False)]
    extra = [w.server_cpu_s - rate * w.wall_s for w, rate in zip(typed, rates, strict=True)]  # less the classes' own
    mine = sum(extra) / max(1, busy["edits"])
    spread = [x / max(1, w.edits) for x, w in zip(extra, typed, strict=True)]
    how = (f"{plan['editors']} sessions type a sentence every 2 s on the home page of one process (capacity.py's "
           f"workload) for {plan['rounds']} windows of {plan['window_s']:g} s ({alone['edits']} edits), then "
           f"{plan['rounds']} windows of "
           f"{plan['window_s']:g} s with {plan['classes']}×{plan['per_class']} class tabs watching on the "
           f"same process ({busy['edits']} edits), between windows of the classes alone (they kept {min(rates):.2f}–"
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
    from harness import proxy

    skipped = [Row("class · 3 replicas", "nginx in front of 3 processes", f"skipped: {proxy.NGINX} not found")]
    rows = replicated(quick) if proxy.NGINX.exists() else skipped
    return rows + single(quick) + [before_and_now(QUICK if quick else FULL)]


if __name__ == "__main__":
    cli(run)
