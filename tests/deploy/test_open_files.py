"""A server whose hard limit on open files is 1,024 (a container or a host that forbids more), under 1,100 idle TCP
connections (server/files.py): its health check still answers within seconds, a new websocket is refused at once with
an HTTP 503 that says why and when to come back (not left to hang), and its log stays a few lines long, the first
saying what the limit holds."""
import asyncio
import contextlib
import os
import resource
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin, Subprotocol

from harness.health import health_s
from tests import browser_helpers as b
from tests.deploy.test_deploy import ROOT, answers_ok, stop, until

HARD, IDLE = 1024, 1100
SCRIPT = "127.0.0.2"  # the idle connections' loopback address, apart from the checks' 127.0.0.1


def hard_limit() -> None:
    """In the server's process before it starts: a hard limit of HARD open files, which it cannot raise."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (HARD, HARD))


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """A server started under the hard limit: (its URL, its log)."""
    data, port = tmp_path_factory.mktemp("open-files"), b.free_port()
    env = {**os.environ, "CLASS_DATA": str(data)}
    env.pop("CLASS_DATABASE_URL", None)
    with open(data / "server.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port), "--server.address",
             "127.0.0.1", "--server.headless", "true"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=hard_limit)
    request.addfinalizer(lambda: stop(proc))
    url = f"http://127.0.0.1:{port}"
    answered = until(lambda: proc.poll() is not None or answers_ok(f"{url}/_stcore/health"))
    assert answered and proc.poll() is None, (data / "server.log").read_text()[-2000:]
    return url, data / "server.log"


def websocket(url: str) -> tuple[int, str, str]:
    """(status, Retry-After, body) a new websocket is answered with: 101 once it opens, 0 for no answer within 10 s."""
    host = url.removeprefix("http://")
    try:
        with connect(f"ws://{host}/_stcore/stream", subprotocols=[Subprotocol("streamlit")], origin=Origin(url),
                     open_timeout=10):
            return 101, "", ""
    except InvalidStatus as refused:
        answer = refused.response
        return answer.status_code, answer.headers.get("Retry-After", ""), answer.body.decode()
    except (TimeoutError, OSError) as failed:
        return 0, "", repr(failed)


async def idle_connections(url: str, n: int) -> list[asyncio.StreamWriter]:
    """n TCP connections from SCRIPT that send nothing (as many as opened)."""
    port = int(url.rsplit(":", 1)[1])

    async def one():
        with contextlib.suppress(OSError):
            return (await asyncio.open_connection("127.0.0.1", port, local_addr=(SCRIPT, 0)))[1]
    return [w for w in await asyncio.gather(*(one() for _ in range(n))) if w is not None]


async def under_idle_connections(url: str) -> tuple[int, float, tuple[int, str, str]]:
    """IDLE idle connections held open while the health check and a websocket are tried: (how many opened, the
    health check's seconds, the websocket's answer)."""
    held = await idle_connections(url, IDLE)
    try:
        await asyncio.sleep(2)  # the connections past the limit wait to be accepted meanwhile
        return len(held), await asyncio.to_thread(health_s, url), await asyncio.to_thread(websocket, url)
    finally:
        for writer in held:
            writer.close()


def test_idle_connections_past_the_limit_leave_the_health_check_answering_and_new_websockets_refused(server):
    url, log = server
    assert websocket(url)[0] == 101  # with room, websockets open
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this process holds the other end of each connection
    try:
        with ThreadPoolExecutor(1) as thread:  # a loop of its own: Playwright's sync API may hold this thread's
            opened, health, refused = thread.submit(asyncio.run, under_idle_connections(url)).result()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert opened == IDLE and health < 5
    assert refused[:2] == (503, "10") and "open files" in refused[2]
    lines = log.read_text().splitlines()
    assert len(lines) < 50, "\n".join(lines[:60])
    assert any(f"Open files: limit {HARD:,} (the hard limit)" in line for line in lines), "\n".join(lines)
