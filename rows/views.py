"""Page 1's comparison of lengths: each word's row of the vectors beside its position's, and what the position weight
does to the rows X."""
import streamlit as st

from engine.relevance import row_lengths
from kit import render
from kit.charts import Titles
from kit.text import t, then
from rows.charts import length_bars
from rows.tables import lengths_table

VERDICTS = {"off": "lengths_off", "small": "lengths_small", "comparable": "lengths_comparable",  # Lengths.verdict,
            "dominant": "lengths_dominant"}  # as said


def lengths_view(enc, position: float, source: str):
    """The lengths of the sentence's rows and of their positions at this weight, as bars, and what they mean."""
    # `enc`: an engine.pipeline.Encoded
    st.subheader(t("lengths_title"))
    lengths = row_lengths(enc.embedding, enc.positional)
    left, right = st.columns([3, 2], gap="large")
    parts = {"word": t("length_word", source=source), "position": t("length_position")}
    render.chart(length_bars, lengths_table(lengths, enc.labels, parts), where=left,
                 titles=Titles(None, t("length"), t("row"), part=t("part")), save=render.Save(label=t("lengths_title")))
    note = t("lengths_note", p=position, word=lengths.word.mean(), pos=lengths.position.mean(), ratio=lengths.ratio,
             source=source)
    right.markdown(note + then() + t(VERDICTS[lengths.verdict]))
