"""Page 5's second half: fit W_Q and W_K on a whole corpus, watch held-out accuracy, try the weights, share them."""
import numpy as np
import streamlit as st

from engine import corpus
from engine.attention import attend
from ui import fair, page, render, tables, weights
from ui.text import error_text, t

RESULT, RUNNING = "_corpus_result", "_corpus_run"  # the last fit; the fit in progress (see pages/5_Learning.py)
FRAMES = 40  # progress updates per run, each a moment at which Stop can end it


def examples(lang: str) -> tuple[list[corpus.Example], str, int]:
    """The built-in corpus, or the learner's uploaded CSV once it passes the checks; which one it is; and the words
    of its training sentences (what one step of a fit reads)."""
    st.radio(t("corpus_which", lang), ("built_in", "upload"), key="_corpus_which", horizontal=True,
             format_func=lambda v: t(f"corpus_{v}", lang))
    built_in = weights.templates(), "built_in", weights.sizes("templates")["words"]
    if st.session_state.get("_corpus_which", "built_in") == "built_in":
        return built_in
    file = st.file_uploader(t("corpus_upload", lang), type=["csv"], key="corpus_file", help=t("corpus_format", lang))
    ss = st.session_state
    if file is not None and ss.get("_corpus_upload", (None,))[0] != (file.name, file.size):  # read each file once
        try:
            found = corpus.load(file.getvalue())
            ss["_corpus_upload"] = ((file.name, file.size), found, corpus.words(found))
        except corpus.CorpusError as e:
            st.error(t("corpus_bad", lang, error=error_text(e, lang)))
    if "_corpus_upload" in ss:
        (name, _), found, words = ss["_corpus_upload"]
        st.caption(t("corpus_loaded", lang, name=name, n=len(found)))
        return found, "upload", words
    st.info(t("corpus_upload_none", lang))
    return built_in


def run(ctx, found, which: str, args: dict):
    """Fit with a progress bar and Stop; an interrupted fit is recomputed to the step it reached on the next run."""
    job = dict(args=args, which=which, found=found, reached=0)
    st.session_state[RUNNING] = job
    stop, bar = st.empty(), st.empty()
    stop.button(t("learn_stop", ctx.lang), key="corpus_stop", icon=":material/stop:")
    every = max(1, args["steps"] // FRAMES)

    def report(step, loss, train, test):
        fair.give_way()
        job["reached"] = step
        if step % every == 0:
            bar.progress(step / args["steps"], text=t("corpus_progress", ctx.lang, step=step, total=args["steps"],
                                                        loss=loss, train=train, test=test))

    with fair.turn(lambda n: bar.info(t("queue_wait", ctx.lang, n=n), icon=":material/hourglass_top:")):
        fit = corpus.fit(ctx.kv, found, callback=report, **args)
    if st.session_state.get(RUNNING) is job:
        keep(job, fit, ctx.kv)
        st.session_state.pop(RUNNING, None)
    stop.empty()
    bar.empty()


def keep_stopped(job: dict, kv):
    """The interrupted fit up to the last step it reached (fits are deterministic)."""
    reached = job["reached"]
    if reached:
        keep(job, corpus.fit(kv, job["found"], callback=lambda step, *_: step < reached, **job["args"]), kv)


def keep(job: dict, fit: corpus.Fit, kv):
    """The finished (or stopped) fit as the result to show, with raw cosine's held-out accuracy beside it."""
    test = [e for e in job["found"] if e.split == "test"]
    identity = np.eye(kv.vector_size)
    raw = corpus.order_accuracy(kv, test, identity, identity, position=0, cosine=True)
    st.session_state[RESULT] = dict(job, fit=fit, raw=raw)


def section(ctx):
    """The corpus fit: choose the corpus and recipe, train, read the curves, try a sentence, use the weights."""
    s, lang, ss = ctx.s, ctx.lang, st.session_state
    interrupted = ss.pop(RUNNING, None)
    if interrupted:
        keep_stopped(interrupted, ctx.kv)
    st.header(t("corpus_title", lang))
    st.markdown(t("corpus_intro", lang))
    found, which, words = examples(lang)
    c1, c2, c3 = st.columns(3)
    bound = min(corpus.MAX_STEPS, fair.max_steps(words, ctx.kv.vector_size, fair.CORPUS_WORK))
    if s.run_steps > bound:  # a larger corpus or larger vectors than the link was made with
        st.session_state["run_steps"] = bound
        st.info(t("learn_steps_capped", lang, asked=s.run_steps, max=bound))
    c1.number_input(t("learn_steps", lang), min_value=1, max_value=bound, step=50, key="run_steps",
                    help=t("learn_steps_bound", lang, max=bound, n=words, d=ctx.kv.vector_size))
    c2.number_input(t("learn_lr", lang), min_value=1e-4, max_value=1.0, step=0.01, format="%g", key="run_lr")
    c3.number_input(t("learn_seed", lang), min_value=0, max_value=9999, step=1, key="run_seed")
    args = dict(d_k=min(s.d_k, ctx.kv.vector_size), position=s.position, steps=min(s.run_steps, bound), lr=s.run_lr,
                seed=s.run_seed)
    st.caption(t("corpus_note", lang, d_k=args["d_k"], p=s.position))
    if st.button(t("corpus_train", lang), key="corpus_train", type="primary", icon=":material/play_arrow:"):
        run(ctx, found, which, args)
    if RESULT in ss:
        result(ctx, ss[RESULT])


def result(ctx, res: dict):
    """Curves, the final figures next to raw GloVe, a sentence to try, and the switch to use these weights."""
    lang, fit = ctx.lang, res["fit"]
    if fit.stopped:
        st.warning(t("learn_stopped", lang, step=fit.steps, total=res["args"]["steps"]))
    raw = res["raw"]
    st.success(t("corpus_done", lang, steps=fit.steps, train=fit.train_accuracy[-1], test=fit.test_accuracy[-1],
                 raw=raw, used=fit.used, skipped=fit.skipped))
    left, right = st.columns(2)
    step = t("learn_step", lang)
    render.chart("loss_curve", tables.loss_frame(fit.loss), title=t("learn_loss_title", lang), x_title=step,
                 y_title=t("learn_loss", lang), where=left, lang=lang)
    names = {"train": t("corpus_train_split", lang), "test": t("corpus_test_split", lang)}
    render.chart("pair_curves", tables.accuracy_frame(fit, names), title=t("corpus_accuracy_title", lang),
                 x_title=step, y_title=t("corpus_accuracy", lang), pair_title=t("corpus_split", lang), where=right,
                 lang=lang)
    try_sentence(ctx, fit)
    share(ctx, res)


def try_sentence(ctx, fit):
    """Any sentence and query word, scored with the fitted weights."""
    lang = ctx.lang
    st.subheader(t("corpus_try_title", lang))
    left, right = st.columns([3, 1])
    text = left.text_input(t("corpus_try_sentence", lang), "The old fisherman mended the torn net", max_chars=300,
                           key="_corpus_try")
    enc = page.sentence_rows(ctx.kv, text, ctx.s)
    if enc is None or len(enc.labels) < 2:
        return
    q = right.selectbox(t("query", lang), enc.labels, index=len(enc.labels) - 1, key="_corpus_try_q")
    att = attend(enc.x, enc.x, fit.w_q, fit.w_k, np.eye(ctx.kv.vector_size), own=ctx.s.own)
    i = enc.labels.index(q)
    others = [j for j in range(len(enc.labels)) if j != i]
    keys = [enc.labels[j] for j in others]
    render.chart("relevance_bars", tables.relevance_table({"w": att.weights[i, others]}, keys),
                 title=t("corpus_try_chart", lang, q=q), x_title=t("weight", lang), y_title=t("key_word", lang),
                 rank_title=t("rank", lang), lang=lang)


def share(ctx, res: dict):
    """Use the run on every page: its recipe goes into the URL, so a shared link re-derives the same weights."""
    lang, s = ctx.lang, ctx.s
    if res["which"] != "built_in":
        st.caption(t("corpus_share_upload", lang))
        return
    recipe = (res["args"]["steps"], res["args"]["lr"], res["args"]["seed"])
    using = "run" == s.q_preset == s.k_preset and (s.run_on, s.run_steps, s.run_lr, s.run_seed) == ("templates", *recipe)
    if using:
        st.success(t("corpus_in_use", lang))
    else:
        st.button(t("corpus_use", lang), key="corpus_use", icon=":material/check:", on_click=use, args=recipe)


def use(steps: int, lr: float, seed: int):
    """Callback: the run's recipe into the settings, and W_Q, W_K from it on every page."""
    ss = st.session_state
    ss["run_on"], ss["run_steps"], ss["run_lr"], ss["run_seed"] = "templates", steps, lr, seed
    ss["q_preset"] = ss["k_preset"] = "run"
