"""The learned head on held-out treebank sentences: top-1 heads, signs, key-only share, per relation; the fits' time."""
import os
import runpy
import sys
import tempfile
import time
from dataclasses import fields
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from bench import plain
from bench.common import ROOT, Row, clocked, markdown, seconds, spread
from bench.plain import ARTICLE, D_K, RANDOM_SEEDS
from engine import corpus, minilm, minilm_files, minilm_treebank, plain_trees, specialists, treebank
from engine.attention import attend, score
from engine.fit import Fit, initial_weights, load_fit
from engine.pipeline import encode
from engine.positional import WEIGHT
from engine.sources import load_glove

ARTICLE_TREE = treebank.ARTICLE
RELATIONS = ("det", "amod", "nsubj", "obj", "obl", "case", "nmod:poss", "advmod", "aux", "compound", "conj", "cc",
             "mark", "cop")
CLARK = minilm_treebank.BERT_BASE  # Clark et al. (2019)'s best BERT-base head and offset per relation
REFIT_BUDGET_S = 120.0
TOP1_FLOOR, OFFSET_MARGIN, SHARE_CEILING = 0.49, 0.12, 0.30
POSITIVE_FLOOR, NEGATIVE_FLOOR = 0.85, 0.75  # heads scored above 0, other pairs below 0
LIVE_BUDGET_S, LIVE_TOP1, LIVE_POSITIVE = 10.0, 0.40, 0.80  # page 5's run: its time and what it reaches
LABELS = {
    "head": "the shipped head (data/head-glove.npz)",
    "offset": "best fixed offset (always the word at {offset:+d} from the query)",
    "cosine": "GloVe cosine (raw rows, no position, other words only)",
    "random": f"random W (seeded, d_k {D_K}), {RANDOM_SEEDS} seeds: mean (range)",
    "templates": "template-corpus weights (data/templates-glove.npz)",
    "live": f"page 5's live recipe, refitted ({treebank.LIVE.steps} steps on {treebank.LIVE.sentences:,} sentences)",
    "gold": "the gold heads themselves (1 on each word's head, 0 elsewhere)",
}


def shares(b: treebank.Batch, s: np.ndarray, centred: bool = False) -> np.ndarray:  # [B, L, L] -> [B]
    """Key-only share of each sentence's scores, own cells too, as the pages show them (`centred`: less row means)."""
    cut = [s[i, :m, :m] for i, m in enumerate(b.length)]
    return np.array([treebank.key_only_share(treebank.row_centred(c) if centred else c) for c in cut])


def gold(b: treebank.Batch) -> np.ndarray:  # -> [B, L, L]
    """The gold pattern as scores: 1 where the key is the query's head, 0 elsewhere."""
    s = np.zeros(b.keys.shape + b.keys.shape[-1:])
    words = np.nonzero(b.head >= 0)
    s[(*words, b.head[words])] = 1.0
    return s


def measure(b: treebank.Batch, s: np.ndarray) -> dict:  # s [B, L, L]
    """Top-1 head accuracy, heads found, sign shares, mean key-only share as scored and row-centred (softmax's)."""
    has = b.head >= 0
    right = (treebank.top_key(b, s) == b.head)[has]
    positive, negative = treebank.signs(b, s)
    return {"top1": float(right.mean()), "right": int(right.sum()), "share": float(shares(b, s).mean()),
            "centred": float(shares(b, s, centred=True).mean()), "positive": positive, "negative": negative,
            "above": round(positive * len(right))}


def through(w_q, w_k):
    """Scoring through W_Q, W_K ([d, d_k] each), as every page does."""
    return lambda b: treebank.scores(b, w_q, w_k)[2]


def cosine(b: treebank.Batch) -> np.ndarray:  # -> [B, L, L]
    """τ·cos θ between the words' rows."""
    return score(b.x, b.x, cosine=True)


def on_both(batches: tuple, scoring) -> dict:
    """A kind measured on the held-out batch and on the article's sentence."""
    return {"held": measure(batches[0], scoring(batches[0])), "article": measure(batches[1], scoring(batches[1]))}


def offset_row(batches: tuple) -> dict:
    """The best fixed offset on the held-out sentences, measured like a kind (it has no scores)."""
    offset, top1 = treebank.best_offset(batches[0])
    a = batches[1]
    right = int((treebank.offset_pick(a, offset) == a.head)[a.head >= 0].sum())
    return {"offset": offset, "held": {"top1": top1}, "article": {"right": right}}


def kinds(kv, sentences: list[treebank.Sentence], live: Fit) -> dict[str, list[dict]]:
    """Each kind of W_Q, W_K (keys of LABELS) on the held-out sentences and the article's; random: one per seed."""
    test = treebank.split(sentences, "test")
    placed = treebank.batch(kv, test, WEIGHT), treebank.batch(kv, [ARTICLE_TREE], WEIGHT)
    raw = treebank.batch(kv, test, 0.0), treebank.batch(kv, [ARTICLE_TREE], 0.0)
    head, templates = load_fit(treebank.SHIPPED), load_fit(corpus.SHIPPED)
    randoms = [initial_weights(kv.vector_size, D_K, seed, 1.0)[:2] for seed in range(RANDOM_SEEDS)]
    return {
        "head": [on_both(placed, through(head.w_q, head.w_k))],
        "offset": [offset_row(placed)],
        "cosine": [on_both(raw, cosine)],
        "random": [on_both(placed, through(w_q, w_k)) for w_q, w_k in randoms],
        "templates": [on_both(placed, through(templates.w_q, templates.w_k))],
        "live": [on_both(placed, through(live.w_q, live.w_k))],
        "gold": [{where: figures | dict.fromkeys(("positive", "negative", "above"))  # its 0 means nothing: no signs
                  for where, figures in on_both(placed, gold).items()}],
    }


FIGURES = (("top1", "{:.1%}".format), *plain.FIGURES[1:], ("right", lambda v: f"{round(v, 1):g}"),
           ("above", lambda v: f"{round(v, 1):g}"))  # plain.FIGURES with top-1 for order, and the article's counts


def kinds_table(found: dict[str, list[dict]]) -> str:
    """The kinds as a Markdown table."""
    rows = []
    for kind, runs in found.items():
        held, article = ({key: spread([r[where].get(key) for r in runs], fmt) for key, fmt in FIGURES} for where in
                         ("held", "article"))
        rows.append([LABELS[kind].format(**runs[0]), held["top1"], held["positive"], held["negative"],
                     f"{held['share']} · {held['centred']}", f"{article['right']} · {article['above']}",
                     article["share"]])
    return markdown(["W_Q, W_K", "held-out top-1", "head pair q·k > 0", "other pairs q·k < 0", "key-only share, "
                     "held-out mean: scores · row-centred", f"“{ARTICLE}”: heads right of "
                     f"{len(ARTICLE_TREE.targets())} · head pair q·k > 0", "its key-only share"], rows, "lrrrrrr")


def relations(b: treebank.Batch, s: np.ndarray, found: specialists.Found) -> list[dict]:  # s [B, L, L]
    """All words and each relation: words, the head's accuracy and signs, best offset, specialists and their best."""
    head, offsets = treebank.by_relation(b, treebank.top_key(b, s)), treebank.best_offsets(b)
    offsets["all"], head["all"] = treebank.best_offset(b), (int((b.head >= 0).sum()), treebank.accuracy(b, s))
    words = {r: (b.head >= 0) & ((b.relation == r) | (r == "all")) for r in ("all", *RELATIONS)}
    heads = {r: shares for r, (_, shares) in found.relations.items()} | {"all": found.overall}
    best = found.best | {"all": (None, found.oracle)}
    return [dict(relation=r, words=head[r][0], head=head[r][1], offset=offsets[r][0], baseline=offsets[r][1],
                 signs=treebank.signs(b, s, words[r]), heads=heads[r], best=best[r]) for r in ("all", *RELATIONS)]


def relations_table(rows: list[dict], names: tuple[str, ...], real: dict | None = None) -> str:
    """The per-relation rows as a Markdown table, with the real transformer's best head and Clark et al.'s figures."""
    lines = []
    for r in rows:
        theirs = CLARK.get(r["relation"])
        bert = [f"{theirs[1]:.1f}% ({theirs[0]})", f"{theirs[2]:.1f}% ({theirs[3]:+d})"] if theirs else ["—", "—"]
        mini = real["best"].get(r["relation"]) if real else None
        which = "" if r["best"][0] is None else f" ({names[r['best'][0]]})"
        lines.append([r["relation"], f"{r['words']:,}", f"{r['head']:.1%}", *(f"{v:.1%}" for v in r["signs"]),
                      f"{r['baseline']:.1%} ({r['offset']:+d})", *(f"{v:.1%}" for v in r["heads"]),
                      f"{r['best'][1]:.1%}{which}", f"{mini[1]:.1%} ({mini[0]})" if mini else "—", *bert])
    return markdown(["UD relation", "words", "this head", "its head pair q·k > 0", "its other pairs q·k < 0",
                     "best fixed offset", *(f"{n} head" for n in names), "best of the heads (all: any head right)",
                     f"{minilm_files.NAME} best head", "BERT-base best head (their relation)",
                     "their best fixed offset"], lines, "l" + "r" * (len(names) + 9))


def specialists_table(kv, heads: specialists.Heads, found: specialists.Found) -> str:
    """A row per specialist head: its family found by it and the best other, its signs, its picks on the article's."""
    plain_batch = treebank.batch(kv, plain_trees.trees(corpus.known_split(kv, "test")), WEIGHT)
    plain_found = specialists.found(plain_batch, heads)
    e = encode(kv, ARTICLE, position=WEIGHT)
    picks = specialists.sentence_picks(specialists.head_scores(heads, e.x))
    rows = []
    for h, name in enumerate(heads.names):
        row = found.families[h]
        other = max((f for f in range(len(row)) if f != h), key=lambda f: row[f])
        rows.append([f"{name}: {', '.join(heads.families[h])}", f"{row[h]:.1%}",
                     f"{row[other]:.1%} ({heads.names[other]})", f"{found.signs[h][0]:.1%} · {found.signs[h][1]:.1%}",
                     " · ".join("—" if np.isnan(v) else f"{v:.1%}" for v in plain_found.signs[h]),
                     ", ".join(f"{q} → {e.labels[j]}" for q, j in zip(e.labels, picks[h], strict=True))])
    return markdown(["head: relations taught", "its family found", "best other head on it", "web text: head pair "
                     "q·k > 0 · other pairs < 0", "plain sentences: the same", f"“{ARTICLE}”: each word's pick"],
                    rows, "lrrrrl")


def real_heads(test: list[treebank.Sentence]) -> dict | None:
    """all-MiniLM-L6-v2's best head per relation on `test`, what it parks on [CLS] and [SEP], its seconds (or None)."""
    if minilm_files.missing():
        return None
    measured, wall, _ = on_one_thread(lambda: minilm_treebank.measure(minilm.load(), test))  # as fast on one
    top = np.unravel_index(int(measured.accuracy("all").argmax()), measured.parked.shape)
    return {"best": {r: measured.best(r) for r in ("all", *RELATIONS) if r in measured.words},
            "parked": float(measured.parked.mean()), "parked_best": float(measured.parked[top]), "wall_s": wall}


def real_line(real: dict | None, sentences: int) -> str:
    """The real transformer's best head overall and what its heads park on [CLS] and [SEP]; or how to fetch it."""
    if real is None:
        return f"{minilm_files.NAME}: {minilm_files.missing()}"
    label, top1 = real["best"]["all"]
    return (f"{minilm_files.NAME} (6 layers × 12 heads, word level as Clark et al. 2019, each word's own cell left "
            f"out) on the {sentences:,} held-out sentences: best single head {label}, {top1:.1%} of words at their "
            f"head; it parks {real['parked_best']:.0%} of a word's attention on [CLS] and [SEP] (all 72 heads: "
            f"{real['parked']:.0%}). Each relation's best head is picked on these sentences, with hindsight; "
            f"{real['wall_s']:.1f} s on one core.")


def real_row(real: dict | None, ours: float) -> Row:
    """The real transformer's best head overall next to the shipped head, for python -m bench."""
    figure = f"heads · {minilm_files.NAME} best head"
    if real is None:
        return Row(figure, minilm_files.missing() or "", "not fetched")
    label, top1 = real["best"]["all"]
    return Row(figure, "the real transformer's best single head on the held-out sentences (word level, own word left "
               f"out), next to the shipped head; it parks {real['parked_best']:.0%} of a word's attention on [CLS] "
               f"and [SEP]; {seconds(real['wall_s'])} for the {minilm_files.NAME} runs on one core",
               f"{top1:.1%} ({label})", f"our head {ours:.1%}", f"{(top1 - ours) * 100:+.1f} points", "—", None, real)


def article_picks(kv, head: Fit) -> str:
    """Where each word of the article's sentence puts its largest weight under the head, and milk's row."""
    e = encode(kv, ARTICLE, position=WEIGHT)
    w = attend(e.x, e.x, head.w_q, head.w_k, np.eye(kv.vector_size), own=False).weights
    picks = ", ".join(f"{label} → {e.labels[j]}" for label, j in zip(e.labels, w.argmax(axis=1), strict=False))
    milk = w[e.labels.index("milk")]
    order = " > ".join(f"{e.labels[j]} {milk[j]:.2f}" for j in np.argsort(-milk)[:3])
    return f"{picks}; milk's weights: {order}"


def on_one_thread(f) -> tuple:
    """f() on one BLAS thread, as the server runs a fit (held-out accuracy every step): its result, wall and CPU s."""
    wall, cpu = time.perf_counter(), time.process_time()
    with threadpool_limits(1, user_api="blas"):
        done = f()
    return done, time.perf_counter() - wall, time.process_time() - cpu


def refit() -> tuple[float, float, list[str]]:
    """data/make_head.py run into a temporary file: wall and CPU seconds, the fields unlike the shipped head's."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "head-glove.npz"
        (wall,), (cpu,) = clocked(lambda: runpy.run_path(str(ROOT / "data" / "make_head.py"))["main"](out))
        a, b = load_fit(out), load_fit(treebank.SHIPPED)
    return wall, cpu, [f.name for f in fields(Fit)  # beyond rtol 1e-7, atol 1e-9 (NaN equals NaN)
                       if np.shape(getattr(a, f.name)) != np.shape(getattr(b, f.name))
                       or not np.allclose(getattr(a, f.name), getattr(b, f.name), rtol=1e-7, atol=1e-9, equal_nan=True)]


def scored(kv, sentences, head: Fit, name: str) -> tuple[treebank.Batch, np.ndarray]:
    """One split's sentences and the head's scores on them."""
    b = treebank.batch(kv, treebank.split(sentences, name), WEIGHT)
    return b, treebank.scores(b, head.w_q, head.w_k)[2]


def run(quick: bool) -> list[Row]:
    """Rows for python -m bench: the head against the best offset, its share, the live fit's time (full: refit's)."""
    kv, sentences = load_glove(), treebank.read()
    live, wall, cpu = on_one_thread(lambda: treebank.fit(kv, sentences, treebank.LIVE))
    found = kinds(kv, sentences, live)
    test = treebank.split(sentences, "test")
    rows = [*head_rows(found, len(test)), live_row(live, wall, cpu)]
    rows.append(real_row(real_heads(test), found["head"][0]["held"]["top1"]))
    rows += plain.rows(kv, live)
    if not quick:
        full, full_cpu, differ = refit()
        rows.append(Row("heads · full refit", f"data/make_head.py ({treebank.Recipe().steps:,} steps on all training "
                        f"sentences) against data/head-glove.npz (rtol 1e-7, atol 1e-9): "
                        f"{'equal' if not differ else 'differs in ' + ', '.join(differ)}; CPU {seconds(full_cpu)}",
                        seconds(full), "—", "—", f"≤ {REFIT_BUDGET_S:.0f} s and equal",
                        full <= REFIT_BUDGET_S and not differ, {"wall_s": full, "cpu_s": full_cpu}))
    return rows


def head_rows(found: dict[str, list[dict]], sentences: int) -> list[Row]:
    """The shipped head on the held-out sentences: its top-1 next to the best fixed offset, its signs, its share."""
    head = found["head"][0]
    top1, base = head["held"]["top1"], found["offset"][0]["held"]["top1"]
    share, article, templates = head["held"]["share"], head["article"]["share"], found["templates"][0]["held"]["share"]
    return [
        Row("heads · held-out top-1", f"the shipped head on {sentences:,} held-out "
            "treebank sentences: share of words whose largest weight (own cell hidden) falls on their head, next to "
            "the best fixed offset", f"{top1:.1%}", f"offset {base:.1%}", f"+{(top1 - base) * 100:.1f} points",
            f"≥ {TOP1_FLOOR:.0%} and ≥ offset + {OFFSET_MARGIN * 100:.0f} points",
            bool(top1 >= max(TOP1_FLOOR, base + OFFSET_MARGIN)), found),
        Row("heads · signs", "the shipped head's held-out words whose q·k with their head is above 0, and their "
            "other pairs below 0", f"{head['held']['positive']:.1%} · {head['held']['negative']:.1%}",
            f"offset: no scores; cosine {found['cosine'][0]['held']['positive']:.1%} · "
            f"{found['cosine'][0]['held']['negative']:.1%}", "—",
            f"≥ {POSITIVE_FLOOR:.0%} · ≥ {NEGATIVE_FLOOR:.0%}",
            bool(head["held"]["positive"] >= POSITIVE_FLOOR and head["held"]["negative"] >= NEGATIVE_FLOOR)),
        Row("heads · key-only share", "variance of the shipped head's scores that one number per key explains: mean "
            f"over the held-out sentences, as scored · row-centred (what softmax sees; the gold heads' own "
            f"{found['gold'][0]['held']['centred']:.2f}; “{ARTICLE}”: {article:.2f} · "
            f"{head['article']['centred']:.2f}), next to the template-corpus weights",
            f"{share:.2f} · {head['held']['centred']:.2f}", f"templates {templates:.2f}", "—",
            f"≤ {SHARE_CEILING} held-out", bool(share <= SHARE_CEILING)),
    ]


def live_row(live: Fit, wall: float, cpu: float) -> Row:
    """Page 5's live fit: its time and what it reaches."""
    return Row("heads · live fit", f"treebank.fit with page 5's recipe ({treebank.LIVE.steps} steps on "
               f"{treebank.LIVE.sentences:,} sentences, held-out accuracy and signs every step, one BLAS thread): "
               f"held-out top-1 {live.test_accuracy[-1]:.1%}, heads above 0 {live.test_positive[-1]:.1%}; "
               f"CPU {seconds(cpu)}", seconds(wall), "—", "—",
               f"≤ {LIVE_BUDGET_S:.0f} s, ≥ {LIVE_TOP1:.0%} top-1, ≥ {LIVE_POSITIVE:.0%} above 0",
               bool(wall <= LIVE_BUDGET_S and live.test_accuracy[-1] >= LIVE_TOP1
                    and live.test_positive[-1] >= LIVE_POSITIVE), {"wall_s": wall, "cpu_s": cpu})


def main():
    kv, sentences = load_glove(), treebank.read()
    live, wall, cpu = on_one_thread(lambda: treebank.fit(kv, sentences, treebank.LIVE))
    head = load_fit(treebank.SHIPPED)
    b, s = scored(kv, sentences, head, "test")
    print(f"Held-out: {len(b.length):,} test sentences, {int((b.head >= 0).sum()):,} words with a head (root and "
          f"punctuation have none); the head was fitted on {head.used:,} training sentences. Top-1: the other word "
          "with the largest weight (own cell hidden). Key-only share: of each sentence's scores, the variance one "
          "number per key explains (1: every query ranks the keys alike). Every kind of W reads GloVe + "
          f"{WEIGHT:g} × sinusoidal positions.\n")
    found = kinds(kv, sentences, live)
    print(kinds_table(found))
    labels = {kind: LABELS[kind].format(**runs[0]) for kind, runs in found.items()}
    count = len(corpus.known_split(kv, "test"))
    print(f"\n{plain.table(plain.kinds(kv, live), count, labels)}")
    dev_top1 = treebank.accuracy(*scored(kv, sentences, head, "dev"))
    print(f"\nThe shipped head on the dev sentences: {dev_top1:.1%}. On “{ARTICLE}”: {article_picks(kv, head)}.")
    print(f"Live recipe: {wall:.1f} s wall, {cpu:.1f} s CPU (held-out accuracy every step).\n")
    test = treebank.split(sentences, "test")
    real = real_heads(test)
    heads = specialists.load()
    found_heads = specialists.found(b, heads)
    print(relations_table(relations(b, s, found_heads), heads.names, real))
    print(f"\n{real_line(real, len(test))}")
    print(f"\nHeads that specialise (data/heads-glove.npz, data/make_heads.py: {specialists.Recipe().steps:,} steps; "
          "engine/specialists.py says which relations each head is taught and why); some head is right (the oracle) "
          f"for {found_heads.oracle:.1%} of the held-out words with a head:\n")
    print(specialists_table(kv, heads, found_heads))
    print("\nUD subtypes count with their relation (nsubj:pass in nsubj, aux:pass in aux, compound:prt in compound, "
          "obl:unmarked in obl), except nmod:poss. Offsets tried: ±1 to ±5. BERT-base: Clark et al. (2019), Table 1, "
          "WSJ in Stanford Dependencies, a different head picked for each relation; a reference, not a like-for-like "
          "comparison.")
    if "--refit" in sys.argv:
        sys.exit(refit_verdict())


def refit_verdict() -> int:
    """Refit the head (data/make_head.py), print its time and whether it equals the shipped file: 1 if it differs."""
    full, full_cpu, differ = refit()
    verdict = "within" if full <= REFIT_BUDGET_S else "over"
    print(f"\nFull refit (data/make_head.py): {full:.1f} s wall, {full_cpu:.1f} s CPU, {verdict} the "
          f"{REFIT_BUDGET_S:.0f} s budget; load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores.")
    print("Equal to data/head-glove.npz (rtol 1e-7, atol 1e-9)." if not differ else
          f"DIFFERS from data/head-glove.npz in: {', '.join(differ)}.")
    return 1 if differ else 0


if __name__ == "__main__":
    main()
