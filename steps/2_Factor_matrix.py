import streamlit as st

from ui import page, reproduce, swap, views
from ui.text import t

ctx = page.current()
s, lang, att, rows = ctx.s, ctx.lang, ctx.att, ctx.enc.labels

c1, c2, c3, c4 = st.columns([1, 1.4, 1, 2])
c1.toggle(t("scaled", lang), key="scaled")
c2.toggle(t("softmax", lang), key="softmax")
c3.toggle(t("predict", lang), key="predict", help=t("predict_help", lang))
q = page.pick_word("query", t("query", lang), rows, rows[-1], where=c4)
i = rows.index(q)
seen = [j for j in range(len(rows)) if att.mask[i, j]]  # the keys query i may look at
if s.predict and not views.guess_first(att.q[i], att.k[seen], q, [rows[j] for j in seen], lang,
                                      key=page.view_key("factor", s, q)):
    st.stop()
views.attention_view(att, rows, rows, q, lang, softmax=s.softmax)
swap.section(ctx)
reproduce.downloads(ctx, "factor")
