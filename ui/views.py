"""Composite views: each takes arrays and labels (as bertviz's head_view(attention, tokens) does), draws one block of
a page in the run's language and returns what the learner picked. None reads the app's Settings."""
import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from engine.alignment import GROUPS
from engine.attention import Attention, contributions, head_tops, merge_heads, one_key, relative_gap, top_keys
from engine.relevance import in_order, length_angle, order_by, pairs_in_order, winner
from engine.swap import biggest, change
from ui import charts, render, signs, tables
from ui.text import has, plain, t, then

ROUNDING = 1e-12  # float64 sums of up to 64 terms stay far below this share of their largest number


SIDE_BY_SIDE = 20  # key words up to which two charts over them fit side by side with readable labels
ORDERED = 3  # keys a learner puts in order when predicting on the relevance page (fewer when the sentence has fewer)
ORDER_SHOWN = 5  # keys each order of the length-and-angle view lists
DIGITS = 16  # significant digits a float64 holds, about: two numbers that agree in all of them agree to rounding


@dataclass(frozen=True, eq=False)
class Marks:
    """What a matrix of attention shows besides its numbers: masked cells grey (`mask` [n_q, n_k], False where hidden;
    None: none is), the `selected` row's word outlined, a click on a cell choosing its row's word into the Settings
    field `pick_into`, and `weights` (softmax weights) on a sequential scale from 0."""
    mask: np.ndarray | None = None
    selected: str | None = None
    pick_into: str | None = None
    weights: bool = False


def aside(text: str | None) -> None:
    """A paragraph only some views have, in a container that is always drawn: what follows keeps its place in the
    page, so the browser updates its charts instead of building them anew."""
    with st.container():
        if text:
            st.markdown(text)


def matrix(a: np.ndarray, rows: list[str], cols: list, titles: charts.Titles, *, name: str, marks: Marks = Marks(),
           height: int | None = None, where=st):
    """A labelled heatmap of one matrix under `titles` (title, x and y; y 'row' where empty), with its `marks`, its
    numbers as CSV in the page's save menu (files and widget keys named after `name`)."""
    key = f"{name}_{charts.PICK}" if marks.pick_into else None
    titles = charts.Titles(titles.title, titles.x, titles.y or t("row"), t("value"), masked=t("masked_cell"))
    csv = render.Csv(f"dl_{name}", lambda: tables.matrix_wide(a, rows, cols).to_csv())
    render.chart("heatmap", matrix_cells(a, rows, cols, marks.mask, marks.selected), titles=titles,
                 cells=heatmap_cells(rows, cols, marks.mask, marks.selected), clickable=key is not None,
                 height=height, weights=marks.weights, where=where, key=key,
                 on_select=None if key is None else on_pick(key, marks.pick_into), save=render.Save(name=name, csv=csv))


def matrix_cells(a: np.ndarray, rows: list, cols: list, mask: np.ndarray | None, selected: str | None) -> pa.Table:
    """tables.matrix_table, once per distinct matrix and labels: the same Arrow table each time (read only), sent as
    it is, its bytes found by identity (render.arrow), never through pandas. Keyed by the matrix's bytes: Streamlit's
    own argument hash took longer than the table."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    m = None if mask is None else np.ascontiguousarray(mask, dtype=bool)
    return cells_of(a.tobytes(), a.shape, tuple(rows), tuple(cols), None if m is None else m.tobytes(), selected)


@functools.lru_cache(maxsize=100)
def cells_of(a: bytes, shape: tuple, rows: tuple, cols: tuple, mask: bytes | None, selected: str | None) -> pa.Table:
    """matrix_cells on hashable arguments."""
    matrix = np.frombuffer(a).reshape(shape)
    cells = None if mask is None else np.frombuffer(mask, dtype=bool).reshape(shape)
    return tables.matrix_table(matrix, list(rows), list(cols), mask=cells, selected=selected)


def heatmap_cells(rows: list, cols: list, mask: np.ndarray | None, selected: str | None) -> charts.Cells:
    """What a heatmap draws besides its colours: numbers on narrow ones, grey masked cells, the selected row's outline,
    and ticks on an axis of dimensions, every fifth on a long one (words get none: every word is labelled)."""
    def ticks(labels: list) -> tuple | None:
        if not all(isinstance(x, int) for x in labels):
            return None
        return tuple(labels[4::5] if len(labels) > 20 else labels)
    return charts.Cells(annotate=len(cols) <= charts.MAX_ANNOTATED, masked=mask is not None,
                        outlined=selected is not None, x_ticks=ticks(cols), y_ticks=ticks(rows))


def download(a: np.ndarray, rows: list[str], cols: list, name: str, *, where=st):
    """A CSV download of one matrix with its row and column labels, written only when clicked."""
    shown = t(f"file_{name}") if has(f"file_{name}") else name
    where.download_button(t("download", name=shown), lambda: tables.matrix_wide(a, rows, cols).to_csv(),
                          file_name=f"{shown}.csv", mime="text/csv", key=f"dl_{name}", on_click="ignore")


def download_table(table: pd.DataFrame | pa.Table, name: str, *, key: str, where=st):
    """A CSV download of one table as shown, named for the learner, written only when clicked."""
    where.download_button(t("download", name=name),
                          lambda: render.as_frame(table).to_csv(index=False).encode("utf-8"),
                          file_name=f"{name}.csv", mime="text/csv", key=f"dl_{key}", on_click="ignore")


def partners(att: Attention, labels: list[str]):
    """Which word each word attends to most, and whether they differ (relevance of the pair) or not (of one key)."""
    tops = top_keys(att)
    pairs = t("list_sep").join(f"“{plain(labels[i])}” → “{plain(labels[j])}”" for i, j in enumerate(tops))
    same = one_key(tops)
    st.markdown(t("relevance_pairs", pairs=pairs) + then() + (
        t("relevance_pairs_differ") if same is None else t("relevance_pairs_same", k=plain(labels[same]))))


def own_hidden(mask: np.ndarray) -> bool:  # [n_q, n_k]
    """Whether a square mask hides the words' own cells (attend's own=False)."""
    return mask.shape[0] == mask.shape[1] > 1 and not np.diagonal(mask).any()


def attention_view(att: Attention, q_labels: list[str], k_labels: list[str], q: str, *, softmax: bool,
                   prefix: str = "", query_field: str = "query"):
    """Factor matrix and weights (click a cell to pick the query word into Settings.<query_field>), the query word
    `q`'s weights and contributions, the sum check, Z."""
    mask = None if att.mask.all() else att.mask
    left, right = st.columns(2) if len(k_labels) <= SIDE_BY_SIDE else (st.container(), st.container())
    weights_title = t("weights_m_soft" if softmax else "weights_m_raw")
    for where, name, a, title in ((left, "factor", att.factor, t("factor_m")),
                                  (right, "weights", att.weights, weights_title)):
        marks = Marks(mask, q, pick_into=query_field, weights=name == "weights" and softmax)
        matrix(a, q_labels, k_labels, charts.Titles(title, t("key_word"), t("query_word")), name=f"{prefix}{name}",
               marks=marks, where=where)
    hidden = then() + t("own_hidden") if own_hidden(att.mask) else ""
    st.caption(t("click_hint") + hidden)
    st.markdown(signs.positive_cells(att, q_labels, k_labels))
    contribution_view(att, q_labels.index(q), q, k_labels, softmax=softmax)
    matrix(att.z, q_labels, tables.dims(att.v.shape[1]), charts.Titles(t("z_m"), t("dim")), name=f"{prefix}Z",
           marks=Marks(selected=q))


def on_pick(chart_key: str, field: str):
    """Callback: a clicked heatmap cell chooses its row's word into Settings.<field>."""
    def pick():
        points = st.session_state[chart_key].selection.get("pick") or []
        if points:
            st.session_state[field] = points[0]["row"]
    return pick


def contribution_view(att: Attention, i: int, q: str, k_labels: list[str], *, softmax: bool):
    """Query row i's weight on each key, each value row's weighted contribution, and the check that they add up."""
    left, right = st.columns([2, 3]) if len(k_labels) <= SIDE_BY_SIDE else (st.container(), st.container())
    heading, contributed = t("chosen_weights", q=q), t("contrib_title", q=q)
    left.markdown(f"**{plain(heading)}**")  # the word stays out of the spec: see charts
    render.chart("weight_bars", tables.weights_frame(att.weights[i], k_labels, att.mask[i]),
                 titles=charts.Titles(None, t("key_word"), t("weight")), weights=softmax, where=left,
                 save=render.Save(label=heading))
    right.markdown(f"**{plain(contributed)}**")
    z_row = pd.DataFrame({"dim": tables.dims(att.v.shape[1]), "z": att.z[i]})
    titles = charts.Titles(None, t("dim"), t("contribution"), key=t("key_word"), z=t("z_row"), weight=t("weight"),
                           other=t("contrib_other"))
    render.chart("contribution_bars", tables.contributions(att.weights[i], att.v, k_labels), z_row, titles=titles,
                 where=right, save=render.Save(label=contributed))
    gap = relative_gap(contributions(att.weights[i], att.v), att.z[i])
    if gap <= ROUNDING:
        st.success(t("sum_check", q=q, digits=agreeing_digits(gap)))
    else:
        st.warning(t("sum_check_off", q=q, digits=agreeing_digits(gap), need=agreeing_digits(ROUNDING)))


def agreeing_digits(gap: float) -> int:
    """The leading digits two numbers share when they differ by `gap` of the larger (all DIGITS when equal)."""
    return DIGITS if gap <= 0 else min(DIGITS, max(0, int(np.floor(-np.log10(gap) + 1e-9))))


def heads_view(multi: Attention, q_labels: list[str], k_labels: list[str], q: str, *, softmax: bool,
               prefix: str):
    """Where each head looks for query `q`, a weights heatmap per head, and Z = the heads' outputs side by side."""
    h, n_q, n_k = multi.weights.shape
    d_h, d_vh = multi.q.shape[-1], multi.z.shape[-1]
    st.markdown(head_focus(multi, q_labels, k_labels, q))
    mask = None if multi.mask.all() else multi.mask
    per_row = min(h, 2) if len(k_labels) <= SIDE_BY_SIDE else 1  # narrower heatmaps squeeze their legends
    cells = heatmap_cells(q_labels, k_labels, mask, q)
    for first in range(0, h, per_row):
        for head, where in zip(range(first, min(first + per_row, h)), st.columns(per_row), strict=False):
            titles = charts.Titles(t("head_m", h=head + 1, lo=head * d_h + 1, hi=(head + 1) * d_h), t("key_word"),
                                   t("query_word"), t("weight"), masked=t("masked_cell"))
            render.chart("heatmap", matrix_cells(multi.weights[head], q_labels, k_labels, mask, q), titles=titles,
                         cells=cells, weights=softmax, where=where)
    download(multi.weights.reshape(h * n_q, n_k), [f"{head + 1}: {w}" for head in range(h) for w in q_labels],
             k_labels, f"{prefix}head-weights")
    matrix(merge_heads(multi.z), q_labels, tables.dims(h * d_vh), charts.Titles(t("z_heads_m", h=h, d=d_vh), t("dim")),
           name=f"{prefix}Z-heads", marks=Marks(selected=q))


def head_focus(multi: Attention, q_labels: list[str], k_labels: list[str], q: str) -> str:
    """A sentence saying which key word each head weights most for query `q`, grouped by that word."""
    top, w = head_tops(multi, q_labels.index(q))
    if (top == top[0]).all():
        lo, hi = w[:, top[0]].argmin(), w[:, top[0]].argmax()
        return t("focus_same", q=q, n=len(top), k=k_labels[top[0]], lo=w[lo, top[0]], hi=w[hi, top[0]],
                 h_lo=lo + 1, h_hi=hi + 1)
    items = []
    for j in dict.fromkeys(top):
        heads = [x for x in range(len(top)) if top[x] == j]
        items.append(t("focus_one" if len(heads) == 1 else "focus_many", k=k_labels[j],
                       heads=t("list_sep").join(str(x + 1) for x in heads),
                       w=t("list_sep").join(f"{w[x, j]:.2f}" for x in heads)))
    return t("focus_differ", q=q, items=t("item_sep").join(items))


def length_angle_view(q_row: np.ndarray, k_rows, q: str, keys: list[str]):  # [d], [n, d]
    """q·k = |q|·|k|·cos θ for each key: the table, and which of length and angle sets the order."""
    la = length_angle(q_row, k_rows)
    st.subheader(t("la_title", q=q))
    number = st.column_config.NumberColumn
    st.dataframe(tables.length_angle_table(la, keys), hide_index=True, width="stretch", column_config={
        "word": t("key_word"), "dot": number("q·k", format="%.3f"), "q_len": number("|q|", format="%.3f"),
        "k_len": number("|k|", format="%.3f"), "cos": number("cos θ", format="%.3f"),
        "dot_rank": number(t("la_rank", by="q·k"), format="%d"),
        "cos_rank": number(t("la_rank", by="cos θ"), format="%d"),
        "len_rank": number(t("la_rank", by="|k|"), format="%d")})
    st.markdown(t(f"la_{la.decides}", q=q))
    if la.decides != "tie":
        st.markdown(order_list(la, keys))


def order_list(la, keys: list[str]) -> str:
    """Markdown bullets: the keys in order by q·k, by cos θ alone and by |k| alone, the first ORDER_SHOWN of each, so
    that a long sentence's orders stay three short lines."""
    n = min(ORDER_SHOWN, len(keys))
    cut = " > …" if len(keys) > n else ""
    lines = [f"- {t(f'la_order_{name}', order=' > '.join(f'“{plain(keys[j])}”' for j in order_by(v)[:n]) + cut)}"
             for name, v in (("dot", la.dot), ("cos", la.cos), ("len", la.k_len))]
    return "\n".join(lines) + (f"\n\n{t('la_first', n=n, total=len(keys))}" if cut else "")


def pair_products(pairs: list, q: str, keys: list[str], *, by_size: bool, fields: list[str], wheres: list):
    """Each (query, key) pair's products dimension by dimension, coloured by sign group, with the running sum, side by
    side on shared scales so their bars and lines compare; each chart's numbers as CSV in the page's save menu, keyed
    by its key's field."""
    frames = [tables.alignment_frame(pair, by_size=by_size) for pair in pairs]
    shown_frames = charts.with_alignment_domains(frames)
    for products, shown, k, field, where in zip(frames, shown_frames, keys, fields, wheres, strict=True):
        titles = charts.Titles(t("products_title", q=q, k=k), t("dim"), t("product"), group=t("group"),
                               running=t("running"))
        csv = render.Csv(f"dl_products_{field}", lambda df=products: df.to_csv(index=False))
        render.chart("alignment_bars", shown, titles=titles, group_names=group_names(), where=where,
                     save=render.Save(csv=csv))


def pair_summary(pair, q: str, k: str, *, note: str, source: str, sign: str):
    """The pair's dot product, what its sign says (`sign`), its four sign groups' sums and the check that they add up
    to it."""
    st.markdown(t("dot_pair_value", q=q, k=k, dot=pair.dot, agree=pair.agree, disagree=pair.dot - pair.agree)
                + then() + sign)
    groups = tables.group_table(pair, group_names())
    st.dataframe(groups, hide_index=True, width="stretch", column_config={
        "group": t("group"), "dimensions": t("dimensions"),
        "sum": st.column_config.NumberColumn(t("group_sum"), format="%.4f")})
    st.success(t("group_check", total=float(sum(pair.sums.values())), dot=pair.dot))
    st.caption(t(note, q=q, k=k, source=source))


def group_names() -> dict[str, str]:
    """The four sign groups' names."""
    return {g: t(f"group_{g}") for g in GROUPS}


def verdicts(scores: dict[str, np.ndarray], names: dict[str, str], keys: list[str], order: list[str]):
    """For each measure, whether its scores put the keys in the expected order, with the numbers."""
    pos = [keys.index(x) for x in order]
    shown = " > ".join(f"“{x}”" for x in order)
    for m, v in scores.items():
        values = t("list_sep").join(f"“{x}” {y:.3f}" for x, y in zip(order, v[pos], strict=False))
        met = in_order(v[pos])
        (st.success if met else st.warning)(t("verdict_met" if met else "verdict_missed", measure=names[m],
                                              order=shown, values=values))


def ranking(scores: dict[str, np.ndarray], names: dict[str, str], keys: list[str], q: str):
    """Every key's score and rank under each measure, side by side, with its download."""
    st.subheader(t("ranking", q=q))
    table = tables.ranking_table(scores, keys)
    st.dataframe(table, hide_index=True, width="stretch", column_config=ranking_columns(names))
    shown = t("item_sep").join(t("ranking_name", short=short_name(m, names), name=names[m]) for m in scores)
    st.caption(t("ranking_legend", columns=shown))
    download_table(table, t("file_ranking"), key="ranking")


def ranking_columns(names: dict[str, str]) -> dict:
    """The ranking table's columns under short names, so that seven fit a phone's width: each measure's score, then
    its rank as "#"; the full names in each column's help and in the caption below the table."""
    config = {"word": t("word")}
    for m, name in names.items():
        config[m] = st.column_config.NumberColumn(short_name(m, names), help=name, format="%.3f")
        config[f"{m}_rank"] = st.column_config.NumberColumn(t("rank_short"), format="%d",
                                                            help=f"{t('rank')} · {name}")
    return config


def short_name(m: str, names: dict[str, str]) -> str:
    """A measure's short column name (its full name where it has none)."""
    return t(f"measure_{m}_short") if has(f"measure_{m}_short") else names[m]


def guess_first(q_row: np.ndarray, k_rows: np.ndarray, q: str, keys: list[str], *, key: str,
                ordered: int = 1, ask=None) -> bool:
    """Predict, then reveal: the learner picks the word `q` attends to most (the highest q·k), or with `ordered` > 1
    orders that many keys, most first, before seeing any number; True once guessed (the page then shows its answer),
    with right or wrong and why, computed from the vectors. q_row [d], k_rows [n, d] for the n `keys`; `key` names
    this view, so each view is guessed once. `ask(q, keys, ordered, answer, why)` offers the question to a class."""
    results = st.session_state.setdefault("_guesses", {})  # view -> (guessed keys, right); links hold none
    best, why = winner(q_row, k_rows)
    la, ordered = length_angle(q_row, k_rows), min(ordered, len(keys))
    if ask is not None:
        ask(q, keys, ordered, [keys[j] for j in order_by(la.dot)[:ordered]], why)
    guess = ask_guess(q, keys, key=key, ordered=ordered, done=results.get(key, (None,))[0])
    if key not in results:
        if guess is None:
            st.info(t("predict_hidden"))
            return False
        results[key] = (guess, guess[0] == keys[best])
    guess, right = results[key]
    said = t("predict_right" if right else "predict_wrong", guess=guess[0], k=keys[best])
    reason = t(f"predict_why_{why}", k=keys[best], q=q, cos=la.cos[best], len=la.k_len[best])
    if len(guess) > 1:
        agree, pairs = pairs_in_order([keys.index(g) for g in guess], la.dot)
        truth = " > ".join(f"“{keys[j]}”" for j in order_by(la.dot)[:len(guess)])
        reason += then() + t("predict_order_said", guess=" > ".join(f"“{g}”" for g in guess), order=truth,
                             agree=agree, pairs=pairs)
    (st.success if right else st.warning)(said + then() + reason)
    st.caption(t("predict_score", right=sum(r for _, r in results.values()), total=len(results)))
    return True


def ask_guess(q: str, keys: list[str], *, key: str, ordered: int,
              done: list[str] | None) -> list[str] | None:
    """The learner's guess: the one word `q` attends to most, or `ordered` words most first; None until complete.
    A guess already `done` stays on screen, fixed."""
    if ordered <= 1:
        choice = st.radio(t("predict_ask", q=q), keys, index=keys.index(done[0]) if done else None,
                          horizontal=True, key=f"_guess_{key}", disabled=bool(done))
        return None if choice is None else [choice]
    picked = st.multiselect(t("predict_order_ask", q=q, m=ordered), keys, default=done, max_selections=ordered,
                            key=f"_guess_{key}", placeholder=t("predict_order_placeholder"), disabled=bool(done))
    return picked if len(picked) == ordered else None


def swap_changes(before: Attention, after: Attention, labels: list[str], removed: int | None, old: str, new: str):
    """What swapping word `old` for `new` (or removing word `removed`) changed: the weights and Z after minus before,
    over the after-sentence's `labels`, and the biggest changes named."""
    delta = change(before.weights, after.weights, removed, cols_too=True)
    items = [t("swap_item", q=labels[r], k=labels[c], d=d) for r, c, d in biggest(delta)]
    said = t("swap_said", old=old, new=new) if new else t("swap_removed_said", old=old)
    st.markdown(said + t("swap_moved", items=t("item_sep").join(items)))
    left, right = st.columns(2)
    matrix(delta, labels, labels, charts.Titles(t("swap_weights_m"), t("key_word"), t("query_word")),
           name="swap-weights", where=left)
    matrix(change(before.z, after.z, removed, cols_too=False), labels, tables.dims(after.z.shape[1]),
           charts.Titles(t("swap_z_m"), t("dim")), name="swap-Z", where=right)
