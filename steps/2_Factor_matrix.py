import streamlit as st

from ui import classroom, page, reproduce, signs, swap, views
from ui.text import t

ctx = page.current()
s, att, rows = ctx.s, ctx.att, ctx.enc.labels

c1, c2, c3, c4 = st.columns([1, 1.4, 1, 2])
c1.toggle(t("scaled"), key="scaled")
c2.toggle(t("softmax"), key="softmax")
c3.toggle(t("predict"), key="predict", help=t("predict_help"))
q = page.pick_word("query", t("query"), rows, rows[-1], where=c4)
i = rows.index(q)
seen = [j for j in range(len(rows)) if att.mask[i, j]]  # the keys query i may look at
if s.predict and not views.guess_first(att.q[i], att.k[seen], q, [rows[j] for j in seen],
                                      key=page.view_key("factor", s, q), ask=classroom.asker(s, "factor")):
    st.stop()
views.attention_view(att, rows, rows, q, softmax=s.softmax)
signs.shift_view(att, i, q, rows)
swap.section(ctx)
reproduce.downloads(ctx, "factor")
