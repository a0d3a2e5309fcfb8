"""The frame every page opens with, made by the entry (lesson/app.py) once per run and read by the page with current():
the sidebar, the page's title and intro, the vectors, the layers and the banner that says what they are, the save menu,
and the sentence through the layers (context). A page's own controls and what they change sit in its part, which they
run again alone (part): the frame stays as drawn."""
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import TypeVar

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from classroom import panels
from engine.attention import Attention, attend
from engine.pipeline import Encoded
from engine.tokens import tokenize
from fits import banner, queue, weights
from kit import pages, render, state, tables, text
from kit.pages import Page
from kit.text import t
from lesson import sidebar
from lesson.settings import DEFAULTS, Settings
from vectors import chosen, rows

STORY_TOKENS = tokenize(DEFAULTS.sentence)  # texts about the story sentence appear only while it is on the page


@dataclass(frozen=True)
class Context:
    """What every page starts from: settings, vectors, weights, the encoded sentence and its attention, the pages."""

    s: Settings
    kv: KeyedVectors
    vectors: chosen.Source  # which vectors are in use: what fits and searches on them are kept under
    w: dict[str, np.ndarray]  # w_q, w_k [d, d_k], w_v [d, d_v]
    provenance: banner.Provenance
    enc: Encoded | None  # None for a page that encodes its own sentences
    pages: Mapping[str, Page]  # by name, for links between them
    page: Page  # the page this Context opens

    @property
    def source(self) -> str:
        """The vectors' short name, as sentences quote them, in the run's language."""
        return chosen.short(self.vectors)

    @property
    def d_k(self) -> int:
        """The layers' width: the d_k asked for, at most the vectors' dimensions."""
        return self.provenance.d_k

    @property
    def own_note(self) -> str:
        """What a word's hidden cell on itself means with the weights in use."""
        return banner.own_note(self.provenance)

    @cached_property
    def att(self) -> Attention | None:
        """The sentence's attention to itself through these layers, computed when first read; None if no sentence."""
        # derived from enc, s and w, so a Context made with another sentence or other settings has its own
        return None if self.enc is None else self.attend(self.enc)

    def attend(self, enc: Encoded) -> Attention:
        """The sentence `enc` attending to itself through this page's layers, as its Settings say."""
        s, w = self.s, self.w
        try:
            return attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled, softmax=s.softmax, own=s.own)
        except ValueError:  # numbers too large to compute: the learner is told, and the run stops
            st.error(t("overflow"))
            st.stop()
            raise  # st.stop() ends the run; this line is never reached

    def asker(self, words: Sequence[str], at: int, view: Settings | None = None):
        """What kit.views.guess_first calls to offer this page's question to a class, about word `at` of `words`."""
        # the class sees the sentence with it; `view` is the page's Settings unless a page shows another
        return panels.asker(self.s if view is None else view, self.page.name, self.pages, words, at)

    @property
    def dims(self) -> list[str]:
        """The labels of the vectors' dimensions: the columns of the rows, the rows of the layers."""
        return tables.dims(self.kv.vector_size)

    @property
    def out_dims(self) -> list[str]:
        """The labels of the layers' output dimensions: the columns of Q, K, V and Z."""
        return tables.dims(self.w["w_q"].shape[1])


RUN: ContextVar[Context] = ContextVar("context")  # this run's, set by the entry before the page runs
T = TypeVar("T")


@dataclass
class Run:
    """One part's runs: the page's run, then its own (`page` False)."""
    page: bool = True


def current() -> Context:
    """The Context the entry made for this run."""
    return RUN.get()


def navigation() -> tuple[Settings, Page, st.Page]:
    """How every run begins: the visitor's Settings in their language, the page config, the page asked for."""
    # the page comes as its Page and its st.Page, the script to run; the sidebar draws its own page links, so the
    # navigation is hidden
    settings = sidebar.current()
    text.use(settings.lang)  # once per run, before the first text
    st.set_page_config(page_title=t("app_title"), page_icon="🔍", layout="wide")
    routes = {st.Page(p.script, title=t(p.nav), default=p is pages.PAGES[0]): p for p in pages.PAGES}
    chosen = st.navigation(list(routes), position="hidden")
    return settings, routes[chosen], chosen


def context(p: Page, s: Settings) -> Context:
    """The opening of every step of the story for Settings `s`, in reading order; stops the run if nothing to show."""
    # `s` is in its language already (the entry set it); where the run stops, a sentence on the page says why
    # p.sentence names the Settings field to encode; None: the page encodes its own, and the sidebar's sentence box is
    # the field p.box
    box = p.sentence or p.box
    queue.drawing()
    render.PAUSE.set(queue.give_way)  # each chart a fit's or a model run's turn draws lets others' pages go first
    drawn = sidebar.render(s, p, box)
    render.name_files(p.name, getattr(s, box))  # charts to save
    kv, vectors = chosen.vectors(s, drawn)
    st.markdown(t(p.intro, d=kv.vector_size, source=chosen.short(vectors)))
    w, provenance = weights.layers(s, kv, vectors)
    render.save_menu()
    ctx = Context(s, kv, vectors, w, provenance, None, pages.named(), p)
    if p.sentence is None:
        return ctx
    enc = rows.sentence_rows(kv, getattr(s, p.sentence), s.position)
    if enc is not None and len(enc.tokens) < p.min_words:
        st.info(t("need_two_words"))
        enc = None
    if enc is None:
        st.stop()
    return replace(ctx, enc=enc)


def lobby(p: Page, s: Settings) -> Context:
    """The opening of a page outside the story (the class page): the sidebar's menu, the title and the intro."""
    # nothing of the story: no vectors, weights or sentence, and its Context holds none
    sidebar.lobby(s)
    st.title(t(p.title))
    st.markdown(t(p.intro))
    render.name_files(p.name, "")
    return Context(s, None, None, {}, None, None, pages.named(), p)  # type: ignore[arg-type]


def part(draw: Callable[[Context], T], *local: str) -> T:
    """draw(ctx) as the page's part, which its own controls rerun alone (a fragment); draw's result in the page run."""
    # Its own controls: the Settings fields `local`, and the widgets that are no setting (a guess, a head clicked on a
    # chart). The entry, the sidebar (its page links too, until the page runs again), the banner and the rest of the
    # page stay as drawn; the address bar follows. A change to any other setting runs the whole page.
    # While the save menu is open, the part runs with the page: the menu lists its charts.
    ctx = current()
    if render.FILES.get().menu is not None:
        return draw(ctx)
    run = Run()
    try:
        return alone(draw, ctx, local, run)
    finally:
        run.page = False  # the part's own runs find it so


@st.fragment
def alone(draw: Callable[[Context], T], ctx: Context, local: tuple[str, ...], run: Run) -> T:
    """draw(ctx) in a fragment; on the fragment's own runs, with the Context made again (again)."""
    # A page that stops in its part (a guess not made yet) has nothing after it: the fragment's own run that stops
    # leaves nothing of the page's drawn below it.
    if not run.page:
        ctx = again(ctx, local)
    return draw(ctx)


def again(ctx: Context, local: tuple[str, ...]) -> Context:
    """The page run's Context `ctx` for a run of its part alone, with the Settings the widgets hold now."""
    # Such a run starts in a thread of its own: the language, the address bar and the run's context are set again. The
    # whole page runs again when a setting not `local` changed; the Context made with the new Settings computes the
    # sentence's attention afresh when the part reads it.
    s = sidebar.current()
    text.use(s.lang)
    if any(getattr(s, f.name) != getattr(ctx.s, f.name) for f in fields(s) if f.name not in local):
        st.rerun(scope="app")
    state.write_url(s)
    queue.drawing()
    render.PAUSE.set(queue.give_way)
    render.name_files(ctx.page.name, getattr(s, ctx.page.sentence or ctx.page.box))
    now = replace(ctx, s=s)
    RUN.set(now)
    return now
