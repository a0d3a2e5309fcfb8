"""Every benchmark with its budget, as one Markdown table and a JSON file under bench/results/ (--quick: fewer)."""
import importlib
import logging
import os
import sys
import time

from bench.common import table, write_json

SUITES = ("browser", "pages", "hostile", "growth", "memory", "load_vectors", "training", "corpus", "heads", "minilm",
          "capacity", "hosting", "attack", "classroom", "class_attack")  # in this order


def main() -> None:
    quick = "--quick" in sys.argv
    suites = [importlib.import_module(f"bench.{name}").run for name in SUITES]
    # AppTest runs pages outside a server, and Streamlit warns about that on every run and cache clearing; the warnings
    # would bury the table. Filters, as Streamlit resets its loggers' levels.
    noise = ("Thread '%s': missing ScriptRunContext", "No runtime found")
    for name in ("scriptrunner_utils.script_run_context", "caching.cache_data_api"):
        logging.getLogger(f"streamlit.runtime.{name}").addFilter(lambda r: not str(r.msg).startswith(noise))

    start, load = time.perf_counter(), os.getloadavg()
    rows = []
    for suite in suites:
        t = time.perf_counter()
        rows += suite(quick)
        print(f"[{suite.__module__}.{suite.__name__}: {time.perf_counter() - t:.0f} s]", file=sys.stderr)
    elapsed = time.perf_counter() - start
    path = write_json(rows, quick=quick, elapsed=elapsed, load=load)
    print(table(rows))
    missed = [r.figure for r in rows if r.met is False]
    print(f"\n{os.cpu_count()} cores, load average {load[0]:.1f} at the start and {os.getloadavg()[0]:.1f} at the end; "
          f"{'quick' if quick else 'full'} run in {elapsed:.0f} s; "
          f"{len(missed)} budget(s) missed{': ' + ', '.join(missed) if missed else ''}. "
          f"JSON: {path.relative_to(path.parents[2])}")


if __name__ == "__main__":
    main()
