"""Page 7's views of one held-out sentence: the sentence chosen, predict first, each word's head and top key, one key
from every query."""
from dataclasses import replace

import numpy as np
import streamlit as st

from engine import treebank
from engine.attention import Attention, top_keys
from engine.pipeline import Encoded
from heldout import sentences
from heldout.sentences import Scored
from kit import render, tables, views
from kit.charts import Titles, relevance_bars
from kit.state import view_key
from kit.text import plain, t, then
from kit.views import pick_word
from real.charts import LINE_KINDS, head_lines
from real.tables import head_lines_frame, heads_table

LINE_NAMES = {"gold": "real_line_gold", "right": "real_line_right", "wrong": "real_line_wrong"}  # charts' LINE_KINDS


def guessed(ctx, sentence: treebank.Sentence, enc: Encoded, att: Attention) -> bool:
    """Predict first: which word will the chosen word attend to most? True once guessed, with what the treebank
    says it belongs to."""
    labels, head = enc.labels, treebank.gold(sentence)
    first = next((i for i, w in enumerate(enc.tokens) if w == "the" and head[i] >= 0),
                 next((i for i in range(len(labels)) if head[i] >= 0), 0))
    q = pick_word("real_query", t("real_query_pick"), labels, labels[first])
    i = labels.index(q)
    seen = np.flatnonzero(att.mask[i])
    shown = replace(ctx.s, real=sentence.sent_id, real_query=q)
    if not views.guess_first(att.q[i], att.k[seen], q, [labels[j] for j in seen], key=view_key("real", shown, q),
                             ask=ctx.asker(enc.tokens, i, shown)):
        return False
    rel = treebank.short(sentence.relations[i])
    st.markdown(t("real_gold_said", q=plain(q), h=plain(labels[head[i]]), rel=rel) if head[i] >= 0
                else t("real_gold_root" if rel == "root" else "real_gold_none", q=plain(q)))
    return True


def heads_view(ctx, sentence: treebank.Sentence, enc: Encoded, att: Attention, scored: Scored):
    """Each word's head and the word it attends to most, as lines and as a table, with how many agree."""
    s, labels = ctx.s, enc.labels
    head, pick = treebank.gold(sentence), top_keys(att)
    relations = [treebank.short(r) for r in sentence.relations]
    value = t("weight" if s.softmax else "score")
    st.subheader(t("real_heads_title"))
    has = head >= 0
    right = int((pick == head)[has].sum())
    st.markdown(t("real_heads_said", right=right, total=int(has.sum()), acc=right / max(1, has.sum()),
                  all=scored.accuracy))
    names = {kind: t(key) for kind, key in LINE_NAMES.items()}
    lines = head_lines_frame(labels, relations, head, pick, att.weights, names)
    titles = Titles(t("real_lines_title"), t("key_word"), t("query_word"), value, relation=t("real_relation"),
                    line=t("real_line_title"))
    with st.container(key=render.WIDE):
        render.chart(head_lines, lines, titles=titles, line_names=[names[k] for k in LINE_KINDS],
                     save=render.Save(csv=render.Csv("dl_real_lines", lambda: lines.to_csv(index=False))))
    st.caption(t("real_lines_caption"))
    said = {"root": t("real_root"), "none": t("real_no_head"), "right": t("real_right"),
            "wrong": t("real_wrong")}
    table = heads_table(labels, relations, head, pick, att.weights, said)
    # head_weight comes written out ("—" where a word has no head): spec "" keeps its text, with the true minus sign
    signed = tables.styled(table, {"head_weight": "", "top_weight": ".3f"})
    st.dataframe(signed, hide_index=True, width="stretch", height="content", column_config={
        "word": t("word"), "relation": t("real_relation"), "head": t("real_col_head"),
        "head_weight": st.column_config.TextColumn(t("real_col_head_weight", value=value), alignment="right"),
        "top": t("real_col_top"),
        "top_weight": st.column_config.NumberColumn(t("real_col_top_weight", value=value)),
        "right": t("real_col_right")})
    views.download_table(table, t("file_real_heads"), key="real_heads")


def same_key(ctx, sentence: treebank.Sentence, enc: Encoded, att: Attention):
    """One key word's score from every query word that sees it: relevance depends on who asks."""
    s, labels = ctx.s, enc.labels
    head = treebank.gold(sentence)
    st.subheader(t("real_key_title"))
    st.markdown(t("real_key_intro"))
    dependents = np.bincount(head[head >= 0], minlength=len(labels))
    k = pick_word("real_key", t("real_key_pick"), labels, labels[int(dependents.argmax())])
    j = labels.index(k)
    queries = [i for i in range(len(labels)) if att.mask[i, j]]
    if not queries:
        st.info(t("real_key_alone", k=plain(k)))
        return
    scores = att.scores[queries, j]
    shown = [f"{labels[i]} ●" if head[i] == j else labels[i] for i in queries]
    measure = t("measure_qk_scaled" if s.scaled else "measure_qk")
    render.chart(relevance_bars, tables.relevance_table({"qk": scores}, shown),
                 titles=Titles(t("real_key_chart"), measure, t("query_word"), rank=t("rank")))
    hi, lo = int(scores.argmax()), int(scores.argmin())
    said = t("real_key_said", k=plain(k), hi=plain(labels[queries[hi]]), hi_v=scores[hi],
             lo=plain(labels[queries[lo]]), lo_v=scores[lo])
    deps = [n for n, i in enumerate(queries) if head[i] == j]
    if deps:
        rank = tables.ranks(scores)
        said += then() + t("real_key_deps", k=plain(k), n=len(queries),
                           deps=t("list_sep").join(f"“{plain(labels[queries[n]])}” ({rank[n]})" for n in deps))
    else:
        said += then() + t("real_key_no_deps", k=plain(k))
    st.markdown(said)


def sentence_view(ctx):
    """One held-out sentence through the layers: each word's head and the word it attends to, and one key's scores;
    returns the Context of that sentence."""
    s = ctx.s
    known, scored = sentences.held_out(ctx)
    sentence = sentences.choose(ctx, known)
    enc, att = sentences.rows(ctx, sentence)
    c1, c2, c3 = st.columns(3)
    c1.toggle(t("scaled"), key="scaled")
    c2.toggle(t("softmax"), key="softmax")
    c3.toggle(t("predict"), key="predict", help=t("predict_help"))
    if not s.predict or guessed(ctx, sentence, enc, att):
        heads_view(ctx, sentence, enc, att, scored)
        same_key(ctx, sentence, enc, att)
    return replace(ctx, s=replace(s, sentence=" ".join(sentence.tokens)), enc=enc, att=att)
