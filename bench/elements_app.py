"""The hello app (bench/hello_app.py, run as it is) with the elements bench.elements names in ELEMENTS_* added."""
import os
import runpy
from pathlib import Path

import altair as alt
import streamlit as st


def count(name: str) -> int:
    return int(os.environ.get(f"ELEMENTS_{name}", "0"))


hello = runpy.run_path(str(Path(__file__).with_name("hello_app.py")))  # the hello app itself, each run
chart, sentence = hello["chart"], hello["sentence"]
for i in range(count("TEXTS")):
    st.markdown(f"Paragraph {i}: " + "a sentence that stays the same, with **some** words in it. " * count("LENGTH"))
for i in range(count("TOGGLES")):
    st.toggle(f"Toggle {i}", key=f"toggle{i}")
for i in range(count("CHOICES")):
    st.selectbox(f"Choice {i}", ["one", "two", "three"], key=f"choice{i}")
for i in range(count("SEGMENTS")):
    st.segmented_control(f"Segments {i}", ["one", "two", "three", "four"], key=f"segments{i}", default="one")
for i in range(count("INPUTS")):
    st.text_input(f"Text {i}", key=f"text{i}")
for i in range(count("POPOVERS")):
    st.popover(f"Popover {i}").write("inside")
for i in range(count("EXPANDERS")):
    st.expander(f"Expander {i}").write("inside")
for i in range(count("LINKS")):
    st.page_link(f"https://example.org/{i}?sentence={len(sentence)}", label=f"Link {i}")
for i in range(count("CHARTS")):
    st.altair_chart(chart.properties(title=f"Chart {i + 2}"), width="stretch")
if count("CONCAT"):
    st.altair_chart(alt.hconcat(*(chart.properties(title=f"Chart {i + 2}") for i in range(count("CONCAT")))),
                    width="content")
