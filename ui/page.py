"""Page helpers: sentence rows with learner-friendly messages, word pickers, charts with CSV downloads."""
import pickle
import re

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from gensim.models import KeyedVectors
from streamlit import dataframe_util

from engine.attention import Attention, merge_heads
from engine.pipeline import Encoded, encode, layer_weights
from engine.vectors import TooManyTokens, suggest
from ui import charts, tables
from ui.state import Settings
from ui.text import STRINGS, error_text, t


def sentence_rows(kv: KeyedVectors, text: str, s: Settings) -> Encoded | None:
    """The sentence as rows, or None after telling the learner why there is nothing to show."""
    lang = s.lang
    if not text.strip():
        st.info(t("empty_sentence", lang))
        return None
    try:
        enc = encode(kv, text, positional=s.positional)
    except TooManyTokens as e:
        st.error(error_text(e, lang))
        return None
    if enc.missing:
        st.warning(t("missing_words", lang, items=", ".join(missing_item(kv, w, lang) for w in enc.missing)))
    if not enc.tokens:
        st.error(t("no_known_words", lang, text=text[:80]))
        return None
    return enc


def missing_item(kv: KeyedVectors, word: str, lang: str) -> str:
    """'mlik' (did you mean milk?)"""
    near = suggest(kv, word)
    if near:
        return t("missing_item", lang, word=word[:40], suggestions=", ".join(f"“{w}”" for w in near))
    return t("missing_item_plain", lang, word=word[:40])


def weights(s: Settings, d: int) -> dict[str, np.ndarray]:
    """W_Q, W_K, W_V from the sidebar's layer settings."""
    specs = {layer: (getattr(s, f"{layer}_preset"), getattr(s, f"{layer}_seed"), getattr(s, f"{layer}_scale"))
             for layer in ("q", "k", "v")}
    return layer_weights(d, s.d_k, specs)


def pick_word(field: str, label: str, options: list[str], default: str, *, where=st) -> str:
    """A word selector bound to a Settings field; a stored word that is not in the sentence falls back to default."""
    value = st.session_state.get(field)
    st.session_state[field] = value if value in options else default
    return where.selectbox(label, options, key=field)


def on_pick(chart_key: str, row_field: str = "query", col_field: str | None = None):
    """Callback: a clicked heatmap cell chooses its row (and column) word."""
    def pick():
        points = st.session_state[chart_key].selection.get("pick") or []
        if points:
            st.session_state[row_field] = points[0]["row"]
            if col_field:
                st.session_state[col_field] = str(points[0]["col"])
    return pick


def download(a: np.ndarray, rows: list[str], cols: list, name: str, lang: str, *, where=st):
    """A CSV download of one matrix with its row and column labels, written only when clicked."""
    shown = t(f"file_{name}", lang) if f"file_{name}" in STRINGS else name
    where.download_button(t("download", lang, name=shown), lambda: tables.matrix_wide(a, rows, cols).to_csv(),
                          file_name=f"{shown}.csv", mime="text/csv", key=f"dl_{name}", on_click="ignore")


def code(text: str) -> str:
    """Inline code for user text, safe whatever characters it holds."""
    return "`" + text.replace("`", "ˋ") + "`"


def matrix(a: np.ndarray, rows: list[str], cols: list, *, name: str, title: str, x_title: str, lang: str,
           y_title: str | None = None, mask: np.ndarray | None = None, selected: str | None = None,
           pick_key: str | None = None, on_select=None, height: int | None = None, where=st):
    """A labelled heatmap of one matrix with its CSV download; clickable when given a callback."""
    cells = matrix_cells(a, rows, cols, mask, selected)
    draw(*chart_spec("heatmap", cells, title=title, x_title=x_title, y_title=y_title or t("row", lang),
                     value_title=t("value", lang), clickable=on_select is not None, height=height,
                     masked_label=t("masked_cell", lang), **heatmap_options(rows, cols, mask, selected)),
         where=where, key=pick_key, on_select=on_select)
    download(a, rows, cols, name, lang, where=where)


@st.cache_data(show_spinner=False, max_entries=100)
def matrix_cells(a: np.ndarray, rows: list, cols: list, mask: np.ndarray | None, selected: str | None) -> pd.DataFrame:
    """tables.matrix_long, once per distinct matrix and labels."""
    return tables.matrix_long(a, rows, cols, mask=mask, selected=selected)


def heatmap_options(rows: list, cols: list, mask: np.ndarray | None, selected: str | None) -> dict:
    """What a heatmap draws besides its cells: numbers on narrow ones, grey masked cells, the selected row's outline,
    and every fifth label on a long axis of dimensions (words are all labelled where they fit: they are data)."""
    def ticks(labels: list) -> list | None:
        return labels[4::5] if len(labels) > 20 and all(isinstance(x, int) for x in labels) else None
    return {"annotate": len(cols) <= charts.MAX_ANNOTATED, "masked": mask is not None, "outlined": selected is not None,
            "x_ticks": ticks(cols), "y_ticks": ticks(rows)}


def chart_spec(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The Vega-Lite spec of charts.<builder>(*frames, **options) with the frames as Arrow datasets, and its plot height
    (None: the chart sizes itself). A builder in charts.DATA_FREE runs once per options and column types, and later
    calls only convert their frames, so the browser swaps the data of the chart it has; others run once per input."""
    if builder in charts.DATA_FREE:
        spec, height, sources = data_free_spec(builder, *frames, **options)
        return {**spec, "datasets": {name: arrow(frames[i]) for name, i in sources}}, height
    return full_spec(builder, *frames, **options)


def columns(df: pd.DataFrame) -> tuple:
    """What a data-free spec depends on in a frame: its column names and types."""
    return tuple(df.columns), tuple(map(str, df.dtypes))


@st.cache_data(show_spinner=False, max_entries=200, hash_funcs={pd.DataFrame: columns})
def data_free_spec(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None, list[tuple[str, int]]]:
    """The spec without its data, its plot height, and (dataset name, index into `frames`) for each dataset."""
    chart = getattr(charts, builder)(*frames, **options)
    found = {}
    spec = named_data(chart, found).to_dict(validate=False, context={"top_level": False})
    sources = []
    for name, df in found.items():
        index = next((i for i, f in enumerate(frames) if f is df), None)
        if index is None:
            raise ValueError(f"charts.{builder} draws a DataFrame it was not given, so it cannot be in DATA_FREE")
        sources.append((name, index))
    return spec, plot_height(chart), sources


@st.cache_data(show_spinner=False, max_entries=100, hash_funcs={pd.DataFrame: lambda df: pickle.dumps(df, 5)})
def full_spec(builder: str, *frames: pd.DataFrame, **options) -> tuple[dict, int | None]:
    """The spec and plot height of a builder whose spec depends on its data, built once per distinct input;
    frames are hashed through pickle, twenty times faster than Streamlit's own DataFrame hash."""
    chart = getattr(charts, builder)(*frames, **options)
    return vega_lite(chart), plot_height(chart)


def plot_height(chart: alt.TopLevelMixin) -> int | None:
    """The chart's fixed plot height in pixels, or None when it grows a step per row."""
    return chart.height if isinstance(chart.height, int) else None


def neighbours(kv: KeyedVectors, s: Settings, words: list[str], sources: list[str]) -> pd.DataFrame:
    """tables.neighbours_frame, searched once per built-in vector source and words (uploads differ per session)."""
    if s.source == "upload":
        return tables.neighbours_frame(kv, words, sources)
    return cached_neighbours(kv, (s.source, len(kv), kv.vector_size), tuple(words), tuple(sources))


@st.cache_data(show_spinner=False, max_entries=100)
def cached_neighbours(_kv: KeyedVectors, source: tuple, words: tuple[str, ...],
                      sources: tuple[str, ...]) -> pd.DataFrame:
    """Each search scans the whole vocabulary, so `source` (name, size, dimensions) stands in for the vectors."""
    return tables.neighbours_frame(_kv, list(words), list(sources))


def show(chart, *, where=st, key: str | None = None, on_select=None):
    """An Altair chart at full width and its own plot height plus room for title and axes; clickable with a callback."""
    draw(vega_lite(chart), plot_height(chart), where=where, key=key, on_select=on_select)


def draw(spec: dict, height: int | None, *, where=st, key: str | None = None, on_select=None):
    """A Vega-Lite spec at full width, its plot height plus room for title and axes (or as tall as it draws itself,
    for None); clickable with a callback."""
    size = {"width": "stretch", "height": "content" if height is None else height + 90}
    if on_select is None:
        where.vega_lite_chart(spec, **size)
    else:
        where.vega_lite_chart(spec, **size, key=key, on_select=on_select, selection_mode=charts.PICK)


def vega_lite(chart: alt.TopLevelMixin) -> dict:
    """The chart's Vega-Lite spec, its DataFrames as named Arrow datasets, without Altair's schema check: that check was
    half of every rerun, and tests/test_charts.py runs it on every chart builder instead. Built below the top level,
    so Altair's global theme and data transformer, which Streamlit switches while it draws, play no part."""
    frames = {}
    spec = named_data(chart, frames).to_dict(validate=False, context={"top_level": False})
    datasets = {name: dataframe_util.convert_anything_to_arrow_bytes(df) for name, df in frames.items()}
    return {**spec, "datasets": datasets}


def named_data(chart: alt.TopLevelMixin, frames: dict[str, pd.DataFrame]) -> alt.TopLevelMixin:
    """A shallow copy of the chart and its layers with each DataFrame replaced by its name (charts.dataset), the
    frames collected in `frames`."""
    chart = chart.copy(deep=False)
    if isinstance(chart.data, pd.DataFrame):
        name = next((n for n, df in frames.items() if df is chart.data), charts.dataset(len(frames)))
        frames[name] = chart.data
        chart.data = alt.NamedData(name)
    if isinstance(chart, alt.LayerChart):
        chart.layer = [named_data(layer, frames) for layer in chart.layer]
    return chart


@st.cache_data(show_spinner=False, max_entries=100, hash_funcs={pd.DataFrame: lambda df: pickle.dumps(df, 5)})
def arrow(df: pd.DataFrame) -> bytes:
    """A data-free chart's frame as the Arrow bytes Streamlit sends to the browser, converted once per distinct frame:
    a rerun that changed other things sends the same bytes again without converting."""
    return dataframe_util.convert_anything_to_arrow_bytes(df)


MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$])")


def plain(text: str) -> str:
    """User text shown literally inside markdown."""
    return MARKDOWN.sub(r"\\\1", text)


def attention_view(att: Attention, q_labels: list[str], k_labels: list[str], s: Settings, *, prefix: str = "",
                   query_field: str = "query", default: str | None = None, picker=st) -> str:
    """Factor matrix and weights (click to pick the query word), its weights and contributions, the sum check, Z."""
    lang = s.lang
    q = pick_word(query_field, t("query", lang), q_labels, default or q_labels[-1], where=picker)
    i = q_labels.index(q)
    mask = None if att.mask.all() else att.mask
    left, right = st.columns(2)
    weights_title = t("weights_m_soft" if s.softmax else "weights_m_raw", lang)
    for where, name, a, title in ((left, "factor", att.factor, t("factor_m", lang)),
                                  (right, "weights", att.weights, weights_title)):
        key = f"{prefix}{name}_pick"
        matrix(a, q_labels, k_labels, name=f"{prefix}{name}", title=title, lang=lang, where=where,
               x_title=t("key_word", lang), y_title=t("query_word", lang), mask=mask, selected=q,
               pick_key=key, on_select=on_pick(key, query_field))
    st.caption(t("click_hint", lang))

    out = tables.dims(att.v.shape[1])
    left, right = st.columns([2, 3])
    left.markdown(f"**{t('chosen_weights', lang, q=plain(q))}**")  # the word stays out of the spec: see charts
    draw(*chart_spec("weight_bars", tables.weights_frame(att.weights[i], k_labels, att.mask[i]),
                     title=None, x_title=t("key_word", lang), y_title=t("weight", lang)), where=left)
    parts = tables.contributions(att.weights[i], att.v, k_labels)
    z_row = pd.DataFrame({"dim": out, "z": att.z[i]})
    right.markdown(f"**{t('contrib_title', lang, q=plain(q))}**")
    draw(*chart_spec("contribution_bars", parts, z_row, title=None, x_title=t("dim", lang),
                     y_title=t("contribution", lang), key_title=t("key_word", lang), z_title=t("z_row", lang),
                     weight_title=t("weight", lang)), where=right)
    sums = parts["contribution"].to_numpy().reshape(len(k_labels), len(out)).sum(axis=0)  # [d_v]  rows are key-major
    diff = float(np.abs(sums - att.z[i]).max())
    st.success(t("sum_check", lang, q=q, diff=diff))
    matrix(att.z, q_labels, out, name=f"{prefix}Z", title=t("z_m", lang), x_title=t("dim", lang), lang=lang, selected=q)
    return q


def heads_view(multi: Attention, q_labels: list[str], k_labels: list[str], q: str, s: Settings, *, prefix: str):
    """Where each head looks for query `q`, a weights heatmap per head, and Z = the heads' outputs side by side."""
    lang = s.lang
    h, n_q, n_k = multi.weights.shape
    d_h, d_vh = multi.q.shape[-1], multi.z.shape[-1]
    st.markdown(head_focus(multi, q_labels, k_labels, q, lang))
    mask = None if multi.mask.all() else multi.mask
    per_row = min(h, 2)  # narrower heatmaps squeeze their legends into the plot
    for first in range(0, h, per_row):
        for head, where in zip(range(first, min(first + per_row, h)), st.columns(per_row)):
            title = t("head_m", lang, h=head + 1, lo=head * d_h + 1, hi=(head + 1) * d_h)
            cells = tables.matrix_long(multi.weights[head], q_labels, k_labels, mask=mask, selected=q)
            draw(*chart_spec("heatmap", cells, title=title, x_title=t("key_word", lang), y_title=t("query_word", lang),
                             value_title=t("weight", lang), **heatmap_options(q_labels, k_labels, mask, q),
                             masked_label=t("masked_cell", lang)), where=where)
    download(multi.weights.reshape(h * n_q, n_k), [f"{head + 1}: {w}" for head in range(h) for w in q_labels],
             k_labels, f"{prefix}head-weights", lang)
    matrix(merge_heads(multi.z), q_labels, tables.dims(h * d_vh), name=f"{prefix}Z-heads", lang=lang, selected=q,
           title=t("z_heads_m", lang, h=h, d=d_vh), x_title=t("dim", lang))


def head_focus(multi: Attention, q_labels: list[str], k_labels: list[str], q: str, lang: str) -> str:
    """A sentence saying which key word each head weights most for query `q`, grouped by that word."""
    i = q_labels.index(q)
    w = np.where(multi.mask[i], multi.weights[:, i], -np.inf)  # [h, n_k]
    top = w.argmax(axis=1)  # [h]
    if (top == top[0]).all():
        lo, hi = w[:, top[0]].argmin(), w[:, top[0]].argmax()
        return t("focus_same", lang, q=q, n=len(top), k=k_labels[top[0]], lo=w[lo, top[0]], hi=w[hi, top[0]],
                 h_lo=lo + 1, h_hi=hi + 1)
    items = []
    for j in dict.fromkeys(top):
        heads = np.flatnonzero(top == j)
        items.append(t("focus_one" if len(heads) == 1 else "focus_many", lang, k=k_labels[j],
                       heads=t("list_sep", lang).join(str(x + 1) for x in heads),
                       w=t("list_sep", lang).join(f"{w[x, j]:.2f}" for x in heads)))
    return t("focus_differ", lang, q=q, items=t("item_sep", lang).join(items))


def download_table(df: pd.DataFrame, name: str, lang: str, *, key: str, where=st):
    """A CSV download of one table as shown, named for the learner."""
    where.download_button(t("download", lang, name=name), df.to_csv(index=False).encode("utf-8"),
                          file_name=f"{name}.csv", mime="text/csv", key=f"dl_{key}", on_click="ignore")


def expected_order(text: str, tokens: list[str], labels: list[str], query: str, lang: str) -> list[str] | None:
    """The row labels named in 'drank > cat > black', or None after telling the learner what is wrong."""
    names = [w.strip().lower() for w in text.split(">")]
    if len(names) < 2 or not all(names):
        st.warning(t("order_format", lang))
        return None
    order = []
    for name in names:
        found = [label for token, label in zip(tokens, labels) if name in (token, label.lower())]
        if len(found) > 1:
            problem = t("order_ambiguous", lang, word=name, labels=" / ".join(f"“{x}”" for x in found))
        elif not found:
            words = t("list_sep", lang).join(f"“{x}”" for x in labels if x != query)
            problem = t("order_unknown", lang, word=name[:40], words=words)
        elif found[0] == query:
            problem = t("order_query", lang, word=name)
        elif found[0] in order:
            problem = t("order_repeated", lang, word=name)
        else:
            order.append(found[0])
            continue
        st.warning(problem)
        return None
    return order
