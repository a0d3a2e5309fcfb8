"""The one opening of every page, made by the entry (app.py) once per run and read by the page with current(); and
what pages share around it: the sentence with learner-friendly messages, word pickers bound to Settings, the expected
order read from text."""
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine.attention import Attention, attend
from engine.pipeline import Encoded
from engine.tokens import tokenize
from fits import queue, weights
from kit import render
from kit.text import t
from lesson import sidebar
from lesson.pages import Page
from lesson.settings import DEFAULTS, Settings
from vectors import chosen
from vectors.rows import sentence_rows

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
    kv = chosen.vectors(s)
    st.title(t(p.title))
    sidebar.sentence_here(s, sentence or box)
    source = chosen.source_name(s)
    st.markdown(t(p.intro, d=kv.vector_size, source=source))
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
