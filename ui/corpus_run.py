"""Page 5's last section: train one attention head live on real sentences (or the template sentences, or the learner's
CSV), watch held-out accuracy next to simple rules, try the weights on any sentence, use them on every page."""
import math
import time
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.attention import attend, one_key, score, top_keys
from ui import fair, page, render, tables, weights
from ui.text import error_text, plain, t, then

RESULT, RUNNING = "_corpus_result", "_corpus_run"  # the last fit; the fit in progress (see pages/5_Learning.py)
CHOICE, CHOICES = "_corpus_which", ("treebank", "templates", "upload")
FRAMES = 40  # progress updates per run, each a moment at which Stop can end it
REDRAW = 0.5  # seconds between redraws of the live accuracy curve
TRY = "The old fisherman mended the torn net"


@dataclass(frozen=True)
class Data:
    """What a run trains on."""

    which: str  # "treebank", "templates" or "upload"
    found: list  # treebank.Sentence or corpus.Example, all splits
    words: int  # words of the training sentences the run reads: what the step bound counts


@dataclass(frozen=True)
class Reference:
    """The live treebank run on these vectors, and what simple rules reach on its held-out sentences."""

    total: int  # training sentences in the treebank
    train: int  # the run's training sentences whose words the vectors all know
    test: int  # held-out sentences whose words the vectors all know
    words: int  # words of the run's training sentences
    offset: int  # the fixed offset (never 0) that most often lands on the head
    by_offset: float  # its held-out accuracy (NaN without held-out sentences)
    by_cosine: float  # each word picks the other word whose raw vector points most alike: held-out accuracy


def reference(kv: KeyedVectors) -> Reference:
    """Sizes and baselines of the live run on these vectors; the rules see raw vectors, no position, no layers."""
    found = treebank.built_in()
    usable = treebank.known(kv, found)
    train = treebank.split(usable, "train")[:treebank.LIVE.sentences]
    test = treebank.split(usable, "test")
    offset, by_offset, by_cosine = 1, math.nan, math.nan
    if test:
        held = treebank.batch(kv, test, 0.0)
        offset, by_offset = treebank.best_offset(held)
        by_cosine = treebank.accuracy(held, score(held.x, held.x, cosine=True))
    return Reference(len(treebank.split(found, "train")), len(train), len(test), sum(len(s.tokens) for s in train),
                     offset, by_offset, by_cosine)


@st.cache_resource(show_spinner=False, max_entries=8)
def shared_reference(_kv: KeyedVectors, source: tuple) -> Reference:
    """reference() once per built-in vector source (name, size, dimensions), shared by every session."""
    return reference(_kv)


def references(s, kv: KeyedVectors) -> Reference:
    """reference() for the vectors in use: shared for built-in ones, kept in the session for an upload."""
    if s.source != "upload":
        return shared_reference(kv, (s.source, len(kv), kv.vector_size))
    kept = st.session_state.get("_corpus_reference")
    if kept is None or kept[0]() is not kv:
        kept = st.session_state["_corpus_reference"] = (weakref.ref(kv), reference(kv))
    return kept[1]


def choose(ctx) -> Data | None:
    """The corpus radio and what the chosen corpus is; None while an upload is awaited or the vectors know none."""
    lang, ss = ctx.lang, st.session_state
    if ss.get(CHOICE) not in CHOICES:
        ss[CHOICE] = ctx.s.run_on  # a link to weights of a run opens on the corpus they came from
    which = st.radio(t("corpus_which", lang), CHOICES, key=CHOICE, horizontal=True,
                     format_func=lambda v: t(f"corpus_choice_{v}", lang))
    if which == "treebank":
        ref = references(ctx.s, ctx.kv)
        st.markdown(t("corpus_about_treebank", lang, train=ref.train, total=ref.total, test=ref.test,
                      batch=treebank.LIVE.batch_words, offset=offset_name(ref.offset, lang)))
        if not ref.train:
            st.error(error_text(corpus.CorpusError("no_known"), lang))
            return None
        return Data(which, treebank.built_in(), ref.words)
    if which == "templates":
        found = weights.templates()
    else:
        found = uploaded(lang)
        if found is None:
            return None
    usable = corpus.known(ctx.kv, found)
    train, test = (sum(e.split == name for e in usable) for name in corpus.SPLITS)
    st.markdown(t(f"corpus_about_{which}", lang, train=train, test=test))
    if not train:
        st.error(error_text(corpus.CorpusError("no_known"), lang))
        return None
    return Data(which, found, corpus.words(usable))


def uploaded(lang: str) -> list[corpus.Example] | None:
    """The learner's CSV once it passes the checks (each file read once), else None after saying why."""
    ss = st.session_state
    file = st.file_uploader(t("corpus_upload", lang), type=["csv"], key="corpus_file", help=t("corpus_format", lang))
    if file is not None and ss.get("_corpus_upload", (None,))[0] != (file.name, file.size):
        try:
            ss["_corpus_upload"] = ((file.name, file.size), corpus.load(file.getvalue()))
        except corpus.CorpusError as e:
            st.error(t("corpus_bad", lang, error=error_text(e, lang)))
    if "_corpus_upload" not in ss:
        st.info(t("corpus_upload_none", lang))
        return None
    (name, _), found = ss["_corpus_upload"]
    st.caption(t("corpus_loaded", lang, name=name, n=len(found)))
    return found


def offset_name(offset: int, lang: str) -> str:
    """'the next word', 'the word 2 places back'."""
    if abs(offset) == 1:
        return t("corpus_offset_next" if offset > 0 else "corpus_offset_prev", lang)
    return t("corpus_offset_after" if offset > 0 else "corpus_offset_before", lang, k=abs(offset))


def section(ctx):
    """The corpus fit: choose the corpus and recipe, train, read the curves, try a sentence, use the weights."""
    lang, ss = ctx.lang, st.session_state
    interrupted = ss.pop(RUNNING, None)
    if interrupted:
        keep_stopped(ctx, interrupted)
    st.header(t("corpus_title", lang))
    st.markdown(t("corpus_intro", lang))
    data = choose(ctx)
    args = None
    if data is not None:
        args = recipe(ctx, data)
        if st.button(t("corpus_train", lang), key="corpus_train", type="primary", icon=":material/play_arrow:"):
            run(ctx, data, args)
    if RESULT in ss:
        result(ctx, ss[RESULT], data, args)


def recipe(ctx, data: Data) -> dict:
    """Steps (bounded by the words trained on), learning rate and seed; returns the fit's arguments."""
    s, lang, d = ctx.s, ctx.lang, ctx.kv.vector_size
    bound = min(corpus.MAX_STEPS, fair.max_steps(data.words, d, fair.CORPUS_WORK))
    if s.run_steps > bound:  # a larger corpus or larger vectors than the link was made with
        st.session_state["run_steps"] = bound
        st.info(t("learn_steps_capped", lang, asked=s.run_steps, max=bound))
    c1, c2, c3 = st.columns(3)
    c1.number_input(t("learn_steps", lang), min_value=1, max_value=bound, step=50, key="run_steps",
                    help=t("learn_steps_bound", lang, max=bound, n=data.words, d=d))
    c2.number_input(t("learn_lr", lang), min_value=1e-4, max_value=1.0, step=0.01, format="%g", key="run_lr")
    c3.number_input(t("learn_seed", lang), min_value=0, max_value=9999, step=1, key="run_seed")
    args = dict(d_k=min(s.d_k, d), position=s.position, steps=min(s.run_steps, bound), lr=s.run_lr, seed=s.run_seed)
    note = "corpus_note_treebank" if data.which == "treebank" else "corpus_note_templates"
    st.caption(t(note, lang, d_k=args["d_k"], p=s.position))
    return args


def fit_on(kv: KeyedVectors, job: dict, callback):
    """The job's fit: the treebank's live recipe with held-out accuracy at every step, or the template-format fit."""
    a = job["args"]
    if job["which"] == "treebank":
        live = replace(treebank.LIVE, d_k=a["d_k"], position=a["position"], steps=a["steps"], lr=a["lr"],
                       seed=a["seed"])
        return treebank.fit(kv, job["found"], live, every=1, callback=callback)
    return corpus.fit(kv, job["found"], callback=callback, **a)


def run(ctx, data: Data, args: dict):
    """Fit with a progress bar, a live accuracy curve and Stop; an interrupted fit is recomputed to the step it reached
    on the next run."""
    lang, ss = ctx.lang, st.session_state
    levels = levels_of(ctx, data.which, data.found)
    job = dict(args=args, which=data.which, found=data.found, levels=levels, vectors=vectors_of(ctx), reached=0)
    ss[RUNNING] = job
    stop, bar, live = st.empty(), st.empty(), st.empty()
    stop.button(t("learn_stop", lang), key="corpus_stop", icon=":material/stop:")
    every, total = max(1, args["steps"] // FRAMES), args["steps"]
    names = line_names(data.which, lang)
    seen, drawn = {"step": [], "train": [], "test": []}, [time.monotonic()]

    def report(step, loss, train, test):
        fair.give_way()
        job["reached"] = step
        for name, value in zip(seen, (step, train, test)):
            seen[name].append(value)
        if step % every == 0 or step == total:
            key = "learn_progress" if math.isnan(test) else "corpus_progress"
            bar.progress(step / total, text=t(key, lang, step=step, total=total, loss=loss, test=test))
        if time.monotonic() - drawn[0] > REDRAW:
            accuracy_chart(seen["step"], {names["test"]: seen["test"], names["train"]: seen["train"]}, levels,
                           data.which, lang, where=live, steps=total, saved=False)
            drawn[0] = time.monotonic()

    try:
        with fair.turn(lambda n: bar.info(t("queue_wait", lang, n=n), icon=":material/hourglass_top:")):
            fit = fit_on(ctx.kv, job, report)
    except corpus.CorpusError as e:
        ss.pop(RUNNING, None)
        st.error(error_text(e, lang))
        return
    if ss.get(RUNNING) is job:
        ss[RESULT] = dict(job, fit=fit)
        ss.pop(RUNNING, None)
    for slot in (stop, bar, live):
        slot.empty()


def keep_stopped(ctx, job: dict):
    """The interrupted fit up to the last step it reached (fits are deterministic), once the run's turn comes."""
    reached = job["reached"]  # the interrupted run may still be finishing in its own thread: read its step once
    if not reached:
        return

    def until(step, *_):
        fair.give_way()
        return step < reached

    slot = st.empty()
    with st.spinner(t("corpus_keeping", ctx.lang, step=reached)):
        with fair.turn(lambda n: slot.info(t("queue_wait", ctx.lang, n=n), icon=":material/hourglass_top:")):
            fit = fit_on(ctx.kv, job, until)
    slot.empty()
    st.session_state[RESULT] = dict(job, fit=fit)


def levels_of(ctx, which: str, found: list) -> dict:
    """What simple rules reach on the held-out sentences: for the treebank, always the same offset and raw cosine
    (each word picks the other word whose raw vector points most alike); for template-format pairs, raw cosine."""
    if which == "treebank":
        ref = references(ctx.s, ctx.kv)
        return {"offset": ref.by_offset, "offset_at": ref.offset, "cosine": ref.by_cosine, "test": ref.test}
    test = [e for e in corpus.known(ctx.kv, found) if e.split == "test"]
    identity = np.eye(ctx.kv.vector_size)
    raw = corpus.order_accuracy(ctx.kv, test, identity, identity, position=0, cosine=True) if test else math.nan
    return {"cosine": raw}


def vectors_of(ctx) -> tuple:
    """Which vectors a fit is made on: their source, size and dimensions."""
    return ctx.s.source, len(ctx.kv), ctx.kv.vector_size


def line_names(which: str, lang: str) -> dict[str, str]:
    """The accuracy curves' names: held-out, and training (the step's batch, for the treebank's minibatches)."""
    train = "corpus_batch_split" if which == "treebank" else "corpus_train_split"
    return {"test": t("corpus_test_split", lang), "train": t(train, lang)}


def accuracy_chart(measured, curves: dict, levels: dict, which: str, lang: str, **where):
    """Accuracy at the `measured` steps, a line per entry of `curves` (held-out first), with the simple rules as dashed
    levels."""
    named = {t("corpus_ref_cosine", lang): levels["cosine"]}
    if "offset" in levels:
        named = {t("corpus_ref_offset", lang, offset=offset_name(levels["offset_at"], lang)): levels["offset"], **named}
    title = "corpus_accuracy_title_treebank" if which == "treebank" else "corpus_accuracy_title"
    on_top_last = dict(reversed(curves.items()))  # the held-out line, first in the legend, drawn over the others
    render.chart("accuracy_curves", tables.accuracy_frame(measured, on_top_last), tables.levels_frame(named),
                 title=t(title, lang), x_title=t("learn_step", lang), y_title=t("corpus_accuracy", lang),
                 line_title=t("corpus_split", lang), names=list(curves), level_title=t("corpus_rule", lang),
                 lang=lang, **where)


def result(ctx, res: dict, data: Data | None, args: dict | None):
    """Whether the result is still the current choice's, the figures next to the simple rules, the curves, a sentence
    to try, and the switch to use these weights."""
    lang, fit, a = ctx.lang, res["fit"], res["args"]
    same_vectors = res["vectors"] == vectors_of(ctx)
    current = same_vectors and data is not None and res["which"] == data.which and res["args"] == args
    if not current:
        st.caption(t("corpus_stale", lang, corpus=t(f"corpus_choice_{res['which']}", lang), steps=a["steps"],
                     lr=a["lr"], seed=a["seed"], d_k=a["d_k"], p=a["position"]))
    if fit.stopped:
        st.warning(t("learn_stopped", lang, step=fit.steps, total=a["steps"]))
    levels = res["levels"]
    if res["which"] == "treebank":
        st.success(t("corpus_done_treebank", lang, steps=fit.steps, train=fit.used, test=levels["test"],
                     acc=fit.test_accuracy[-1], offset=offset_name(levels["offset_at"], lang),
                     by_offset=levels["offset"], by_cosine=levels["cosine"]))
    else:
        st.success(t("corpus_done", lang, steps=fit.steps, train=fit.train_accuracy[-1], test=fit.test_accuracy[-1],
                     raw=levels["cosine"], used=fit.used, skipped=fit.skipped))
    left, right = st.columns(2)
    names = line_names(res["which"], lang)
    steps = np.arange(fit.steps + 1)
    accuracy_chart(steps, {names["test"]: fit.test_accuracy, names["train"]: fit.train_accuracy}, levels,
                   res["which"], lang, where=left)
    render.chart("loss_curve", tables.loss_frame(fit.loss), title=t("learn_loss_title", lang),
                 x_title=t("learn_step", lang), y_title=t("learn_loss", lang), where=right, lang=lang)
    if same_vectors:  # the weights fit these vectors' dimensions
        try_sentence(ctx, fit)
        share(ctx, res, current)


def try_sentence(ctx, fit):
    """Any sentence: the word each word attends to most with the fitted weights, and one query's weights."""
    lang = ctx.lang
    st.subheader(t("corpus_try_title", lang))
    left, right = st.columns([3, 1])
    text = left.text_input(t("corpus_try_sentence", lang), TRY, max_chars=300, key="_corpus_try")
    enc = page.sentence_rows(ctx.kv, text, ctx.s)
    if enc is None or len(enc.labels) < 2:
        return
    q = right.selectbox(t("query", lang), enc.labels, index=len(enc.labels) - 1, key="_corpus_try_q")
    att = attend(enc.x, enc.x, fit.w_q, fit.w_k, np.eye(ctx.kv.vector_size), own=ctx.s.own)
    tops = top_keys(att)  # [n]  each query's strongest visible key
    pairs = t("list_sep", lang).join(f"“{plain(enc.labels[i])}” → “{plain(enc.labels[j])}”" for i, j in enumerate(tops))
    common = one_key(tops)
    same = "" if common is None else then(lang) + t("corpus_try_same", lang, k=plain(enc.labels[common]))
    st.markdown(t("corpus_try_tops", lang, pairs=pairs) + same)
    i = enc.labels.index(q)
    others = [j for j in range(len(enc.labels)) if att.mask[i, j]]
    keys = [enc.labels[j] for j in others]
    render.chart("relevance_bars", tables.relevance_table({"w": att.weights[i, others]}, keys),
                 title=t("corpus_try_chart", lang, q=q), x_title=t("weight", lang), y_title=t("key_word", lang),
                 rank_title=t("rank", lang), lang=lang)


def share(ctx, res: dict, current: bool):
    """Use the run on every page: its recipe goes into the URL, so a shared link re-derives the same weights."""
    lang, s, fit = ctx.lang, ctx.s, res["fit"]
    if res["which"] == "upload":
        st.caption(t("corpus_share_upload", lang))
        return
    if fit.stopped:
        st.caption(t("corpus_share_stopped", lang))
        return
    if not current:
        return
    a = res["args"]
    recipe = (res["which"], a["steps"], a["lr"], a["seed"])
    if "run" == s.q_preset == s.k_preset and (s.run_on, s.run_steps, s.run_lr, s.run_seed) == recipe:
        st.success(t("corpus_in_use", lang))
    else:
        st.button(t("corpus_use", lang), key="corpus_use", icon=":material/check:", on_click=use,
                  args=(ctx.s, ctx.kv, recipe, fit))


def use(s, kv: KeyedVectors, recipe: tuple, fit):
    """Callback: the run's recipe into the settings, W_Q, W_K from it on every page, and this fit as the one that
    recipe gives (fits are deterministic), so no page fits it again."""
    ss = st.session_state
    ss["run_on"], ss["run_steps"], ss["run_lr"], ss["run_seed"] = recipe
    ss["q_preset"] = ss["k_preset"] = "run"
    used = replace(s, run_on=recipe[0], run_steps=recipe[1], run_lr=recipe[2], run_seed=recipe[3])
    weights.remember(used, kv, "run", fit)
