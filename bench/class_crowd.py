"""Class mode under a crowd inside its allowances: bots answering, a classmate holding questions, a busy host."""
import asyncio
import contextlib
import math
import multiprocessing
import os
import time
from collections import Counter

import httpx2

from bench import class_flood as flood
from bench.class_attack import SCHOOL, SCRIPT, TRUSTED, all_join, honest_answers, try_join
from bench.class_tab import PICK, REVEAL, STEP_TIMEOUT_S, Tab, ask, link_tab, one_server
from bench.clients import Student
from bench.common import Row, cli, median, seconds
from bench.servers import nginx
from classroom import holds, limiter, watch

BOTS, CLASS_OF, HONEST = 80, 30, 30
EDITS, ANSWERS, ROUNDS = 36, 24, 3  # the bystander's edits and the honest student's answers, idle and among the
# bots, in ROUNDS of each
EVERY_S = limiter.ANSWERS_PER_STUDENT[1] / limiter.ANSWERS_PER_STUDENT[0]  # a bot's answers, at its allowance
BURNERS, LOAD = 5, 4.0


async def seated(url: str, n: int, address: str, prefix: str) -> tuple[list[Tab], list[Tab], list[str]]:
    """n students joined from `address` into classes of at most CLASS_OF: the teachers, those in, the classes' codes."""
    teachers, students, codes = [], [], []
    for start in range(0, n, CLASS_OF):
        teacher, code = await ask(url, f"{prefix}-teacher-{start}")
        tabs = [link_tab(url, code, f"{prefix}-{i}", address) for i in range(start, min(n, start + CLASS_OF))]
        said = await all_join(tabs, code, math.inf, False)
        teachers.append(teacher)
        codes.append(code)
        students += [t for t, s in zip(tabs, said, strict=True) if s == "in"]
    return teachers, students, codes


async def voting(bot: Tab, going: asyncio.Event, stop: asyncio.Event) -> int:
    """A bot's answers, one every EVERY_S while `going` is set, each changing its last, until stopped: how many."""
    sent = 0
    await asyncio.sleep(EVERY_S * (hash(bot.name) % 100) / 100)  # bots do not all press at once
    while not stop.is_set():
        await going.wait()
        await bot.answer_with(bot.options[PICK][sent % 2])
        sent += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), EVERY_S)
    return sent


async def phase(bystander: Student, real: Tab) -> tuple[list[float], list[float], list[str]]:
    """The bystander's edits and the honest student's answers at the same time: their seconds, and the answers' fate."""
    before = len(bystander.latencies)
    _, (outcomes, took) = await asyncio.gather(flood.edits(bystander, EDITS // ROUNDS),
                                               honest_answers(real, ANSWERS // ROUNDS, EVERY_S))
    return bystander.latencies[before:], took, outcomes


async def answers(url: str) -> dict:
    """The bystander's edits and an honest student's answers in rounds with the bots still and answering, in turn."""
    teachers, bots, codes = await seated(url, BOTS, SCRIPT, "bot")
    real = link_tab(url, codes[0], "real", SCHOOL)
    assert await try_join(real, codes[0]) == "in", real.errors
    bystander = Student(url, seed=77)
    await bystander.open()
    await flood.edits(bystander, 2)
    going, stop, seen = asyncio.Event(), asyncio.Event(), {True: ([], [], []), False: ([], [], [])}
    voters = [asyncio.create_task(voting(b, going, stop)) for b in bots]
    for busy in (False, True) * ROUNDS:
        if busy:
            going.set()
        else:
            going.clear()
        await asyncio.sleep(2 * EVERY_S)  # every bot is answering, or every answer sent is done
        for kept, found in zip(seen[busy], await phase(bystander, real), strict=True):
            kept += found
    stop.set()
    going.set()
    sent = sum(await asyncio.gather(*voters))
    errors = [e for b in bots for e in b.errors][:3]
    await asyncio.gather(bystander.close(), real.close(), *(t.close() for t in teachers + bots))
    return {"bots": len(bots), "idle_edit_s": median(seen[False][0]), "edit_s": median(seen[True][0]),
            "real": seen[False][2] + seen[True][2], "bot_answers": sent, "idle_answer_s": median(seen[False][1]),
            "answer_s": median(seen[True][1]), "bot_errors": errors}


def answers_row(v: dict) -> Row:
    ratio, refused = v["edit_s"] / v["idle_edit_s"], [o for o in v["real"] if o != "sent"]
    answer_ratio, said = v["answer_s"] / v["idle_answer_s"], f" ({refused[0]})" if refused else ""
    return Row("class attack · bots at their allowance", f"{v['bots']} bots joined from one address, each answering "
               f"every {EVERY_S:g} s; a bystander edits the home page's sentence and an honest student answers "
               f"every {EVERY_S:g} s, in {ROUNDS} rounds without and {ROUNDS} with the bots",
               f"edit {seconds(v['edit_s'])} against {seconds(v['idle_edit_s'])} idle; honest "
               f"answer {seconds(v['answer_s'])} against {seconds(v['idle_answer_s'])} ({answer_ratio:.2f}×), refused "
               f"{len(refused)} of {len(v['real'])}{said}; {v['bot_answers']} bot answers", v.get("before", "—"),
               f"{ratio:.2f}×", "edit and honest answer ≤ 1.3× idle, no honest answer refused",
               ratio <= 1.3 and answer_ratio <= 1.3 and not refused, v)


async def holding(classmate: Tab, url: str, code: str, stop: asyncio.Event) -> dict[int, int]:
    """The classmate's HELD_PER_ADDRESS questions on the stage, each asked again once answered: the statuses."""
    statuses: Counter[int] = Counter()
    limits = httpx2.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx2.AsyncClient(timeout=60, limits=limits, headers=classmate.headers()) as client:
        shown = (await client.get(f"{url}/_class/stage?c={code}")).text

        async def one() -> None:
            seen = shown
            while not stop.is_set():
                with contextlib.suppress(httpx2.HTTPError):
                    answer = await client.get(f"{url}/_class/stage?c={code}&shown={seen}")
                    statuses[answer.status_code] += 1
                    if answer.status_code != 200:  # refused: as the watch does, a moment later
                        await asyncio.sleep(watch.RETRY_S)
                    seen = answer.text if answer.status_code == 200 else seen
        await asyncio.gather(*(one() for _ in range(holds.HELD_PER_ADDRESS)))
    return dict(statuses)


async def reveal(url: str) -> dict:
    """HONEST students and a classmate holding the address's allowance, all through nginx; the teacher reveals."""
    teacher, code = await ask(url, "teacher")
    students = [link_tab(url, code, f"student-{i}") for i in range(HONEST + 1)]
    said = await all_join(students, code, math.inf, False)
    assert said == ["in"] * len(students), said
    classmate, students = students[0], students[1:]
    stop = asyncio.Event()
    held = asyncio.create_task(holding(classmate, url, code, stop))
    await asyncio.sleep(watch.HOLD_S + 5.0)  # every student's question was asked again since the classmate began
    await teacher.until(lambda: REVEAL in teacher.widgets, STEP_TIMEOUT_S, "the reveal button")
    pressed = await teacher.press(REVEAL)
    reached = await asyncio.gather(*(s.until(lambda s=s: s.revealed_at is not None, 60, "the reveal")
                                     for s in students), return_exceptions=True)
    stop.set()
    after = [s.revealed_at - pressed if s.revealed_at is not None else math.inf for s in students]
    statuses = await held
    await asyncio.gather(teacher.close(), classmate.close(), *(s.close() for s in students))
    return {"after_s": after, "reached": sum(r is None for r in reached), "classmate": statuses}


def reveal_row(v: dict) -> Row:
    within = sum(s <= 2.0 for s in v["after_s"])
    worst = max(v["after_s"])
    return Row("class attack · a classmate at the allowance", f"through nginx (one address): {HONEST} students and a "
               f"classmate holding {holds.HELD_PER_ADDRESS} watch questions that follow the stage; the teacher "
               f"reveals", f"reveal reached {within} of {HONEST} within 2 s (slowest {seconds(worst)}); the "
               f"classmate's questions answered {v['classmate']}", "before: 9 of 30 screens 20–50 s late or never",
               "—", "30 of 30 within 2 s", within == HONEST, v)


def burn(until: float) -> None:
    """Keep one core busy until `until` (time.time())."""
    while time.time() < until:
        sum(i * i for i in range(10_000))


async def busy(url: str) -> dict:
    """BOTS students on SQLite answer at the same moment while BURNERS processes load the machine."""
    teachers, students, _ = await seated(url, BOTS, SCHOOL, "student")
    burners = [multiprocessing.Process(target=burn, args=(time.time() + 300,)) for _ in range(BURNERS)]
    for p in burners:
        p.start()
    try:
        end = time.monotonic() + 180
        while os.getloadavg()[0] < LOAD + 0.5 and time.monotonic() < end:  # the load average follows within minutes
            await asyncio.sleep(5.0)
        load = os.getloadavg()[0]
        outcomes = await asyncio.gather(*(honest_answers(s, 1, 0.0, 60.0) for s in students))
        load = max(load, os.getloadavg()[0])
    finally:
        for p in burners:
            p.terminate()
    await asyncio.gather(*(t.close() for t in teachers + students))
    said, took = [o[0][0] for o in outcomes], [t for o in outcomes for t in o[1]]
    return {"students": len(students), "load": load, "refused": [s for s in said if s != "sent"],
            "slowest_s": max(took, default=math.inf), "median_s": median(took) if took else math.inf}


def busy_row(v: dict) -> Row:
    refused = v["refused"]
    return Row("class attack · SQLite on a busy host", f"{v['students']} students answer at once on SQLite while "
               f"{BURNERS} processes keep the 2 cores busy", f"load {v['load']:.1f}; {len(refused)} of "
               f"{v['students']} refused" + (f" ({refused[0]})" if refused else "") + f"; each told “sent” within "
               f"{seconds(v['slowest_s'])} (median {seconds(v['median_s'])})", "before: at load ~11, 6–34% told "
               "“database not answering”", "—", f"load ≥ {LOAD:g}, none refused", v["load"] >= LOAD and not refused, v)


def run_one(name: str) -> list[Row]:
    """One attack on servers of its own: its rows."""
    if name == "reveal":
        with one_server(TRUSTED) as (server, _), nginx([server]) as (front, *_):
            return [reveal_row(asyncio.run(reveal(front)))]
    attack, row = (answers, answers_row) if name == "answers" else (busy, busy_row)
    with one_server(TRUSTED) as (server, _):
        return [row(asyncio.run(attack(server.url)))]


ATTACKS = ("answers", "reveal", "busy")

if __name__ == "__main__":
    cli(lambda quick, names: [row for name in names or ATTACKS for row in run_one(name)], names=True)
