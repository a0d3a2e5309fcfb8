from dataclasses import replace

import streamlit as st

import transformer.views
from kit.text import t
from lesson import downloads, frame
from transformer import model, runs

ctx = frame.current()
m = model.model()
chosen = transformer.views.sentence(ctx)
with runs.reading(m, chosen.enc.tokens) as seen:
    transformer.views.pieces_view(seen, chosen)
    frame.part(lambda now: transformer.views.tabs(now, seen, chosen, transformer.views.grid_view(now, seen, chosen)),
               "model_head", "model_word", "model_view")
shown = replace(ctx, s=replace(ctx.s, sentence=" ".join(chosen.enc.tokens)), enc=chosen.enc)
downloads.menu(shown)
st.caption(t("model_reproduce_note"))
