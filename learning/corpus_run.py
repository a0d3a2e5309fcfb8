"""Page 5's last section: train one attention head live on real sentences (or the template sentences, or the learner's
CSV), watch held-out accuracy next to simple rules, try the weights on any sentence, use them on every page."""
import math
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.attention import attend, one_key, score, top_keys
from engine.tokens import tokenize
from fits import jobs, queue, recipe, waiting, weights
from fits.recipe import FitRecipe
from kit import render, tables
from kit.charts import Titles, relevance_bars
from kit.text import error_text, labels, plain, t, then
from learning.charts import accuracy_curves, loss_curve
from learning.tables import accuracy_frame, levels_frame, loss_frame
from server import ledger
from vectors import chosen
from vectors.rows import sentence_rows

# the fit queued or running, and the last fit
RUN = jobs.Runner("_corpus_run", "_corpus_result", "fit", "corpus", corpus.CorpusError)
CHOICE = "_corpus_which"
CHOICES = {"treebank": "corpus_choice_treebank", "templates": "corpus_choice_templates",  # what a run learns from
           "upload": "corpus_choice_upload"}
ABOUT = {"templates": "corpus_about_templates", "upload": "corpus_about_upload"}  # how many sentences it then has
TRY = "The old fisherman mended the torn net"


@dataclass(frozen=True)
class Data:
    """What a run trains on."""

    which: str  # "treebank", "templates" or "upload"
    found: list  # treebank.Sentence or corpus.Example, all splits
    words: int  # words one step of the run reads (queue.reads): what the step bound counts
    held: int  # word rows the run holds
    at_once: int  # the most words it scores at once


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


def references(kv: KeyedVectors, source: chosen.Source) -> Reference:
    """reference() for the vectors in use: shared for built-in ones, kept in the session for an upload."""
    if source.name != "upload":
        return shared_reference(kv, source)
    kept = st.session_state.get("_corpus_reference")
    if kept is None or kept[0]() is not kv:
        kept = st.session_state["_corpus_reference"] = (weakref.ref(kv), reference(kv))
    return kept[1]


def choose(ctx) -> Data | None:
    """The corpus radio and what the chosen corpus is; None while an upload is awaited or the vectors know none."""
    # a link to weights of a run opens on the corpus they came from; the radio's key alone names it, so the learner's
    # pick holds while it is drawn
    which = st.radio(t("corpus_which"), list(CHOICES), index=list(CHOICES).index(ctx.s.run_on), key=CHOICE,
                     horizontal=True, format_func=labels(CHOICES))
    if which == "treebank":
        ref = references(ctx.kv, ctx.vectors)
        plain = len(corpus.known_split(ctx.kv, "train")) if treebank.LIVE.plain else 0
        more = t("corpus_about_plain", n=plain, weight=treebank.LIVE.plain) if plain else ""
        st.markdown(t("corpus_about_treebank", train=ref.train, total=ref.total, test=ref.test,
                      batch=treebank.LIVE.batch_words, offset=offset_name(ref.offset), plain=more))
        if not ref.train:
            st.error(error_text(corpus.CorpusError("no_known")))
            return None
        test = recipe.sizes("treebank")["held_out"]  # held-out accuracy at every step
        return Data(which, treebank.built_in(), queue.reads(min(ref.words, treebank.LIVE.batch_words), test),
                    ref.words + test, test)
    if which == "templates":
        found = corpus.built_in()
    else:
        found = uploaded()
        if found is None:
            return None
    usable = corpus.known(ctx.kv, found)
    train, test = (sum(e.split == name for e in usable) for name in corpus.SPLITS)
    st.markdown(t(ABOUT[which], train=train, test=test))
    if not train:
        st.error(error_text(corpus.CorpusError("no_known")))
        return None
    words = corpus.words(usable)
    held_out = sum(len(tokenize(e.sentence)) for e in usable if e.split == "test")
    return Data(which, found, queue.reads(words, held_out), words + held_out, words + held_out)


def uploaded() -> list[corpus.Example] | None:
    """The learner's CSV once it passes the checks (each file read once), else None after saying why."""
    ss = st.session_state
    key = f"corpus_file_{ss.get('_corpus_round', 0)}"
    file = st.file_uploader(t("corpus_upload"), type=["csv"], key=key, help=t("corpus_format"),
                            max_upload_size=max(1, corpus.MAX_BYTES // 2**20))
    if file is not None:  # read it, then run again with a new, empty uploader: the examples stay, not the file
        ss["_corpus_problem"] = read_corpus(file)
        ledger.drop_files(((file.name, file.size),))
        ss["_corpus_round"] = ss.get("_corpus_round", 0) + 1
        del ss[key]  # the widget's value: a file object over the bytes, kept for as long as the session lives
        st.rerun()
    problem = ss.pop("_corpus_problem", None)
    if problem:
        st.error(t("corpus_bad", error=error_text(problem)))
    if "_corpus_upload" not in ss:
        st.info(t("corpus_upload_none"))
        return None
    (name, _), found = ss["_corpus_upload"]
    st.caption(t("corpus_loaded", name=name, n=len(found)))
    return found


def read_corpus(file) -> corpus.CorpusError | None:
    """Read the uploaded CSV into the session's corpus; else the reason it cannot be."""
    # a file larger than the corpus limit is refused by its size, unread
    try:
        if file.size > corpus.MAX_BYTES:
            raise corpus.CorpusError("too_big", size=file.size, limit=corpus.MAX_BYTES)
        st.session_state["_corpus_upload"] = ((file.name, file.size), corpus.load(file.getvalue()))
    except corpus.CorpusError as e:
        return e
    return None


def offset_name(offset: int) -> str:
    """'the next word', 'the word 2 places back'."""
    if abs(offset) == 1:
        return t("corpus_offset_next" if offset > 0 else "corpus_offset_prev")
    return t("corpus_offset_after" if offset > 0 else "corpus_offset_before", k=abs(offset))


def section(ctx):
    """The corpus fit: choose the corpus and recipe, train, read the curves, try a sentence, use the weights."""
    # the results of a run that has just ended are drawn in its turn (jobs.Runner.section)
    RUN.section(lambda ended: parts(ctx, ended))


def parts(ctx, ended: queue.Job | None):
    """The section's parts, top to bottom, after why the fit that has just `ended` failed, if it did."""
    ss = st.session_state
    if ended is not None and ended.error is not None:
        st.error(error_text(ended.error))
    st.header(t("corpus_title"))
    st.markdown(t("corpus_intro"))
    data = choose(ctx)
    wanted, running = None, RUN.current()
    if data is not None:
        wanted = ask(ctx, data)
        if wanted is not None and RUN.pressed(t("corpus_train"), "corpus_train"):
            running = start(ctx, data, wanted)
    if running is not None:
        waiting.panel(running["job"], "corpus_stop", progress=progress(running))
    if RUN.result in ss:
        result(ctx, ss[RUN.result], data, wanted)


def ask(ctx, data: Data) -> FitRecipe | None:
    """Steps (bounded by one fit's work), rate and seed; the fit's recipe, or None when a step would take too long."""
    s, d, d_k = ctx.s, ctx.kv.vector_size, ctx.d_k
    try:
        queue.check_step(data.words, d, d_k)
    except queue.TooLarge as e:
        st.error(error_text(e))
        return None
    bound = min(corpus.MAX_STEPS, queue.max_steps(data.words, d, d_k))
    jobs.cap_steps("run_steps", s.run_steps, bound)  # a larger corpus, vectors or d_k than the link's
    steps_box, lr_box, seed_box = st.columns(3)
    jobs.steps_input(steps_box, "run_steps", bound, data.words, d, d_k)
    lr_box.number_input(t("learn_lr"), min_value=1e-4, max_value=1.0, step=0.01, format="%g", key="run_lr")
    seed_box.number_input(t("learn_seed"), min_value=0, max_value=9999, step=1, key="run_seed")
    treebank_run = data.which == "treebank"  # the treebank's live recipe, else the template-format fit
    wanted = FitRecipe("treebank" if treebank_run else "templates", d_k, s.position, min(s.run_steps, bound), s.run_lr,
                       s.run_seed, treebank.LIVE.sentences if treebank_run else None)
    st.caption(t("corpus_note_treebank" if treebank_run else "corpus_note_templates", d_k=d_k, p=s.position))
    return wanted


def start(ctx, data: Data, wanted: FitRecipe) -> dict:
    """Queue the fit, with held-out accuracy at every step; the run in progress, kept in the session until it ends."""
    kv, d = ctx.kv, ctx.kv.vector_size
    return RUN.start(lambda report: wanted.fit(kv, data.found, report, every=1), wanted.steps,
                     queue.fit_bytes(d, wanted.d_k, data.held, data.at_once), recipe=wanted, which=data.which,
                     levels=levels_of(ctx, data.which, data.found), vectors=ctx.vectors)


def progress(running: dict):
    """What the waiting notice draws while the fit runs: a progress bar and the accuracy curves so far."""
    names, levels, which = line_names(running["which"]), running["levels"], running["which"]

    def draw(job: queue.Job):
        seen = list(job.values)  # (loss, training accuracy, held-out accuracy, its sign shares) of each step so far
        if not seen:
            st.info(t("fit_running", step=0, total=job.steps), icon=":material/model_training:")
            return
        loss, _, test, *_ = seen[-1]
        key = "learn_progress" if math.isnan(test) else "corpus_progress"
        step = len(seen) - 1
        st.progress(step / job.steps, text=t(key, step=step, total=job.steps, loss=loss, test=test))
        curves = {names[name]: [v[at] for v in seen] for name, at in CURVES}
        accuracy_chart(list(range(len(seen))), curves, levels, which, steps=job.steps, save=None)
    return draw


def levels_of(ctx, which: str, found: list) -> dict:
    """What simple rules reach on the held-out sentences: one offset and raw cosine on the treebank, else raw cosine."""
    # one offset: always the same; raw cosine: each word picks the other word whose raw vector points most alike
    if which == "treebank":
        ref = references(ctx.kv, ctx.vectors)
        return {"offset": ref.by_offset, "offset_at": ref.offset, "cosine": ref.by_cosine, "test": ref.test}
    test = [e for e in corpus.known(ctx.kv, found) if e.split == "test"]
    identity = np.eye(ctx.kv.vector_size)
    raw = corpus.order_accuracy(ctx.kv, test, identity, identity, position=0, cosine=True) if test else math.nan
    return {"cosine": raw}


CURVES = (("test", 2), ("train", 1), ("positive", 3), ("negative", 4))  # a curve's name, its place in a step's report


def line_names(which: str) -> dict[str, str]:
    """The curves' names: held-out accuracy, training accuracy and the held-out sign shares."""
    # the treebank trains in minibatches, so its training accuracy is the step's batch's
    train = "corpus_batch_split" if which == "treebank" else "corpus_train_split"
    positive, negative = (("corpus_signs_treebank_positive", "corpus_signs_treebank_negative") if which == "treebank"
                          else ("corpus_signs_positive", "corpus_signs_negative"))
    return {"test": t("corpus_test_split"), "train": t(train), "positive": t(positive), "negative": t(negative)}


def accuracy_chart(measured, curves: dict, levels: dict, which: str, **options):
    """Accuracy at the `measured` steps, a line per entry of `curves` (held-out first), over simple rules' levels."""
    named = {t("corpus_ref_cosine"): levels["cosine"]}
    if "offset" in levels:
        named = {t("corpus_ref_offset", offset=offset_name(levels["offset_at"])): levels["offset"], **named}
    title = "corpus_accuracy_title_treebank" if which == "treebank" else "corpus_accuracy_title"
    on_top_last = dict(reversed(curves.items()))  # the held-out line, first in the legend, drawn over the others
    titles = Titles(t(title), t("learn_step"), t("corpus_accuracy"), line=t("corpus_split"), level=t("corpus_rule"))
    render.chart(accuracy_curves, accuracy_frame(measured, on_top_last), levels_frame(named),
                 titles=titles, names=list(curves), **options)


def result(ctx, res: dict, data: Data | None, wanted: FitRecipe | None):
    """Whether the result is the current choice's; its figures and curves, a sentence to try, the switch to use it."""
    # the figures are set beside the simple rules'
    fit, r = res["fit"], res["recipe"]
    same_vectors = res["vectors"] == ctx.vectors
    current = same_vectors and data is not None and res["which"] == data.which and r == wanted
    if not current:
        st.caption(t("corpus_stale", corpus=t(CHOICES[res["which"]]), steps=r.steps, lr=r.lr, seed=r.seed, d_k=r.d_k,
                     p=r.position))
    if fit.stopped:
        st.warning(t("learn_stopped", step=fit.steps, total=r.steps))
    levels = res["levels"]
    if res["which"] == "treebank":
        st.success(t("corpus_done_treebank", steps=fit.steps, train=fit.used, test=levels["test"],
                     acc=fit.test_accuracy[-1], offset=offset_name(levels["offset_at"]),
                     by_offset=levels["offset"], by_cosine=levels["cosine"], positive=fit.test_positive[-1],
                     negative=fit.test_negative[-1]))
    else:
        st.success(t("corpus_done", steps=fit.steps, train=fit.train_accuracy[-1], test=fit.test_accuracy[-1],
                     raw=levels["cosine"], used=fit.used, skipped=fit.skipped, positive=fit.test_positive[-1],
                     negative=fit.test_negative[-1]))
    left, right = st.columns(2)
    names = line_names(res["which"])
    steps = np.arange(fit.steps + 1)
    curves = (fit.loss, fit.train_accuracy, fit.test_accuracy, fit.test_positive, fit.test_negative)
    accuracy_chart(steps, {names[name]: curves[at] for name, at in CURVES}, levels, res["which"], where=left)
    render.chart(loss_curve, loss_frame(fit.loss),
                 titles=Titles(t("corpus_loss_title"), t("learn_step"), t("learn_loss")), where=right)
    if same_vectors:  # the weights fit these vectors' dimensions
        try_sentence(ctx, fit)
        share(ctx, res, current)


def try_sentence(ctx, fit):
    """Any sentence: the word each word attends to most with the fitted weights, and one query's weights."""
    st.subheader(t("corpus_try_title"))
    left, right = st.columns([3, 1])
    text = left.text_input(t("corpus_try_sentence"), TRY, max_chars=300, key="_corpus_try")
    enc = sentence_rows(ctx.kv, text, ctx.s.position)
    if enc is None or len(enc.labels) < 2:
        return
    q = right.selectbox(t("query"), enc.labels, index=len(enc.labels) - 1, key="_corpus_try_q")
    att = attend(enc.x, enc.x, fit.w_q, fit.w_k, np.eye(ctx.kv.vector_size), own=ctx.s.own)
    tops = top_keys(att)  # [n]  each query's strongest visible key
    pairs = t("list_sep").join(f"“{plain(enc.labels[i])}” → “{plain(enc.labels[j])}”" for i, j in enumerate(tops))
    common = one_key(tops)
    same = "" if common is None else then() + t("corpus_try_same", k=plain(enc.labels[common]))
    st.markdown(t("corpus_try_tops", pairs=pairs) + same)
    i = enc.labels.index(q)
    others = [j for j in range(len(enc.labels)) if att.mask[i, j]]
    keys = [enc.labels[j] for j in others]
    render.chart(relevance_bars, tables.relevance_table({"w": att.weights[i, others]}, keys),
                 titles=Titles(t("corpus_try_chart", q=q), t("weight"), t("key_word"), rank=t("rank")))


def share(ctx, res: dict, current: bool):
    """Use the run on every page: its recipe goes into the URL, so a shared link re-derives the same weights."""
    s, fit = ctx.s, res["fit"]
    if res["which"] == "upload":
        st.caption(t("corpus_share_upload"))
        return
    if fit.stopped:
        st.caption(t("corpus_share_stopped"))
        return
    if not current:
        return
    r = res["recipe"]
    run = (res["which"], r.steps, r.lr, r.seed)  # the settings of the "run" preset that fit it again
    if "run" == s.q_preset == s.k_preset and (s.run_on, s.run_steps, s.run_lr, s.run_seed) == run:
        st.success(t("corpus_in_use"))
    else:
        st.button(t("corpus_use"), key="corpus_use", icon=":material/check:", on_click=use,
                  args=(ctx.s, ctx.kv, ctx.vectors, run, fit))


def use(s, kv: KeyedVectors, source: chosen.Source, run: tuple, fit):
    """Callback: the run's recipe into the settings, W_Q and W_K from it on every page, and this fit kept as its own."""
    # fits are deterministic, so this fit is the one that recipe gives, and no page fits it again
    ss = st.session_state
    ss["run_on"], ss["run_steps"], ss["run_lr"], ss["run_seed"] = run
    ss["q_preset"] = ss["k_preset"] = "run"
    used = replace(s, run_on=run[0], run_steps=run[1], run_lr=run[2], run_seed=run[3])
    weights.remember(used, kv, source, "run", fit)
