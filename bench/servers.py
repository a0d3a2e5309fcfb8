"""What the benchmarks start and watch: Streamlit servers, nginx before them, another commit's tree, CPU, memory."""
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Self

import psutil

from bench.common import MB, RESULTS, ROOT
from harness.chromium import free_port

HOME, HELLO = "dashboard.py", "bench/hello_app.py"
PEAK_EVERY_S = 0.1


class Server:
    """`streamlit run <script>` in `root` on a free port (`env` added, None: removed; `files`: its open-files limit)."""

    def __init__(self, script: str, root: Path = ROOT, env: dict[str, str | None] | None = None, files=None):
        self.script, self.root, self.port, self.proc, self.env = script, root, free_port(), None, env or {}
        self.files = files
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = RESULTS / f"server-{self.port}.log"

    def start(self) -> "Server":
        """Launch the process (returns at once; see wait_ready)."""
        RESULTS.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab" if self.proc else "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", self.script, "--server.port", str(self.port),
                 "--server.address", "127.0.0.1", "--server.headless", "true"],
                cwd=self.root, env={k: v for k, v in (os.environ | self.env).items() if v is not None}, stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if self.files is not None:  # long before its lifespan runs
            resource.prlimit(self.proc.pid, resource.RLIMIT_NOFILE, self.files)
        return self

    def wait_ready(self, timeout: float = 60) -> None:
        """Poll the health endpoint every 20 ms until the server answers 'ok'."""
        wait_health(self.url, timeout, 0.02, self)

    def stop(self) -> None:
        """Terminate the server (and any child it started), by process id."""
        if self.proc is None or self.proc.poll() is not None:
            return
        children = psutil.Process(self.proc.pid).children(recursive=True)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        for child in children:
            if child.is_running():
                child.kill()
        self.log.unlink(missing_ok=True)

    def rss_mb(self) -> float:
        """Resident memory of the server process and its children, in MB."""
        return tree_memory(self.proc.pid)["rss"]

    def __enter__(self) -> "Server":
        self.start().wait_ready()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_health(url: str, timeout: float = 30, every: float = 0.05, server: Server | None = None) -> None:
    """Poll url's health endpoint every `every` seconds until it answers ok (RuntimeError if `server` exits first)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if server is not None and server.proc.poll() is not None:
            raise RuntimeError(f"{server.script} exited with {server.proc.returncode}: "
                               f"{server.log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
            if r.read() == b"ok":
                return
        time.sleep(every)
    raise TimeoutError(f"{url} did not answer its health check within {timeout:.0f} s")


@contextlib.contextmanager
def started(scripts: list[str], env: dict | None = None, warm=(), files=None) -> Iterator[list[Server]]:
    """A server per script on ports of their own, started together, ready, warmed by each of `warm`; stopped after."""
    found: list[Server] = []
    try:
        while len(found) < len(scripts):  # free_port() may hand out a port twice before anything binds it
            server = Server(scripts[len(found)], env=env, files=files)
            if server.port not in {s.port for s in found}:
                found.append(server.start())
        for server in found:
            server.wait_ready()
        for server in found:
            for warming in warm:
                warming(server.url)
        yield found
    finally:
        for server in found:
            server.stop()


@contextlib.contextmanager
def nginx(backends: list[Server]) -> Iterator[tuple[str, int, Path]]:
    """nginx with deploy/nginx/nginx.conf in front of the backends: its URL, its master's process id and its log."""
    from harness import proxy

    with tempfile.TemporaryDirectory() as workdir:
        address = f"127.0.0.1:{free_port()}"
        proc = proxy.start(Path(workdir), [b.url.removeprefix("http://") for b in backends], address)
        try:
            wait_health(f"http://{address}")
            yield f"http://{address}", proc.pid, Path(workdir) / "nginx.log"
        finally:
            proc.terminate()
            proc.wait(10)


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """REV checked out (detached) in a temporary git worktree, removed at the end."""
    with tempfile.TemporaryDirectory(prefix="bench-tree-") as tmp:
        path = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), rev], check=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)


def tree_memory(pid: int, full: bool = False) -> dict[str, float]:
    """Resident memory (with `full`, unique memory too) of a process plus all its descendants, in MB."""
    proc = psutil.Process(pid)
    total = {"rss": 0.0, "uss": 0.0} if full else {"rss": 0.0}
    for p in [proc, *proc.children(recursive=True)]:
        try:
            info = p.memory_full_info() if full else p.memory_info()
        except psutil.NoSuchProcess:
            continue
        for kind in total:
            total[kind] += getattr(info, kind) / MB
    return total


def tree_cpu(pid: int | None, reaped: bool = True) -> float:
    """User + system CPU seconds of a process, its live descendants (and those reaped); 0 for None or one gone."""
    if pid is None:
        return 0.0
    try:
        root = psutil.Process(pid)
        t = root.cpu_times()
        total = t.user + t.system + (t.children_user + t.children_system if reaped else 0.0)
        for child in root.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                total += sum(child.cpu_times()[:2])
        return total
    except psutil.NoSuchProcess:
        return 0.0


def busy_seconds() -> float:
    """CPU seconds all cores of the machine have spent busy so far."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0) + getattr(t, "steal", 0)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes."""
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


def snapshot(pids: list[int]) -> tuple[float, float, float, float]:
    """The servers' CPU seconds, this process's, the machine's busy seconds and the time: the start of a stretch."""
    return cpu_seconds(pids), cpu_seconds([os.getpid()]), busy_seconds(), time.monotonic()


def since(before: tuple[float, float, float, float], pids: list[int]) -> tuple[float, float, float]:
    """The servers' and this process's CPU seconds since snapshot() `before`, and the cores others kept busy."""
    server0, client0, busy0, start = before
    server = cpu_seconds(pids) - server0
    client = cpu_seconds([os.getpid()]) - client0
    return server, client, (busy_seconds() - busy0 - server - client) / (time.monotonic() - start)


class Peak:
    """The largest of sample()'s values, taken every `every` seconds by a thread while inside the `with`."""

    def __init__(self, sample: Callable[[], float], every: float = PEAK_EVERY_S):
        self.sample, self.every = sample, every
        self.mb, self.done = sample(), threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def watch(self) -> None:
        while not self.done.wait(self.every):
            self.mb = max(self.mb, self.sample())

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()
