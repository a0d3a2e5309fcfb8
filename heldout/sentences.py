"""The held-out treebank sentences the chosen vectors know, the weights' scores on them, and the one shown."""
import hashlib
import weakref
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from gensim.models import KeyedVectors

from engine import corpus, treebank
from engine.attention import Attention
from engine.pipeline import Encoded, encode
from engine.spelling import suggest
from engine.tokens import TooManyTokens, tokenize
from kit import render, state
from kit.text import error_text, plain, t, then
from kit.views import code
from vectors.rows import missing_item

DEFAULT = "email-enronsent18_01-0013"  # "i met you at the risk conference last week in houston ."
RELATION_NAMES = {"det": "rel_det", "amod": "rel_amod", "nmod:poss": "rel_nmod:poss", "compound": "rel_compound",
                  "case": "rel_case", "aux": "rel_aux", "cop": "rel_cop", "mark": "rel_mark", "cc": "rel_cc",
                  "advmod": "rel_advmod", "nsubj": "rel_nsubj", "obj": "rel_obj", "obl": "rel_obl", "nmod": "rel_nmod",
                  "conj": "rel_conj"}  # what each relation the chart shows means
RELATIONS = ("det", "amod", "nmod:poss", "compound", "case", "aux", "cop", "mark", "cc", "advmod", "nsubj", "obj",
             "obl", "nmod", "conj")  # the relations the held-out chart shows, phrase-internal ones first
HITS = 200  # sentences a search lists at most
NEAR = 3  # words near a word no sentence holds, offered instead
KEPT = 8  # held-out results an upload's session keeps


@dataclass(frozen=True)
class Known:
    """The held-out sentences the vectors know word for word, as one batch, and the baselines that read no vectors."""

    sentences: list[treebank.Sentence]
    index: dict[str, int]  # sent_id -> position in sentences
    batch: treebank.Batch
    offset: tuple[int, float]  # the best single offset and its accuracy
    offsets: dict[str, tuple[int, float]]  # per relation: its best offset and that offset's accuracy
    words: frozenset[str]  # every token of these sentences
    plain: corpus.Batch | None  # the template corpus's held-out sentences it knows: plain ones, like the article's


@dataclass(frozen=True)
class Scored:
    """How the current W_Q and W_K do on every known held-out sentence."""

    accuracy: float  # share of words with a head whose top key is that head
    words: int  # words with a head
    relations: dict[str, tuple[int, float]]  # per relation: words, accuracy
    signs: tuple[float, float]  # share of words scoring their head above 0, of their other pairs below 0
    plain: tuple[int, float, float] | None  # plain sentences: how many, relevant keys above 0, keys labelled 0 below


def find_known(kv: KeyedVectors, position: float) -> Known | None:
    """The held-out sentences kv knows, batched at this position weight; None when it knows none."""
    found = treebank.known(kv, treebank.split(treebank.built_in(), "test"))
    if not found:
        return None
    b = treebank.batch(kv, found, position)
    plain = corpus.known_split(kv, "test")
    return Known(found, {s.sent_id: i for i, s in enumerate(found)}, b, treebank.best_offset(b),
                 treebank.best_offsets(b), frozenset(w for s in found for w in s.tokens),
                 corpus.batch(kv, plain, position) if plain else None)


def score_known(known: Known, w_q: np.ndarray, w_k: np.ndarray, own: bool) -> Scored:
    """Each held-out word's top key under these weights against its head; the scores' signs, also on plain sentences."""
    b, plain = known.batch, known.plain
    scores = treebank.scores(b, w_q, w_k)[2]
    picked = treebank.top_key(b, scores, own)
    has = b.head >= 0
    signs = None if plain is None else (len(plain.query), *corpus.signs(plain, corpus.query_scores(plain, w_q, w_k)[2]))
    return Scored(float((picked == b.head)[has].mean()), int(has.sum()), treebank.by_relation(b, picked),
                  treebank.signs(b, scores), signs)


@st.cache_resource(show_spinner=False, max_entries=8)
def shared_known(_kv: KeyedVectors, source: tuple, position: float) -> Known | None:
    """find_known once per server for a built-in vector source; `source` (name, size, dimensions) names the vectors."""
    return find_known(_kv, position)


@st.cache_resource(show_spinner=False, max_entries=64)
def shared_scored(_kv: KeyedVectors, source: tuple, position: float, own: bool, digest: str, _w_q, _w_k) -> Scored:
    """score_known once per server for a built-in vector source and weights (`digest` stands in for them)."""
    return score_known(shared_known(_kv, source, position), _w_q, _w_k, own)


def held_out(ctx) -> tuple[Known, Scored]:
    """Every held-out sentence the vectors know and how the current weights do on them; stops the page if none."""
    # computed once per vectors, position weight and weights (an upload's in its own session), so a rerun costs nothing
    s, kv, w_q, w_k = ctx.s, ctx.kv, ctx.w["w_q"], ctx.w["w_k"]
    digest = hashlib.blake2b(w_q.tobytes() + w_k.tobytes(), digest_size=16).hexdigest()
    with st.spinner(t("real_scoring")):
        source = ctx.vectors
        if source.name != "upload":
            known = shared_known(kv, source, s.position)
            scored = known and shared_scored(kv, source, s.position, s.own, digest, w_q, w_k)
        else:  # the visitor's own vectors: a weak reference tells them apart without keeping them alive
            ref, found = st.session_state.get("_real_upload", (None, {}))
            if ref is None or ref() is not kv:
                ref, found = weakref.ref(kv), {}
                st.session_state["_real_upload"] = (ref, found)
            if len(found) > KEPT:
                found.clear()
            if ("known", s.position) not in found:
                found[("known", s.position)] = find_known(kv, s.position)
            known = found[("known", s.position)]
            key = ("scored", s.position, s.own, digest)
            if known is not None and key not in found:
                found[key] = score_known(known, w_q, w_k, s.own)
            scored = found.get(key)
    if known is None:
        st.info(t("real_none_known"))
        st.stop()
    return known, scored


def choose(ctx, known: Known, page: str = "real") -> treebank.Sentence:
    """The random button and the word search (Settings.real, real_find); the sentence they give."""
    # `page`'s chart files are named after that sentence
    s = ctx.s
    left, right = st.columns([1, 2], vertical_alignment="bottom")
    right.text_input(t("real_find"), key="real_find", max_chars=100, help=t("real_find_help"),
                     placeholder=t("real_find_placeholder"))
    current = s.real if s.real in known.index else default(known)
    if s.real and s.real not in known.index:
        st.info(t("real_unknown_sentence"))
    hits = search(ctx, known, s.real_find) if s.real_find.strip() else None
    if hits:
        listed = hits[:HITS]
        current = current if current in listed else listed[0]
        if s.real != current:  # the selector shows it, and the link holds it
            state.write_setting(replace(s, real=current), "real")
        st.caption(t("real_hits_first" if len(hits) > HITS else "real_hits", n=len(hits), m=HITS))
        current = st.selectbox(t("real_pick"), listed, key="real", on_change=forget_words,
                               format_func=lambda i: " ".join(known.sentences[known.index[i]].tokens))
    pool = hits or list(known.index)
    left.button(t("real_random_found" if hits else "real_random"), icon=":material/casino:",
                on_click=draw, args=(pool, current), width="stretch")
    shown = known.sentences[known.index[current]]
    files = render.FILES.get(None)
    render.name_files(page, " ".join(shown.tokens), files.menu if files else None)  # files named after it
    return shown


def default(known: Known) -> str:
    """The page's own sentence, or the first one the vectors know."""
    return DEFAULT if DEFAULT in known.index else known.sentences[0].sent_id


def draw(ids: list[str], current: str):
    """Callback: another of `ids` at random (each click a new draw; the link keeps what it drew)."""
    others = [i for i in ids if i != current] or ids
    st.session_state["real"] = others[int(np.random.default_rng().integers(len(others)))]
    forget_words()


def forget_words():
    """Callback: a new sentence starts from its own query and key words, not the last one's."""
    st.session_state["real_query"] = st.session_state["real_key"] = ""


def search(ctx, known: Known, text: str) -> list[str]:
    """The ids of the held-out sentences holding every word of `text`, after a sentence saying how many, or why none."""
    kv = ctx.kv
    try:
        words = list(dict.fromkeys(tokenize(text, kv)))
    except TooManyTokens as e:
        st.info(error_text(e))
        return []
    shown = t("list_sep").join(f"“{plain(w)}”" for w in words)
    if not words:
        st.info(t("real_find_nothing", text=plain(text.strip()[:40])))
        return []
    unknown = [w for w in words if w not in kv.key_to_index]
    if unknown:
        st.warning(t("real_find_unknown",
                     items=", ".join(missing_item(w, suggest(kv, w)) for w in map(plain, unknown[:NEAR]))))
        return []
    hits = [x.sent_id for x in treebank.containing(known.sentences, words)]
    if hits:
        st.success(t("real_found_one" if len(hits) == 1 else "real_found", n=len(hits), words=shown))
        return hits
    near = nearby(kv, known, words[0]) if len(words) == 1 else []
    found_near = t("real_found_near", words=t("list_sep").join(f"“{w}”" for w in near))
    st.info(t("real_found_none", words=shown) + (then() + found_near if near else ""))
    return []


def nearby(kv: KeyedVectors, known: Known, word: str) -> list[str]:
    """The words nearest `word` in the vectors that some held-out sentence holds."""
    return [w for w, _ in kv.most_similar(word, topn=200) if w in known.words][:NEAR]


def rows(ctx, sentence: treebank.Sentence) -> tuple[Encoded, Attention]:
    """The sentence through the layers, as every page does it; its tokens are already the vectors' own."""
    s = ctx.s
    enc = encode(ctx.kv, " ".join(sentence.tokens), position=s.position)
    st.markdown(t("real_sentence", n=len(enc.tokens), text=plain(" ".join(enc.tokens)),
                  id=code(sentence.sent_id)))
    return enc, ctx.attend(enc)
