"""Page 7's views: one held-out sentence (the sentence chosen, predict first, each word's head and top key, one key
from every query), then every held-out sentence relation by relation: the weights in use against the best fixed
offset, page 6's four learned heads and the best of them, the real transformer's best head and BERT-base's."""
from dataclasses import replace

import numpy as np
import streamlit as st

from engine import minilm_files, minilm_treebank, treebank
from engine.attention import Attention, top_keys
from engine.pipeline import Encoded
from heldout import sentences
from heldout.heads import Measured, measured
from heldout.sentences import RELATION_NAMES, RELATIONS, Known, Scored
from kit import render, tables, views
from kit.charts import Titles, relevance_bars
from kit.state import view_key
from kit.text import plain, t, then
from kit.views import pick_word
from real import learned
from real.charts import LINE_KINDS, head_lines, relation_accuracy
from real.tables import head_lines_frame, heads_table, relation_bars_frame, relations_table
from real.tables import shown as shown_table

LINE_NAMES = {"gold": "real_line_gold", "right": "real_line_right", "wrong": "real_line_wrong"}  # charts' LINE_KINDS


def guessed(ctx, sentence: treebank.Sentence, enc: Encoded, att: Attention) -> bool:
    """Predict first: which word will the chosen word attend to most? True once guessed, said with its treebank head."""
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
    head = treebank.gold(sentence)
    pick = top_keys(att)
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
    hi = int(scores.argmax())
    lo = int(scores.argmin())
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
    """One held-out sentence through the layers: each word's head and top key, and one key's scores; its Context."""
    s = ctx.s
    known, scored = sentences.held_out(ctx)
    sentence = sentences.choose(ctx, known)
    enc, att = sentences.rows(ctx, sentence)
    scaled_box, softmax_box, predict_box = st.columns(3)
    scaled_box.toggle(t("scaled"), key="scaled")
    softmax_box.toggle(t("softmax"), key="softmax")
    predict_box.toggle(t("predict"), key="predict", help=t("predict_help"))
    if not s.predict or guessed(ctx, sentence, enc, att):
        heads_view(ctx, sentence, enc, att, scored)
        same_key(ctx, sentence, enc, att)
    return replace(ctx, s=replace(s, sentence=" ".join(sentence.tokens)), enc=enc)


def other_models() -> dict[str, dict[str, tuple[str, float]]]:
    """Beside these weights: the real transformer's best head per relation on held-out sentences, and BERT-base's."""
    # relation -> (what it is, its share): the real model's head label, or the relation Clark et al. name for BERT-base
    shipped = minilm_treebank.shipped()
    return {"minilm": {r: shipped.best(r) for r in RELATIONS if r in shipped.words},
            "bert": {r: (theirs, share / 100) for r, (theirs, share, _, _) in minilm_treebank.BERT_BASE.items()}}


def relations_view(ctx):
    """Every held-out sentence, relation by relation: the current head against the best fixed offset, then a table."""
    # the table sets page 6's learned heads, the real transformer's best head and BERT-base's beside them
    known, scored = sentences.held_out(ctx)
    st.subheader(t("real_rel_title"))
    series = [t("real_rel_head"), t("real_rel_offset")]
    rivals = other_models()
    heads = measured(ctx)
    table = relations_table(list(RELATIONS), scored.relations, known.offsets,
                            {r: t(RELATION_NAMES[r]) for r in RELATIONS}, rivals, learned.columns(heads))
    bars = relation_bars_frame(table, series)
    titles = Titles(t("real_rel_chart"), t("real_rel_x"), t("real_relation"), series=t("real_rel_series"),
                    count=t("real_rel_count"))
    render.chart(relation_accuracy, bars, titles=titles, series=series,
                 save=render.Save(csv=render.Csv("dl_real_relation_bars", lambda: bars.to_csv(index=False))))
    rows = table.to_pydict()
    st.markdown(relations_said(known, scored, rows))
    st.caption(t("real_rel_caption"))
    st.markdown(learned.summary(heads, scored, rows))
    offsets = tables.styled(shown_table(table, tuple(rivals)), {"offset": ""})  # the offsets come written out: "+1"
    st.dataframe(offsets, hide_index=True, width="stretch", height="content", column_config=column_config(heads))
    if heads is not None:
        st.caption(learned.caption(heads))
    st.caption(t("real_rel_others_caption", name=minilm_files.NAME, sentences=minilm_treebank.shipped().sentences))
    views.download_table(table, t("file_real_relations"), key="real_relations")


def column_config(heads: Measured | None) -> dict:
    """The relations table's column labels and formats."""
    share = st.column_config.NumberColumn(format="%.1f%%")  # shares in percent, as tables.shown gives them: 51.2%
    other = st.column_config.TextColumn(alignment="right")
    return {"relation": t("real_relation"), "meaning": t("real_rel_meaning"),
            "count": st.column_config.NumberColumn(t("real_rel_count"), format="localized"),
            "head": {**share, "label": t("real_rel_head_share")}, "offset": t("real_rel_offset_col"),
            "offset_accuracy": {**share, "label": t("real_rel_offset_share")}, **learned.column_config(heads, share),
            "minilm": {**other, "label": t("real_rel_minilm_share", name=minilm_files.NAME)},
            "minilm_head": t("real_rel_minilm_head"),
            "bert": {**other, "label": t("real_rel_bert_share")}, "bert_head": t("real_rel_bert_relation")}


def relations_said(known: Known, scored: Scored, rows: dict) -> str:
    """What the relations show in words: the head against the best offset, over all words and relation by relation."""
    # it also gives the signs on web text and on plain sentences
    offset, offset_acc = known.offset
    said = t("real_rel_said", words=scored.words, sentences=len(known.sentences), acc=scored.accuracy,
             offset=offset, offset_acc=offset_acc) + then() + t("real_rel_signs", above=scored.signs[0],
                                                                 below=scored.signs[1])
    if scored.plain is not None:
        said += then() + t("real_rel_plain", n=scored.plain[0], above=scored.plain[1], below=scored.plain[2])
    gaps = [h - o for h, o in zip(rows["head"], rows["offset_accuracy"], strict=False)]  # one per relation shown
    beats = sum(g > 0 for g in gaps)
    if gaps and min(gaps) < 0:
        r = gaps.index(min(gaps))
        said += then() + t("real_rel_beats", beats=beats, n=len(gaps), rel=rows["relation"][r],
                           head=rows["head"][r], off=rows["offset_accuracy"][r])
    elif gaps and beats == len(gaps):
        said += then() + t("real_rel_beats_all", n=len(gaps))
    return said
