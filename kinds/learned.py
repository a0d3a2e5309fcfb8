"""Page 6's learned heads: four heads fitted together on the treebank's sentences (engine/specialists.py), each taught
one family of relations, on the learner's source sentence: each named by what it learned, its weights beside its
lines, and in words from their numbers each head's strongest pair on this sentence, and which head sends milk to
drank, black to cat and cat to drank on the article's."""
from dataclasses import fields

import numpy as np
import streamlit as st

from engine import specialists
from engine.attention import Attention, attend
from engine.pipeline import encode
from heldout.heads import POSITION, SHORT, applies
from kinds import lines
from kit import render
from kit.text import labels, plain, t

CHOICES = {"learned": "kinds_heads_learned", "slices": "kinds_heads_slices"}  # the encoder's heads (text keys)
WHAT = {"modifiers": "kinds_head_what_modifiers", "subject": "kinds_head_what_subject",
        "object": "kinds_head_what_object", "conjunct": "kinds_head_what_conjunct"}  # what each head learned
ARTICLE = "The black cat drank the milk"
ARTICLE_PAIRS = (("milk", "drank"), ("black", "cat"), ("cat", "drank"))  # query word, the word it belongs to


def names() -> list[str]:
    """The heads' names in the run's language, in the heads' order."""
    return [t(SHORT[name]) for name in specialists.load().names]


def heads_attention(x: np.ndarray, *, scale: bool, softmax: bool, own: bool) -> Attention:  # x [n, d] -> [H, ...]
    """Each learned head's attention among the rows x, as the page computes one head's, stacked head by head."""
    # the heads learned no W_V: their weights are what the page shows, so Z is left empty
    heads = specialists.load()
    none = np.zeros((x.shape[1], 1))
    each = [attend(x, x, w_q, w_k, none, scale=scale, softmax=softmax, own=own)
            for w_q, w_k in zip(heads.w_q, heads.w_k, strict=True)]
    return Attention(*(np.stack([getattr(a, f.name) for a in each]) for f in fields(Attention)[:-1]), each[0].mask)


def sends(s: np.ndarray) -> list[list[tuple[int, int, float]]]:  # [H, n, n] -> per head: (query, key, score)
    """Per head, each word and the other word it scores highest, where that score is above 0."""
    # above 0: the side of 0 a head was taught to put the pairs of its family on
    picks = specialists.sentence_picks(s)
    return [[(i, int(j), float(one[i, j])) for i, j in enumerate(row) if j != i and one[i, j] > 0]
            for one, row in zip(s, picks, strict=True)]


def strongest(s: np.ndarray) -> list[tuple[int, int, float]]:  # [H, n, n] -> per head: (query, key, score)
    """Per head, the pair of two different words it scores highest (n ≥ 2)."""
    hidden = np.where(np.eye(s.shape[-1], dtype=bool), -np.inf, s)
    return [(*map(int, np.unravel_index(int(one.argmax()), one.shape)), float(one.max())) for one in hidden]


def sentence_said(heads: tuple[str, ...], words: list[str], s: np.ndarray) -> str:  # s [H, n, n]
    """Each head's strongest pair on a sentence (strongest), in one sentence; one below 0 said to be so."""
    items = []
    for name, (i, j, v) in zip(heads, strongest(s), strict=True):
        key = "kinds_learned_sends" if v > 0 else "kinds_learned_sends_below"
        items.append(t(key, head=t(SHORT[name]), q=plain(words[i]), k=plain(words[j]), score=v))
    return t("kinds_learned_said", items=t("item_sep").join(items))


def article_said(kv) -> str:
    """For each of the article's pairs, the head that sends its query word to its key word most strongly, or none."""
    # from the heads' own numbers on the article's sentence (sends)
    enc = encode(kv, ARTICLE, position=POSITION)
    heads = specialists.load()
    found = sends(specialists.head_scores(heads, enc.x))
    items = []
    for q, k in ARTICLE_PAIRS:
        pair = (enc.labels.index(q), enc.labels.index(k)) if {q, k} <= set(enc.labels) else None
        by = sorted(((v, h) for h, pairs in enumerate(found) for i, j, v in pairs if (i, j) == pair), reverse=True)
        items.append(t("kinds_learned_article_item", head=t(SHORT[heads.names[by[0][1]]]), q=q, k=k, score=by[0][0])
                     if by else t("kinds_learned_article_none", q=q, k=k))
    return t("kinds_learned_article", sentence=ARTICLE, items=t("item_sep").join(items))


def learned_view(ctx) -> None:
    """The four learned heads on the source sentence: what each learned, said in words, and their weights and lines."""
    # in words: each head's strongest pair here and which head sends the article's pairs
    s, heads = ctx.s, specialists.load()
    what = t("item_sep").join(t("kinds_learned_what", head=t(SHORT[name]), what=t(WHAT[name])) for name in heads.names)
    st.markdown(t("kinds_learned_intro", n=len(heads.names), d_k=heads.w_q.shape[2], items=what))
    enc = encode(ctx.kv, s.source_sentence, position=POSITION)  # the page's words, at the heads' position weight
    if s.position != POSITION:
        st.caption(t("kinds_learned_position", w=POSITION, p=s.position))
    if len(enc.tokens) < 2:
        st.info(t("kinds_learned_one_word"))
    else:
        st.markdown(sentence_said(heads.names, enc.labels, specialists.head_scores(heads, enc.x)))
    st.markdown(article_said(ctx.kv))
    if len(enc.tokens) >= 2:
        att = heads_attention(enc.x, scale=s.scaled, softmax=s.softmax, own=s.own)
        with st.container(key=render.WIDE):  # four heatmaps beside the lines: wider than a phone, so it scrolls
            lines.line_view(att, enc.labels, enc.labels, softmax=s.softmax, key="learned-", heads=names(),
                            title=t("kinds_learned_chart"))


def learned_block(ctx) -> bool:
    """The choice of the encoder's heads; True when the learned ones were drawn here, False for the caller's slices."""
    # the slices are also what is left where the vectors are not the GloVe the learned heads read
    st.segmented_control(t("kinds_heads_which"), list(CHOICES), key="enc_heads", format_func=labels(CHOICES))
    if ctx.s.enc_heads != "learned":
        return False
    if not applies(ctx.vectors):
        st.info(t("kinds_learned_other_vectors"))
        return False
    learned_view(ctx)
    return True
