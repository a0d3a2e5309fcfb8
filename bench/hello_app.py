"""The floor for browser figures: one text box in the sidebar and one small chart, started like the dashboard."""
import altair as alt
import pandas as pd
import streamlit as st

sentence = st.sidebar.text_input("Sentence", "The ball is blue")
words = sentence.split() or ["(empty)"]
df = pd.DataFrame({"word": [f"{i + 1}. {w}" for i, w in enumerate(words)], "letters": [len(w) for w in words]})
st.title("Hello")
chart = alt.Chart(df).mark_bar().encode(x=alt.X("word:N", sort=None), y="letters:Q", tooltip=["word", "letters"])
st.altair_chart(chart, width="stretch")
