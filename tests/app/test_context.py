"""The frame's Context: the sentence's attention is always that of the Context's own sentence, layers and Settings, and
numbers too large to compute stop the run with a sentence."""
from dataclasses import replace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from engine.attention import attend
from engine.formats import keyed_vectors
from engine.pipeline import encode
from kit.pages import PAGES
from kit.text import t
from lesson.frame import Context
from lesson.settings import DEFAULTS
from vectors.chosen import Source

WORDS = ["the", "cat", "drank", "milk", "black"]


def context(scale: float = 1.0) -> Context:
    """A Context for 'the cat drank milk' in five made-up 4-d vectors, its layers random rotations times `scale`."""
    rng = np.random.default_rng(7)
    kv = keyed_vectors(WORDS, rng.normal(size=(len(WORDS), 4)).astype(np.float32))
    w = {name: scale * rng.normal(size=(4, 3)) for name in ("w_q", "w_k", "w_v")}
    enc = encode(kv, "the cat drank milk", position=1.0)
    return Context(DEFAULTS, kv, Source("upload", len(WORDS), 4), w, None, enc, {}, PAGES[1])  # type: ignore[arg-type]


def expected(ctx: Context, scaled: bool, softmax: bool, own: bool):
    """The engine's attention for the Context's sentence and layers, computed as the three settings say."""
    w = ctx.w
    return attend(ctx.enc.x, ctx.enc.x, w["w_q"], w["w_k"], w["w_v"], scale=scaled, softmax=softmax, own=own)


def test_the_attention_is_the_sentences_own_through_the_layers():
    ctx = context()
    assert (ctx.s.scaled, ctx.s.softmax, ctx.s.own) == (True, True, False)  # the story's defaults
    assert ctx.att is ctx.att  # computed once for a Context
    np.testing.assert_array_equal(ctx.att.weights, expected(ctx, True, True, False).weights)


def test_another_sentence_or_other_settings_have_their_own_attention():
    ctx = context()
    other = replace(ctx, enc=encode(ctx.kv, "black milk", position=1.0))
    assert other.att.weights.shape == (2, 2)
    np.testing.assert_array_equal(other.att.z, expected(other, True, True, False).z)
    raw = replace(ctx, s=replace(ctx.s, softmax=False, own=True))
    np.testing.assert_array_equal(raw.att.weights, expected(ctx, True, False, True).weights)
    assert not np.allclose(raw.att.weights, ctx.att.weights)


def test_a_page_that_encodes_its_own_sentences_has_no_attention_of_its_own():
    assert replace(context(), enc=None).att is None


def overflowing_page():
    """A page whose layers are so large that the sentence's factor matrix overflows; it reads the attention."""
    import streamlit as st

    from tests.app.test_context import context

    st.write(context(scale=1e200).att.weights)  # stops at the attention
    st.write("drawn after the attention")


@pytest.mark.filterwarnings("ignore:overflow encountered", "ignore:invalid value encountered")
def test_numbers_too_large_to_compute_stop_the_run_with_a_sentence():
    at = AppTest.from_function(overflowing_page).run()
    assert not at.exception
    assert [e.value for e in at.error] == [t("overflow")]
    assert not any("drawn after" in m.value for m in at.markdown)
