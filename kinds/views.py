"""Page 6's views: the source and target sentences, the switches and the number of heads, and the tabs: encoder
self-attention, masked decoder self-attention and encoder–decoder attention."""
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st
from gensim.models import KeyedVectors

from engine.attention import attend, later_share
from kinds import learned, lines
from kinds.heads import heads_view
from kinds.tables import neighbours_frame
from kit import state, tables, views
from kit.state import MAX_TEXT, view_key
from kit.text import t
from kit.views import pick_word
from vectors import chosen
from vectors.rows import sentence_rows

NEIGHBOURS = 12  # target words whose nearest neighbours are listed
LATER = 5  # later words named in the mask note
PREFIX = {"enc": "encoder-", "dec": "decoder-", "cross": "cross-"}  # widget keys and CSV names per section
FIELD = {"enc": "query", "dec": "dec_query", "cross": "cross_query"}  # the query word each tab follows
LABELS = {"enc": "tab_enc", "dec": "tab_dec", "cross": "tab_cross"}  # each tab's name (text keys)
# and what it shows, by whether a word's own cell is hidden (a decoder's first word keeps it: it sees nothing else)
INTROS = {("enc", False): "enc_intro", ("enc", True): "enc_intro_own_hidden", ("dec", False): "dec_intro",
          ("dec", True): "dec_intro_own_hidden", ("cross", False): "cross_intro", ("cross", True): "cross_intro"}
TABS = tuple(FIELD)
# what the mask note says, by (the causal mask on, softmax weights)
MASK_NOTES = {(True, True): "mask_hides", (True, False): "mask_hides_raw", (False, True): "mask_off",
              (False, False): "mask_off_raw"}



def sentences(ctx) -> tuple:
    """The source sentence (the sidebar's, quoted) beside the box for the target sentence, both through the vectors."""
    # each Encoded, the target None when left empty or not read
    s = ctx.s
    left, right = st.columns(2)
    with left:
        shown = s.source_sentence if len(s.source_sentence) <= 200 else s.source_sentence[:200] + "…"
        st.markdown(t("kinds_source", text=views.code(shown)))
        src = sentence_rows(ctx.kv, s.source_sentence, s.position)
    with right:
        st.text_input(t("target_sentence"), key="target_sentence", max_chars=MAX_TEXT)
        tgt = sentence_rows(ctx.kv, s.target_sentence, s.position) if s.target_sentence.strip() else None
        if tgt is None and not s.target_sentence.strip():
            st.info(t("empty_target"))
    return src, tgt

def heads_choice(ctx) -> int:
    """The scaling and softmax switches and the number of heads, a divisor of d_k."""
    s = ctx.s
    d_k = ctx.w["w_q"].shape[1]
    divisors = [h for h in range(1, d_k + 1) if d_k % h == 0]
    scaled_box, softmax_box, predict_box, heads_box = st.columns([1, 1.4, 1, 2], vertical_alignment="bottom")
    scaled_box.toggle(t("scaled"), key="scaled")
    softmax_box.toggle(t("softmax"), key="softmax")
    predict_box.toggle(t("predict"), key="predict", help=t("predict_help"))
    if s.heads not in divisors:
        st.warning(t("heads_fallback", h=s.heads, d_k=d_k))
        state.write_setting(replace(s, heads=1), "heads")
    return heads_box.selectbox(t("heads"), divisors, key="heads", help=t("heads_help", d_k=d_k))


def tabs(ctx, src, tgt, heads: int):
    """The three tabs; the open one is a setting (so a shared link opens it) and the only one computed."""
    tab, name = state.open_tab(ctx.s, "tab", "kinds_tab", {name: t(LABELS[name]) for name in TABS})
    rows = {"enc": (src, src, "need_source"), "dec": (tgt, tgt, "need_target"),
            "cross": (tgt, src, "need_source" if src is None else "need_target")}
    if tab is not None:
        with tab:
            section(ctx, name, *rows[name], heads)


def section(ctx, name: str, rows_q, rows_kv, need: str, heads: int):
    """One kind of attention: its weights, contributions and Z, what the mask hides, the heads."""
    s, w = ctx.s, ctx.w
    st.markdown(t(INTROS[name, not s.own]))
    causal = name == "dec" and s.causal
    picker, switch = st.columns(2, vertical_alignment="bottom")
    note = st.empty()
    if name == "dec":
        switch.toggle(t("causal"), key="causal")
    if rows_q is None or rows_kv is None:
        st.info(t(need))
        return
    try:
        att, free, multi = (attend(rows_q.x, rows_kv.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled,
                                   softmax=s.softmax, causal=c, heads=h, own=s.own or name == "cross")
                            for c, h in ((causal, 1), (False, 1), (causal, heads)))
    except ValueError:
        st.error(t("overflow"))
        return
    # "es": the mask hides a later word, and it still sees two others whether or not its own cell is hidden
    default = rows_q.labels[-1 if name == "enc" else len(rows_q.labels) // 2]
    q = pick_word(FIELD[name], t("query"), rows_q.labels, default, where=picker)
    if s.predict and not guessed(ctx, name, att, rows_q.tokens, rows_kv.labels, q, rows_q.labels.index(q)):
        return
    views.attention_view(att, rows_q.labels, rows_kv.labels, q, softmax=s.softmax, scaled=s.scaled,
                         own_note=ctx.own_note, prefix=PREFIX[name], query_field=FIELD[name])
    if name == "dec":
        mask_note(note, free, rows_q.labels, q, causal, s.softmax)
    if name == "cross":
        cross_notes(ctx, rows_q, rows_kv)
    with st.expander(t("lines_expander"), key=f"{PREFIX[name]}lines_open", on_change="rerun") as shown:
        if shown.open:  # built only while open: a chart of charts is redrawn whole on every edit
            lines.line_view(multi, rows_q.labels, rows_kv.labels, softmax=s.softmax, key=PREFIX[name])
    heads_block(multi, rows_q.labels, rows_kv.labels, q, heads, ctx, PREFIX[name])


def guessed(ctx, name: str, att, words: list[str], k_labels: list[str], q: str, i: int) -> bool:
    """Predict first: the learner guesses among the keys query row i may see before the tab shows its numbers."""
    # the mask hides later words; a class asked it sees `words`, the sentence of query word i
    seen = np.flatnonzero(att.mask[i])
    keys = [k_labels[j] for j in seen]
    return views.guess_first(att.q[i], att.k[seen], q, keys, key=view_key(f"kinds-{name}", ctx.s, q),
                             ask=ctx.asker(words, i, replace(ctx.s, tab=name)))


def mask_note(where, free, labels: list[str], q: str, causal: bool, softmax: bool):
    """What the causal mask hides from query `q`: the later words and the weight they would get without it."""
    i = labels.index(q)
    names = labels[i + 1:]
    if not names:
        where.info(t("mask_last", q=q))
        return
    later = t("list_sep").join(f"“{x}”" for x in names[:LATER]) + ("…" if len(names) > LATER else "")
    where.info(t(MASK_NOTES[causal, softmax], q=q, later=later, p=later_share(free.weights, i)))


def cross_notes(ctx, rows_q, rows_kv):
    """What GloVe knows of the story's Spanish words (for the built-in vectors), and each target word's neighbours."""
    s, kv = ctx.s, ctx.kv
    if s.source.startswith("glove") and all(w in kv.key_to_index for w in ("bola", "ball", "azul", "blue")):
        st.info(t("glove_note", bola=kv.similarity("bola", "ball"), azul=kv.similarity("azul", "blue")))
    with st.expander(t("neighbours_title")):
        words = list(dict.fromkeys(rows_q.tokens))
        table = neighbours(kv, ctx.vectors, words[:NEIGHBOURS], rows_kv.tokens)
        st.dataframe(tables.styled(table, {"cosine": ".2f"}), hide_index=True, width="stretch", column_config={
            "word": t("neighbours_word"), "neighbours": t("neighbours_near"),
            "closest_source": t("neighbours_source"),
            "cosine": st.column_config.NumberColumn(t("neighbours_cosine"))})
        if len(words) > NEIGHBOURS:
            st.caption(t("neighbours_first", n=NEIGHBOURS))


def heads_block(multi, q_labels: list[str], k_labels: list[str], q: str, heads: int, ctx, prefix: str):
    """Several heads: on the encoder, the learned heads or the one head's slices (a setting); elsewhere the slices."""
    # the learned heads are the four learned from real sentences; with one head, a sentence on what it means
    d_k = ctx.w["w_q"].shape[1]
    st.subheader(t("heads_title"))
    if prefix == PREFIX["enc"] and learned.learned_block(ctx):
        return
    if prefix != PREFIX["enc"]:
        st.caption(t("kinds_learned_elsewhere"))
    if heads == 1:
        st.caption(t("heads_one", d=d_k))
    else:
        st.markdown(t("heads_intro", h=heads, d=d_k // heads))
        st.caption(t("kinds_slices_note"))
        heads_view(multi, q_labels, k_labels, q, softmax=ctx.s.softmax, prefix=prefix)


def neighbours(kv: KeyedVectors, source: chosen.Source, words: list[str], sources: list[str]) -> pd.DataFrame:
    """neighbours_frame, searched once per built-in vector source and words (uploads differ per session)."""
    if source.name == "upload":
        return neighbours_frame(kv, words, sources)
    return cached_neighbours(kv, source, tuple(words), tuple(sources))


@st.cache_data(show_spinner=False, max_entries=100)
def cached_neighbours(_kv: KeyedVectors, source: tuple, words: tuple[str, ...],
                      sources: tuple[str, ...]) -> pd.DataFrame:
    """Each search scans the whole vocabulary, so `source` (name, size, dimensions) stands in for the vectors."""
    return neighbours_frame(_kv, list(words), list(sources))
