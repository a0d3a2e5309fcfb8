"""Warm rerun time of every page in AppTest, next to a floor page that draws one small Altair chart.

Run `python -m bench.pages [--runs N] [--profile]`. Every page (and the floor, bench/floor_app.py) is opened in
its own AppTest session and run once to warm caches (GloVe loads once per process); then RUNS rounds rerun every
session once each, in turn, so the floor and the pages share the same conditions. Each rerun is timed twice:
wall clock (what a visitor waits) and CPU time of this process (all threads; steady when other programs load the
machine). Prints medians as a Markdown table; a page slower than TARGET × the floor on either clock is profiled
(cProfile of one rerun, inside the thread where AppTest runs the script) below the table.
"""
import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import statistics
import string
import time
from pathlib import Path

from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from harness.apptest import PAGES, run_page

ROOT = Path(__file__).resolve().parents[1]
FLOOR = "bench/floor_app.py"
RUNS = 30
TARGET = 3.0
TIMEOUT = 120
WORST = "worst input"  # the factor page with a sentence of 64 unknown 12-letter words
WORST_SENTENCE = " ".join("".join(random.Random(i).choices(string.ascii_lowercase, k=12)) for i in range(64))


def sessions() -> dict[str, AppTest]:
    """One warmed AppTest per page, the floor first."""
    out = {FLOOR: AppTest.from_file(str(ROOT / FLOOR), default_timeout=TIMEOUT).run(),
           "pages/0_Home.py": run_page(None, timeout=TIMEOUT)}
    out.update({p: run_page(p, timeout=TIMEOUT) for p in PAGES})
    out[WORST] = run_page("pages/2_Factor_matrix.py", {"sentence": WORST_SENTENCE}, timeout=TIMEOUT)
    for name, at in out.items():
        if at.exception:
            raise RuntimeError(f"{name} raised: {at.exception[0].value}")
    return out


def rerun_ms(at: AppTest) -> tuple[float, float]:
    """Wall-clock and CPU milliseconds (all threads of this process) of one rerun of the session's current page."""
    wall, cpu = time.perf_counter(), time.process_time()
    at.run()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def profile(at: AppTest, top: int = 30) -> str:
    """cProfile of one rerun inside the script thread (AppTest runs the page there), top functions by cumulative
    time."""
    profiler = cProfile.Profile()
    original = script_runner.exec_func_with_error_handling
    script_runner.exec_func_with_error_handling = lambda *a, **kw: profiler.runcall(original, *a, **kw)
    try:
        at.run()
    finally:
        script_runner.exec_func_with_error_handling = original
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--profile", action="store_true", help="profile every page, not only those that miss")
    args = parser.parse_args()
    ats = sessions()
    wall = {name: [] for name in ats}
    cpu = {name: [] for name in ats}
    for _ in range(args.runs):
        for name, at in ats.items():
            w, c = rerun_ms(at)
            wall[name].append(w)
            cpu[name].append(c)
    wall_med = {name: statistics.median(v) for name, v in wall.items()}
    cpu_med = {name: statistics.median(v) for name, v in cpu.items()}
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load average {load}. "
          f"AppTest warm reruns: median of {args.runs} interleaved rounds. Target: ≤ {TARGET:g}× the floor.\n")
    print("| page | wall median ms | wall min ms | wall ratio | CPU median ms | CPU ratio | met |")
    print("|---|---:|---:|---:|---:|---:|:---:|")
    slow = []
    for name in ats:
        w_ratio, c_ratio = wall_med[name] / wall_med[FLOOR], cpu_med[name] / cpu_med[FLOOR]
        met = max(w_ratio, c_ratio) <= TARGET
        if name != FLOOR and (not met or args.profile):
            slow.append(name)
        print(f"| {name} | {wall_med[name]:.1f} | {min(wall[name]):.1f} | {w_ratio:.2f}× | {cpu_med[name]:.1f} "
              f"| {c_ratio:.2f}× | {'—' if name == FLOOR else 'yes' if met else '**no**'} |")
    for name in slow:
        print(f"\n### cProfile of one rerun of {name}\n\n```\n{profile(ats[name])}```")


if __name__ == "__main__":
    main()
