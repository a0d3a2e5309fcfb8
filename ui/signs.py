"""What the sign of a score says, in words computed from the numbers shown: the positive cells of each row, one pair's
sign, a row whose every score is below 0, and softmax's blindness to a number added to a whole row."""
import numpy as np
import pyarrow as pa
import streamlit as st

from engine.attention import Attention, positive_keys, shifted_weights
from ui.text import plain, t, then

SHIFT_RANGE = (-20.0, 20.0)  # what page 2's slider adds to the query's row of scores


def quoted(word: str) -> str:
    """A word of the sentence in quotes, shown literally inside markdown."""
    return f"“{plain(word)}”"


def positive_cells(att: Attention, q_labels: list[str], k_labels: list[str]) -> str:
    """Each row's keys scored above 0 (own cell left out where hidden), and the rows with none."""
    found = positive_keys(att.factor, att.mask)
    rows = [f"{quoted(q_labels[i])} → {t('list_sep').join(quoted(k_labels[j]) for j in keys)}"
            for i, keys in enumerate(found) if keys]
    said = t("signs_positive_cells", rows=t("item_sep").join(rows)) if rows else ""
    none = [quoted(q_labels[i]) for i, keys in enumerate(found) if not keys]
    if none:
        said += (then() if said else "") + t("signs_no_positive", words=t("list_sep").join(none))
    return said


def pair_sign(dot: float, q: str, k: str, *, top: str, best: float) -> str:
    """Whether the same-sign dimensions won, what the sign then says of the pair, and whether the word the query
    attends to most (`top`, scored `best`) sits above 0: if not, the sign says nothing with these weights."""
    said = t("signs_pair_above" if dot > 0 else "signs_pair_below" if dot < 0 else "signs_pair_zero",
             q=plain(q), k=plain(k))
    if best <= 0:
        said += then() + t("signs_row_below", q=plain(q), top=plain(top))
    return said


def row_below(scores_row: np.ndarray, q: str, top: str) -> str | None:
    """A note for a query whose every score is at most 0 (the top bar then belongs to the least negative word)."""
    return t("signs_row_below", q=plain(q), top=plain(top)) if scores_row.max(initial=-np.inf) <= 0 else None


def shift_view(att: Attention, i: int, q: str, keys: list[str]):
    """Add one number to the query's whole row of scores and watch the weights stay where they were; then why the sign
    still matters."""
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
