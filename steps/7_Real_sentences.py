from dataclasses import replace

import streamlit as st

from ui import page, real, reproduce
from ui.text import t

ctx = page.current()
s = ctx.s
known, scored = real.held_out(ctx)
sentence = real.choose(ctx, known)
enc, att = real.rows(ctx, sentence)

c1, c2, c3 = st.columns(3)
c1.toggle(t("scaled"), key="scaled")
c2.toggle(t("softmax"), key="softmax")
c3.toggle(t("predict"), key="predict", help=t("predict_help"))
if not s.predict or real.guessed(ctx, sentence, enc, att):
    real.heads_view(ctx, sentence, enc, att, scored)
    real.same_key(ctx, sentence, enc, att)
real.relations_view(ctx, known, scored)
reproduce.downloads(replace(ctx, s=replace(s, sentence=" ".join(sentence.tokens)), enc=enc, att=att), "real")
