"""Class mode hosted on several replicas: two `streamlit run dashboard.py` processes share one real PostgreSQL
database (CLASS_DATABASE_URL, as deploy/compose.yaml sets it) behind nginx with deploy/nginx/nginx.conf. A teacher on
one process, students on the other and through nginx: every answer reaches the teacher's count, and the reveal every
student."""
import os
import subprocess
import sys

import pytest

from harness import proxy as nginx
from tests import browser_helpers as b
from tests.browser.test_class import one_question
from tests.deploy.test_deploy import answers_ok, require_nginx, stop, until
from tests.postgres import postgres_server  # noqa: F401 (a fixture)

HOSTS = ("127.0.0.1", "127.0.0.2")


@pytest.fixture(scope="module")
def replicas(request, postgres_server, tmp_path_factory):  # noqa: F811
    """Two processes on one PostgreSQL database, and nginx in front of them: their base URLs, nginx's last."""
    require_nginx()
    logs, port = tmp_path_factory.mktemp("replicas"), b.free_port()
    env = {**os.environ, "CLASS_DATABASE_URL": postgres_server}
    procs = []
    for host in HOSTS:
        with open(logs / f"{host}.log", "wb") as log:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.port", str(port),
                 "--server.address", host, "--server.headless", "true"],
                cwd=b.ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL))
        request.addfinalizer(lambda proc=procs[-1]: stop(proc))
    backends = [f"{host}:{port}" for host in HOSTS]
    for address, proc in zip(backends, procs, strict=True):
        answered = until(lambda p=proc, a=address: p.poll() is not None or answers_ok(f"http://{a}/_stcore/health"))
        assert answered and proc.poll() is None, (logs / f"{address.split(':')[0]}.log").read_text()[-2000:]
    workdir, front = tmp_path_factory.mktemp("nginx"), b.free_port()
    proxy = nginx.start(workdir, backends, f"127.0.0.1:{front}")
    request.addfinalizer(lambda: stop(proxy))
    url = f"http://127.0.0.1:{front}"
    assert until(lambda: answers_ok(f"{url}/_stcore/health")), (workdir / "nginx.log").read_text()[-2000:]
    return [f"http://{a}" for a in backends] + [url]


def test_answers_on_one_replica_reach_the_teacher_on_another_and_the_reveal_reaches_them(chromium, replicas):
    first, second, proxied = replicas
    pages = one_question(chromium, first, "en", student_bases=(second, proxied, second))
    for page in pages:
        b.leave(page)
