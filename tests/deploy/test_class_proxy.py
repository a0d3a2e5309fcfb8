"""Class mode's limits in the hosted setup: deploy/nginx/nginx.conf in front of a `streamlit run dashboard.py` started
under the common soft limit of 1,024 open files, with CLASS_TRUSTED_PROXIES naming nginx. A script on one address
holding more class questions than its share is answered at once (429 by nginx, or with the stage by the app), one
browser's questions past its own share are answered 429 by nginx while another browser on the address is held, and
a visitor on another address still opens its websocket and is answered by the app (which tells the two addresses
apart from nginx's X-Forwarded-For); compose gives every replica the open files it needs."""
import asyncio
import os
import resource
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from classroom import classes, holds, seat
from harness import proxy as nginx
from tests import browser_helpers as b
from tests.deploy.test_deploy import DEPLOY, ROOT, Visitor, answers_ok, require_nginx, stop, until
from tests.deploy.test_server import QUESTION, class_tables

SCRIPT, VISITOR = "127.0.0.2", "127.0.0.1"  # two loopback addresses: two clients as nginx and the app see them
HELD = 400  # nginx.conf's limit_conn class_conn: class questions held at once per address
ASKED = HELD + 150
SOFT = 1024


def lowered() -> None:
    """In the server's process before it starts: the soft limit many systems give, below this machine's."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(SOFT, hard), hard))


@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    """One server on a SQLite class database behind nginx: (nginx's URL, the server's process, the class database,
    nginx's folder)."""
    require_nginx()
    data, port = tmp_path_factory.mktemp("class-data"), b.free_port()
    # FORWARDED_ALLOW_IPS="": the server's uvicorn takes X-Forwarded-For from 127.0.0.1 by default, which would hide
    # whether class mode reads it itself, as it must behind a proxy at another address (Compose's nginx).
    env = {**os.environ, "CLASS_DATA": str(data), "CLASS_TRUSTED_PROXIES": "127.0.0.1", "FORWARDED_ALLOW_IPS": ""}
    env.pop("CLASS_DATABASE_URL", None)
    with open(data / "server.log", "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port), "--server.address",
             "127.0.0.1", "--server.headless", "true"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=lowered)
    request.addfinalizer(lambda: stop(server))
    answered = until(lambda: server.poll() is not None or answers_ok(f"http://127.0.0.1:{port}/_stcore/health"))
    assert answered and server.poll() is None, (data / "server.log").read_text()[-2000:]
    made, _ = class_tables(data)
    workdir, front = tmp_path_factory.mktemp("nginx"), b.free_port()
    proxy = nginx.start(workdir, [f"127.0.0.1:{port}"], f"127.0.0.1:{front}")
    request.addfinalizer(lambda: stop(proxy))
    url = f"http://127.0.0.1:{front}"
    assert until(lambda: answers_ok(f"{url}/_stcore/health")), (workdir / "nginx.log").read_text()[-2000:]
    return url, server, made, workdir


def stage_of(url: str) -> str | None:
    """The stage the route answers at once (a question with no stage shown), None while it says to ask again."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.read().decode()
    except urllib.error.HTTPError:
        return None


async def ask(port: int, path: str, source: str, cookie: str = "") -> tuple[asyncio.StreamReader,
                                                                            asyncio.StreamWriter]:
    """A GET of `path` sent from the address `source` (with a Cookie header, given one) on a connection of its own,
    not yet answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    cookies = f"Cookie: {cookie}\r\n" if cookie else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{cookies}Connection: close\r\n\r\n".encode())
    await writer.drain()
    return reader, writer


async def status(reader: asyncio.StreamReader) -> int:
    """The status of the answer read from `reader`."""
    return int((await reader.readline()).split()[1])


async def held(port: int, path: str, source: str, n: int, cookie: str = "", expected: int = 0) -> tuple[list[int],
                                                                                                  list]:
    """n questions sent together: (the statuses of those answered within 10 s, or within a second of the `expected`
    number answered, and the connections of all of them)."""
    asked = await asyncio.gather(*(ask(port, path, source, cookie) for _ in range(n)))
    pending = {asyncio.ensure_future(status(reader)) for reader, _ in asked}
    answered: list[int] = []
    end = time.monotonic() + 10  # within the route's 20 s hold, a held question is not answered
    while pending and time.monotonic() < end:
        done, pending = await asyncio.wait(pending, timeout=1, return_when=asyncio.FIRST_COMPLETED)
        answered += [task.result() for task in done]
        if len(answered) >= expected and not done:  # a second with nothing more answered: the rest are held
            break
    for task in pending:
        task.cancel()
    return answered, asked


async def flood(url: str, path: str, visitor_path: str) -> tuple[list[int], int, list[str]]:
    """ASKED questions from SCRIPT held open; once every one not held is answered, a visitor's question from VISITOR
    and its websocket's session: (the statuses answered to the script, the visitor's status, its session's messages)."""
    port = int(url.rsplit(":", 1)[1])
    answered, asked = await held(port, path, SCRIPT, ASKED, expected=ASKED - holds.HELD_PER_SEAT)
    reader, writer = await ask(port, visitor_path, VISITOR)
    visitor_s = await asyncio.wait_for(status(reader), 30)
    writer.close()
    session = await asyncio.to_thread(Visitor(url).session)
    for _, connection in asked:
        connection.close()
    return answered, visitor_s, session


async def browsers(url: str, path: str, cookies: tuple[str, str]) -> tuple[list[int], list[int]]:
    """Twenty questions from one browser, then three from another on the same address: the statuses each was
    answered within 10 s (the rest are held)."""
    port = int(url.rsplit(":", 1)[1])
    first, asked = await held(port, path, SCRIPT, 20, cookies[0], expected=20 - holds.HELD_PER_SEAT)
    second, more = await held(port, path, SCRIPT, 3, cookies[1])
    for _, connection in asked + more:
        connection.close()
    return first, second


def test_the_server_takes_every_open_file_its_hard_limit_allows(site):
    _, server, _, _ = site
    limits = Path(f"/proc/{server.pid}/limits").read_text()
    soft, hard = next(line for line in limits.splitlines() if line.startswith("Max open files")).split()[3:5]
    assert soft == hard and int(soft) > SOFT, limits


def test_holds_from_one_address_past_its_share_are_answered_at_once_and_a_visitor_from_another_still_comes_in(site):
    url, _, made, workdir = site
    code = classes.start(made, QUESTION, now=time.time()).code  # its stage holds for a minute (no teacher seen)
    stage = until(lambda: stage_of(f"{url}/_class/stage?c={code}"))  # once a read of the live classes has found it
    with ThreadPoolExecutor(1) as thread:  # a thread of its own: Playwright's sync API may hold this one's loop
        answered, visitor_s, session = thread.submit(asyncio.run, flood(
            url, f"/_class/stage?c={code}&shown={stage}", f"/_class/stage?c={code}&shown=another")).result()
    # nginx's limit_conn answers 429 past HELD at once; the app holds a browser without a seat no more than
    # HELD_PER_SEAT and answers the rest at once with the stage (and a Retry-After)
    assert len(answered) == ASKED - holds.HELD_PER_SEAT and set(answered) <= {200, 429}
    assert visitor_s == 200  # the app keys its own hold limit by the address nginx saw, not by nginx's
    assert "new_session" in session and "script_finished" in session
    assert "worker_connections are not enough" not in (workdir / "nginx.log").read_text()


def test_one_browser_holding_its_share_leaves_the_address_s_to_another_browser_there(site):
    url, _, made, _ = site
    code = classes.start(made, QUESTION, now=time.time()).code
    stage = until(lambda: stage_of(f"{url}/_class/stage?c={code}"))
    key = classes.secret(made, "a key the server may not have stored yet")
    cookies = tuple(f"{seat.COOKIES['seat']}={seat.sign(key, name)}" for name in ("classmate", "student"))
    with ThreadPoolExecutor(1) as thread:
        first, second = thread.submit(asyncio.run, browsers(
            url, f"/_class/stage?c={code}&shown={stage}", cookies)).result()
    assert sorted(first) == [429] * (20 - holds.HELD_PER_SEAT)  # nginx's limit per browser, at once
    assert second == []  # the other browser's questions are held, as its share allows


def test_compose_gives_every_replica_and_nginx_the_open_files_they_need_and_names_the_trusted_proxy():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed: compose.yaml is checked as text only")
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    conf = (DEPLOY / "nginx" / "nginx.conf").read_text()
    rlimit = int(conf.split("worker_rlimit_nofile", 1)[1].split(";")[0])
    for name in ("app", "nginx"):
        nofile = services[name]["ulimits"]["nofile"]
        assert nofile["soft"] == nofile["hard"] >= rlimit, name
    proxy = services["nginx"]["networks"]["default"]["ipv4_address"]
    assert services["app"]["environment"]["CLASS_TRUSTED_PROXIES"] == proxy  # nginx alone is believed
    assert "CLASS_TRUSTED_PROXIES=127.0.0.1" in (DEPLOY / "local.sh").read_text()
