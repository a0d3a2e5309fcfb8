"""The four learned heads (engine/specialists.py) pages 6 to 8 share, and their scores on the held-out sentences."""
from dataclasses import dataclass

import streamlit as st

from engine import specialists
from heldout import sentences
from kit.text import t
from vectors import chosen

SHORT = {"modifiers": "kinds_head_modifiers", "subject": "kinds_head_subject", "object": "kinds_head_object",
         "conjunct": "kinds_head_conjunct"}  # each head's name in a legend, a sentence or a column (text keys)
GLOVE = ("glove", "glove50k")  # the vectors the heads were fitted on (the first 50,000 words have the same rows)
POSITION = specialists.Recipe().position  # the weight of the positions in the rows the heads were fitted on


def applies(source: chosen.Source) -> bool:
    """Whether the learned heads can read these vectors: only the GloVe rows they were fitted on."""
    return source.name in GLOVE and source.dims == specialists.load().w_q.shape[1]


@dataclass(frozen=True)
class Measured:
    """The learned heads on the held-out sentences the vectors know."""

    found: specialists.Found
    names: tuple[str, ...]  # [H]  the heads' short names ("modifiers", ...)


@st.cache_resource(show_spinner=False, max_entries=4)
def shared_measured(_kv, source: tuple) -> Measured | None:
    """The learned heads on the held-out sentences these vectors know, once per server (`source` names the vectors)."""
    known = sentences.shared_known(_kv, source, POSITION)
    if known is None:
        return None
    heads = specialists.load()
    return Measured(specialists.found(known.batch, heads), heads.names)


def measured(ctx) -> Measured | None:
    """The learned heads on every held-out sentence; None where the vectors are not the GloVe they read."""
    # the heads read only the GloVe rows they were fitted on, at their own position weight, whatever the sidebar's
    # weights
    if not applies(ctx.vectors):
        return None
    with st.spinner(t("real_learned_scoring")):
        return shared_measured(ctx.kv, ctx.vectors)
