"""Page 2's shift: one number added to the query's whole row of scores, and the weights staying where they were;
then why the sign still matters."""
import numpy as np
import pandas as pd
import streamlit as st

from engine.attention import Attention, shifted_weights
from factor.settings import SHIFT_RANGE
from kit import tables
from kit.text import plain, t
from kit.views import score_name


def shift_view(att: Attention, i: int, q: str, keys: list[str], *, scaled: bool):
    """Add one number to query row i's scores (q·k/√d_k where `scaled`): its weights stay; then why the sign matters."""
    st.subheader(t("signs_shift_title"))
    left, right = st.columns([2, 3], gap="large")
    c = left.slider(t("signs_shift_add", q=q), *SHIFT_RANGE, step=0.5, key="shift", help=t("signs_shift_help"))
    before, after = shifted_weights(att.scores[i], att.mask[i], c)
    seen = np.flatnonzero(att.mask[i])
    score = score_name(scaled)
    numbers = {score: att.scores[i, seen], t("signs_shift_shifted", score=score, c=c): att.scores[i, seen] + c,
               t("signs_shift_before"): before[seen], t("signs_shift_after"): after[seen]}
    table = pd.DataFrame({t("key_word"): [keys[j] for j in seen], **numbers})
    # a small static table: lighter in the browser than a data grid, and it is sent again on every run
    right.table(tables.styled(table, dict.fromkeys(numbers, ".4f")).hide())
    moved = float(np.abs(after - before).max(initial=0.0))
    said = t("signs_shift_result", c=c, q=plain(q), moved=moved) if c else t("signs_shift_none", q=plain(q))
    left.markdown(said)
    st.info(t("signs_shift_sign"), icon=":material/exposure:")
