"""The hello app with elements added, for bench.elements: from the environment, ELEMENTS_TEXTS paragraphs of
ELEMENTS_LENGTH sentences each, ELEMENTS_TOGGLES toggles, ELEMENTS_CHOICES select boxes and ELEMENTS_CHARTS more charts
that change with the sentence."""
import os

import altair as alt
import pandas as pd
import streamlit as st


def count(name: str) -> int:
    return int(os.environ.get(f"ELEMENTS_{name}", "0"))


sentence = st.sidebar.text_input("Sentence", "The ball is blue")
words = sentence.split() or ["(empty)"]
df = pd.DataFrame({"word": [f"{i + 1}. {w}" for i, w in enumerate(words)], "letters": [len(w) for w in words]})
st.title("Hello")
chart = alt.Chart(df).mark_bar().encode(x=alt.X("word:N", sort=None), y="letters:Q", tooltip=["word", "letters"])
st.altair_chart(chart, width="stretch")
for i in range(count("TEXTS")):
    st.markdown(f"Paragraph {i}: " + "a sentence that stays the same, with **some** words in it. " * count("LENGTH"))
for i in range(count("TOGGLES")):
    st.toggle(f"Toggle {i}", key=f"toggle{i}")
for i in range(count("CHOICES")):
    st.selectbox(f"Choice {i}", ["one", "two", "three"], key=f"choice{i}")
for i in range(count("CHARTS")):
    st.altair_chart(chart.properties(title=f"Chart {i + 2}"), width="stretch")
