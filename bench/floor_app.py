"""The floor for page reruns: one small Altair chart and nothing else."""
import altair as alt
import pandas as pd
import streamlit as st

df = pd.DataFrame({"word": ["the", "ball", "is", "blue"], "value": [0.2, -0.5, 0.1, 0.9]})
st.altair_chart(alt.Chart(df).mark_bar().encode(x=alt.X("word:N", sort=None), y=alt.Y("value:Q"),
                                                tooltip=["word:N", "value:Q"]), width="stretch")
