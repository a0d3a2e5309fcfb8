"""Page 8's views: the sentence the real model reads (the learner's, or a held-out treebank sentence), its word pieces,
every head as one grid, and the tabs under it, the open one built: the picked head large beside ours, for each word
which heads find the word it belongs to, and compare.py's shares parked on [CLS] and [SEP], the model against ours."""
from dataclasses import dataclass

import numpy as np
import streamlit as st

from engine import minilm_files, minilm_treebank, treebank
from engine.attention import Attention, softmax_rows, top_keys
from engine.pipeline import Encoded
from heldout import sentences
from kit import render, state, views
from kit.charts import Titles
from kit.text import labels, plain, t, then
from kit.views import Marks, code
from transformer import compare, tables
from transformer.charts import head_grid
from transformer.heads import head_names, pick_head, picked_head
from transformer.model import SPECIAL, Seen
from transformer.settings import NAMES, VIEWS
from vectors.rows import sentence_rows

SOURCE_NAMES = {"yours": "model_source_yours", "treebank": "model_source_treebank"}
SAID = {"root": "real_root", "none": "real_no_head",  # page 7's words for a word that belongs to none
        "pick": "model_find_pick", "wrong": "model_find_wrong", "parked": "model_find_parked",
        "close": "model_find_close", "clear": "model_find_clear"}  # a pick, marked by how it stands (tables.mark)
TAB_KEY = "model_view_tab"  # the tabs' widget: it holds the open tab's label
LABELS = {"large": "model_view_large", "finders": "model_view_finders", "parked": "model_view_parked",
          "compare": "model_view_compare"}  # each tab's name (text keys), in the order of VIEWS


@dataclass(frozen=True)
class Chosen:
    """The sentence both models read: its rows, our head's attention, and who belongs to whom where that is known."""

    enc: Encoded
    att: Attention
    tree: treebank.Sentence | None  # who belongs to whom: a treebank sentence or the article's; None: unknown

    @property
    def gold(self) -> np.ndarray | None:  # [m] each word's head, -1 for none
        return None if self.tree is None else treebank.gold(self.tree)

    @property
    def relations(self) -> list[str]:
        return [treebank.short(r) for r in self.tree.relations] if self.tree else [""] * len(self.enc.tokens)


def sentence(ctx) -> Chosen:
    """The sentence chosen, through our layers; the page stops, saying why, where there is none to show."""
    # the held-out sentences are scored only when one is asked for
    s = ctx.s
    st.segmented_control(t("model_source"), list(SOURCE_NAMES), key="model_sentence",
                         format_func=labels(SOURCE_NAMES))
    if s.model_sentence == "treebank":
        known, _ = sentences.held_out(ctx)
        tree = sentences.choose(ctx, known, page="transformer")
        return Chosen(*sentences.rows(ctx, tree), tree)
    enc = sentence_rows(ctx.kv, s.sentence, s.position)
    if enc is not None and len(enc.tokens) < 2:
        st.info(t("need_two_words"))
        enc = None
    if enc is None:
        st.stop()
    st.markdown(t("model_yours_sentence", n=len(enc.tokens), text=plain(" ".join(enc.tokens))))
    att = ctx.attend(enc)
    return Chosen(enc, att, treebank.ARTICLE if tuple(enc.tokens) == treebank.ARTICLE.tokens else None)


def pieces_view(seen: Seen, chosen: Chosen):
    """The sentence as the model's word pieces, each word's together, and the words it split."""
    p, words = seen.pieces, chosen.enc.labels
    groups = [code(SPECIAL[0])] + [" ".join(code(p.pieces[i]) for i in np.flatnonzero(p.word == w))
                                   for w in range(len(words))] + [code(SPECIAL[1])]
    st.markdown(t("model_pieces", words=len(words), pieces=len(p.pieces), shown=" · ".join(groups)))
    split = tables.split_words(p.word, p.pieces, words)
    said = t("model_pieces_split", items=t("list_sep").join(
        f"“{plain(w)}” ({' + '.join(plain(x) for x in parts)})" for w, parts in split)) if split else \
        t("model_pieces_whole")
    unknown = [words[w] for w, piece in zip(p.word, p.pieces, strict=True) if piece == "[UNK]"]
    if unknown:
        said += then() + t("model_pieces_unknown", words=t("list_sep").join(f"“{plain(w)}”" for w in unknown))
    st.caption(said)
    views.download_table(tables.pieces_table(p.pieces, p.word, words, SPECIAL), t("file_model_pieces"),
                         key="model_pieces")


def grid_view(ctx, seen: Seen, chosen: Chosen) -> tuple[int, int]:
    """Every head of every layer, small, clickable, and the selector of the head shown large; returns it."""
    st.subheader(t("model_grid_title", name=minilm_files.NAME))
    head = picked_head(ctx.s)
    st.session_state["model_head"] = NAMES[head[0] * seen.shape[1] + head[1]]
    st.selectbox(t("model_head_pick"), NAMES, key="model_head", help=t("model_head_pick_help"))
    shipped = minilm_treebank.shipped()
    boxes, cells = tables.grid_table(seen.words, chosen.enc.labels, SPECIAL, head, seen.parked.mean(axis=-1),
                                     shipped.accuracy("all"), head_names(seen.shape))
    titles = Titles(None, t("model_head_axis"), t("model_layer_axis"), t("weight"), head=t("model_col_head"),
                    query=t("query_word"), key=t("key_word"), parked=t("model_col_parked"), held=t("model_col_held"))
    csv = render.Csv("dl_model_heads", lambda: tables.heads_long(seen.words, chosen.enc.labels, SPECIAL, head_names(
        seen.shape)).to_pandas().to_csv(index=False))  # written only when asked for: 270,000 rows at 60 words
    render.chart(head_grid, boxes, cells, titles=titles, key="model_grid_pick", on_select=pick_head("model_grid_pick"),
                 save=render.Save(name="heads", label=t("model_grid_title", name=minilm_files.NAME), csv=csv))
    st.caption(t("model_grid_caption", shown=tables.SHOWN))
    return head


def tabs(ctx, seen: Seen, chosen: Chosen, head: tuple[int, int]):
    """The tabs under the grid: the picked head large beside ours, the finders, the shares parked, the comparison."""
    # the open tab is a setting, so a shared link opens it, and the only one built: each holds charts or a table that
    # an edit would redraw
    tab, name = state.open_tab(ctx.s, "model_view", TAB_KEY, {view: t(LABELS[view]) for view in VIEWS})
    if tab is None:
        return
    with tab:
        if name == "large":
            large_view(ctx, seen, chosen, head)
        elif name == "finders":
            finders_view(seen, chosen, head)
        elif name == "parked":
            compare.parked_view(seen, chosen.enc.labels, head, followed(ctx.s, chosen))
        else:
            compare.compare_view(ctx, head)


def default_word(chosen: Chosen) -> str:
    """The word the page follows first: an object (milk in the article's), else the first with a head, else the last."""
    words, gold = chosen.enc.labels, chosen.gold
    if gold is None:
        return words[-1]
    objects = [i for i, r in enumerate(chosen.relations) if r == "obj" and gold[i] >= 0]
    return words[(objects or np.flatnonzero(gold >= 0).tolist() or [len(words) - 1])[0]]


def followed(s, chosen: Chosen) -> int:
    """The place of the word the page follows: the setting's, where the sentence has it, else default_word's."""
    words = chosen.enc.labels
    return words.index(s.model_word if s.model_word in words else default_word(chosen))


def large_view(ctx, seen: Seen, chosen: Chosen, head: tuple[int, int]):
    """The picked head large with [CLS] and [SEP] beside ours on one sentence, the followed word's row outlined."""
    # a click on a row follows its word
    s, words, att = ctx.s, chosen.enc.labels, chosen.att
    name = NAMES[head[0] * seen.shape[1] + head[1]]
    st.subheader(t("model_large_title", head=name))
    word = views.pick_word("model_word", t("model_word_pick"), words, default_word(chosen))
    left, right = views.side_by_side(len(words))
    views.matrix(seen.words[head], words, [*words, *SPECIAL],
                 Titles(t("model_large_chart", head=name), t("key_word"), t("query_word")), name="model_head",
                 marks=Marks(selected=word, pick_into="model_word", weights=True), where=left)
    ours = t("model_ours_soft" if s.softmax else "model_ours_raw")
    views.matrix(att.weights, words, words, Titles(ours, t("key_word"), t("query_word")), name="model_ours",
                 marks=Marks(None if att.mask.all() else att.mask, word, pick_into="model_word", weights=s.softmax),
                 where=right)
    hidden = then() + t("own_hidden") if views.own_hidden(att.mask) else ""
    st.caption(t("model_large_caption") + hidden)


def finders_view(seen: Seen, chosen: Chosen, head: tuple[int, int]):
    """For each word with a known head, which of the model's heads pick it, and whether the picked head and ours do."""
    # a container of its own, so that the charts below keep their places whether the heads are known or not
    with st.container():
        finders(seen, chosen, head)


def finders(seen: Seen, chosen: Chosen, head: tuple[int, int]):
    """finders_view's contents."""
    st.subheader(t("model_finders_title"))
    gold, words = chosen.gold, chosen.enc.labels
    if gold is None:
        st.markdown(t("model_finders_unknown"))
        return
    m = len(words)
    names = head_names(seen.shape)
    real = tables.looks(seen.words, seen.picks, ~np.eye(m, dtype=bool))
    ours = tables.looks(np.pad(softmax_rows(chosen.att.scores, chosen.att.mask), ((0, 0), (0, 2))),
                        top_keys(chosen.att), chosen.att.mask)  # judged on its weights, with softmax on or off
    st.markdown(finders_said(gold, real, ours, head, names))
    table = tables.finders_table(words, chosen.relations, gold, real, head, ours, names, SPECIAL, say)
    st.dataframe(table, hide_index=True, width="stretch", height="content", column_config={
        "word": t("word"), "relation": t("real_relation"), "head": t("real_col_head"),
        "count": st.column_config.NumberColumn(t("model_col_count", n=len(NAMES)), format="%d"),
        "close": st.column_config.NumberColumn(t("model_col_close"), format="%d"),
        "heads": st.column_config.TextColumn(t("model_col_heads"), width="medium"),
        "picked": t("model_col_picked", head=names[head]), "ours": t("model_col_ours")})
    st.caption(t("model_finders_caption", clear=tables.CLEAR, parked=tables.PARKED))
    views.download_table(table, t("file_model_finders"), key="model_finders")


def finders_said(gold: np.ndarray, real: tables.Looks, ours: tables.Looks, head: tuple[int, int],
                 names: np.ndarray) -> str:  # [m], real [L, H, m], ours [m], …, [L, H]
    """The finders in a sentence: how many words some head, the head shown large, the best one and ours find clearly."""
    # it also says how many more each finds barely
    has = gold >= 0
    right, ours_right = (real.found == gold) & has, (ours.found == gold) & has  # [L, H, m], [m]
    clear = right & real.clear
    per_head = clear.sum(axis=-1)
    best = np.unravel_index(int(per_head.argmax()), per_head.shape)
    return t("model_finders_said", total=int(has.sum()), some=int(clear.any(axis=(0, 1)).sum()), head=names[head],
             picked=int(per_head[head]), close=int((right & ~real.clear)[head].sum()), best=names[best],
             most=int(per_head[best]), ours=int((ours_right & ours.clear).sum()),
             ours_close=int((ours_right & ~ours.clear).sum()))


def say(kind: str, **values) -> str:
    """The finders table's words in the run's language: 'root' or 'none' (no head), else a marked pick (tables.mark)."""
    return t(SAID[kind], **values)
