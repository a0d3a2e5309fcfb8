"""Page 7's last part: every held-out sentence, relation by relation: the weights in use against the best fixed offset,
page 6's four learned heads and the best of them, the real transformer's best head and BERT-base's."""
import streamlit as st

from engine import minilm_files, minilm_treebank
from heldout.heads import Measured, measured
from heldout.sentences import RELATION_NAMES, RELATIONS, Known, Scored, held_out
from kit import render, tables, views
from kit.charts import Titles
from kit.text import t, then
from real import learned
from real.charts import relation_accuracy
from real.tables import relation_bars_frame, relations_table, shown


def others() -> dict[str, dict[str, tuple[str, float]]]:
    """Beside these weights: the real transformer's best head per relation on the held-out sentences (its label and
    share), and Clark et al.'s best BERT-base head (their relation's name and share)."""
    shipped = minilm_treebank.shipped()
    return {"minilm": {r: shipped.best(r) for r in RELATIONS if r in shipped.words},
            "bert": {r: (theirs, share / 100) for r, (theirs, share, _, _) in minilm_treebank.BERT_BASE.items()}}


def relations_view(ctx):
    """Every held-out sentence, relation by relation: the current head against the best fixed offset for each, then a
    table beside them of page 6's learned heads, the real transformer's best head and BERT-base's."""
    known, scored = held_out(ctx)
    st.subheader(t("real_rel_title"))
    series = [t("real_rel_head"), t("real_rel_offset")]
    rivals, heads = others(), measured(ctx)
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
    offsets = tables.styled(shown(table, tuple(rivals)), {"offset": ""})  # the offsets come written out: "+1"
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
    """What the relations show in words: the head against the best offset over all words and relation by relation,
    and the signs on web text and on plain sentences."""
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
