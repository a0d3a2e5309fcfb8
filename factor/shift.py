"""Page 2's shift: one number added to the query's whole row of scores, and the weights staying where they were;
then why the sign still matters."""
import numpy as np
import pyarrow as pa
import streamlit as st

from engine.attention import Attention, shifted_weights
from factor.settings import SHIFT_RANGE
from kit.text import plain, t


def view(att: Attention, i: int, q: str, keys: list[str]):
    """Add one number to query row i's scores and watch its weights stay where they were; then why the sign still
    matters."""
    st.subheader(t("signs_shift_title"))
    left, right = st.columns([2, 3], gap="large")
    c = left.slider(t("signs_shift_add", q=q), *SHIFT_RANGE, step=0.5, key="shift", help=t("signs_shift_help"))
    before, after = shifted_weights(att.scores[i], att.mask[i], c)
    seen = np.flatnonzero(att.mask[i])
    table = pa.table({"key": [keys[j] for j in seen], "score": att.scores[i, seen], "shifted": att.scores[i, seen] + c,
                      "before": before[seen], "after": after[seen]})
    number = st.column_config.NumberColumn
    right.dataframe(table, hide_index=True, width="stretch", column_config={
        "key": t("key_word"), "score": number(t("signs_shift_score"), format="%.4f"),
        "shifted": number(t("signs_shift_shifted", c=c), format="%.4f"),
        "before": number(t("signs_shift_before"), format="%.4f"),
        "after": number(t("signs_shift_after"), format="%.4f")})
    moved = float(np.abs(after - before).max(initial=0.0))
    said = t("signs_shift_result", c=c, q=plain(q), moved=moved) if c else t("signs_shift_none", q=plain(q))
    left.markdown(said)
    st.info(t("signs_shift_sign"), icon=":material/exposure:")
