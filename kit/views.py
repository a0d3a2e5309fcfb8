"""Composite views: each takes arrays and labels (as bertviz's head_view(attention, tokens) does), draws one block of
a page in the run's language and returns what the learner picked. None reads the app's Settings."""
import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from engine.attention import Attention, contributions, positive_keys, relative_gap
from engine.relevance import degrees, length_angle, order_by, others_span, pairs_in_order, parallel, winner
from kit import charts, render, tables
from kit.charts import contribution_bars, heatmap, weight_bars
from kit.text import plain, t, then

# which of length and angle puts the keys in q·k's order (engine.relevance.length_angle's decides), and why the winner
# wins (engine.relevance.winner), as the page says them
DECIDES = {"angle": "la_angle", "length": "la_length", "both": "la_both", "tie": "la_tie"}
WHY = {"angle": "predict_why_angle", "length": "predict_why_length", "both": "predict_why_both"}
# how near parallel the winning key is (engine.relevance.parallel), where the page says so
PARALLEL = {"aligned": "la_aligned", "far": "la_far", "past": "la_past"}

ROUNDING = 1e-12  # float64 sums of up to 64 terms stay far below this share of their largest number


SIDE_BY_SIDE = 20  # key words up to which two charts over them fit side by side with readable labels
ORDERED = 3  # keys a learner puts in order when predicting on the relevance page (fewer when the sentence has fewer)
ORDER_SHOWN = 5  # keys each order of the length-and-angle view lists
DIGITS = 16  # significant digits a float64 holds, about: two numbers that agree in all of them agree to rounding


@dataclass(frozen=True, eq=False)
class Marks:
    """What a matrix of attention shows besides its numbers: hidden cells, a selected row, a click's target, weights."""
    mask: np.ndarray | None = None  # [n_q, n_k], False where hidden (grey); None: none is
    selected: str | None = None  # the row whose word is outlined
    pick_into: str | None = None  # the Settings field a click on a cell chooses its row's word into
    weights: bool = False  # softmax weights: on a sequential scale from 0


def aside(text: str | None) -> None:
    """A paragraph only some views have, in a container that is always drawn."""
    # what follows keeps its place in the page, so the browser updates its charts instead of building them anew
    with st.container():
        if text:
            st.markdown(text)


def matrix(a: np.ndarray, rows: list[str], cols: list, titles: charts.Titles, *, name: str, marks: Marks = Marks(),
           height: int | None = None, where=st):
    """A labelled heatmap of one matrix under `titles`, with its `marks`, its numbers as CSV in the save menu."""
    # titles' y is 'row' where empty; `name` names its files and widget keys
    key = f"{name}_{charts.PICK}" if marks.pick_into else None
    picked = on_pick(key, marks.pick_into) if key and marks.pick_into else None
    titles = charts.Titles(titles.title, titles.x, titles.y or t("row"), titles.value or t("value"),
                           masked=t("masked_cell"))
    csv = render.Csv(f"dl_{name}", lambda: tables.matrix_wide(a, rows, cols).to_csv())
    render.chart(heatmap, matrix_cells(a, rows, cols, marks.mask, marks.selected), titles=titles,
                 cells=heatmap_cells(rows, cols, marks.mask, marks.selected), clickable=key is not None,
                 height=height, weights=marks.weights, canvas=charts.on_canvas(rows, cols), where=where, key=key,
                 on_select=picked, save=render.Save(name=name, csv=csv))


def matrix_cells(a: np.ndarray, rows: list, cols: list, mask: np.ndarray | None, selected: str | None) -> pa.Table:
    """tables.matrix_table once per distinct matrix and labels: the same Arrow table each time, read only."""
    # Sent as it is, its bytes found by identity (render.arrow), never through pandas. Keyed by the matrix's bytes:
    # Streamlit's own argument hash took longer than the table.
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
    """What a heatmap of these labels draws besides its colours (charts.Cells)."""
    # numbers only on narrow heatmaps; ticks on an axis of dimensions, every fifth on a long one; words get none: every
    # word is labelled
    def ticks(labels: list) -> tuple | None:
        if not all(isinstance(x, int) for x in labels):
            return None
        return tuple(labels[4::5] if len(labels) > 20 else labels)
    return charts.Cells(annotate=len(cols) <= charts.MAX_ANNOTATED, masked=mask is not None,
                        outlined=selected is not None, x_ticks=ticks(cols), y_ticks=ticks(rows))


def download(a: np.ndarray, rows: list[str], cols: list, name: str, shown: str, *, where=st):
    """A CSV download of one matrix with its row and column labels, written only when clicked."""
    where.download_button(t("download", name=shown), lambda: tables.matrix_wide(a, rows, cols).to_csv(),
                          file_name=f"{shown}.csv", mime="text/csv", key=f"dl_{name}", on_click="ignore")


def download_table(table: pd.DataFrame | pa.Table, name: str, *, key: str, where=st):
    """A CSV download of one table as shown, named for the learner, written only when clicked."""
    where.download_button(t("download", name=name),
                          lambda: render.as_frame(table).to_csv(index=False).encode("utf-8"),
                          file_name=f"{name}.csv", mime="text/csv", key=f"dl_{key}", on_click="ignore")


def side_by_side(words: int, widths: int | list[float] = 2) -> tuple:
    """Two places for two charts over `words` words: side by side up to SIDE_BY_SIDE words, else one above the other."""
    return tuple(st.columns(widths)) if words <= SIDE_BY_SIDE else (st.container(), st.container())


def own_hidden(mask: np.ndarray) -> bool:  # [n_q, n_k]
    """Whether a square mask hides the words' own cells (attend's own=False)."""
    return mask.shape[0] == mask.shape[1] > 1 and not np.diagonal(mask).any()


def score_name(scaled: bool) -> str:
    """What a score is called on every page: q·k/√d_k when divided by √d_k, else q·k."""
    return t("qk_scaled" if scaled else "qk_raw")


def weights_value(softmax: bool, scaled: bool) -> str:
    """What the weights matrix's cells are called: weights after a softmax, else the scores themselves."""
    return t("weight") if softmax else score_name(scaled)


def attention_view(att: Attention, q_labels: list[str], k_labels: list[str], q: str, *, softmax: bool, scaled: bool,
                   own_note: str, prefix: str = "", query_field: str = "query"):
    """Factor matrix and weights, the query word `q`'s weights and contributions, the sum check, and Z."""
    # weights of q·k/√d_k where `scaled`; a click on a cell picks its query word into Settings.<query_field>; `own_note`
    # says what hidden own cells mean with the weights in use
    mask = None if att.mask.all() else att.mask
    left, right = side_by_side(len(k_labels))
    weights_title = t("weights_m_soft" if softmax else "weights_m_raw")
    for where, name, a, title, value in ((left, "factor", att.factor, t("factor_m"), t("qk_raw")),
                                         (right, "weights", att.weights, weights_title,
                                          weights_value(softmax, scaled))):
        marks = Marks(mask, q, pick_into=query_field, weights=name == "weights" and softmax)
        matrix(a, q_labels, k_labels, charts.Titles(title, t("key_word"), t("query_word"), value),
               name=f"{prefix}{name}", marks=marks, where=where)
    hidden = then() + own_note if own_hidden(att.mask) else ""
    st.caption(t("click_hint") + hidden)
    st.markdown(positive_cells(att, q_labels, k_labels))
    contribution_view(att, q_labels.index(q), q, k_labels, softmax=softmax)
    matrix(att.z, q_labels, tables.dims(att.v.shape[1]), charts.Titles(t("z_m"), t("dim")), name=f"{prefix}Z",
           marks=Marks(selected=q))


def quoted(word: str) -> str:
    """A word of the sentence in quotes, shown literally inside markdown."""
    return f"“{plain(word)}”"


def positive_cells(att: Attention, q_labels: list[str], k_labels: list[str]) -> str:
    """What the sign of a score says: each row's keys scored above 0, and the rows with none."""
    # a row's own cell is left out where it is hidden
    found = positive_keys(att.factor, att.mask)
    rows = [f"{quoted(q_labels[i])} → {t('list_sep').join(quoted(k_labels[j]) for j in keys)}"
            for i, keys in enumerate(found) if keys]
    said = t("signs_positive_cells", rows=t("item_sep").join(rows)) if rows else ""
    none = [quoted(q_labels[i]) for i, keys in enumerate(found) if not keys]
    if none:
        said += (then() if said else "") + t("signs_no_positive", words=t("list_sep").join(none))
    return said


def row_below(scores_row: np.ndarray, q: str, top: str) -> str | None:
    """A note for a query whose every score is at most 0 (the top bar then belongs to the least negative word)."""
    return t("signs_row_below", q=plain(q), top=plain(top)) if scores_row.max(initial=-np.inf) <= 0 else None


def on_pick(chart_key: str, field: str):
    """Callback: a clicked heatmap cell chooses its row's word into Settings.<field>."""
    def pick():
        points = st.session_state[chart_key].selection.get("pick") or []
        if points:
            st.session_state[field] = points[0]["row"]
    return pick


def contribution_view(att: Attention, i: int, q: str, k_labels: list[str], *, softmax: bool):
    """Query row i's weight on each key, each value row's weighted contribution, and the check that they add up."""
    left, right = side_by_side(len(k_labels), [2, 3])
    heading = t("chosen_weights", q=q)
    contributed = t("contrib_title", q=q)
    left.markdown(f"**{plain(heading)}**")  # the word stays out of the spec: see charts
    render.chart(weight_bars, tables.weights_frame(att.weights[i], k_labels, att.mask[i]),
                 titles=charts.Titles(None, t("key_word"), t("weight")), weights=softmax, where=left,
                 save=render.Save(label=heading))
    right.markdown(f"**{plain(contributed)}**")
    z_row = pd.DataFrame({"dim": tables.dims(att.v.shape[1]), "z": att.z[i]})
    titles = charts.Titles(None, t("dim"), t("contribution"), key=t("key_word"), z=t("z_row"), weight=t("weight"),
                           other=t("contrib_other"))
    render.chart(contribution_bars, tables.contributions(att.weights[i], att.v, k_labels), z_row, titles=titles,
                 where=right, save=render.Save(label=contributed))
    gap = relative_gap(contributions(att.weights[i], att.v), att.z[i])
    if gap <= ROUNDING:
        st.success(t("sum_check", q=q, digits=agreeing_digits(gap)))
    else:
        st.warning(t("sum_check_off", q=q, digits=agreeing_digits(gap), need=agreeing_digits(ROUNDING)))


def agreeing_digits(gap: float) -> int:
    """The leading digits two numbers share when they differ by `gap` of the larger (all DIGITS when equal)."""
    return DIGITS if gap <= 0 else min(DIGITS, max(0, int(np.floor(-np.log10(gap) + 1e-9))))


def length_angle_view(q_row: np.ndarray, k_rows, q: str, keys: list[str]):  # [d], [n, d]
    """q·k = |q|·|k|·cos θ for each key: the table, and which of length and angle sets the order."""
    la = length_angle(q_row, k_rows)
    st.subheader(t("la_title", q=q))
    number = st.column_config.NumberColumn
    signed = tables.styled(tables.length_angle_table(la, keys), {"dot": ".3f", "cos": ".3f"})
    st.dataframe(signed, hide_index=True, width="stretch", column_config={
        "word": t("key_word"), "dot": number(t("qk_raw"), help=t("la_dot_help")),
        "q_len": number("|q|", format="%.3f"), "k_len": number("|k|", format="%.3f"),
        "cos": number("cos θ"), "angle": number("θ", format="%.0f°", help=t("la_angle_help")),
        "dot_rank": number(t("la_rank", by="q·k"), format="%d"),
        "cos_rank": number(t("la_rank", by="cos θ"), format="%d"),
        "len_rank": number(t("la_rank", by="|k|"), format="%d")})
    st.markdown(decides_text(la, q, keys))
    if la.decides != "tie":
        st.markdown(order_list(la, keys))


def decides_text(la, q: str, keys: list[str]) -> str:
    """Which of length and angle set q·k's order, said with the first key's numbers against the others'."""
    if la.decides == "tie":
        return t("la_tie")
    top = int(np.argmax(la.dot))
    deg = degrees(la.cos)
    said = t(DECIDES[la.decides], q=plain(q), k=plain(keys[top]), deg=deg[top], len=la.k_len[top],
             degs=span(deg, top, "{:.0f}°"), lens=span(la.k_len, top, "{:.2f}"))
    return said + parallel_note(deg[top], la.cos[top], q, keys[top])


def span(values, top: int, form: str) -> str:
    """The others' values as "lo–hi" in `form`, or one value when they round alike."""
    lo, hi = (form.format(v) for v in others_span(values, top))
    return lo if lo == hi else f"{lo}–{hi}"


def parallel_note(deg: float, cos: float, q: str, k: str) -> str:
    """The next sentence, on how near parallel q and the first key are: aligned, far or past 90°; else empty."""
    # past 90°, no key is relevant by its sign
    key = PARALLEL.get(parallel(deg))
    return then() + t(key, deg=deg, cos=cos, q=plain(q), k=plain(k)) if key else ""


def order_list(la, keys: list[str]) -> str:
    """Markdown bullets: the keys in order by q·k, by cos θ alone and by |k| alone, the first ORDER_SHOWN of each."""
    # so that a long sentence's orders stay three short lines
    n = min(ORDER_SHOWN, len(keys))
    cut = " > …" if len(keys) > n else ""
    lines = [f"- {t(key, order=' > '.join(f'“{plain(keys[j])}”' for j in order_by(v)[:n]) + cut)}"
             for key, v in (("la_order_dot", la.dot), ("la_order_cos", la.cos), ("la_order_len", la.k_len))]
    return "\n".join(lines) + (f"\n\n{t('la_first', n=n, total=len(keys))}" if cut else "")


def guess_first(q_row: np.ndarray, k_rows: np.ndarray, q: str, keys: list[str], *, key: str,
                ordered: int = 1, ask=None) -> bool:
    """Predict, then reveal: the learner picks the key `q` attends to most, or orders `ordered`; True once guessed."""
    # 'Most' is the highest q·k, guessed before any number is shown; once guessed the page shows its answer, with right
    # or wrong and why, computed from the vectors.
    # q_row [d], k_rows [n, d] for the n `keys`; `key` names this view, so each view is guessed once; ask(q, keys,
    # ordered, answer, why) offers the question to a class.
    results = st.session_state.setdefault("_guesses", {})  # view -> (guessed keys, right); links hold none
    best, why = winner(q_row, k_rows)
    la = length_angle(q_row, k_rows)
    ordered = min(ordered, len(keys))
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
    deg = float(degrees(la.cos[best]))
    reason = t(WHY[why], k=keys[best], q=q, cos=la.cos[best], deg=deg, len=la.k_len[best])
    reason += parallel_note(deg, la.cos[best], q, keys[best])
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
    """The learner's guess: the top word for `q`, or `ordered` words most first; None until complete and checked."""
    # A form holds it, so moving between the options (the arrow keys move a radio's choice) commits nothing: only its
    # Check button does, with Enter, Space or a click, and it stays where it is, focus and all. A guess already `done`
    # stays on screen, fixed.
    with st.form(f"_guess_form_{key}", border=False, enter_to_submit=False):
        if ordered <= 1:
            choice = st.radio(t("predict_ask", q=q), keys, index=keys.index(done[0]) if done else None,
                              horizontal=True, key=f"_guess_{key}", disabled=bool(done))
            guess = None if choice is None else [choice]
        else:
            picked = st.multiselect(t("predict_order_ask", q=q, m=ordered), keys, default=done,
                                    max_selections=ordered, key=f"_guess_{key}",
                                    placeholder=t("predict_order_placeholder"), disabled=bool(done))
            guess = picked if len(picked) == ordered else None
        checked = st.form_submit_button(t("predict_check"), key=f"_guess_check_{key}", icon=":material/check:")
    if checked and guess is None and not done:
        st.warning(t("predict_pick_first" if ordered <= 1 else "predict_order_first", m=ordered))
    return guess if checked or done else None


def pick_word(field: str, label: str, options: list[str], default: str, *, where=st) -> str:
    """A word selector bound to a Settings field; a stored word that is not in the sentence falls back to default."""
    value = st.session_state.get(field)
    st.session_state[field] = value if value in options else default
    return where.selectbox(label, options, key=field)


def code(text: str) -> str:
    """Inline code for user text, safe whatever characters it holds."""
    return "`" + text.replace("`", "ˋ") + "`"
