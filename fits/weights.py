"""The layer weights a page uses, and where they came from. The fit behind a learned preset is found among the fits this
process keeps (fits/cache.py) or the project ships (fits/recipe.py), or asked of the one queue (fits/queue.py); until it
arrives the page shows its place in the queue and Stop instead of the weights (banner.wait_for)."""
import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus
from engine.fit import Fit
from engine.layers import preset
from fits import banner, cache, queue, recipe, waiting
from fits.recipe import DEFAULTS, Plan
from fits.settings import LEARNED, Layers
from kit.text import error_text, t
from vectors import chosen
from vectors.chosen import BUILT_IN

WAITS = "_fit_waits"  # the fits this session asked the queue for, by key: queued, running or ended


def layers(s: Layers, kv: KeyedVectors, source: chosen.Source) -> tuple[dict[str, np.ndarray], banner.Provenance]:
    """W_Q, W_K, W_V ([d, d_k]) from the sidebar's settings, and where W_Q and W_K came from, for the banner."""
    # while a learned preset's fit is queued or running, the page shows where it is and stops here (st.stop);
    # a fit that cannot be made leaves random weights, and says why
    d = kv.vector_size
    d_k = recipe.width(s.d_k, d)
    own_run = recipe.own_run(s, source)
    plans = recipe.plans(s, source, kv)
    found = fits(plans, kv)
    for problem in dict.fromkeys(why_unusable(e) for e in found.values() if isinstance(e, Exception)):
        st.warning(problem)
    if st.session_state.pop("_fit_left", False):
        st.info(t("fit_left"))
    awaited = [job for job in found.values() if isinstance(job, queue.Job)]
    if awaited:
        banner.wait_for(s, awaited[0], d, own_run)
        st.stop()
    learned = {name: got for name, got in found.items() if isinstance(got, Fit)}
    used = next(((learned[name], plans[name].recipe) for name in (s.k_preset, s.q_preset) if name in learned), None)
    failed = {name for name, got in found.items() if isinstance(got, Exception)}  # random weights stand in for these
    fallback = {f"{layer}_preset": "random" for layer in ("q", "k") if getattr(s, f"{layer}_preset") in failed}
    provenance = banner.provenance(s, fallback, d, d_k, used, own_run)
    banner.banner(s, provenance)
    w = {}
    for layer in ("q", "k", "v"):  # a learned preset's fit, scaled, where there is one; random ones where there is none
        name, seed, scale = (getattr(s, f"{layer}_{field}") for field in ("preset", "seed", "scale"))
        if name in learned:
            w[f"w_{layer}"] = scale * getattr(learned[name], f"w_{layer}")
        else:
            w[f"w_{layer}"] = preset("random" if name in LEARNED else name, d, d_k, seed=seed, scale=scale)
    return w, provenance


def fits(plans: dict[str, Plan], kv: KeyedVectors) -> dict[str, Fit | queue.Job | Exception]:
    """Each plan's fit: kept or shipped; the queue's job while it is queued or running; or why there is none."""
    # the job is asked for now, or joined; why none: the fit's error or queue.TooLarge
    # the fits this session waited for that no plan names any more are left
    waits = st.session_state.setdefault(WAITS, {})
    for gone in [key for key in waits if key not in {p.key for p in plans.values()}]:
        queue.leave(waits.pop(gone), waiting.me(), wait=0)
    out: dict[str, Fit | queue.Job | Exception] = {}
    for name, plan in plans.items():
        asked = waits.get(plan.key)
        if plan.fit is not None:
            out[name] = plan.fit
        elif asked is not None and asked.ended.is_set() and (asked.error or asked.result):
            if asked.error is not None and not isinstance(asked.error, corpus.CorpusError):
                raise asked.error
            out[name] = asked.error or asked.result  # a stopped fit, or one the store has let go since
        else:
            try:
                if asked is None or asked.ended.is_set():
                    job = plan.recipe.job(kv, plan.key, cache.storing_in(plan.store, plan.key))
                    waits[plan.key] = queue.ask(job, waiting.me())
                out[name] = waits[plan.key]
            except queue.TooLarge as e:
                out[name] = e
    return out


def why_unusable(e: Exception) -> str:
    """Why a learned preset's fit cannot be used now: too large a step, no room, or no sentence the vectors know."""
    return error_text(e) if isinstance(e, queue.TooLarge) or getattr(e, "code", "") == "no_room" else t(
        "trained_unavailable")


def remember(s: Layers, kv: KeyedVectors, source: chosen.Source, which: str, fit: Fit) -> None:
    """Keep a fit made elsewhere (page 5's live run) as the one behind `which`, so using it costs no second fit."""
    # it has exactly `which`'s recipe; on built-in vectors only, as an upload's fits are the visitor's own
    if source.name != "upload":
        cache.shared(recipe.key(source, kv, recipe.job(s, which, source)), fit)


def warm(kv: KeyedVectors) -> Fit:
    """The default head on the built-in GloVe, as the first page will ask for it (run at server start)."""
    source = BUILT_IN._replace(size=len(kv), dims=kv.vector_size)
    wanted = recipe.job(DEFAULTS, "trained", source)
    return cache.shared(recipe.key(source, kv, wanted), recipe.shipped_fit(recipe.shipped(source, wanted)))
