"""The layer weights a page uses, where they came from, and the banner that says so."""
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.layers import preset
from engine.training import Fit, load_fit
from ui.state import DEFAULTS, LEARNED, Settings
from ui.text import t

CHOICES = ("trained", "templates", "random", "identity", "run")  # one click away on every page


@dataclass(frozen=True)
class Provenance:
    """What the page's W_Q and W_K are, for the banner."""

    q: str  # preset of W_Q
    k: str  # preset of W_K
    fit: Fit | None  # the corpus fit behind a learned preset, if one is used
    data: str  # what that fit learned from: "treebank" or "templates"
    train: int  # training sentences of that fit
    test: int  # held-out sentences of that fit


@st.cache_resource(show_spinner=False)
def templates() -> list[corpus.Example]:
    """The template corpus, read once per server."""
    return corpus.load()


@st.cache_resource(show_spinner=False)
def sizes(data: str) -> dict[str, int]:
    """Sentences per split and the words of the training sentences (what one step of a full fit reads)."""
    if data == "treebank":
        found = treebank.built_in()
        return {name: len(treebank.split(found, name)) for name in ("train", "test")} | {
            "words": sum(len(s.tokens) for s in treebank.split(found, "train"))}
    found = templates()
    return {name: sum(e.split == name for e in found) for name in corpus.SPLITS} | {"words": corpus.words(found)}


def job(s: Settings, which: str, source: tuple) -> tuple:
    """(data, d_k, position, steps, lr, seed, sentences) of the fit behind a learned preset; `source` (name, size,
    dimensions) names the vectors. The default head ships fitted with the full recipe; for other vectors, d_k or
    position weight a shorter one is fitted once per server."""
    d_k = min(s.d_k, source[2])
    if which == "run":
        n = treebank.LIVE.sentences if s.run_on == "treebank" else None
        return s.run_on, d_k, s.position, s.run_steps, s.run_lr, s.run_seed, n
    if which == "templates":
        return "templates", d_k, s.position, corpus.DEFAULT_STEPS, corpus.DEFAULT_LR, 0, None
    shipped = source == ("glove", 400_000, 50) and (d_k, s.position) == (DEFAULTS.d_k, DEFAULTS.position)
    r = treebank.Recipe() if shipped else treebank.QUICK
    return "treebank", d_k, s.position, r.steps, r.lr, r.seed, None


def shipped(source: tuple, args: tuple) -> str | None:
    """The file holding this fit, if the project ships it."""
    if source != ("glove", 400_000, 50):
        return None
    for which, path in (("trained", treebank.SHIPPED), ("templates", corpus.SHIPPED)):
        if args == job(DEFAULTS, which, source):
            return path
    return None


def compute(kv: KeyedVectors, args: tuple) -> Fit:
    """The fit itself."""
    data, d_k, position, steps, lr, seed, n = args
    if data == "treebank":
        return treebank.fit(kv, treebank.built_in(), treebank.Recipe(d_k, position, steps, lr, seed, n),
                            every=max(1, steps // 40))
    return corpus.fit(kv, templates(), d_k=d_k, position=position, steps=steps, lr=lr, seed=seed)


FITTED: dict[tuple, Fit] = {}  # shared_fit's fits by its arguments but the vectors, the last FITS_KEPT made
FITS_KEPT = 32


@st.cache_resource(show_spinner=False, max_entries=32)
def shared_fit(_kv: KeyedVectors, source: tuple, args: tuple) -> Fit:
    """A fit on a built-in vector source, computed once per server and shared by every session; `source` (name, size,
    dimensions) stands in for the vectors. The default fits on GloVe 400k ship with the project (tests check they are
    what the fits give), so no visitor waits for them."""
    path = shipped(source, args)
    return load_fit(path) if path else compute(_kv, args)


def kept(key: tuple, fit: Fit) -> Fit:
    """The fit, found from now on under `key` in FITTED, which keeps the last FITS_KEPT."""
    FITTED[key] = fit
    while len(FITTED) > FITS_KEPT:
        FITTED.pop(next(iter(FITTED)), None)  # another session may have let it go meanwhile
    return fit


def warm(kv: KeyedVectors) -> Fit:
    """The default head on the built-in GloVe, as the first page will ask for it (run at server start)."""
    source = (DEFAULTS.source, len(kv), kv.vector_size)
    return shared_fit(kv, source, job(DEFAULTS, "trained", source))


def corpus_fit(s: Settings, kv: KeyedVectors, which: str) -> Fit:
    """The fit behind a learned preset for the current vectors, d_k and position weight."""
    source = (s.source, len(kv), kv.vector_size)
    args = job(s, which, source)
    key = source, args
    if s.source != "upload" and key in FITTED:  # neither a spinner (a timer thread) nor the cache's own lookup
        return FITTED[key]
    with st.spinner(t(f"fitting_{args[0]}", s.lang, n=sizes(args[0])["train"])):
        if s.source != "upload":
            return kept(key, shared_fit(kv, source, args))
        # an upload is the visitor's own, so are its fits; a weak reference names the vectors they were fitted on
        # without keeping them alive once the upload is released
        fitted_on, fits = st.session_state.get("_upload_fits", (None, {}))
        if fitted_on is None or fitted_on() is not kv:
            fits = {}
            st.session_state["_upload_fits"] = (weakref.ref(kv), fits)
        if args not in fits:
            fits.clear()
            fits[args] = compute(kv, args)
        return fits[args]


def remember(s: Settings, kv: KeyedVectors, which: str, fit: Fit) -> None:
    """A fit made elsewhere with exactly the arguments of `which` (page 5's live run) as the one behind it, so that
    using it costs no second fit; a fit on built-in vectors only (an upload's fits are the visitor's own)."""
    if s.source != "upload":
        source = (s.source, len(kv), kv.vector_size)
        kept((source, job(s, which, source)), fit)


def layers(s: Settings, kv: KeyedVectors) -> tuple[dict[str, np.ndarray], Provenance]:
    """W_Q, W_K, W_V ([d, d_k]) from the sidebar's settings, and where W_Q and W_K came from."""
    d = kv.vector_size
    d_k = min(s.d_k, d)
    w, fit, data, unavailable = {}, None, "treebank", False
    for layer in ("q", "k", "v"):
        name, seed, scale = (getattr(s, f"{layer}_{field}") for field in ("preset", "seed", "scale"))
        if name in LEARNED:
            try:
                fit = corpus_fit(s, kv, name)
                data = job(s, name, (s.source, len(kv), d))[0]
                w[f"w_{layer}"] = scale * getattr(fit, f"w_{layer}")
                continue
            except corpus.CorpusError:  # the vectors know no training sentence: nothing to learn from
                s, name, unavailable = replace(s, **{f"{layer}_preset": "random"}), "random", True
        w[f"w_{layer}"] = preset(name, d, d_k, seed=seed, scale=scale)
    if unavailable:
        st.warning(t("trained_unavailable", s.lang))
    learned = s.q_preset in LEARNED or s.k_preset in LEARNED
    test = sizes(data)["test"]
    return w, Provenance(s.q_preset, s.k_preset, fit if learned else None, data, fit.used if fit else 0, test)


def describe(s: Settings, p: Provenance, d: int) -> str:
    """One sentence on what W_Q and W_K are."""
    lang, d_k = s.lang, min(s.d_k, d)
    if p.q != p.k:
        return t("weights_mixed", lang, q=t(f"preset_{p.q}", lang), k=t(f"preset_{p.k}", lang))
    if p.q in LEARNED:
        _, _, _, steps, lr, seed, _ = job(s, p.q, (s.source, 0, d))
        key = f"weights_run_{p.data}" if p.q == "run" else f"weights_{p.q}"
        return t(key, lang, train=p.train, test=p.test, acc=p.fit.test_accuracy[-1], steps=steps, lr=lr, seed=seed)
    if p.q == "random":
        return t("weights_random", lang, q=s.q_seed, k=s.k_seed)
    if p.q == "identity":
        return t("weights_identity" if d_k == d else "weights_identity_cut", lang, d=d, d_k=d_k)
    return t("weights_other", lang, name=t(f"preset_{p.q}", lang))


def banner(s: Settings, p: Provenance, d: int):
    """Near the top of every page: what W_Q and W_K are, and one click to switch."""
    ss = st.session_state
    choices = CHOICES if "run" in (s.q_preset, s.k_preset) or job(s, "run", (s.source, 0, d)) != \
        job(DEFAULTS, "run", (s.source, 0, d)) else CHOICES[:4]
    ss["_qk_choice"] = p.q if p.q == p.k and p.q in choices else None
    box = st.container(border=True, horizontal=True, vertical_alignment="center")  # one element, not four
    box.markdown(describe(s, p, d), width="stretch")
    box.segmented_control(t("weights_switch", s.lang), choices, key="_qk_choice", on_change=switch,
                          format_func=lambda c: t(f"choice_{c}", s.lang), label_visibility="collapsed")


def switch():
    """The banner's choice sets both W_Q's and W_K's preset."""
    choice = st.session_state.get("_qk_choice")
    if choice:
        st.session_state["q_preset"] = st.session_state["k_preset"] = choice
