import streamlit as st

from engine.attention import attend
from ui import page, sidebar
from ui.text import LANGS, t

NEIGHBOURS = 12  # target words whose nearest neighbours are listed
LATER = 5  # later words named in the mask note
PREFIX = {"enc": "encoder-", "dec": "decoder-", "cross": "cross-"}  # widget keys and CSV names per section

s = sidebar.render("kinds")
lang = s.lang
kv = sidebar.vectors(s)
st.title(t("kinds_title", lang))
st.markdown(t("kinds_intro", lang))

left, right = st.columns(2)
with left:
    shown = s.sentence if len(s.sentence) <= 200 else s.sentence[:200] + "…"
    st.markdown(t("kinds_source", lang, text=page.code(shown)))
    src = page.sentence_rows(kv, s.sentence, s)
with right:
    st.text_input(t("target_sentence", lang), key="target_sentence", max_chars=2000)
    if s.target_sentence.strip():
        tgt = page.sentence_rows(kv, s.target_sentence, s)
    else:
        tgt = None
        st.info(t("empty_target", lang))

w = page.weights(s, kv.vector_size)
d_k = w["w_q"].shape[1]
divisors = [h for h in range(1, d_k + 1) if d_k % h == 0]
c1, c2, c3 = st.columns([1, 1, 2], vertical_alignment="bottom")
c1.toggle(t("scaled", lang), key="scaled")
c2.toggle(t("softmax", lang), key="softmax")
if s.heads not in divisors:
    st.warning(t("heads_fallback", lang, h=s.heads, d_k=d_k))
    st.session_state["heads"] = 1
heads = c3.selectbox(t("heads", lang), divisors, key="heads", help=t("heads_help", lang, d_k=d_k))

sections = (  # name, query rows, key/value rows, query field, what is missing when rows are absent
    ("enc", src, src, "query", "need_source"),
    ("dec", tgt, tgt, "dec_query", "need_target"),
    ("cross", tgt, src, "cross_query", "need_source" if src is None else "need_target"),
)
labels = {code: [t(f"tab_{n[0]}", code) for n in sections] for code in LANGS}
for code in LANGS:  # the open tab is remembered by its label: keep it open when the language changes
    if st.session_state.get("kinds_tab") in labels[code]:
        st.session_state["kinds_tab"] = labels[lang][labels[code].index(st.session_state["kinds_tab"])]
tabs = st.tabs(labels[lang], key="kinds_tab", on_change="rerun")
for tab, (name, rows_q, rows_kv, field, need) in zip(tabs, sections):
    if not tab.open:  # only the open tab is computed and drawn; switching tabs reruns
        continue
    with tab:
        st.markdown(t(f"{name}_intro", lang))
        causal = name == "dec" and s.causal
        picker, switch = st.columns(2, vertical_alignment="bottom")
        if name == "dec":
            switch.toggle(t("causal", lang), key="causal")
            note = st.empty()
        if rows_q is None or rows_kv is None:
            st.info(t(need, lang))
            continue
        try:
            att, free, multi = (attend(rows_q.x, rows_kv.x, w["w_q"], w["w_k"], w["w_v"], scale=s.scaled,
                                       softmax=s.softmax, causal=c, heads=h)
                                for c, h in ((causal, 1), (False, 1), (causal, heads)))
        except ValueError:
            st.error(t("overflow", lang))
            continue
        default = None if name == "enc" else rows_q.labels[(len(rows_q.labels) - 1) // 2]  # "bola": hides later words
        q = page.attention_view(att, rows_q.labels, rows_kv.labels, s, prefix=PREFIX[name], query_field=field,
                                default=default, picker=picker)

        if name == "dec":
            i = rows_q.labels.index(q)
            names = rows_q.labels[i + 1:]
            later = t("list_sep", lang).join(f"“{x}”" for x in names[:LATER]) + ("…" if len(names) > LATER else "")
            share = float(free.weights[i, i + 1:].sum())
            if not names:
                note.info(t("mask_last", lang, q=q))
            else:
                key = ("mask_hides" if causal else "mask_off") + ("" if s.softmax else "_raw")
                note.info(t(key, lang, q=q, later=later, p=share))
        if name == "cross":
            st.info(t("glove_note", lang))
            with st.expander(t("neighbours_title", lang)):
                words = list(dict.fromkeys(rows_q.tokens))
                table = page.neighbours(kv, s, words[:NEIGHBOURS], rows_kv.tokens)
                st.dataframe(table.rename(columns={
                    "word": t("neighbours_word", lang), "neighbours": t("neighbours_near", lang),
                    "closest_source": t("neighbours_source", lang), "cosine": t("neighbours_cosine", lang)}),
                    hide_index=True, width="stretch")
                if len(words) > NEIGHBOURS:
                    st.caption(t("neighbours_first", lang, n=NEIGHBOURS))

        st.subheader(t("heads_title", lang))
        if heads == 1:
            st.caption(t("heads_one", lang, d=d_k))
        else:
            st.markdown(t("heads_intro", lang, h=heads, d=d_k // heads))
            page.heads_view(multi, rows_q.labels, rows_kv.labels, q, s, prefix=PREFIX[name])
