"""Two attacks on a hosted class at the server's edge: spoofed addresses, and a hard limit of open files."""
import asyncio
import contextlib
import ipaddress
import resource
import tempfile
import time

from bench import class_flood as flood
from bench.class_tab import ask
from bench.clients import warm
from bench.common import Row, cli, seconds
from bench.servers import HOME, started
from classroom import holds
from harness.health import health_s

SPOOFED, WAIT_S = 2000, 5.0  # questions; how long an answer counts as "at once" (a hold lasts 20 s)
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


async def spoofed(port: int, path: str, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A GET of `path` from 127.0.0.1 naming `address` in X-Forwarded-For, not yet answered (None if it failed)."""
    with contextlib.suppress(OSError):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: {address}\r\n"
                     "Connection: close\r\n\r\n".encode())
        await writer.drain()
        return reader, writer
    return None


async def status(reader: asyncio.StreamReader) -> int:
    """The status of the answer read from `reader` (0 for none)."""
    line = await reader.readline()
    return int(line.split()[1]) if line else 0


async def spoof(url: str) -> dict:
    """SPOOFED questions on a live class's stage, each naming another address: how many were answered at once."""
    import httpx2

    teacher, code = await ask(url, "teacher")
    async with httpx2.AsyncClient(timeout=30) as client:
        stage = (await client.get(f"{url}/_class/stage?c={code}")).text
    port, path = int(url.rsplit(":", 1)[1]), f"/_class/stage?c={code}&shown={stage}"
    asked = [a for a in await asyncio.gather(*(spoofed(port, path, str(FIRST + i)) for i in range(SPOOFED))) if a]
    done, pending = await asyncio.wait([asyncio.ensure_future(status(r)) for r, _ in asked], timeout=WAIT_S)
    for task in pending:
        task.cancel()
    for _, writer in asked:
        writer.close()
    await teacher.close()
    statuses = [task.result() for task in done if not task.exception()]
    return {"asked": len(asked), "held": len(pending), "at_once": {s: statuses.count(s) for s in set(statuses)}}


def spoof_row(v: dict) -> Row:
    limit = holds.HELD_PER_ADDRESS
    return Row("class attack · spoofed addresses", f"{SPOOFED:,} questions held on a live class from 127.0.0.1, each "
               "naming an address of its own in X-Forwarded-For; the server as the repo starts it (no "
               "CLASS_TRUSTED_PROXIES)", f"{v['held']:,} of {v['asked']:,} held; answered at once {v['at_once']}",
               f"before: {SPOOFED:,} of {SPOOFED:,} held", "—", f"≤ {limit} held (one address's share)",
               v["held"] <= limit and v["asked"] == SPOOFED, v)


def spoof_rows() -> list[Row]:
    """The spoofed flood on one server with the repo's defaults (none of the proxy settings this process has)."""
    with tempfile.TemporaryDirectory() as folder, more_files(), \
            started([HOME], {"CLASS_DATA": folder} | dict.fromkeys(PROXY_ENV)) as (server,):
        return [spoof_row(asyncio.run(spoof(server.url)))]


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


def files_rows() -> list[Row]:
    """The idle flood on one server started under the hard limit (set on its process as it starts)."""
    with tempfile.TemporaryDirectory() as folder, more_files(), \
            started([HOME], {"CLASS_DATA": folder}, [warm], (HARD, HARD)) as (server,):
        v = asyncio.run(files(server.url)) | {"open_files": flood.open_files(server.proc.pid)}
        v["lines"] = len(server.log.read_text(errors="replace").splitlines())
        return [files_row(v)]


def run_one(name: str) -> list[Row]:
    """One attack on a server of its own: its rows."""
    return spoof_rows() if name == "spoof" else files_rows()


ATTACKS = ("spoof", "files")


if __name__ == "__main__":
    cli(lambda quick, names: [row for name in names or ATTACKS for row in run_one(name)], names=True)
