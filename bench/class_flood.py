"""Floods of class mode's watch route from a script's own loopback address, and what a bystander and visitors see."""
import asyncio
import contextlib
import random
import time
from collections import Counter

import psutil

from bench import capacity
from bench.clients import Student, close_all, open_all
from bench.common import median
from classroom.questions import ALPHABET

SCRIPT_HOST = "127.0.0.2"  # every 127.x address is this machine's loopback
EDITS, VISITORS = 8, 22
AGAIN_S = 1.0  # the least a script waits after an answer before it asks again (the watch's own retry)
SETTLE_S = 5.0  # from the flood's start to the bystander's edits in it


class Flood:
    """A script asking `paths` from `host` (each naming its `forwarded` address), every `period` s, until stopped."""

    def __init__(self, port: int, paths: list[str], period: float, spread: float = 0.0, host: str = SCRIPT_HOST,
                 forwarded: list[str] | None = None):
        self.port, self.paths, self.period, self.spread = port, paths, period, spread
        self.host, self.forwarded = host, forwarded
        self.statuses: Counter[int] = Counter()
        self.failed = self.waiting = self.asked = 0
        self.tasks: list[asyncio.Task] = []

    def start(self) -> "Flood":
        self.tasks = [asyncio.create_task(self.asking(i, path)) for i, path in enumerate(self.paths)]
        return self

    async def asking(self, i: int, path: str) -> None:
        """The i-th path's questions, one after another."""
        await asyncio.sleep(random.uniform(0, self.spread))
        via = f"X-Forwarded-For: {self.forwarded[i]}\r\n" if self.forwarded else ""
        while True:
            writer, asked = None, time.monotonic()
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.host, 0))
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{via}Connection: close\r\n\r\n".encode())
                self.asked += 1
                self.waiting += 1
                try:
                    line = await reader.readline()
                finally:
                    self.waiting -= 1
                self.statuses[int(line.split()[1])] += 1
            except (OSError, IndexError, ValueError):
                self.failed += 1
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(max(AGAIN_S, asked + self.period - time.monotonic()))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def idle_sockets(port: int, n: int) -> list[asyncio.StreamWriter]:
    """n TCP connections from SCRIPT_HOST that send nothing (as many as opened)."""
    async def one():
        with contextlib.suppress(OSError):
            return (await asyncio.open_connection("127.0.0.1", port, local_addr=(SCRIPT_HOST, 0)))[1]
    return [w for w in await asyncio.gather(*(one() for _ in range(n))) if w is not None]


def unknown_codes(n: int) -> list[str]:
    """n distinct well-formed class codes no class has (the database's codes are random; these start with 'ZZ')."""
    return ["ZZ" + "".join(ALPHABET[i // 31**k % 31] for k in range(6)) for i in range(n)]


async def edits(student: Student, n: int = EDITS) -> float:
    """The median of n edits of the bystander's sentence, one after another."""
    before = len(student.latencies)
    for _ in range(n):
        await student.edit()
    return median(student.latencies[before:]) if len(student.latencies) > before else float("inf")


async def visitors(url: str, n: int = VISITORS) -> int:
    """n new visitors open the home page's websocket and run it: how many could."""
    students = [Student(url, seed=9000 + i) for i in range(n)]
    errors = await open_all(students)
    await close_all([s for s in students if s.ws is not None])
    return n - len(errors)


async def cores(pids: list[int], span: float) -> float:
    """The cores the servers keep busy over the next `span` seconds."""
    idle = await capacity.window([], span, pids)
    return idle.server_cpu_s / idle.wall_s


async def under(url: str, pids: list[int], flood: Flood, idle: int = 0, quiet: float = 0.0) -> dict:
    """A bystander's edits before and in the flood (with `idle` idle sockets), visitors meanwhile, cores (`quiet`)."""
    bystander = Student(url, seed=77)
    await bystander.open()
    await edits(bystander, 2)  # its caches warm
    alone = await edits(bystander)
    idle_cores = await cores(pids, quiet) if quiet else None
    extra = await idle_sockets(flood.port, idle) if idle else []
    flood.start()
    await asyncio.sleep(SETTLE_S)
    flood_cores = await cores(pids, quiet) if quiet else None
    busy = await edits(bystander)
    opened = await visitors(url)
    held = flood.waiting
    await flood.stop()
    for writer in extra:
        writer.close()
    await bystander.close()
    return {"idle_edit_s": alone, "edit_s": busy, "visitors": opened, "of": VISITORS, "held": held,
            "statuses": dict(flood.statuses), "failed": flood.failed, "idle_cores": idle_cores, "cores": flood_cores,
            "errors": bystander.errors[:3]}


def open_files(pid: int) -> tuple[int, int]:
    """(soft, hard) open-files limit of a running process."""
    return psutil.Process(pid).rlimit(psutil.RLIMIT_NOFILE)
