"""Whose X-Forwarded-For the server believes (server/forwarded.py): a `streamlit run dashboard.py` started as a host
starts it, with no proxy named, keys a client on 127.0.0.1 as 127.0.0.1 whatever addresses its header names, so
class mode's per-address limit on held class questions holds for it (the questions past it are answered at once, not
held); with CLASS_TRUSTED_PROXIES=127.0.0.1 the header is read, and each address it names has a share of its own. The
recipes name the same proxies to both."""
import asyncio
import ipaddress
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from classroom import classes, holds
from tests import browser_helpers as b
from tests.deploy.test_class_proxy import stage_of, status
from tests.deploy.test_deploy import DEPLOY, ROOT, answers_ok, stop, until
from tests.deploy.test_server import QUESTION, class_tables

ASKED = holds.HELD_PER_ADDRESS + 50
FIRST = ipaddress.ip_address("198.18.0.0")  # a range kept for tests: ASKED addresses that are nobody's


def launch(data, env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    """`streamlit run dashboard.py` on a free port with its classes in `data` and `env` (no proxy named and no
    database URL unless env names them), its log in data/server.log: (its process, its port)."""
    port = b.free_port()
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("CLASS_DATABASE_URL", "CLASS_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS")}
    with open(data / "server.log", "wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port), "--server.address",
             "127.0.0.1", "--server.headless", "true"], cwd=ROOT, env={**environment, "CLASS_DATA": str(data), **env},
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return server, port


def ready(server: subprocess.Popen, port: int, data) -> None:
    """Return once the server answers its health check; fail with its log if it exits or does not within 60 s."""
    answered = until(lambda: server.poll() is not None or answers_ok(f"http://127.0.0.1:{port}/_stcore/health"))
    assert answered and server.poll() is None, (data / "server.log").read_text()[-2000:]


@pytest.fixture(scope="module")
def servers(request, tmp_path_factory):
    """Two servers started together on class databases of their own, one as a host runs it (no proxy named), one
    with 127.0.0.1 named as a trusted proxy: {"default" | "trusted": (its port, its database)}."""
    started = {}
    for name, env in (("default", {}), ("trusted", {"CLASS_TRUSTED_PROXIES": "127.0.0.1"})):
        data = tmp_path_factory.mktemp(f"class-{name}")
        server, port = launch(data, env)
        request.addfinalizer(lambda server=server: stop(server))
        started[name] = (server, port, data)
    for server, port, data in started.values():
        ready(server, port, data)
    return {name: (port, class_tables(data)[0]) for name, (_, port, data) in started.items()}


async def spoofed(port: int, path: str, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A GET of `path` from 127.0.0.1 whose X-Forwarded-For names `address`, not yet answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Forwarded-For: {address}\r\n"
                 "Connection: close\r\n\r\n".encode())
    await writer.drain()
    return reader, writer


async def answered_at_once(port: int, path: str, wait_s: float = 5.0) -> list[int]:
    """ASKED questions, each naming an address of its own: the statuses of those answered within `wait_s` (a held
    question is answered when the class moves on, or after the watch's hold of 20 s; one past the limits at once)."""
    asked = await asyncio.gather(*(spoofed(port, path, str(FIRST + i)) for i in range(ASKED)))
    done, pending = await asyncio.wait([asyncio.ensure_future(status(reader)) for reader, _ in asked], timeout=wait_s)
    for task in pending:
        task.cancel()
    for _, writer in asked:
        writer.close()
    return [task.result() for task in done]


def held_questions(port: int, made) -> list[int]:
    """A class opened, then answered_at_once on its stage (once the server knows the class)."""
    code = classes.start(made, QUESTION, now=time.time()).code
    url = f"http://127.0.0.1:{port}/_class/stage?c={code}"
    stage = until(lambda: stage_of(url))
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: Playwright's sync API may hold this thread's
        return thread.submit(asyncio.run, answered_at_once(port, f"/_class/stage?c={code}&shown={stage}")).result()


def test_a_local_client_naming_other_addresses_is_still_one_address(servers):
    port, made = servers["default"]
    assert len(held_questions(port, made)) >= ASKED - holds.HELD_PER_ADDRESS  # at most the address's share held


def test_the_header_is_read_from_a_proxy_named_in_class_trusted_proxies(servers):
    port, made = servers["trusted"]
    assert held_questions(port, made) == []  # each named address holds one question of its share


def test_every_recipe_has_the_server_believe_the_proxies_class_mode_trusts():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed: compose.yaml is not read")
    app = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]["app"]["environment"]
    assert app["FORWARDED_ALLOW_IPS"] == app["CLASS_TRUSTED_PROXIES"]  # nginx's address alone
    assert "CLASS_TRUSTED_PROXIES=127.0.0.1 FORWARDED_ALLOW_IPS=127.0.0.1 " in (DEPLOY / "local.sh").read_text()
    assert re.search(r'^\s+FORWARDED_ALLOW_IPS=""$', (ROOT / "Dockerfile").read_text(), flags=re.M)  # nobody
