import streamlit as st

import factor.views
import swap.views
from kit import views
from kit.state import view_key
from kit.text import t
from lesson import downloads, frame


def factor_row(ctx: frame.Context):
    """The query word's row of the factor matrix and its weights, as the switches say."""
    s, att, rows = ctx.s, ctx.att, ctx.enc.labels
    scaled_box, softmax_box, predict_box, word_box = st.columns([1, 1.4, 1, 2])
    scaled_box.toggle(t("scaled"), key="scaled")
    softmax_box.toggle(t("softmax"), key="softmax")
    predict_box.toggle(t("predict"), key="predict", help=t("predict_help"))
    q = views.pick_word("query", t("query"), rows, rows[-1], where=word_box)
    i = rows.index(q)
    seen = [j for j in range(len(rows)) if att.mask[i, j]]  # the keys query i may look at
    ask = ctx.asker(ctx.enc.tokens, i)  # the class sees the sentence with the question
    if s.predict and not views.guess_first(att.q[i], att.k[seen], q, [rows[j] for j in seen],
                                          key=view_key("factor", s, q), ask=ask):
        st.stop()
    views.attention_view(att, rows, rows, q, softmax=s.softmax, scaled=s.scaled,
                         own_note=ctx.own_note)
    factor.views.shift_view(att, i, q, rows, scaled=s.scaled)
    swap.views.section(ctx)
    downloads.menu(ctx)  # in the part: it shows what the part shows, and goes while a guess is due


frame.part(factor_row, "query", "scaled", "softmax")
