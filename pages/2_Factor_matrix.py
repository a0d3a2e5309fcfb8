import numpy as np
import pandas as pd
import streamlit as st

from engine.attention import attend
from ui import charts, page, sidebar, tables
from ui.text import t

s = sidebar.render("factor")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("factor_title", lang))
st.markdown(t("factor_intro", lang))

enc = page.sentence_rows(kv, s.sentence, s)
if enc is None:
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled, softmax=s.softmax)
rows, out = enc.labels, tables.dims(att.v.shape[1])

c1, c2, c3 = st.columns([1, 1, 2])
c1.toggle(t("scaled", lang), key="scaled")
c2.toggle(t("softmax", lang), key="softmax")
q = page.pick_word("query", t("query", lang), rows, rows[-1], where=c3)
i = rows.index(q)

left, right = st.columns(2)
page.matrix(att.factor, rows, rows, name="factor", title=t("factor_m", lang), lang=lang, where=left,
            x_title=t("key_word", lang), y_title=t("query_word", lang), selected=q,
            pick_key="factor_pick", on_select=page.on_pick("factor_pick"))
page.matrix(att.weights, rows, rows, name="weights", lang=lang, where=right, selected=q,
            title=t("weights_m_soft" if s.softmax else "weights_m_raw", lang),
            x_title=t("key_word", lang), y_title=t("query_word", lang),
            pick_key="weights_pick", on_select=page.on_pick("weights_pick"))
st.caption(t("click_hint", lang))

left, right = st.columns([2, 3])
page.show(charts.weight_bars(tables.weights_frame(att.weights[i], rows), title=t("chosen_weights", lang, q=q),
                                     x_title=t("key_word", lang), y_title=t("weight", lang)), where=left)
parts = tables.contributions(att.weights[i], att.v, rows)
z_row = pd.DataFrame({"dim": out, "z": att.z[i]})
page.show(charts.contribution_bars(parts, z_row, title=t("contrib_title", lang, q=q), x_title=t("dim", lang),
                                            y_title=t("contribution", lang), key_title=t("key_word", lang),
                                            z_title=t("z_row", lang)), where=right)
diff = float(np.abs(parts.groupby("dim", sort=True)["contribution"].sum().to_numpy() - att.z[i]).max())
st.success(t("sum_check", lang, q=q, diff=diff))
page.matrix(att.z, rows, out, name="Z", title=t("z_m", lang), x_title=t("dim", lang), lang=lang, selected=q)
