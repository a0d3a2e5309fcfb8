import streamlit as st

from engine.alignment import GROUPS, pair_alignment
from engine.attention import attend
from ui import page, sidebar, tables
from ui.text import t

s = sidebar.render("dot", "pair_sentence")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("dot_title", lang))
st.markdown(t("dot_intro", lang))

enc = page.sentence_rows(kv, s.pair_sentence, s)
if enc is None:
    st.stop()
w = page.weights(s, kv.vector_size)
att = attend(enc.x, enc.x, w["w_q"], w["w_k"], w["w_v"])
rows = enc.labels
q_rows, k_rows = (att.q, att.k) if s.pair_rows == "qk" else (enc.embedding, enc.embedding)

c1, c2, c3 = st.columns([2, 4, 3])
q = page.pick_word("query", t("query", lang), rows, "milk" if "milk" in rows else rows[-1], where=c1)
c2.segmented_control(t("pair_rows", lang), ("qk", "embedding"), key="pair_rows",
                     format_func=lambda v: t(f"pair_rows_{v}", lang))
c3.segmented_control(t("sort", lang), ("dimension", "size"), key="sort", format_func=lambda v: t(f"sort_{v}", lang))
i = rows.index(q)
scores = k_rows @ q_rows[i]  # [n]  the query's dot product with every row
others = sorted((j for j in range(len(rows)) if j != i), key=lambda j: -scores[j]) or [i]
defaults = {"key": "drank" if "drank" in rows else rows[others[0]],
            "key2": "black" if "black" in rows else rows[others[-1]]}
names = {g: t(f"group_{g}", lang) for g in GROUPS}

pairs = []  # (key label, PairAlignment, per-dimension table) for each of the two keys
for where, field in zip(st.columns(2, gap="large"), ("key", "key2")):
    k = page.pick_word(field, t(field, lang), rows, defaults[field], where=where)
    pa = pair_alignment(q_rows[i], k_rows[rows.index(k)])
    products = tables.alignment_frame(pa, by_size=s.sort == "size")
    page.draw(*page.chart_spec("alignment_bars", products, title=t("products_title", lang, q=q, k=k),
                               x_title=t("dim", lang), y_title=t("product", lang), group_title=t("group", lang),
                               group_names=names, running_title=t("running", lang)), where=where)
    pairs.append((k, pa, products))

(k1, _, _), (k2, _, _) = pairs  # the query's strip between the two keys', so each key's signs sit next to it
strips = [k_rows[rows.index(k1)], q_rows[i], k_rows[rows.index(k2)]]
page.draw(*page.chart_spec("sign_strips", tables.signs_frame(strips, [f"k₁ · {k1}", f"q · {q}", f"k₂ · {k2}"]),
                           title=t("signs_title", lang), x_title=t("dim", lang), value_title=t("value", lang),
                           vector_title=t("vector", lang)))

for where, field, (k, pa, products) in zip(st.columns(2, gap="large"), ("key", "key2"), pairs):
    with where:
        agree = pa.sums["++"] + pa.sums["--"]
        st.markdown(t("dot_pair_value", lang, q=q, k=k, dot=pa.dot, agree=agree, disagree=pa.dot - agree))
        groups = tables.group_table(pa, names)
        st.dataframe(groups, hide_index=True, width="stretch", column_config={
            "group": t("group", lang), "dimensions": t("dimensions", lang),
            "sum": st.column_config.NumberColumn(t("group_sum", lang), format="%.4f")})
        st.success(t("group_check", lang, total=float(groups["sum"].sum()), dot=pa.dot))
        st.caption(t("dot_note" if s.pair_rows == "qk" else "dot_note_embedding", lang, q=q, k=k))
        page.download_table(products, t("file_products", lang, q=q, k=k), lang, key=f"products_{field}")
