from dataclasses import replace

import streamlit as st

from heldout import sentences
from kit.text import t
from lesson import downloads, frame
from real import relations, views


def sentence_view(ctx: frame.Context) -> frame.Context:
    """One held-out sentence through the layers: each word's head and the word it attends to, and one key's scores;
    returns the Context of that sentence."""
    s = ctx.s
    sentence = sentences.choose(ctx, known)
    enc, att = sentences.rows(ctx, sentence)
    c1, c2, c3 = st.columns(3)
    c1.toggle(t("scaled"), key="scaled")
    c2.toggle(t("softmax"), key="softmax")
    c3.toggle(t("predict"), key="predict", help=t("predict_help"))
    if not s.predict or views.guessed(ctx, sentence, enc, att):
        views.heads_view(ctx, sentence, enc, att, scored)
        views.same_key(ctx, sentence, enc, att)
    return replace(ctx, s=replace(s, sentence=" ".join(sentence.tokens)), enc=enc, att=att)


ctx = frame.current()
known, scored = sentences.held_out(ctx)
shown = frame.part(sentence_view, "real", "real_find", "real_query", "real_key", "scaled", "softmax")
relations.relations_view(ctx, known, scored)
downloads.menu(shown)
