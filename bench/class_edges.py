"""Two attacks on a hosted class at the server's edge: spoofed addresses, and a hard limit of open files."""
import asyncio
import contextlib
import ipaddress
import resource
import tempfile
import time

from bench import class_flood as flood
from bench.class_tab import staged
from bench.clients import warm
from bench.common import Row, cli, seconds
from bench.servers import HOME, started
from classroom import holds
from harness.health import health_s

SPOOFED, WAIT_S = 2000, 5.0  # questions; how long an answer counts as "at once" (a hold lasts 20 s)
HOUR_S = 3600.0  # when an answered question would be asked again: not within the wait
FIRST = ipaddress.ip_address("198.18.0.0")  # a range kept for benchmarks: addresses that are nobody's
HARD, IDLE, HEALTH_S, LINES = 1024, 1100, 5.0, 50
PROXY_ENV = ("CLASS_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS")


@contextlib.contextmanager
def more_files():
    """This process may hold as many open files as its hard limit allows (it holds one end of each connection)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def spoof(url: str) -> dict:
    """SPOOFED questions on a live class's stage, each naming another address: how many were answered at once."""
    teacher, code, stage = await staged(url)
    asked = flood.Flood(int(url.rsplit(":", 1)[1]), [f"/_class/stage?c={code}&shown={stage}"] * SPOOFED, HOUR_S,
                        host="127.0.0.1", forwarded=[str(FIRST + i) for i in range(SPOOFED)]).start()
    while asked.asked + asked.failed < SPOOFED:  # every question written (or refused) before the wait starts
        await asyncio.sleep(0.05)
    await asyncio.sleep(WAIT_S)
    held = asked.waiting
    at_once = dict(asked.statuses)
    await asked.stop()
    await teacher.close()
    return {"asked": asked.asked, "held": held, "at_once": at_once}


def spoof_row(v: dict) -> Row:
    limit = holds.HELD_PER_ADDRESS
    return Row("class attack · spoofed addresses", f"{SPOOFED:,} questions held on a live class from 127.0.0.1, each "
               "naming an address of its own in X-Forwarded-For; the server as the repo starts it (no "
               "CLASS_TRUSTED_PROXIES)", f"{v['held']:,} of {v['asked']:,} held; answered at once {v['at_once']}",
               f"before: {SPOOFED:,} of {SPOOFED:,} held", "—", f"≤ {limit} held (one address's share)",
               v["held"] <= limit and v["asked"] == SPOOFED, v)


async def websocket(port: int) -> tuple[str, float]:
    """A new websocket's handshake: the status line it is answered with ('' for none within 10 s) and the seconds."""
    start = time.monotonic()
    with contextlib.suppress(OSError, TimeoutError):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /_stcore/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                     "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n".encode())
        try:
            line = await asyncio.wait_for(reader.readline(), 10)
            return line.decode().strip(), time.monotonic() - start
        finally:
            writer.close()
    return "", time.monotonic() - start


async def files(url: str) -> dict:
    """IDLE idle connections held open; the health check and a new websocket meanwhile."""
    port = int(url.rsplit(":", 1)[1])
    held = await flood.idle_sockets(port, IDLE)
    try:
        await asyncio.sleep(2.0)  # those past the limit wait to be accepted
        health = await asyncio.to_thread(health_s, url)
        answer, answer_s = await websocket(port)
        return {"idle": len(held), "health_s": health, "websocket": answer, "websocket_s": answer_s}
    finally:
        for writer in held:
            writer.close()


def files_row(v: dict) -> Row:
    refused = v["websocket"].startswith("HTTP/1.1 503")
    health = seconds(v["health_s"]) if v["health_s"] < float("inf") else "no answer in 10 s"
    return Row(f"class attack · hard limit of {HARD:,} open files", f"a server whose hard limit is {HARD:,} open "
               f"files (now {v['open_files'][0]:,}/{v['open_files'][1]:,}); {v['idle']:,} idle TCP connections from "
               "one address; the health check, a new websocket", f"health {health}; websocket answered "
               f"“{v['websocket'] or 'nothing'}” in {seconds(v['websocket_s'])}; log {v['lines']:,} lines",
               "before: health timed out (10 s), 219k tracebacks in the log", "—",
               f"health ≤ {HEALTH_S:g} s, websocket refused (503), log < {LINES} lines",
               v["health_s"] <= HEALTH_S and refused and v["lines"] < LINES, v)


def run_one(name: str) -> list[Row]:
    """One attack on a server of its own (spoof: the repo's defaults; files: under the hard limit, set as it starts)."""
    if name == "spoof":  # none of the proxy settings this process has
        with tempfile.TemporaryDirectory() as folder, more_files(), \
                started([HOME], {"CLASS_DATA": folder} | dict.fromkeys(PROXY_ENV)) as (server,):
            return [spoof_row(asyncio.run(spoof(server.url)))]
    with tempfile.TemporaryDirectory() as folder, more_files(), \
            started([HOME], {"CLASS_DATA": folder}, [warm], (HARD, HARD)) as (server,):
        v = asyncio.run(files(server.url)) | {"open_files": flood.open_files(server.proc.pid)}
        v["lines"] = len(server.log.read_text(errors="replace").splitlines())
        return [files_row(v)]


ATTACKS = ("spoof", "files")


if __name__ == "__main__":
    cli(lambda quick, names: [row for name in names or ATTACKS for row in run_one(name)], names=True)
