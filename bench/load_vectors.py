"""Cold-process cost of the GloVe vectors: engine import, load_glove(), memory, most_similar; spelling suggestions for
the worst input; parsing a large text upload.

Run `python -m bench.load_vectors [--profile]`. Each run is a fresh interpreter (cold imports and caches)
after one discarded warm-up run (warm OS file cache). Prints medians as a Markdown table.
"""
import cProfile
import importlib
import json
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 5
WARM_CALLS = 20
LOAD_TARGET_S = 0.5
MEMORY_TARGET_MB = 250
SUGGEST_COLD_TARGET_MS = 500
SUGGEST_WARM_TARGET_MS = 50
PARSE_TARGET_S = 1.0
UPLOAD_MB = 46
MB = 2**20
ROOT = Path(__file__).resolve().parents[1]
MODULES = ("engine.sources", "engine.tokens", "engine.spelling", "engine.formats", "engine.positional",
           "engine.layers", "engine.attention", "engine.alignment")


def memory() -> dict[str, float]:
    """This process's resident (RSS) and unique (USS, NaN where unavailable) memory in MB."""
    import psutil

    proc = psutil.Process()
    try:
        info = proc.memory_full_info()
        return {"rss": info.rss / MB, "uss": getattr(info, "uss", float("nan")) / MB}
    except psutil.AccessDenied:
        return {"rss": proc.memory_info().rss / MB, "uss": float("nan")}


def timed(f):
    """(seconds, result) of one call of f()."""
    t = time.perf_counter()
    result = f()
    return time.perf_counter() - t, result


def measure() -> dict[str, float]:
    """One run in this (fresh) process."""
    memory()  # import psutil before the baseline so it is not counted as load memory
    import_s, (sources, _, spelling, formats, *_) = timed(lambda: [importlib.import_module(m) for m in MODULES])
    base = memory()
    load_s, kv = timed(sources.load_glove)
    loaded = memory()
    first_s, _ = timed(lambda: kv.most_similar("milk", topn=10))
    searched = memory()
    warm = [timed(lambda: kv.most_similar("milk", topn=10))[0] for _ in range(WARM_CALLS)]
    assert len(kv) == 400_000
    return {
        "import_s": import_s, "load_s": load_s, "base_rss": base["rss"], "base_uss": base["uss"],
        "load_rss": loaded["rss"] - base["rss"], "load_uss": loaded["uss"] - base["uss"],
        "search_rss": searched["rss"] - base["rss"], "search_uss": searched["uss"] - base["uss"],
        "first_ms": first_s * 1000, "warm_ms": statistics.median(warm) * 1000,
        **worst_suggestions(spelling, kv), **upload_parse(formats, kv),
    }


def worst_suggestions(spelling, kv) -> dict[str, float]:
    """suggest() for a sentence of 64 unknown 12-letter words: the first time (the spelling index is built then) and
    again (from the cache), as on a rerun."""
    import numpy as np

    rng = np.random.default_rng(0)
    words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 12)) for _ in range(64)]
    cold, _ = timed(lambda: [spelling.suggest(kv, w) for w in words])
    warm = [timed(lambda: [spelling.suggest(kv, w) for w in words])[0] for _ in range(WARM_CALLS)]
    return {"suggest_cold_ms": cold * 1000, "suggest_warm_ms": statistics.median(warm) * 1000}


def upload_text(kv) -> bytes:
    """The first GloVe words as a text upload of UPLOAD_MB MB, five decimals as GloVe writes them (made once)."""
    path = Path(tempfile.gettempdir()) / f"bench-glove-{UPLOAD_MB}mb.txt"
    if not path.exists():
        lines, size = [], 0
        for word, row in zip(kv.index_to_key, kv.vectors, strict=False):
            lines.append(f"{word} " + " ".join(f"{x:.5f}" for x in row) + "\n")
            size += len(lines[-1].encode())
            if size >= UPLOAD_MB * 2**20:
                break
        path.write_bytes("".join(lines).encode())
    return path.read_bytes()


def upload_parse(formats, kv) -> dict[str, float]:
    """load_text_vectors() on the upload (pandas imported beforehand, as the app has it), next to its line-by-line
    fallback on the same bytes."""
    import numpy as np
    import pandas  # noqa: F401

    data = upload_text(kv)
    parse_s, parsed = timed(lambda: formats.load_text_vectors(data, max_bytes=len(data)))
    matrix = np.empty(parsed.vectors.shape, dtype=np.float32)
    careful_s, words = timed(lambda: formats.careful_rows(formats.text_lines(data), matrix, None))
    assert words == parsed.index_to_key and np.array_equal(matrix, parsed.vectors)
    return {"parse_s": parse_s, "careful_s": careful_s}


def profile_load() -> None:
    """cProfile of load_glove() in this (fresh) process, after the engine imports."""
    sources, *_ = [importlib.import_module(m) for m in MODULES]
    profiler = cProfile.Profile()
    profiler.runcall(sources.load_glove)
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(20)


def child(mode: str) -> str:
    """Stdout of this module run in a fresh interpreter in the given mode."""
    out = subprocess.run([sys.executable, "-m", "bench.load_vectors", mode], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return out.stdout


ROWS = [  # key, label, format, target (None: no target)
    ("import_s", "Import engine modules (s)", "{:.3f}", None),
    ("load_s", "load_glove(), 400,000 words (s)", "{:.3f}", LOAD_TARGET_S),
    ("base_rss", "RSS baseline after imports (MB)", "{:.1f}", None),
    ("base_uss", "USS baseline after imports (MB)", "{:.1f}", None),
    ("load_rss", "RSS after load, above baseline (MB)", "{:.1f}", MEMORY_TARGET_MB),
    ("load_uss", "USS after load, above baseline (MB)", "{:.1f}", MEMORY_TARGET_MB),
    ("search_rss", "RSS after first most_similar, above baseline (MB)", "{:.1f}", MEMORY_TARGET_MB),
    ("search_uss", "USS after first most_similar, above baseline (MB)", "{:.1f}", MEMORY_TARGET_MB),
    ("first_ms", "most_similar('milk', topn=10), first call (ms)", "{:.1f}", None),
    ("warm_ms", f"most_similar('milk', topn=10), warm median of {WARM_CALLS} (ms)", "{:.1f}", None),
    ("suggest_cold_ms", "suggest(), worst input: 64 unknown 12-letter words, first time (ms)", "{:.1f}",
     SUGGEST_COLD_TARGET_MS),
    ("suggest_warm_ms", f"suggest(), worst input: the same 64 words again, warm median of {WARM_CALLS} (ms)", "{:.2f}",
     SUGGEST_WARM_TARGET_MS),
    ("parse_s", f"load_text_vectors(), {UPLOAD_MB} MB GloVe text upload (s)", "{:.2f}", PARSE_TARGET_S),
    ("careful_s", f"the line-by-line path on the same {UPLOAD_MB} MB (the fallback; the whole parser before) (s)",
     "{:.2f}", None),
]
UNITS = {"_s": "s", "_ms": "ms"}


def table(runs: list[dict[str, float]]) -> str:
    """Markdown table of medians (with min and max) against the targets."""
    lines = [f"| Measure | Median of {len(runs)} | Min | Max | Target | Met |", "|---|---:|---:|---:|---:|:---:|"]
    for key, label, fmt, target in ROWS:
        values = [r[key] for r in runs]
        med = statistics.median(values)
        unit = next((u for suffix, u in UNITS.items() if key.endswith(suffix)), "MB")
        goal, met = ("", "") if target is None else (f"≤ {target} {unit}", "yes" if med <= target else "**no**")
        lines.append(f"| {label} | {fmt.format(med)} | {fmt.format(min(values))} | {fmt.format(max(values))} "
                     f"| {goal} | {met} |")
    return "\n".join(lines)


def main() -> None:
    """Warm-up, RUNS fresh-process runs, the table, and a profile of load_glove() if it misses its target."""
    child("--measure")
    runs = [json.loads(child("--measure")) for _ in range(RUNS)]
    print(f"Python {platform.python_version()}, {platform.machine()}, {platform.system()}; "
          f"{RUNS} fresh processes after one warm-up.\n")
    print(table(runs))
    if "--profile" in sys.argv or statistics.median(r["load_s"] for r in runs) > LOAD_TARGET_S:
        print("\ncProfile of load_glove() in a fresh process (top 20 by cumulative time):\n")
        print(child("--profile-load"))


if __name__ == "__main__":
    if sys.argv[1:] == ["--measure"]:
        print(json.dumps(measure()))
    elif sys.argv[1:] == ["--profile-load"]:
        profile_load()
    else:
        main()
