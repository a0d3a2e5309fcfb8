import kinds.views
from lesson import downloads, frame

ctx = frame.current()
src, tgt = kinds.views.sentences(ctx)


def three_kinds(now: frame.Context):
    """The switches, the heads and the three tabs, the open one drawn; the view in code."""
    kinds.views.tabs(now, src, tgt, kinds.views.heads_choice(now))
    downloads.menu(now)


frame.part(three_kinds, "scaled", "softmax", "heads", "tab", "causal", "enc_heads", *kinds.views.FIELD.values())
