"""The frame every page opens with, made by the entry (lesson/app.py) once per run and read by the page with current():
the sidebar, the page's title and intro, the vectors, the layers and the banner that says what they are, the save menu,
and the sentence through the layers (context)."""
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine.attention import Attention
from engine.pipeline import Encoded
from engine.tokens import tokenize
from fits import banner, queue, weights
from kit import render, state, views
from kit.text import t
from lesson import pages, sidebar
from lesson.pages import Page
from lesson.settings import DEFAULTS, Settings
from vectors import chosen, rows

STORY_TOKENS = tokenize(DEFAULTS.sentence)  # texts about the story sentence appear only while it is on the page


@dataclass(frozen=True)
class Context:
    """What every page starts from: settings, vectors, the weights, the encoded sentence and its attention, and the
    pages, by name, for links between them."""

    s: Settings
    kv: KeyedVectors
    source: str  # the vectors' short name, as sentences quote it
    w: dict[str, np.ndarray]  # w_q, w_k [d, d_k], w_v [d, d_v]
    provenance: banner.Provenance
    enc: Encoded | None  # None for a page that encodes its own sentences
    att: Attention | None
    pages: Mapping[str, Page]

    @property
    def d_k(self) -> int:
        """The layers' width: the d_k asked for, at most the vectors' dimensions."""
        return self.provenance.d_k


RUN: ContextVar[Context] = ContextVar("context")  # this run's, set by the entry before the page runs


def current() -> Context:
    """The Context the entry made for this run."""
    return RUN.get()


def context(p: Page, s: Settings) -> Context:
    """The one opening of every page, for this run's Settings `s`, in their language (the entry set it): sidebar, the
    page's title and intro, the weights banner and the save menu (on the story's steps), then the sentence through the
    layers; the run stops here, with a sentence saying why, when there is nothing to show. The page's `sentence` names
    the Settings field to encode (None: the page encodes its own, and the sidebar's sentence box is the field `box`)."""
    box = p.sentence or p.box
    queue.drawing()
    render.PAUSE.set(queue.give_way)  # each chart a fit's or a model run's turn draws lets others' pages go first
    if not p.step:
        return lobby(p, s)
    drawn = sidebar.render(s, box, state.linked(s), challenge=p.challenge)
    kv, source = chosen.vectors(s, drawn)
    st.title(t(p.title))
    sidebar.sentence_here(s, box)
    st.markdown(t(p.intro, d=kv.vector_size, source=source))
    w, provenance = weights.layers(s, kv)
    if p.step:  # what the layers are matters where the sentence goes through them
        banner.banner(s, provenance)
    render.name_files(p.name, getattr(s, box), render.save_menu() if p.step else None)  # charts to save
    named = {q.name: q for q in pages.PAGES}
    if p.sentence is None:
        return Context(s, kv, source, w, provenance, None, None, named)
    enc = rows.sentence_rows(kv, getattr(s, p.sentence), s.position)
    if enc is not None and len(enc.tokens) < p.min_words:
        st.info(t("need_two_words"))
        enc = None
    if enc is None:
        st.stop()
    att = views.self_attention(enc.x, w, s)
    return Context(s, kv, source, w, provenance, enc, att, named)


def lobby(p: Page, s: Settings) -> Context:
    """The opening of a page outside the story (the class page): the sidebar's menu, the title and intro, and nothing
    of the story (no vectors, weights or sentence: its Context holds none)."""
    sidebar.lobby(s, state.linked(s))
    st.title(t(p.title))
    st.markdown(t(p.intro))
    render.name_files(p.name, "")
    return Context(s, None, "", {}, None, None, None, {q.name: q for q in pages.PAGES})  # type: ignore[arg-type]
