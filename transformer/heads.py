"""Page 8's heads by name: every head's label in a grid of layers × heads, the head shown large, and the click on a
chart that picks one."""
import numpy as np
import streamlit as st

from engine import minilm_treebank
from kit import charts
from transformer.settings import HEADS, NAMES


def head_names(shape: tuple[int, int]) -> np.ndarray:  # -> [layers, heads] of "L1-H1" …
    return np.asarray(NAMES, dtype=object).reshape(shape)


def picked_head(s) -> tuple[int, int]:
    """The head shown large: the setting's, else the best single head on the held-out sentences."""
    layer, head = divmod(NAMES.index(s.model_head or minilm_treebank.shipped().best("all")[0]), HEADS)
    return layer, head


def pick_head(chart_key: str, rows: list[str] | None = None):
    """Callback choosing the head clicked, in the grid or a map of heads, into Settings.model_head."""
    # the grid's points carry the head's name; a map of heads (`rows` of layers) its row and column
    def pick():
        points = st.session_state[chart_key].selection.get(charts.PICK) or []
        if points and rows is None:
            st.session_state["model_head"] = points[0]["head"]
        elif points:
            st.session_state["model_head"] = f"L{rows.index(points[0]['row']) + 1}-H{points[0]['col']}"
    return pick
