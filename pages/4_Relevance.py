import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine.attention import attend
from ui import page, sidebar, tables
from ui.text import t

s = sidebar.render("relevance", "pair_sentence")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("relevance_title", lang))
st.markdown(t("relevance_intro", lang))

enc = page.sentence_rows(kv, s.pair_sentence, s)
if enc is None:
    st.stop()
rows = enc.labels
if len(rows) < 2:
    st.info(t("need_two_words", lang))
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled)

c1, c2, c3 = st.columns([1, 2, 1])
q = page.pick_word("query", t("query", lang), rows, "milk" if "milk" in rows else rows[-1], where=c1)
c2.text_input(t("expected", lang), key="expected", max_chars=200)
c3.toggle(t("scaled", lang), key="scaled")
i = rows.index(q)
others = [j for j in range(len(rows)) if j != i]
keys = [rows[j] for j in others]
e = enc.embedding  # [n, d]  GloVe rows without positional encoding
scores = {
    "dot": e[others] @ e[i],
    "cosine": np.nan_to_num(KeyedVectors.cosine_similarities(e[i], e[others])),
    "qk": att.scores[i, others],
}
names = {"dot": t("measure_dot", lang), "cosine": t("measure_cosine", lang),
         "qk": t("measure_qk_scaled" if s.scaled else "measure_qk", lang)}

long = tables.relevance_frame(scores, keys)
for where, m in zip(st.columns(3), scores):
    page.draw(*page.chart_spec("relevance_bars", long[long["measure"] == m].reset_index(drop=True), title=names[m],
                               x_title=t("score", lang), y_title=t("word", lang), rank_title=t("rank", lang)),
              where=where)
st.caption(t("relevance_note", lang))

order = page.expected_order(s.expected, enc.tokens, rows, q, lang)
if order is not None:
    pos = [keys.index(x) for x in order]
    shown = " > ".join(f"“{x}”" for x in order)
    for m, v in scores.items():
        vals = v[pos]
        values = t("list_sep", lang).join(f"“{x}” {y:.3f}" for x, y in zip(order, vals))
        if np.all(vals[:-1] > vals[1:]):
            st.success(t("verdict_met", lang, measure=names[m], order=shown, values=values))
        else:
            st.warning(t("verdict_missed", lang, measure=names[m], order=shown, values=values))

st.subheader(t("ranking", lang, q=q))
ranking = tables.ranking_table(scores, keys)
config = {"word": t("word", lang)}
for m in scores:
    config[m] = st.column_config.NumberColumn(names[m], format="%.4f")
    config[f"{m}_rank"] = st.column_config.NumberColumn(f"{t('rank', lang)} · {names[m]}", format="%d")
st.dataframe(ranking, hide_index=True, width="stretch", column_config=config)
page.download_table(ranking, t("file_ranking", lang), lang, key="ranking")

st.subheader(t("takeaway_title", lang))
st.markdown(t("relevance_takeaway", lang))
