"""Capacity: how many students one server process serves, and through nginx more, with bare websocket sessions."""
import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

import psutil

from bench.clients import PERIOD_S, Student, close_all, open_all, warm
from bench.common import Row, cli, p50_p95, quantile, ratio, seconds
from bench.servers import HELLO, HOME, nginx, since, snapshot, started

LEVELS, DURATION_S = (10, 20, 40, 80), 30.0
QUICK_LEVELS, QUICK_DURATION_S = (10, 20), 6.0
SWEEP_STEP, SWEEP_MAX, SWEEP_DURATION_S = 10, 200, 20.0
QUICK_SWEEP = 40
PROCESSES = (1, 2, 3)
P95_BUDGET_S, CPU_BUDGET, BUDGET_SESSIONS = 1.0, 1.5, 40


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
    wall_s: float = 0.0

    @property
    def edits(self) -> int:
        """Edits that finished."""
        return len(self.latencies)

    def quantile(self, q: float) -> float:
        """The q-quantile of the edit latencies (nearest rank), inf without any."""
        return quantile(self.latencies, q)

    @property
    def cpu_per_edit(self) -> float:
        """Server CPU seconds per finished edit."""
        return self.server_cpu_s / max(1, self.edits)

    def ok(self) -> bool:
        """p95 within budget and no error."""
        return not self.errors and self.quantile(0.95) <= P95_BUDGET_S

    def summary(self) -> str:
        """p50, p95, CPU per edit and errors, for a table cell."""
        return f"{p50_p95(self.latencies)}, {seconds(self.cpu_per_edit)} CPU/edit, {len(self.errors)} errors"


async def workload(url: str, sessions: int, duration: float, pids: list[int], seed: int | None = None) -> Result:
    """`sessions` students open the page (8 at a time), then edit every PERIOD_S seconds for `duration` seconds."""
    first = sessions * 1000 if seed is None else seed
    students = [Student(url, seed=first + i) for i in range(sessions)]
    errors = await open_all(students)
    result = await window(students, duration, pids)
    await close_all(students)
    result.errors[:0] = errors
    return result


async def window(students: list[Student], duration: float, pids: list[int]) -> Result:
    """The students' edits every PERIOD_S s for `duration` s (none: the servers idle): what they cost."""
    for s in students:
        s.latencies.clear()
    before = snapshot(pids)
    start = before[-1]
    await asyncio.gather(*(s.lesson(start, start + duration) for s in students))
    if not students:
        await asyncio.sleep(duration)
    server, client, others = since(before, pids)
    return Result(len(students), [t for s in students for t in s.latencies], [e for s in students for e in s.errors],
                  server, client, dict(Counter(s.upstream or "direct" for s in students)), others,
                  time.monotonic() - start)


def one_process(quick: bool) -> list[Row]:
    """K students on one dashboard process, next to K on the hello app; the same levels, alternating apps."""
    levels, duration = (QUICK_LEVELS, QUICK_DURATION_S) if quick else (LEVELS, DURATION_S)
    results: dict[str, dict[int, Result]] = {HOME: {}, HELLO: {}}
    with started([HOME, HELLO], warm=[warm]) as both:
        servers = dict(zip((HOME, HELLO), both, strict=True))
        for k in levels:
            for name, server in servers.items():
                results[name][k] = asyncio.run(workload(server.url, k, duration, [server.proc.pid]))
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
            {"dashboard": mine, "hello": floor}))
    return rows


def behind_nginx(quick: bool) -> list[Row]:
    """The dashboard through nginx before 1, 2, 3 processes: most sessions with p95 ≤ 1 s (quick: 1, 2 at 40)."""
    from harness import proxy

    if not proxy.NGINX.exists():
        return [Row("capacity · through nginx", "nginx in front of 1, 2, 3 processes",
                    f"skipped: {proxy.NGINX} not found (apt-get install nginx)")]
    counts = PROCESSES[:2] if quick else PROCESSES
    sweeps: dict[int, list[Result]] = {}
    with started([HOME] * len(counts), warm=[warm]) as servers:
        start = 2 * SWEEP_STEP
        for n in counts:
            with nginx(servers[:n]) as (url, *_):
                pids = [s.proc.pid for s in servers[:n]]
                quick_run = [asyncio.run(workload(url, QUICK_SWEEP, QUICK_DURATION_S, pids))] if quick else []
                sweeps[n] = quick_run or sweep(url, pids, start)
                start = capacity(sweeps[n]) + SWEEP_STEP
    return [sweep_row(n, sweeps[n], sweeps[counts[0]], quick) for n in counts]


def sweep(url: str, pids: list[int], start: int) -> list[Result]:
    """Sessions in SWEEP_STEP steps from `start`, up while within budget, down while not, till a pass meets a fail."""
    results: dict[int, Result] = {}
    k = start
    while SWEEP_STEP <= k <= SWEEP_MAX and k not in results:
        results[k] = asyncio.run(workload(url, k, SWEEP_DURATION_S, pids))
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
    values = {"processes": n, "levels": results}
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


def run(quick: bool) -> list[Row]:
    """Every capacity row: one process next to the hello app, then through nginx."""
    return one_process(quick) + behind_nginx(quick)


if __name__ == "__main__":
    cli(run)
