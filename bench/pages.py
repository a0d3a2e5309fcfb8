"""Server reruns: every page's warm rerun in AppTest, next to a floor page that draws one small Altair chart."""
import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import string

from streamlit.runtime.scriptrunner import script_runner
from streamlit.testing.v1 import AppTest

from bench.common import ROOT, Row, clocked, label, median, ratio, seconds, table
from harness.apptest import PAGES, run_page

FLOOR = "bench/floor_app.py"
RUNS = 30  # run alone; python -m bench: 15, --quick 3
TARGET = 3.0
TIMEOUT = 120
WORST_RERUN_MS = 50
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


def rounds(sessions: dict[str, AppTest], runs: int, before=lambda: None) -> tuple[dict, dict]:
    """Wall-clock and CPU seconds of `runs` reruns of each session, in rounds (before() ahead of each rerun)."""
    wall = {name: [] for name in sessions}
    cpu = {name: [] for name in sessions}
    for _ in range(runs):
        for name, at in sessions.items():
            before()
            (w,), (c,) = clocked(at.run)
            wall[name].append(w)
            cpu[name].append(c)
    return wall, cpu


def profile(at: AppTest, top: int = 30) -> str:
    """cProfile of one rerun in the script thread (AppTest runs the page there), top functions by cumulative time."""
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
    rows = measured(ats, args.runs)
    print(table(rows))
    print(f"\nPython {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    for name, row in zip([n for n in ats if n != FLOOR], rows, strict=True):
        if args.profile or not row.met:
            print(f"\n### cProfile of one rerun of {name}\n\n```\n{profile(ats[name])}```")


def run(quick: bool) -> list[Row]:
    """Each page's warm AppTest rerun next to the floor page, in interleaved rounds: a row per page."""
    return measured(sessions(), 3 if quick else 15)


def measured(ats: dict[str, AppTest], runs: int) -> list[Row]:
    """A row per session but the floor's: its median rerun next to the floor's, `runs` interleaved rounds."""
    wall, cpu = rounds(ats, runs)
    floor_wall, floor_cpu = median(wall[FLOOR]), median(cpu[FLOOR])
    rows = []
    for name in [n for n in ats if n not in (FLOOR, WORST)]:
        w, c = median(wall[name]), median(cpu[name])
        rows.append(Row(f"server rerun · {label(name)}", f"warm AppTest rerun of the page next to {FLOOR} (one small "
                        f"chart), interleaved; median of {runs}; wall clock (CPU time {seconds(c)} vs "
                        f"{seconds(floor_cpu)}, {ratio(c, floor_cpu)})", seconds(w), f"floor {seconds(floor_wall)}",
                        ratio(w, floor_wall), f"≤ {TARGET:g}× floor", max(w / floor_wall, c / floor_cpu) <= TARGET,
                        {"wall_s": wall[name], "cpu_s": cpu[name], "floor_wall_s": wall[FLOOR],
                         "floor_cpu_s": cpu[FLOOR]}))
    worst = median(wall[WORST])
    rows.append(Row("server rerun · worst input", "page 2 with 64 unknown 12-letter words (each gets spelling "
                    f"suggestions), warm AppTest rerun; median of {runs}", seconds(worst),
                    f"floor {seconds(floor_wall)}",
                    ratio(worst, floor_wall), f"≤ {WORST_RERUN_MS} ms", worst * 1e3 <= WORST_RERUN_MS,
                    {"wall_s": wall[WORST]}))
    return rows


if __name__ == "__main__":
    main()
