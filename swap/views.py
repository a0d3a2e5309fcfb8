"""Swap or remove one word of the sentence, on pages 2 and 4: the choice, kept in Settings.swap (and so in the URL),
and the sentence after it through the same layers."""
from dataclasses import replace

import streamlit as st

from engine.attention import Attention, attend
from engine.pipeline import encode
from engine.swap import biggest, change, swapped
from kit import charts, state, tables
from kit.text import t
from kit.views import matrix


def section(ctx):
    """The swap's pickers in an expander, then what the swap changed (swap_changes)."""
    s, enc = ctx.s, ctx.enc
    # built only while open (a swap in the link opens it): hidden, its pickers would cost every run and redraw
    with st.expander(t("swap_title"), expanded=bool(s.swap), key="swap_open", on_change="rerun") as shown:
        if not shown.open:
            return
        found = choice(s, enc.tokens, enc.labels)
        if found is None:
            return
        i, word = found
        after = encode(ctx.kv, " ".join(swapped(enc.tokens, i, word)), position=s.position)
        if not after.tokens or (word and len(after.tokens) != len(enc.tokens)):
            st.warning(t("swap_unknown", word=word))
            return
        att = attend(after.x, after.x, ctx.w["w_q"], ctx.w["w_k"], ctx.w["w_v"], scale=s.scaled, softmax=s.softmax,
                     own=s.own)
        swap_changes(ctx.att, att, after.labels, None if word else i, enc.labels[i], word)


def choice(s, tokens: list[str], labels: list[str]) -> tuple[int, str] | None:
    """The word to change and what it becomes ('' removes it), from the pickers, kept in Settings.swap."""
    swap = s.swap
    position, _, word = swap.partition(":")
    i = int(position) if position.isdigit() and int(position) < len(tokens) else len(tokens) - 1
    left, middle, right = st.columns([2, 3, 1], vertical_alignment="bottom")
    chosen = left.selectbox(t("swap_which"), labels, index=i, key="_swap_which")
    new = middle.text_input(t("swap_new"), value=word, max_chars=40, key=f"_swap_new_{chosen}",
                            help=t("swap_new_help")).strip().lower()
    remove = right.toggle(t("swap_remove"), value=bool(swap) and not word, key="_swap_remove")
    i = labels.index(chosen)
    wanted = f"{i}:" if remove else f"{i}:{new}" if new else ""
    if wanted != swap:
        state.write_setting(replace(s, swap=wanted), "swap")
        st.rerun()
    return (i, "" if remove else new) if swap else None


def swap_changes(before: Attention, after: Attention, labels: list[str], removed: int | None, old: str, new: str):
    """What swapping word `old` for `new` (or removing word `removed`) changed: weights and Z after minus before."""
    # over the after-sentence's `labels`, with the biggest changes named
    delta = change(before.weights, after.weights, removed, cols_too=True)
    items = [t("swap_item", q=labels[r], k=labels[c], d=d) for r, c, d in biggest(delta)]
    said = t("swap_said", old=old, new=new) if new else t("swap_removed_said", old=old)
    st.markdown(said + t("swap_moved", items=t("item_sep").join(items)))
    left, right = st.columns(2)
    matrix(delta, labels, labels, charts.Titles(t("swap_weights_m"), t("key_word"), t("query_word")),
           name="swap-weights", where=left)
    matrix(change(before.z, after.z, removed, cols_too=False), labels, tables.dims(after.z.shape[1]),
           charts.Titles(t("swap_z_m"), t("dim")), name="swap-Z", where=right)
