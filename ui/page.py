"""Page helpers: sentence rows with learner-friendly messages, word pickers, charts with CSV downloads."""
import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine.pipeline import Encoded, encode, layer_weights
from engine.vectors import MAX_TOKENS, TooManyTokens, suggest
from ui import charts, tables
from ui.state import Settings
from ui.text import t


def sentence_rows(kv: KeyedVectors, text: str, s: Settings) -> Encoded | None:
    """The sentence as rows, or None after telling the learner why there is nothing to show."""
    lang = s.lang
    if not text.strip():
        st.info(t("empty_sentence", lang))
        return None
    try:
        enc = encode(kv, text, positional=s.positional)
    except TooManyTokens as e:
        st.error(t("too_many_tokens", lang, n=e.count, max=MAX_TOKENS))
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
    """A CSV download of one matrix with its row and column labels."""
    csv = tables.matrix_wide(a, rows, cols).to_csv().encode("utf-8")
    where.download_button(t("download", lang, name=name), csv, file_name=f"{name}.csv", mime="text/csv",
                          key=f"dl_{name}", on_click="ignore")


def code(text: str) -> str:
    """Inline code for user text, safe whatever characters it holds."""
    return "`" + text.replace("`", "ˋ") + "`"


def matrix(a: np.ndarray, rows: list[str], cols: list, *, name: str, title: str, x_title: str, lang: str,
           y_title: str | None = None, mask: np.ndarray | None = None, selected: str | None = None,
           pick_key: str | None = None, on_select=None, height: int | None = None, where=st):
    """A labelled heatmap of one matrix with its CSV download; clickable when given a callback."""
    df = tables.matrix_long(a, rows, cols, mask=mask, selected=selected)
    chart = charts.heatmap(df, title=title, x_title=x_title, y_title=y_title or t("row", lang),
                           value_title=t("value", lang), clickable=on_select is not None, height=height)
    show(chart, where=where, key=pick_key, on_select=on_select)
    download(a, rows, cols, name, lang, where=where)


def show(chart, *, where=st, key: str | None = None, on_select=None):
    """An Altair chart at full width and its own plot height plus room for title and axes; clickable with a callback."""
    height = chart.height + 90
    if on_select is None:
        where.altair_chart(chart, width="stretch", height=height)
    else:
        where.altair_chart(chart, width="stretch", height=height, key=key, on_select=on_select,
                           selection_mode=charts.PICK)
