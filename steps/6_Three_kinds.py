import streamlit as st

from ui import kinds, page, reproduce
from ui.state import MAX_TEXT
from ui.text import t

ctx = page.current()
s = ctx.s

left, right = st.columns(2)
with left:
    shown = s.source_sentence if len(s.source_sentence) <= 200 else s.source_sentence[:200] + "…"
    st.markdown(t("kinds_source", text=page.code(shown)))
    src = page.sentence_rows(ctx.kv, s.source_sentence, s)
with right:
    st.text_input(t("target_sentence"), key="target_sentence", max_chars=MAX_TEXT)
    tgt = page.sentence_rows(ctx.kv, s.target_sentence, s) if s.target_sentence.strip() else None
    if tgt is None and not s.target_sentence.strip():
        st.info(t("empty_target"))

kinds.tabs(ctx, src, tgt, kinds.heads_choice(ctx))
reproduce.downloads(ctx, "kinds")
