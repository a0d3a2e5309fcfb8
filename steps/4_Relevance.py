import streamlit as st

from engine.relevance import raw_scores
from ui import classroom, page, render, reproduce, signs, swap, tables, views
from ui.charts import Titles
from ui.text import t

ctx = page.current()
s, enc, att, rows = ctx.s, ctx.enc, ctx.att, ctx.enc.labels

c1, c2, c3, c4 = st.columns([1, 2, 1, 1])
q = page.pick_word("query", t("query"), rows, "milk" if "milk" in rows else rows[-1], where=c1)
c3.toggle(t("scaled"), key="scaled")
c4.toggle(t("predict"), key="predict", help=t("predict_help"))
i = rows.index(q)
others = [j for j in range(len(rows)) if j != i]
keys = [rows[j] for j in others]
if s.predict and not views.guess_first(att.q[i], att.k[others], q, keys, key=page.view_key("relevance", s, q),
                                      ordered=views.ORDERED, ask=classroom.asker(s, "relevance")):
    st.stop()
c2.text_input(t("expected"), key="expected", max_chars=200)  # after the guess: the expectation is a hint
story = enc.tokens == page.STORY_TOKENS
views.aside(t("relevance_story") if story and q == "milk" else None)
scores = raw_scores(enc.embedding, i, others) | {"qk": att.scores[i, others]}  # the vectors' own rows, then Q·K
names = {"dot": t("measure_dot", source=ctx.source), "cosine": t("measure_cosine", source=ctx.source),
         "qk": t("measure_qk_scaled" if s.scaled else "measure_qk")}

for where, m in zip(st.columns(3), scores, strict=False):
    render.chart("relevance_bars", tables.relevance_table({m: scores[m]}, keys), where=where,
                 titles=Titles(names[m], t("score"), t("word"), rank=t("rank")))
st.caption(t("relevance_note", source=ctx.source))
views.aside(signs.row_below(scores["qk"], q, keys[int(scores["qk"].argmax())]))

order = page.expected_order(s.expected, enc.tokens, rows, q)
if order is not None:
    views.verdicts(scores, names, keys, order)
views.ranking(scores, names, keys, q)
views.length_angle_view(att.q[i], att.k[others], q, keys)
swap.section(ctx)

st.subheader(t("takeaway_title"))
glove_story = story and q == "milk" and ctx.source == t("short_glove")
st.markdown(t("relevance_takeaway" if glove_story else "relevance_takeaway_other"))
views.partners(att, rows)
reproduce.downloads(ctx, "relevance")
