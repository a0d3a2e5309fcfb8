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

tabs.tabs(ctx, src, tgt, tabs.heads_choice(ctx))
downloads.menu(ctx, "kinds")
