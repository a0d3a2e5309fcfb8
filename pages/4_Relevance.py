import streamlit as st

from engine.relevance import cosines, in_order
from ui import page, render, tables, views
from ui.text import t

ctx = page.context("relevance", min_words=2)
s, lang, enc, att, rows = ctx.s, ctx.lang, ctx.enc, ctx.att, ctx.enc.labels

c1, c2, c3 = st.columns([1, 2, 1])
q = page.pick_word("query", t("query", lang), rows, "milk" if "milk" in rows else rows[-1], where=c1)
c2.text_input(t("expected", lang), key="expected", max_chars=200)
c3.toggle(t("scaled", lang), key="scaled")
i = rows.index(q)
others = [j for j in range(len(rows)) if j != i]
keys = [rows[j] for j in others]
e = enc.embedding  # [n, d]  the vectors' own rows, without positional encoding
scores = {"dot": e[others] @ e[i], "cosine": cosines(e[i], e[others]), "qk": att.scores[i, others]}
source = t(f"short_{ctx.s.source}", lang)
names = {"dot": t("measure_dot", lang, source=source), "cosine": t("measure_cosine", lang, source=source),
         "qk": t("measure_qk_scaled" if s.scaled else "measure_qk", lang)}

long = tables.relevance_frame(scores, keys)
for where, m in zip(st.columns(3), scores):
    render.chart("relevance_bars", long[long["measure"] == m].reset_index(drop=True), title=names[m],
                 x_title=t("score", lang), y_title=t("word", lang), rank_title=t("rank", lang), where=where)
st.caption(t("relevance_note", lang, source=source))

order = page.expected_order(s.expected, enc.tokens, rows, q, lang)
if order is not None:
    pos = [keys.index(x) for x in order]
    shown = " > ".join(f"“{x}”" for x in order)
    for m, v in scores.items():
        vals = v[pos]
        values = t("list_sep", lang).join(f"“{x}” {y:.3f}" for x, y in zip(order, vals))
        met = in_order(vals)
        (st.success if met else st.warning)(t("verdict_met" if met else "verdict_missed", lang, measure=names[m],
                                              order=shown, values=values))

st.subheader(t("ranking", lang, q=q))
ranking = tables.ranking_table(scores, keys)
config = {"word": t("word", lang)}
for m in scores:
    config[m] = st.column_config.NumberColumn(names[m], format="%.4f")
    config[f"{m}_rank"] = st.column_config.NumberColumn(f"{t('rank', lang)} · {names[m]}", format="%d")
st.dataframe(ranking, hide_index=True, width="stretch", column_config=config)
views.download_table(ranking, t("file_ranking", lang), lang, key="ranking")
views.length_angle_view(att.q[i], att.k[others], q, keys, lang)

st.subheader(t("takeaway_title", lang))
st.markdown(t("relevance_takeaway", lang))
