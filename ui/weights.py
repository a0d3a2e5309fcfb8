"""The layer weights a page uses, where they came from, and the banner that says so."""
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus
from engine.layers import preset
from ui.state import DEFAULTS, LEARNED, Settings
from ui.text import t

CHOICES = ("trained", "random", "identity", "run")  # one click away on every page


@dataclass(frozen=True)
class Provenance:
    """What the page's W_Q and W_K are, for the banner."""

    q: str  # preset of W_Q
    k: str  # preset of W_K
    fit: corpus.Fit | None  # the corpus fit behind "trained" or "run", if either is used
    train: int  # training sentences of that fit
    test: int  # held-out sentences of that fit


@st.cache_resource(show_spinner=False)
def built_in() -> list[corpus.Example]:
    """The built-in corpus, read once per server."""
    return corpus.load()


@st.cache_resource(show_spinner=False)
def built_in_sizes() -> dict[str, int]:
    """Sentences per split ("train", "test") and training words ("words") of the built-in corpus, counted once."""
    found = built_in()
    return {split: sum(e.split == split for e in found) for split in corpus.SPLITS} | {"words": corpus.words(found)}


FITTED: dict[tuple, corpus.Fit] = {}  # shared_fit's fits by its arguments but the vectors, the last FITS_KEPT made
FITS_KEPT = 32


@st.cache_resource(show_spinner=False, max_entries=32)
def shared_fit(_kv: KeyedVectors, source: tuple, d_k: int, position: float, steps: int, lr: float,
               seed: int) -> corpus.Fit:
    """A corpus fit on a built-in vector source, computed once per server and shared by every session;
    `source` (name, size, dimensions) stands in for the vectors. The default fit on GloVe 400k ships with the
    project (tests/test_corpus.py checks it is what the fit gives), so no visitor waits for it."""
    if source == ("glove", 400_000, 50) and (d_k, position, steps, lr, seed) == recipe_args(DEFAULTS, "trained"):
        return corpus.load_fit(corpus.SHIPPED)
    return corpus.fit(_kv, built_in(), d_k=d_k, position=position, steps=steps, lr=lr, seed=seed)


def recipe_args(s: Settings, which: str) -> tuple:
    """(d_k, position, steps, lr, seed) of a fit, before d_k is capped by the vectors' size."""
    return (s.d_k, s.position, *recipe(s, which))


def warm(kv: KeyedVectors) -> corpus.Fit:
    """The default fit on the built-in GloVe, as the first page will ask for it (run at server start)."""
    s = DEFAULTS
    return shared_fit(kv, (s.source, len(kv), kv.vector_size), min(s.d_k, kv.vector_size), s.position,
                      *recipe(s, "trained"))


def recipe(s: Settings, which: str) -> tuple[int, float, int]:
    """(steps, lr, seed) of the default fit or of the learner's run."""
    if which == "run":
        return s.run_steps, s.run_lr, s.run_seed
    return corpus.DEFAULT_STEPS, corpus.DEFAULT_LR, 0


def corpus_fit(s: Settings, kv: KeyedVectors, which: str) -> corpus.Fit:
    """The fit behind 'trained' or 'run' for the current vectors, d_k and position weight."""
    args = (min(s.d_k, kv.vector_size), s.position, *recipe(s, which))
    shared = (s.source, len(kv), kv.vector_size), *args
    if s.source != "upload" and shared in FITTED:  # neither a spinner (a timer thread) nor the cache's own lookup
        return FITTED[shared]
    with st.spinner(t("fitting", s.lang, n=built_in_sizes()["train"])):
        if s.source != "upload":
            fit = FITTED[shared] = shared_fit(kv, *shared)
            while len(FITTED) > FITS_KEPT:
                FITTED.pop(next(iter(FITTED)), None)  # another session may have let it go meanwhile
            return fit
        # an upload is the visitor's own, so are its fits; a weak reference names the vectors they were fitted on
        # without keeping them alive once the upload is released
        fitted_on, fits = st.session_state.get("_upload_fits", (None, {}))
        if fitted_on is None or fitted_on() is not kv:
            fits = {}
            st.session_state["_upload_fits"] = (weakref.ref(kv), fits)
        if args not in fits:
            fits.clear()
            fits[args] = corpus.fit(kv, built_in(), d_k=args[0], position=args[1], steps=args[2], lr=args[3],
                                    seed=args[4])
        return fits[args]


def layers(s: Settings, kv: KeyedVectors) -> tuple[dict[str, np.ndarray], Provenance]:
    """W_Q, W_K, W_V ([d, d_k]) from the sidebar's settings, and where W_Q and W_K came from."""
    d = kv.vector_size
    d_k = min(s.d_k, d)
    w, fit, unavailable = {}, None, False
    for layer in ("q", "k", "v"):
        name, seed, scale = (getattr(s, f"{layer}_{field}") for field in ("preset", "seed", "scale"))
        if name in LEARNED:
            try:
                fit = corpus_fit(s, kv, name)
                w[f"w_{layer}"] = scale * getattr(fit, f"w_{layer}")
                continue
            except corpus.CorpusError:  # the vectors know no training sentence: nothing to learn from
                s, name, unavailable = replace(s, **{f"{layer}_preset": "random"}), "random", True
        w[f"w_{layer}"] = preset(name, d, d_k, seed=seed, scale=scale)
    if unavailable:
        st.warning(t("trained_unavailable", s.lang))
    counts = [built_in_sizes()[split] for split in corpus.SPLITS]
    return w, Provenance(s.q_preset, s.k_preset, fit if s.q_preset in LEARNED or s.k_preset in LEARNED else None,
                         *counts)


def describe(s: Settings, p: Provenance, d: int) -> str:
    """One sentence on what W_Q and W_K are."""
    lang, d_k = s.lang, min(s.d_k, d)
    if p.q != p.k:
        return t("weights_mixed", lang, q=t(f"preset_{p.q}", lang), k=t(f"preset_{p.k}", lang))
    if p.q in LEARNED:
        steps, lr, seed = recipe(s, p.q)
        return t(f"weights_{p.q}", lang, train=p.train, test=p.test, acc=p.fit.test_accuracy[-1], steps=steps,
                 lr=lr, seed=seed)
    if p.q == "random":
        return t("weights_random", lang, q=s.q_seed, k=s.k_seed)
    if p.q == "identity":
        return t("weights_identity" if d_k == d else "weights_identity_cut", lang, d=d, d_k=d_k)
    return t("weights_other", lang, name=t(f"preset_{p.q}", lang))


def banner(s: Settings, p: Provenance, d: int):
    """Near the top of every page: what W_Q and W_K are, and one click to switch."""
    ss = st.session_state
    choices = CHOICES if "run" in (s.q_preset, s.k_preset) or recipe(s, "run") != recipe(DEFAULTS, "run") \
        else CHOICES[:3]
    ss["_qk_choice"] = s.q_preset if s.q_preset == s.k_preset and s.q_preset in choices else None
    box = st.container(border=True, horizontal=True, vertical_alignment="center")  # one element, not four
    box.markdown(describe(s, p, d), width="stretch")
    box.segmented_control(t("weights_switch", s.lang), choices, key="_qk_choice", on_change=switch,
                            format_func=lambda c: t(f"choice_{c}", s.lang), label_visibility="collapsed")


def switch():
    """The banner's choice sets both W_Q's and W_K's preset."""
    choice = st.session_state.get("_qk_choice")
    if choice:
        st.session_state["q_preset"] = st.session_state["k_preset"] = choice
