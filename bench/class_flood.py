"""Floods of class mode's watch route from a script's own loopback address, and what a bystander and visitors see."""
import asyncio
import contextlib
import random
import time
from collections import Counter

import psutil

from bench.clients import Student, close_all, open_all
from bench.common import median
from bench.servers import cpu_seconds
from classroom.questions import ALPHABET

SCRIPT_HOST = "127.0.0.2"  # every 127.x address is this machine's loopback
EDITS, VISITORS = 8, 22
AGAIN_S = 1.0  # the least a script waits after an answer before it asks again (the watch's own retry)


class Flood:
    """A script asking `paths` from SCRIPT_HOST, each every `period` s on a connection of its own, until stopped."""

    def __init__(self, port: int, paths: list[str], period: float, spread: float = 0.0):
        self.port, self.paths, self.period, self.spread = port, paths, period, spread
        self.statuses: Counter[int] = Counter()
        self.failed = self.waiting = 0
        self.tasks: list[asyncio.Task] = []

    def start(self) -> "Flood":
        self.tasks = [asyncio.create_task(self.asking(path)) for path in self.paths]
        return self

    async def asking(self, path: str) -> None:
        """One path's questions, one after another."""
        await asyncio.sleep(random.uniform(0, self.spread))
        while True:
            writer, asked = None, time.monotonic()
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(SCRIPT_HOST, 0))
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
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


async def cores(pids: list[int], window: float) -> float:
    """The cores the servers keep busy over the next `window` seconds."""
    cpu0, t0 = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(window)
    return (cpu_seconds(pids) - cpu0) / (time.monotonic() - t0)


async def under(url: str, pids: list[int], start_flood, settle: float = 3.0, quiet: float = 0.0) -> dict:
    """A bystander's edits before and in the flood start_flood() starts, visitors meanwhile, cores (given `quiet`)."""
    bystander = Student(url, seed=77)
    await bystander.open()
    await edits(bystander, 2)  # its caches warm
    idle = await edits(bystander)
    idle_cores = await cores(pids, quiet) if quiet else None
    flood, extra = await start_flood()
    await asyncio.sleep(settle)
    flood_cores = await cores(pids, quiet) if quiet else None
    busy = await edits(bystander)
    opened = await visitors(url)
    held = flood.waiting
    await flood.stop()
    for writer in extra:
        writer.close()
    await bystander.close()
    return {"idle_edit_s": idle, "edit_s": busy, "visitors": opened, "of": VISITORS, "held": held,
            "statuses": dict(flood.statuses), "failed": flood.failed, "idle_cores": idle_cores, "cores": flood_cores,
            "errors": bystander.errors[:3]}


def open_files(pid: int) -> tuple[int, int]:
    """(soft, hard) open-files limit of a running process."""
    found = psutil.Process(pid).rlimit(psutil.RLIMIT_NOFILE)
    return found[0], found[1]
