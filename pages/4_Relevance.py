import streamlit as st

import relevance.views
import swap.views
from kit import state, views
from kit.text import t
from lesson import downloads, frame


def measured_relevance(ctx: frame.Context):
    """The query word's relevance to every other word, measured three ways, and the learner's expected order."""
    s, enc, att, rows = ctx.s, ctx.enc, ctx.att, ctx.enc.labels
    word_box, expected_box, scaled_box, predict_box = st.columns([1, 2, 1, 1])
    q = views.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1], where=word_box)
    scaled_box.toggle(t("scaled"), key="scaled")
    predict_box.toggle(t("predict"), key="predict", help=t("predict_help"))
    i = rows.index(q)
    others = [j for j in range(len(rows)) if j != i]
    keys = [rows[j] for j in others]
    ask = ctx.asker(enc.tokens, i)  # the class sees the sentence with the question
    if s.predict and not views.guess_first(att.q[i], att.k[others], q, keys, key=state.view_key("relevance", s, q),
                                          ordered=views.ORDERED, ask=ask):
        st.stop()
    expected_box.text_input(t("expected"), key="expected", max_chars=200)  # after the guess: the expectation is a hint
    story = enc.tokens == frame.STORY_TOKENS
    views.aside(t("relevance_story") if story and q == "milk" else None)
    scores = relevance.views.scores(enc, att, i, others)
    names = relevance.views.measure_names(ctx.source, scaled=s.scaled)
    relevance.views.bars(scores, names, keys, ctx.source, scaled=s.scaled)
    views.aside(views.row_below(scores["qk"], q, keys[int(scores["qk"].argmax())]))
    order = relevance.views.expected_order(s.expected, enc.tokens, rows, q)
    if order is not None:
        relevance.views.verdicts(scores, names, keys, order)
    relevance.views.ranking(scores, names, keys, q, scaled=s.scaled)
    views.length_angle_view(att.q[i], att.k[others], q, keys)
    swap.views.section(ctx)
    glove_story = story and q == "milk" and ctx.source == t("short_glove")
    relevance.views.takeaway_view(scores["cosine"], keys, att, rows, story=glove_story)
    downloads.menu(ctx)  # in the part: it shows what the part shows, and goes while a guess is due


frame.part(measured_relevance, "query", "scaled", "expected")
