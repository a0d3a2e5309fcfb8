from kinds import tabs
from lesson import downloads, frame

ctx = frame.current()
src, tgt = tabs.sentences(ctx)


def kinds(now: frame.Context):
    """The switches, the heads and the three tabs, the open one drawn; the view in code."""
    tabs.tabs(now, src, tgt, tabs.heads_choice(now))
    downloads.menu(now)


frame.part(kinds, "scaled", "softmax", "heads", "tab", "causal", "enc_heads", *tabs.FIELD.values())
