"""What a page says of its W_Q and W_K, near its top: a sentence on what they are, and one click to switch (banner);
while the fit behind a learned preset is awaited, which fit, its place in the queue or progress, and Stop (wait_for)."""
from dataclasses import dataclass, replace

import streamlit as st

from engine import treebank
from engine.fit import Fit
from fits import queue, waiting
from fits.recipe import DEFAULTS, FitRecipe, sizes
from fits.settings import LEARNED, PRESET_NAMES, Layers
from kit.text import labels, t

CHOICES = {"trained": "choice_trained", "templates": "choice_templates", "random": "choice_random",  # one click away
           "identity": "choice_identity", "run": "choice_run"}  # on every page, each choice's name
FITTING = {"treebank": "fitting_treebank", "templates": "fitting_templates"}  # what a fit awaited learns from
LEARNED_WEIGHTS = {"trained": "weights_trained", "templates": "weights_templates",  # what the banner says of them
                   "run": {"treebank": "weights_run_treebank", "templates": "weights_run_templates"}}


@dataclass(frozen=True)
class Provenance:
    """What the page's W_Q and W_K are, for the banner."""

    q: str  # preset of W_Q
    k: str  # preset of W_K
    d: int  # the vectors' dimensions
    d_k: int  # the layers' width (recipe.width)
    fit: Fit | None  # the corpus fit behind a learned preset, if one is used
    data: str  # what that fit learned from: "treebank" or "templates"
    train: int  # training sentences of that fit
    test: int  # held-out sentences of that fit
    recipe: FitRecipe | None  # that fit's recipe, when W_Q and W_K share it
    own_run: bool  # whether the learner's own run (the "run" preset) is one of the switch's choices


def provenance(s: Layers, fallback: dict, d: int, d_k: int, used: tuple[Fit, FitRecipe] | None,
               own_run: bool) -> Provenance:
    """What W_Q and W_K are once `fallback`'s presets fell back to random; `used`: the learned fit and its recipe."""
    s = replace(s, **fallback)
    fit, wanted = used or (None, None)
    data = wanted.data if wanted else "treebank"
    learned = s.q_preset in LEARNED or s.k_preset in LEARNED
    return Provenance(s.q_preset, s.k_preset, d, d_k, fit if learned else None, data, fit.used if fit else 0,
                      sizes(data)["test"], wanted if s.q_preset == s.k_preset else None, own_run)


def own_note(p: Provenance) -> str:
    """What the grey own cells mean: the treebank head's question when it is in use, else the weights in use."""
    if p.q == p.k and p.fit is not None and p.data == "treebank":
        return t("own_hidden")
    weights = t(PRESET_NAMES[p.q]) if p.q == p.k else t("weights_pair", q=t(PRESET_NAMES[p.q]), k=t(PRESET_NAMES[p.k]))
    return t("own_hidden_weights", weights=weights)


def banner(s: Layers, p: Provenance):
    """Near the top of every page: what W_Q and W_K are, and one click to switch."""
    box = st.container(border=True, horizontal=True, vertical_alignment="center")  # one element, not four
    sentence = box.empty()  # left of the switch, written once the switch is drawn
    switch_control(p, p.own_run, box)
    sentence.markdown(describe(s, p), width="stretch")


def describe(s: Layers, p: Provenance) -> str:
    """One sentence on what W_Q and W_K are (and, for a fit, whether it was stopped or its steps cut)."""
    if p.q != p.k:
        return t("weights_mixed", q=t(PRESET_NAMES[p.q]), k=t(PRESET_NAMES[p.k]))
    if p.q in LEARNED and p.fit is not None and p.recipe is not None:
        r = p.recipe
        key = LEARNED_WEIGHTS["run"][p.data] if p.q == "run" else LEARNED_WEIGHTS[p.q]
        plain = t("weights_plain", n=p.fit.plain) if p.fit.plain else ""
        said = t(key, train=p.train, test=p.test, acc=p.fit.test_accuracy[-1], steps=r.steps, lr=r.lr, seed=r.seed,
                 plain=plain)
        if p.q == "run" and r.steps < s.run_steps:
            said += " " + t("weights_capped", asked=s.run_steps, max=r.steps)
        if p.fit.stopped:
            said += " " + t("weights_stopped", step=p.fit.steps, total=r.steps)
        return said
    if p.q == "random":
        return t("weights_random", q=s.q_seed, k=s.k_seed)
    if p.q == "identity":
        return t("weights_identity" if p.d_k == p.d else "weights_identity_cut", d=p.d, d_k=p.d_k)
    return t("weights_other", name=t(PRESET_NAMES[p.q]))


def wait_for(s: Layers, job: queue.Job, d: int, own_run: bool):
    """In place of the banner: the fit the page waits for, its place in the queue or progress, Stop and the switch."""
    recipe: FitRecipe = job.key[-1]
    n = treebank.LIVE.sentences if recipe.sentences else sizes(recipe.data)["train"]
    box = st.container(border=True)
    box.markdown(t(FITTING[recipe.data], n=n))
    with box:
        waiting.panel(job, "_fit_stop", stopped=unfitted)
    switch_control(None, own_run, box)


def unfitted(job: queue.Job):
    """After Stop: random weights for the learned presets, unless the fit was running and keeps the steps it reached."""
    # a fit not stopped had not begun, or others still wait for it: it gives this page no weights
    if job.stop.is_set():
        return
    ss = st.session_state
    for layer, default in (("q", DEFAULTS.q_preset), ("k", DEFAULTS.k_preset)):
        if ss.get(f"{layer}_preset", default) in LEARNED:
            ss[f"{layer}_preset"] = "random"
    ss["_fit_left"] = True


def switch_control(p: Provenance | None, own_run: bool, where):
    """The choice of W_Q's and W_K's preset, marking the one in use (none while a fit is awaited or they differ)."""
    # `own_run`: the learner's own run is a choice once in use or its recipe is not the default (recipe.own_run)
    ss = st.session_state
    choices = list(CHOICES) if own_run else list(CHOICES)[:4]
    ss["_qk_choice"] = p.q if p is not None and p.q == p.k and p.q in choices else None
    where.segmented_control(t("weights_switch"), choices, key="_qk_choice", on_change=switch,
                            format_func=labels(CHOICES), label_visibility="collapsed")


def switch():
    """The banner's choice sets both W_Q's and W_K's preset."""
    choice = st.session_state.get("_qk_choice")
    if choice:
        st.session_state["q_preset"] = st.session_state["k_preset"] = choice
