"""Page 5's first sections: train W_Q and W_K (or the word vectors) towards the learner's own targets, and see whether
the order they reach comes from the angle between q and k or from the lengths."""
import numpy as np
import streamlit as st

from engine import corpus, objective, training
from engine.alignment import pair_alignment
from engine.attention import attend
from engine.projection import fit_plane_qk, pair_cosines, project
from engine.relevance import degrees, length_angle, order_by
from fits import jobs, queue, waiting
from kit import render, tables, views
from kit.charts import Titles, relevance_bars
from kit.products import alignment_bars, alignment_frame, group_names
from kit.text import error_text, labels, number, plain, t
from kit.views import pick_word
from learning import targets
from learning.charts import loss_curve, pair_curves, vector_plane
from learning.settings import LEARNS, STARTS
from learning.tables import curves_frame, loss_frame, plane_frame, targets_result, training_table

START_NOTES = {"sidebar": "learn_start_note_sidebar", "random": "learn_start_note_random"}  # where training starts,
START_TITLES = {"sidebar": "learn_start_title_sidebar", "random": "learn_start_title_random"}  # and its scores' chart
CAME = {"angle": "learn_came_angle", "length": "learn_came_length", "both": "learn_came_both"}  # what set the order

# the run queued or running, and the last run, kept on screen across reruns and while the inputs are invalid
LIVE = jobs.Runner("_learning_run", "_learning_result", "h", "live", ValueError)


def quoted(words) -> str:
    """“a”, “b”, “c” in the page's language."""
    return t("list_sep").join(f"“{w}”" for w in words)


def section(ctx, part):
    """Targets, what learns, where training starts, Train, and the last run's results."""
    # a run that has just ended has its results drawn in its turn; what follows one word is drawn by part(draw,
    # "query"), so that picking another word runs that alone (the page's frame.part)
    LIVE.section(lambda ended: parts(ctx, part, failed=ended.error if ended is not None else None))


def parts(ctx, part, failed: Exception | None):
    """The section's parts, top to bottom; `failed` is why the run that has just ended failed, if it did."""
    # it fails for want of room or with numbers grown too large; `part` draws what follows one word of the results
    ss = st.session_state
    triples, problems = targets_editor(ctx)
    learn = controls(ctx)
    config = start_view(ctx, triples, learn)
    st.subheader(t("learn_results_title"))
    running = LIVE.current()
    if LIVE.pressed(t("learn_train"), "train", disabled=not learn or bool(problems)):
        running = start(ctx, triples, learn, config)
    if failed is not None:
        st.error(error_text(failed) if isinstance(failed, corpus.CorpusError) else t("learn_overflow"))
    if running is not None:
        waiting.panel(running["job"], "stop", progress=progress())
    elif LIVE.result in ss:
        if problems or not learn:
            st.caption(t("learn_kept_result"))
        show_result(ss[LIVE.result], config, part)
    else:
        st.info(t("learn_not_trained"))


def targets_editor(ctx) -> tuple[list, list]:
    """The editable targets table; returns (query, key, target) triples and the problems, shown as a list."""
    s, enc = ctx.s, ctx.enc
    st.subheader(t("learn_targets_title"))
    left, right = st.columns([3, 2], gap="large")
    text = st.column_config.TextColumn
    left.data_editor(editor_base(s.targets), key="targets_table", num_rows="dynamic", hide_index=True,
                     width="stretch", on_change=save_targets, column_config={
                         "query": text(t("query_word"), required=True),
                         "key": text(t("key_word"), required=True),
                         "target": text(t("learn_target"), required=True, help=t("learn_target_help"))})
    right.markdown(t("learn_targets_help", words=quoted(enc.labels)))
    triples, problems = targets.resolve(targets.parse_targets(s.targets), enc.tokens, enc.labels)
    if problems:
        said = [t(key, **{k: quoted(v) if isinstance(v, list) else v for k, v in values.items()})
                for key, values in problems]
        items = "\n".join(f"- {line}" for line in said)
        st.warning(t("targets_problems") + "\n" + items)
    return triples, problems


def editor_base(text: str):
    """The table the editor lays its edits on, kept while the editor lives so that each edit stays on its row."""
    ss = st.session_state
    kept = ss.get("_targets_base")
    if kept is None or kept[1] != text or "targets_table" not in ss:  # new visit, or targets from elsewhere
        kept = ss["_targets_base"] = (targets.parse_targets(text), text)
    return kept[0]


def save_targets():
    """The edited table back into Settings.targets, so the URL carries it."""
    ss = st.session_state
    base = ss["_targets_base"][0]
    ss["targets"] = targets.format_targets(targets.apply_edits(base, ss["targets_table"]))
    ss["_targets_base"] = (base, ss["targets"])


def save_learn():
    """The chosen parameters back into Settings.learn."""
    st.session_state["learn"] = ",".join(st.session_state["learn_pick"])


def controls(ctx) -> list[str]:
    """What learns, the learning rate, steps and seed, where training starts, directions only; returns what learns."""
    s = ctx.s
    bound = most_steps(ctx)
    jobs.cap_steps("steps", s.steps, bound)
    st.subheader(t("learn_how_title"))
    chosen = [name.strip() for name in s.learn.split(",") if name.strip()]
    what_box, lr_box, steps_box, seed_box = st.columns([3, 1, 1, 1])
    # Settings.learn changes only through save_learn, and the pills' key alone names them, so the default is read
    # where they start: on arrival at the page
    learn = what_box.pills(t("learn_what"), training.PARAMETERS, selection_mode="multi", key="learn_pick",
                     default=[name for name in training.PARAMETERS if name in chosen], on_change=save_learn,
                     format_func=labels(LEARNS))
    lr_box.number_input(t("learn_lr"), min_value=1e-4, max_value=training.MAX_LR, step=0.005, format="%g", key="lr")
    jobs.steps_input(steps_box, "steps", bound, len(ctx.enc.labels), ctx.kv.vector_size, ctx.d_k)
    seed_box.number_input(t("learn_seed"), min_value=0, max_value=9999, step=1, key="train_seed",
                    disabled=s.learn_start == "sidebar")
    left, middle, right = st.columns([2, 1, 1])
    left.segmented_control(t("learn_start"), list(STARTS), key="learn_start",
                           format_func=labels(STARTS))
    middle.number_input(t("learn_sign_weight"), min_value=0.0, max_value=20.0, step=0.5, format="%g",
                        key="sign_weight", help=t("learn_sign_weight_help"))
    right.toggle(t("learn_directions"), key="cosine", help=t("learn_directions_help"))
    unknown = [name for name in chosen if name not in training.PARAMETERS]
    if unknown:
        st.warning(t("learn_unknown_param", names=quoted(unknown)))
    if not learn:
        st.warning(t("learn_choose"))
    if "w_v" in learn:
        st.info(t("learn_wv_note"))
    return learn


def start_weights(ctx):
    """W_Q, W_K, W_V training starts from: the weights in use, or the seeded random ones train() draws."""
    s, d = ctx.s, ctx.kv.vector_size
    if s.learn_start == "sidebar":
        return ctx.w["w_q"], ctx.w["w_k"], ctx.w["w_v"]
    return training.initial_weights(d, ctx.d_k, s.train_seed, 1.0)


def start_view(ctx, triples, learn) -> dict:
    """The scores training starts from and whether the target order already holds; returns the run's settings."""
    s, enc = ctx.s, ctx.enc
    d, d_k = enc.embedding.shape[1], ctx.d_k
    st.caption(t(START_NOTES[s.learn_start], d=d, d_k=d_k))
    att = attend(enc.x, enc.x, *start_weights(ctx), cosine=s.cosine, own=s.own)
    start = att.scores  # [n, n]
    q = enc.labels[triples[0][0]] if triples else enc.labels[-1]
    i = enc.labels.index(q)
    shown = att.mask[i] | np.isin(np.arange(len(enc.labels)), [k for qi, k, _ in triples if qi == i])  # seen, targeted
    left, right = st.columns([3, 2], gap="large")
    titles = Titles(t(START_TITLES[s.learn_start], q=q, seed=s.train_seed), score_title(s.cosine), t("key_word"),
                    rank=t("rank"))
    keys = [label for label, on in zip(enc.labels, shown, strict=True) if on]
    render.chart(relevance_bars, tables.relevance_table({"start": start[i, shown]}, keys), titles=titles, where=left)
    if triples:
        pair_scores = [start[i, j] for i, j, _ in triples]
        held = bool(objective.order_holds(pair_scores, triples))
        right.markdown(t("learn_start_held" if held else "learn_start_missed",
                         order=order_text(triples, pair_scores, enc.labels)))
    return dict(source=s.source, sentence=s.sentence, position=s.position, d_k=d_k, targets=s.targets,
                learn=",".join(name for name in training.PARAMETERS if name in learn), lr=s.lr, steps=s.steps,
                seed=s.train_seed, start=s.learn_start, cosine=s.cosine, sign_weight=s.sign_weight,
                weights=(s.q_preset, s.k_preset) if s.learn_start == "sidebar" else None)


def most_steps(ctx) -> int:
    """The most steps one run may take on this sentence, these vectors and d_k."""
    return min(training.MAX_STEPS, queue.max_steps(len(ctx.enc.labels), ctx.kv.vector_size, ctx.d_k))


def start(ctx, triples, learn, config) -> dict:
    """Queue the run; the run in progress, kept in the session until it ends."""
    s, enc = ctx.s, ctx.enc
    w_q, w_k, _ = start_weights(ctx)
    x, steps = enc.embedding, min(s.steps, most_steps(ctx))
    kwargs = dict(learn=learn, lr=s.lr, steps=steps, seed=s.train_seed, d_k=config["d_k"], positional=enc.positional,
                  cosine=s.cosine, sign_weight=s.sign_weight,
                  **(dict(w_q=w_q, w_k=w_k) if s.learn_start == "sidebar" else {}))
    return LIVE.start(lambda report: training.train(x, triples, callback=report, **kwargs), steps,
                      queue.fit_bytes(x.shape[1], config["d_k"], len(x), snapshots=training.SNAPSHOTS),
                      **config, labels=enc.labels)


def progress():
    """What the waiting notice draws while the run trains: a progress bar and the loss so far."""
    def draw(job: queue.Job):
        losses = [loss for loss, in list(job.values)]  # steps 1, 2, …
        if not losses:
            st.info(t("fit_running", step=0, total=job.steps), icon=":material/model_training:")
            return
        st.progress(len(losses) / job.steps,
                    text=t("learn_progress", step=len(losses), total=job.steps, loss=losses[-1]))
        render.chart(loss_curve, loss_frame(losses, start=1),
                     titles=Titles(t("learn_live_title"), t("learn_step"), t("learn_loss")), steps=job.steps,
                     save=None)  # a moment of the run: the finished curve is the one to save
    return draw


def order_text(triples, scores, labels) -> str:
    """'for “milk”, black 0.68 > drank 0.10 > cat 0.09': each query's targeted keys from the highest score down."""
    # highest first so the line always reads true; the sentence around it says whether that is the target order
    rows = []
    for query in dict.fromkeys(q for q, _, _ in triples):
        items = sorted(((scores[j], labels[k]) for j, (q, k, _) in enumerate(triples) if q == query),
                       key=lambda item: -item[0])
        text = f"{items[0][1]} {number(items[0][0], '.2f')}"
        for (prev, _), (score, key) in zip(items, items[1:], strict=False):
            text += f"{' > ' if prev > score else ' = '}{key} {number(score, '.2f')}"
        rows.append(t("learn_order_row", q=labels[query], keys=text))
    return t("item_sep").join(rows)


def show_result(res: dict, config: dict, part):
    """Verdict, curves and table, then one word's dot products before and after and its vectors turning in one plane."""
    # the word's part is drawn by `part`, so that changing the word they follow runs it again alone
    h, labels = res["h"], res["labels"]
    pairs = [f"{labels[q]} → {labels[k]}" for q, k, _ in h.targets]
    verdict(res, config)
    curves(h, pairs, cosine=res["cosine"])
    part(lambda _: followed(h, labels, pairs), "query")


def followed(h, labels: list[str], pairs: list[str]):
    """The word the results follow, its dot products before and after, its vectors turning, its lengths and angles."""
    # a choice where the targets name several query words; the dot products are with its keys
    rows = [labels[r] for r in h.rows]
    q = rows[0] if len(rows) == 1 else pick_word("query", t("query"), rows, rows[0])
    i = labels.index(q)
    keys = [k for _, k in sorted(((v, k) for qi, k, v in h.targets if qi == i), key=lambda item: -item[0])]
    before_after(h, i, q, labels, list(dict.fromkeys([keys[0], keys[-1]])))
    plane_view(h, i, q, labels, keys, pairs)
    views.length_angle_view(h.q[-1, i], h.k[-1, keys], q, [labels[k] for k in keys])


def verdict(res: dict, config: dict):
    """Whether and when the target order was reached, and whether the settings changed since."""
    h = res["h"]
    if any(res[name] != value for name, value in config.items()):
        st.caption(t("learn_stale", steps=res["steps"], lr=res["lr"], seed=res["seed"]))
    if h.stopped:
        st.warning(t("learn_stopped", step=h.steps, total=res["steps"]))
    order = order_text(h.targets, h.scores[-1], res["labels"])
    until = t("learn_until_stop" if h.stopped else "learn_until_end", end=h.steps)
    why = came_from(h, res["labels"], res["cosine"])
    if h.order_step is None:
        st.error(t("learn_verdict_missed", end=h.steps, order=order) + why)
    elif h.order_step == 0:
        st.success(t("learn_verdict_start", until=until, order=order) + why)
    else:
        st.success(t("learn_verdict_reached", step=h.order_step, until=until, order=order) + why)
    signs_verdict(h, res["labels"])


def signs_verdict(h, labels: list[str]):
    """Whether every pair ended with its target's sign, from which step, and which term asked for it."""
    right = objective.sign_right(h.scores[-1], h.targets)
    pairs = t("list_sep").join(
        t("learn_sign_pair", q=plain(labels[q]), k=plain(labels[k]), score=score, mark="✓" if ok else "✗")
        for (q, k, _), score, ok in zip(h.targets, h.scores[-1], right, strict=True))
    if h.sign_weight == 0:
        st.warning(t("learn_signs_off", pairs=pairs))
    elif h.sign_step is None:
        st.error(t("learn_signs_missed", pairs=pairs))
    elif h.sign_step == 0:
        st.success(t("learn_signs_start", pairs=pairs))
    else:
        st.success(t("learn_signs_reached", step=h.sign_step, pairs=pairs, w=h.sign_weight))


def came_from(h, labels: list[str], cosine: bool) -> str:
    """Per query word, whether its keys' final order comes from the angle (cos θ), the key lengths |k| or both."""
    # q·k = |q|·|k|·cos θ splits the order, |q| being the same for every key; said with the angles and lengths measured
    # scores of directions only (cosine) can only follow the angle; nothing for a query with one key or equal scores
    lines = []
    for i in dict.fromkeys(q for q, _, _ in h.targets):
        keys = [k for q, k, _ in h.targets if q == i]
        la = length_angle(h.q[-1, i], h.k[-1, keys])
        decides = "angle" if cosine and la.decides != "tie" else la.decides
        if decides == "tie":
            continue
        deg = degrees(la.cos)
        top = int(np.argmax(la.cos if cosine else la.dot))  # the first by score
        angles = t("list_sep").join(f"“{plain(labels[keys[j]])}” {deg[j]:.0f}°" for j in order_by(la.cos))
        lengths = t("list_sep").join(f"“{plain(labels[keys[j]])}” {la.k_len[j]:.2f}" for j in order_by(la.k_len))
        lines.append(t(CAME[decides], q=plain(labels[i]), angles=angles, lengths=lengths)
                     + views.parallel_note(deg[top], la.cos[top], labels[i], labels[keys[top]]))
    return "".join("\n\n" + line for line in lines)


def score_title(cosine: bool) -> str:
    """What a score of training is called: τ·cos θ when it compares directions only, else q·k/√d_k."""
    return t("learn_score_cosine" if cosine else "learn_score")


def curves(h, pairs: list[str], *, cosine: bool):
    """Loss, scores (τ·cos θ where `cosine`, else q·k/√d_k) and weights per step, the summary table and its download."""
    step_title = t("learn_step")
    left, middle, right = st.columns(3)
    terms = {t("learn_term_total"): h.loss, t("learn_term_order"): h.order_loss,
             t("learn_term_sign", w=h.sign_weight): h.sign_weight * h.sign_loss}
    render.chart(pair_curves, curves_frame(np.stack(list(terms.values()), axis=1), list(terms)),
                 titles=Titles(t("learn_loss_title"), step_title, t("learn_loss"), pair=t("learn_term"),
                               marker=t("learn_order_marker")), columns=1, where=left)
    left.caption(t("learn_loss_floor", floor=training.loss_floor(h)))
    for where, values, title, y_title in ((middle, h.scores, "learn_scores_title", score_title(cosine)),
                                          (right, h.weights, "learn_weights_title", t("weight"))):
        titles = Titles(t(title), step_title, y_title, pair=t("learn_pair"), marker=t("learn_order_marker"))
        render.chart(pair_curves, curves_frame(values, pairs), titles=titles, marker=h.order_step,
                     where=where)
    column = st.column_config.NumberColumn
    shown = tables.styled(targets_result(h, pairs), {"score_start": ".3f", "score_end": ".3f"})
    st.dataframe(shown, hide_index=True, width="stretch", column_config={
        "pair": t("learn_pair"), "target": column(t("learn_target"), format="%g"),
        "goal_share": column(t("learn_goal_share"), format="%.3f", help=t("learn_goal_share_help")),
        "share": column(t("learn_share"), format="%.3f", help=t("learn_share_help")),
        "weight": column(t("weight"), format="%.3f", help=t("learn_weight_help")),
        "score_start": column(t("learn_score_start", score=score_title(cosine))),
        "score_end": column(t("learn_score_end", score=score_title(cosine)))})
    views.download_table(training_table(h, pairs), t("file_learning"), key="learning")


def before_after(h, i: int, q: str, labels: list[str], shown: list[int]):
    """Page 3's per-dimension products for the most and least relevant key, at the start and at the end."""
    st.subheader(t("learn_align_title"))
    st.markdown(t("learn_align_intro", q=q, keys=quoted(labels[k] for k in shown)))
    names = group_names()
    for j in shown:
        for where, snap, title in zip(st.columns(2), (0, -1), (t("learn_before", q=q, k=labels[j]),
                                      t("learn_after", step=h.steps, q=q, k=labels[j])), strict=False):
            pa = pair_alignment(h.q[snap, i], h.k[snap, j])
            titles = Titles(title, t("dim"), t("product"), group=t("group"), running=t("running"))
            render.chart(alignment_bars, alignment_frame(pa), titles=titles, group_names=names, where=where)
            where.markdown(t("dot_value", dot=pa.dot, agree=pa.agree, disagree=pa.dot - pa.agree))


def plane_view(h, i: int, q: str, labels: list[str], keys: list[int], pairs: list[str]):
    """The query and key vectors in one fixed 2-D plane, scrubbable by step, beside their cosines per step."""
    st.subheader(t("learn_plane_title"))
    focus_k = [labels[k] for k in keys]
    st.markdown(t("learn_plane_intro", q=q, keys=quoted(focus_k), d_k=h.q.shape[-1]))
    plane = fit_plane_qk(h.q, h.k)
    frame = plane_frame(project(h.q, plane), project(h.k, plane), labels, h.snapshot_steps, [q], focus_k)
    titles = Titles(t("learn_plane_chart"), t("learn_axis", n=1), t("learn_axis", n=2), role=t("learn_role"),
                    word=t("row"), step=t("learn_step"), slider=t("learn_slider", m=int(h.snapshot_steps[-1])))
    left, right = st.columns(2, gap="large")
    render.chart(vector_plane, frame, titles=titles, role_names={"q": t("learn_role_q"), "k": t("learn_role_k")},
                 where=left, save=render.Save(name="plane"), width="content")  # square: as drawn
    own = [j for j, (qi, _, _) in enumerate(h.targets) if qi == i]
    cosines = pair_cosines(h.q, h.k, [i] * len(own), [h.targets[j][1] for j in own])
    titles = Titles(t("learn_cosine_title"), t("learn_step"), t("learn_cosine"), pair=t("learn_pair"),
                    marker=t("learn_order_marker"), angle=t("learn_angle"))
    turning = curves_frame(cosines, [pairs[j] for j in own], h.snapshot_steps)
    render.chart(pair_curves, turning.assign(angle=degrees(turning["value"])), titles=titles, marker=h.order_step,
                 angles=True, where=right)
    st.caption(t("learn_plane_note", kept=plane.kept, d_k=h.q.shape[-1]))
