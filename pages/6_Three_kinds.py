import streamlit as st

from kinds import tabs
from kit import views
from kit.state import MAX_TEXT
from kit.text import t
from lesson import downloads, frame
from vectors.rows import sentence_rows

ctx = frame.current()
s = ctx.s

left, right = st.columns(2)
with left:
    shown = s.source_sentence if len(s.source_sentence) <= 200 else s.source_sentence[:200] + "…"
    st.markdown(t("kinds_source", text=views.code(shown)))
    src = sentence_rows(ctx.kv, s.source_sentence, s.position)
with right:
    st.text_input(t("target_sentence"), key="target_sentence", max_chars=MAX_TEXT)
    tgt = sentence_rows(ctx.kv, s.target_sentence, s.position) if s.target_sentence.strip() else None
    if tgt is None and not s.target_sentence.strip():
        st.info(t("empty_target"))



def kinds(now: frame.Context):
    """The switches, the heads and the three tabs, the open one drawn; the view in code."""
    tabs.tabs(now, src, tgt, tabs.heads_choice(now))
    downloads.menu(now)


frame.part(kinds, "scaled", "softmax", "heads", "tab", "causal", "enc_heads", *tabs.FIELD.values())
