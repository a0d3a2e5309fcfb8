"""The layer weights a page uses, where they came from, and the banner that says so. The fit behind a learned preset
is read from the project's files, found among the fits this server made, or asked of the one queue (fits/queue.py);
until it arrives the page shows its place in the queue and Stop instead of the weights."""
import functools
import threading
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.layers import preset
from engine.tokens import tokenize
from engine.training import Fit, load_fit
from fits import queue, waiting
from fits.settings import LEARNED, PRESET_NAMES, Layers
from kit.text import error_text, labels, t
from server import ledger
from vectors import chosen
from vectors.settings import Vectors

DEFAULTS = Layers()  # the layers a link without settings shows

CHOICES = {"trained": "choice_trained", "templates": "choice_templates", "random": "choice_random",  # one click away
           "identity": "choice_identity", "run": "choice_run"}  # on every page, each choice's name
FITTING = {"treebank": "fitting_treebank", "templates": "fitting_templates"}  # what a fit awaited learns from
LEARNED_WEIGHTS = {"trained": "weights_trained", "templates": "weights_templates",  # what the banner says of them
                   "run": {"treebank": "weights_run_treebank", "templates": "weights_run_templates"}}
EVERY = 40  # steps between a treebank fit's measures of its held-out accuracy (and at its end)
WAITS = "_fit_waits"  # the fits this session asked the queue for, by key: queued, running or ended


@dataclass(frozen=True)
class Provenance:
    """What the page's W_Q and W_K are, for the banner."""

    q: str  # preset of W_Q
    k: str  # preset of W_K
    fit: Fit | None  # the corpus fit behind a learned preset, if one is used
    data: str  # what that fit learned from: "treebank" or "templates"
    train: int  # training sentences of that fit
    test: int  # held-out sentences of that fit
    args: tuple | None  # that fit's recipe (job), when W_Q and W_K share it


class Waiting(Exception):
    """The fit behind a learned preset is in the queue or running."""

    def __init__(self, job: queue.Job):
        super().__init__()
        self.job = job


@st.cache_resource(show_spinner=False)
def templates() -> list[corpus.Example]:
    """The template corpus, read once per server."""
    return corpus.load()


@functools.cache
def sizes(data: str) -> dict[str, int]:
    """Sentences per split; words of the training sentences (all, and the treebank's first LIVE.sentences) and of the
    held-out ones as a fit holds them (the treebank's padded to the longest)."""
    if data == "treebank":
        found = treebank.built_in()
        train, test = treebank.split(found, "train"), treebank.split(found, "test")
        return {"train": len(train), "test": len(test), "words": words(train),
                "live_words": words(train[:treebank.LIVE.sentences]),
                "held_out": len(test) * max(len(s.tokens) for s in test)}
    found = templates()
    return {name: sum(e.split == name for e in found) for name in corpus.SPLITS} | {
        "words": corpus.words(found), "held_out": sum(len(tokenize(e.sentence)) for e in found if e.split == "test")}


def words(sentences) -> int:
    """Tokens in these treebank sentences."""
    return sum(len(s.tokens) for s in sentences)


def load(args: tuple) -> tuple[int, int, int]:
    """(words one step reads, word rows held, most words scored at once) of the fit with these arguments."""
    data, n = args[0], args[-1]
    size = sizes(data)
    if data == "treebank":
        train = size["live_words"] if n else size["words"]
        step = queue.reads(min(train, treebank.LIVE.batch_words), size["held_out"], EVERY)
        return step, train + size["held_out"], size["held_out"]
    held = size["words"] + size["held_out"]
    return queue.reads(size["words"], size["held_out"]), held, held


def recipe(s: Layers, which: str, source: tuple) -> tuple:
    """(data, d_k, position, steps, lr, seed, sentences) the settings ask of the fit behind a learned preset; `source`
    (name, size, dimensions) names the vectors. The default head ships fitted with the full recipe; for other vectors,
    d_k or position weight a shorter one is fitted once per server."""
    d_k = min(s.d_k, source[2])
    if which == "run":
        n = treebank.LIVE.sentences if s.run_on == "treebank" else None
        return s.run_on, d_k, s.position, s.run_steps, s.run_lr, s.run_seed, n
    if which == "templates":
        return "templates", d_k, s.position, corpus.DEFAULT_STEPS, corpus.DEFAULT_LR, 0, None
    shipped_recipe = source == ("glove", 400_000, 50) and (d_k, s.position) == (DEFAULTS.d_k, DEFAULTS.position)
    r = treebank.Recipe() if shipped_recipe else treebank.QUICK
    return "treebank", d_k, s.position, r.steps, r.lr, r.seed, None


def job(s: Layers, which: str, source: tuple) -> tuple:
    """The recipe of the fit behind a learned preset, its steps cut to what one fit may take (queue.max_steps) unless
    the project ships it."""
    args = recipe(s, which, source)
    if shipped(source, args):
        return args
    data, d_k, position, steps, lr, seed, n = args
    return data, d_k, position, min(steps, queue.max_steps(load(args)[0], source[2], d_k)), lr, seed, n


def shipped(source: tuple, args: tuple) -> str | None:
    """The file holding this fit, if the project ships it."""
    if source != ("glove", 400_000, 50):
        return None
    for which, path in (("trained", treebank.SHIPPED), ("templates", corpus.SHIPPED)):
        if args == recipe(DEFAULTS, which, source):
            return path
    return None


def compute(kv: KeyedVectors, args: tuple, found: list, report=None) -> Fit:
    """The fit itself, on the treebank's sentences or the template examples `found`; report(step, loss, training
    accuracy, held-out accuracy) is told each step and stops the fit by returning False."""
    data, d_k, position, steps, lr, seed, n = args
    if data == "treebank":
        return treebank.fit(kv, found, treebank.Recipe(d_k, position, steps, lr, seed, n), every=EVERY,
                            callback=report)
    return corpus.fit(kv, found, d_k=d_k, position=position, steps=steps, lr=lr, seed=seed, callback=report)


FITTED: dict[tuple, Fit] = {}  # fits on built-in vectors by (source, arguments), the last FITS_KEPT made
FITS_KEPT = 32
kept_lock = threading.Lock()  # the worker keeps fits too


@st.cache_resource(show_spinner=False)
def shipped_fit(path) -> Fit:
    """A fit the project ships (tests check it is what the fit gives), read once per server and shared by every
    session, so no visitor waits for it."""
    return load_fit(path)


def kept(key: tuple, fit: Fit) -> Fit:
    """The fit, found from now on under `key` in FITTED, which keeps the last FITS_KEPT."""
    with kept_lock:
        FITTED[key] = fit
        while len(FITTED) > FITS_KEPT:
            FITTED.pop(next(iter(FITTED)))
    return fit


def warm(kv: KeyedVectors) -> Fit:
    """The default head on the built-in GloVe, as the first page will ask for it (run at server start)."""
    source = (Vectors().source, len(kv), kv.vector_size)
    args = job(DEFAULTS, "trained", source)
    return kept((source, args), shipped_fit(shipped(source, args)))


def source_of(s: Layers, kv: KeyedVectors) -> str:
    """The name of the vectors in use: the built-in GloVe's while it stands in for an upload or a download."""
    if s.source in ("glove", "glove50k") or kv is not chosen.glove():
        return s.source
    return "glove"


def key_of(s: Layers, kv: KeyedVectors, which: str) -> tuple:
    """What names the fit behind a learned preset: its vectors and recipe; an upload by the vectors themselves, as its
    fits are its visitor's own."""
    source = (source_of(s, kv), len(kv), kv.vector_size)
    args = job(s, which, source)
    return ("upload", id(kv), args) if source[0] == "upload" else (source, args)


def upload_fits(kv: KeyedVectors) -> dict:
    """The fits made on this session's upload (a new upload starts with none); a weak reference names the vectors
    they were fitted on without keeping them alive once the upload is released."""
    fitted_on, fits = st.session_state.get("_upload_fits", (None, {}))
    if fitted_on is None or fitted_on() is not kv:
        fits = {}
        st.session_state["_upload_fits"] = (weakref.ref(kv), fits)
    return fits


def corpus_fit(s: Layers, kv: KeyedVectors, which: str) -> Fit:
    """The fit behind a learned preset for the current vectors, d_k and position weight; Waiting while the queue fits
    it, queue.TooLarge when one of its steps would take too long."""
    key = key_of(s, kv, which)
    args, ss, upload = key[-1], st.session_state, key[0] == "upload"
    mine = upload_fits(kv) if upload else FITTED
    if key in mine:
        return mine[key]
    path = None if upload else shipped(key[0], args)
    if path:
        return kept(key, shipped_fit(path))
    asked = ss.setdefault(WAITS, {}).get(key)
    if asked is not None and asked.ended.is_set() and (asked.error or asked.result):
        if asked.error:
            raise asked.error
        return asked.result  # a stopped fit, or one FITTED has let go since
    if asked is None or asked.ended.is_set():
        ss[WAITS][key] = queue.ask(new_job(kv, key, mine), waiting.me())
    raise Waiting(ss[WAITS][key])


def new_job(kv: KeyedVectors, key: tuple, mine: dict) -> queue.Job:
    """The queue's job for the fit named `key`, kept in `mine` once it has run to its end; queue.TooLarge when one of
    its steps would take too long."""
    args, d = key[-1], kv.vector_size
    step, held, at_once = load(args)
    queue.check_step(step, d, args[1])
    found = treebank.built_in() if args[0] == "treebank" else templates()

    session = ledger.session_of()

    def keep(fit: Fit):
        if mine is FITTED:
            kept(key, fit)
        else:  # one fit per upload: the last one made, counted in the memory ledger as the session's
            mine.clear()
            mine[key] = fit
            ledger.keep_result(session, "upload_fit", fit)
    vectors = weakref.ref(kv)  # an upload released for others goes at once, not kept until its queued fit's turn
    return queue.Job(lambda report: compute(vectors(), args, found, report), args[3],
                    queue.fit_bytes(d, args[1], held, at_once), key, keep, inputs=lambda: vectors() is not None)


def forget(asked: set) -> None:
    """Leave the fits this session waits for that the page no longer asks for, and forget those."""
    waits = st.session_state.get(WAITS, {})
    for key in [key for key in waits if key not in asked]:
        queue.leave(waits.pop(key), waiting.me(), wait=0)


def remember(s: Layers, kv: KeyedVectors, which: str, fit: Fit) -> None:
    """A fit made elsewhere with exactly the arguments of `which` (page 5's live run) as the one behind it, so that
    using it costs no second fit; a fit on built-in vectors only (an upload's fits are the visitor's own)."""
    key = key_of(s, kv, which)
    if key[0] != "upload":
        kept(key, fit)


def layers(s: Layers, kv: KeyedVectors) -> tuple[dict[str, np.ndarray], Provenance]:
    """W_Q, W_K, W_V ([d, d_k]) from the sidebar's settings, and where W_Q and W_K came from. While a learned preset's
    fit is queued or running, the page shows where it is and stops here."""
    d = kv.vector_size
    d_k = min(s.d_k, d)
    w, fit, args, problems, pending = {}, None, None, [], []
    forget({key_of(s, kv, name) for name in {s.q_preset, s.k_preset} & set(LEARNED)})
    for layer in ("q", "k", "v"):
        name, seed, scale = (getattr(s, f"{layer}_{field}") for field in ("preset", "seed", "scale"))
        if name in LEARNED:
            try:
                fit = corpus_fit(s, kv, name)
                args = key_of(s, kv, name)[-1]
                w[f"w_{layer}"] = scale * getattr(fit, f"w_{layer}")
                continue
            except Waiting as e:
                pending.append(e.job)
                continue
            except corpus.CorpusError as e:  # no room for the fit now, or the vectors know no training sentence
                problems.append(error_text(e) if e.code == "no_room" else t("trained_unavailable"))
            except queue.TooLarge as e:
                problems.append(error_text(e))
            s, name = replace(s, **{f"{layer}_preset": "random"}), "random"
        w[f"w_{layer}"] = preset(name, d, d_k, seed=seed, scale=scale)
    for problem in dict.fromkeys(problems):
        st.warning(problem)
    if st.session_state.pop("_fit_left", False):
        st.info(t("fit_left"))
    if pending:
        wait_for(s, pending[0], d)
        st.stop()
    learned = s.q_preset in LEARNED or s.k_preset in LEARNED
    data = args[0] if args else "treebank"
    return w, Provenance(s.q_preset, s.k_preset, fit if learned else None, data, fit.used if fit else 0,
                         sizes(data)["test"], args if s.q_preset == s.k_preset else None)


def wait_for(s: Layers, job: queue.Job, d: int):
    """In place of the banner: which fit the page waits for, its place in the queue or progress, Stop, and the switch
    to other weights."""
    data = job.key[-1][0]
    n = treebank.LIVE.sentences if job.key[-1][-1] else sizes(data)["train"]
    box = st.container(border=True)
    box.markdown(t(FITTING[data], n=n))
    with box:
        waiting.panel(job, "_fit_stop", stopped=unfitted)
    switch_control(s, None, d, box)


def unfitted(job: queue.Job):
    """After Stop: a fit that gives no weights (it had not begun, or others still wait for it) leaves random ones; one
    that was running gives the steps it reached."""
    if job.stop.is_set():
        return
    ss = st.session_state
    for layer in ("q", "k"):
        if ss.get(f"{layer}_preset", getattr(DEFAULTS, f"{layer}_preset")) in LEARNED:
            ss[f"{layer}_preset"] = "random"
    ss["_fit_left"] = True


def describe(s: Layers, p: Provenance, d: int) -> str:
    """One sentence on what W_Q and W_K are (and, for a fit, whether it was stopped or its steps cut)."""
    d_k = min(s.d_k, d)
    if p.q != p.k:
        return t("weights_mixed", q=t(PRESET_NAMES[p.q]), k=t(PRESET_NAMES[p.k]))
    if p.q in LEARNED:
        _, _, _, steps, lr, seed, _ = p.args
        key = LEARNED_WEIGHTS["run"][p.data] if p.q == "run" else LEARNED_WEIGHTS[p.q]
        said = t(key, train=p.train, test=p.test, acc=p.fit.test_accuracy[-1], steps=steps, lr=lr, seed=seed)
        if p.q == "run" and steps < s.run_steps:
            said += " " + t("weights_capped", asked=s.run_steps, max=steps)
        if p.fit.stopped:
            said += " " + t("weights_stopped", step=p.fit.steps, total=steps)
        return said
    if p.q == "random":
        return t("weights_random", q=s.q_seed, k=s.k_seed)
    if p.q == "identity":
        return t("weights_identity" if d_k == d else "weights_identity_cut", d=d, d_k=d_k)
    return t("weights_other", name=t(PRESET_NAMES[p.q]))


def banner(s: Layers, p: Provenance, d: int):
    """Near the top of every page: what W_Q and W_K are, and one click to switch."""
    box = st.container(border=True, horizontal=True, vertical_alignment="center")  # one element, not four
    box.markdown(describe(s, p, d), width="stretch")
    switch_control(s, p, d, box)


def switch_control(s: Layers, p: Provenance | None, d: int, where):
    """The choice of W_Q's and W_K's preset, showing the one in use (none while a fit is awaited or they differ)."""
    ss = st.session_state
    choices = list(CHOICES) if "run" in (s.q_preset, s.k_preset) or recipe(s, "run", (s.source, 0, d)) != \
        recipe(DEFAULTS, "run", (s.source, 0, d)) else list(CHOICES)[:4]
    ss["_qk_choice"] = p.q if p is not None and p.q == p.k and p.q in choices else None
    where.segmented_control(t("weights_switch"), choices, key="_qk_choice", on_change=switch,
                            format_func=labels(CHOICES), label_visibility="collapsed")


def switch():
    """The banner's choice sets both W_Q's and W_K's preset."""
    choice = st.session_state.get("_qk_choice")
    if choice:
        st.session_state["q_preset"] = st.session_state["k_preset"] = choice
