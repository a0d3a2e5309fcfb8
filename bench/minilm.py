"""The real transformer (all-MiniLM-L6-v2): one sentence's forward pass on one core, and the memory of its weights."""
import json
import sys

import numpy as np
from threadpoolctl import threadpool_limits

from bench.common import MB, Row, cli, clocked, median
from bench.load_vectors import child, memory
from engine import minilm, minilm_files, treebank

FORWARD_BUDGET_MS = 150
ARTICLE = ["the", "black", "cat", "drank", "the", "milk"]
TREEBANK_ID = "newsgroup-groups.google.com_hiddennook_e21e429b3ad58235_ENG_20050830_214700-0009"  # 25 words
PAGE = 4096
LABELS = {"article": "the article's 6 words", "treebank": "a 25-word treebank sentence",
          "64 words": "64 words (the most a page takes)", "128 pieces": "128 pieces (the most it runs)"}
LONGEST = 64  # engine.tokens.MAX_TOKENS: the longest sentence a page takes
KINDS = ("rss", "uss", "pss", "shared")


def sentences() -> dict[str, list[str]]:
    """The article's sentence, a 25-word held-out one, 64 held-out words, and as many pieces as the engine runs."""
    test = treebank.split(list(treebank.built_in()), "test")
    words = [w for s in test for w in s.tokens]
    return {"article": ARTICLE, "treebank": list(next(s.tokens for s in test if s.sent_id == TREEBANK_ID)),
            "64 words": words[:LONGEST], "128 pieces": ["a"] * (minilm.MAX_PIECES - 2)}


def forward_ms(model: minilm.Model, words: list[str], runs: int) -> dict[str, list[float]]:
    """Wall and CPU milliseconds of minilm.run (pieces, then the forward pass) on one BLAS thread, after a warm-up."""
    with threadpool_limits(1, user_api="blas"):
        minilm.run(model, words)
        wall, cpu = clocked(lambda: minilm.run(model, words), runs)
    return {"wall": [s * 1e3 for s in wall], "cpu": [s * 1e3 for s in cpu]}


def fresh(kind: str) -> dict[str, dict[str, float]]:
    """measure(kind) in a fresh interpreter."""
    return json.loads(child("--measure", kind, module="bench.minilm"))


def grown(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    """How much each figure grew."""
    return {k: after[k] - before[k] for k in after}


def touch(weights: dict[str, np.ndarray]) -> int:
    """Read a byte of every page of every weight (the whole map resident), as serving many sentences would."""
    return sum(int(w.reshape(-1).view(np.uint8)[::PAGE].sum()) for w in weights.values())


def measure(kind: str) -> dict[str, dict[str, float]]:
    """In this fresh process, memory grown by the weights: mapped (a sentence, every page), or copied by safetensors."""
    memory()  # psutil imported before the baseline
    base = memory(KINDS)
    path = minilm_files.folder() / "model.safetensors"
    if kind == "copied":
        from safetensors import safe_open

        with safe_open(path, framework="np") as f:
            weights = {name: f.get_tensor(name) for name in f.keys()}
        return {"loaded": grown(memory(KINDS), base), "bytes": {"all": sum(w.nbytes for w in weights.values()) / MB}}
    model = minilm.load()
    loaded = memory(KINDS)
    minilm.run(model, ARTICLE)
    ran = memory(KINDS)
    touch(model.weights)
    return {"loaded": grown(loaded, base), "one sentence": grown(ran, base), "every page": grown(memory(KINDS), base)}


def rows_for(times: dict[str, dict[str, list[float]]], alone: dict, beside: dict, copied: dict) -> list[Row]:
    """The forward's row and the memory rows."""
    wall = {name: median(t["wall"]) for name, t in times.items()}
    cpu = {name: median(t["cpu"]) for name, t in times.items()}
    mapped, second = alone["every page"], beside["every page"]
    return [
        Row("minilm · forward, one sentence", "minilm.run (word pieces, 6 layers × 12 heads, every attention weight "
            f"and hidden state kept) on one BLAS thread, median of {len(times['article']['wall'])}, wall (CPU): "
            + ", ".join(f"{LABELS[name]} {wall[name]:.1f} ms ({cpu[name]:.1f} ms)" for name in times),
            f"{wall['treebank']:.1f} ms", "—", "—", f"≤ {FORWARD_BUDGET_MS} ms, 128 pieces included",
            max(wall.values()) <= FORWARD_BUDGET_MS, {"ms": times}),
        Row("minilm · weights in memory", "a fresh process that loads the model, runs a sentence and then reads "
            f"every page of the weights: {mapped['rss']:.0f} MB more resident than before the load (after the load "
            f"alone {alone['loaded']['rss']:.0f} MB, the tokenizer; after one sentence "
            f"{alone['one sentence']['rss']:.0f} MB, every layer and the sentence's embedding rows); next to "
            "safetensors' numpy reader, which copies "
            "every tensor into the process", f"{mapped['rss']:.0f} MB, mapped", f"copied {copied['loaded']['uss']:.0f}"
            " MB private", "—", "—", None, {"alone": alone, "copied": copied}),
        Row("minilm · a second process", "the same in a process started while another holds every page of the map: "
            f"its own memory (USS) {second['uss']:.0f} MB, its proportional share (PSS) {second['pss']:.0f} MB: the "
            "pages are the file's, held once for every process that maps it", f"{second['uss']:.0f} MB its own",
            f"alone {mapped['uss']:.0f} MB", "—", "—", None, {"beside": beside}),
    ]


def run(quick: bool) -> list[Row]:
    """Rows for python -m bench (the model's files must have been fetched)."""
    sentence = minilm_files.missing()
    if sentence:
        return [Row("minilm · forward, one sentence", sentence, "not fetched", budget=f"≤ {FORWARD_BUDGET_MS} ms")]
    alone, copied = fresh("mapped"), fresh("copied")  # before this process maps the file
    model = minilm.load()
    times = {name: forward_ms(model, words, 10 if quick else 50) for name, words in sentences().items()}
    touch(model.weights)  # this process now holds every page: the next child shares them
    return rows_for(times, alone, fresh("mapped"), copied)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure(sys.argv[2])))
    else:
        cli(run)
