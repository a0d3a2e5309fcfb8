"""The one opening of every page, made by the entry (app.py) once per run and read by the page with current(); and
what pages share around it: the sentence with learner-friendly messages, word pickers bound to Settings, the expected
order read from text."""
from contextvars import ContextVar
from dataclasses import dataclass, replace
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st
from gensim.models import KeyedVectors

from engine.attention import Attention, attend
from engine.pipeline import Encoded, encode
from engine.spelling import suggest
from engine.tokens import TooManyTokens, has_cjk, knows_cjk, tokenize
from fits import queue, weights
from ui import chosen_vectors, render, sidebar, tables
from ui.pages import Page
from ui.state import DEFAULTS, Settings, to_query
from ui.text import error_text, t

STORY_TOKENS = tokenize(DEFAULTS.sentence)  # texts about the story sentence appear only while it is on the page


@dataclass(frozen=True)
class Context:
    """What every page starts from: settings, vectors, the encoded sentence, the weights and the attention."""

    s: Settings
    kv: KeyedVectors
    source: str  # the vectors' short name, as sentences quote it
    w: dict[str, np.ndarray]  # w_q, w_k [d, d_k], w_v [d, d_v]
    provenance: weights.Provenance
    enc: Encoded | None  # None for a page that encodes its own sentences
    att: Attention | None


RUN: ContextVar[Context] = ContextVar("context")  # this run's, set by the entry before the page runs


def current() -> Context:
    """The Context the entry made for this run."""
    return RUN.get()


def context(p: Page, s: Settings) -> Context:
    """The one opening of every page, for this run's Settings `s`, in their language (the entry set it): sidebar, the
    page's title and intro (text keys <name>_title, <name>_intro), the weights banner and the save menu (on the story's
    steps), then the sentence through the layers; the run stops here, with a sentence saying why, when there is nothing
    to show. The page's `sentence` names the Settings field to encode (None: the page encodes its own, and the
    sidebar's sentence box is the field `box`)."""
    name, sentence, box = p.name, p.sentence, p.box
    queue.drawing()
    sidebar.render(s, sentence or box, challenge=p.challenge)
    kv = chosen_vectors.vectors(s)
    st.title(t("app_title" if name == "home" else f"{name}_title"))
    sidebar.sentence_here(s, sentence or box)
    source = chosen_vectors.source_name(s)
    st.markdown(t(f"{name}_intro", d=kv.vector_size, source=source))
    w, provenance = weights.layers(s, kv)
    if p.step:  # what the layers are matters where the sentence goes through them
        weights.banner(s, provenance, kv.vector_size)
    render.name_files(name, getattr(s, sentence or box), render.save_menu() if p.step else None)  # charts to save
    if sentence is None:
        return Context(s, kv, source, w, provenance, None, None)
    enc = sentence_rows(kv, getattr(s, sentence), s)
    if enc is not None and len(enc.tokens) < p.min_words:
        st.info(t("need_two_words"))
        enc = None
    if enc is None:
        st.stop()
    try:
        att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled, softmax=s.softmax, own=s.own)
    except ValueError:
        st.error(t("overflow"))
        st.stop()
    return Context(s, kv, source, w, provenance, enc, att)


def sentence_rows(kv: KeyedVectors, text: str, s: Settings) -> Encoded | None:
    """The sentence as rows, or None after telling the learner why there is nothing to show."""
    if not text.strip():
        st.info(t("empty_sentence"))
        return None
    try:
        enc = encode(kv, text, position=s.position)
    except TooManyTokens as e:
        st.error(error_text(e))
        return None
    if has_cjk(text) and not knows_cjk(kv):
        st.info(t("no_chinese_words"))
    if enc.missing:
        st.warning(t("missing_words", items=", ".join(missing_item(kv, w) for w in enc.missing)))
    if not enc.tokens:
        st.error(t("no_known_words", text=text[:80]))
        return None
    return enc


def missing_item(kv: KeyedVectors, word: str) -> str:
    """'mlik' (did you mean milk?)"""
    near = suggest(kv, word)
    if near:
        return t("missing_item", word=word[:40], suggestions=", ".join(f"“{w}”" for w in near))
    return t("missing_item_plain", word=word[:40])


def pick_word(field: str, label: str, options: list[str], default: str, *, where=st) -> str:
    """A word selector bound to a Settings field; a stored word that is not in the sentence falls back to default."""
    value = st.session_state.get(field)
    st.session_state[field] = value if value in options else default
    return where.selectbox(label, options, key=field)


def code(text: str) -> str:
    """Inline code for user text, safe whatever characters it holds."""
    return "`" + text.replace("`", "ˋ") + "`"


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


def view_key(name: str, s: Settings, q: str) -> str:
    """What identifies one view for a guess: the page, the query word and every setting that changes the numbers."""
    others = replace(s, lang=DEFAULTS.lang, predict=False, query="", dec_query="", cross_query="",
                     expected=DEFAULTS.expected, real_find="", real_query="", real_key="", room="")
    return f"{name}:{q}?" + urlencode(sorted(to_query(others).items()))


def expected_order(text: str, tokens: list[str], labels: list[str], query: str) -> list[str] | None:
    """The row labels named in 'drank > cat > black', or None after telling the learner what is wrong."""
    names = [w.strip().lower() for w in text.split(">")]
    if len(names) < 2 or not all(names):
        st.warning(t("order_format"))
        return None
    order = []
    for name in names:
        found = [label for token, label in zip(tokens, labels, strict=False) if name in (token, label.lower())]
        if len(found) > 1:
            problem = t("order_ambiguous", word=name, labels=" / ".join(f"“{x}”" for x in found))
        elif not found:
            words = t("list_sep").join(f"“{x}”" for x in labels if x != query)
            problem = t("order_unknown", word=name[:40], words=words)
        elif found[0] == query:
            problem = t("order_query", word=name)
        elif found[0] in order:
            problem = t("order_repeated", word=name)
        else:
            order.append(found[0])
            continue
        st.warning(problem)
        return None
    return order
