"""A sentence as rows of the vectors in use, or a sentence for the learner saying why there are none (an empty box, too
many words, words the vectors do not know, with the nearest spellings they do)."""
import streamlit as st
from gensim.models import KeyedVectors

from engine.pipeline import Encoded, encode
from engine.spelling import suggest
from engine.tokens import TooManyTokens
from kit.text import error_text, t


def sentence_rows(kv: KeyedVectors, text: str, position: float) -> Encoded | None:
    """The sentence as rows, its positions added at weight `position`; None after telling the learner why not."""
    if not text.strip():
        st.info(t("empty_sentence"))
        return None
    try:
        enc = encode(kv, text, position=position)
    except TooManyTokens as e:
        st.error(error_text(e))
        return None
    if enc.unread_chinese:
        st.info(t("no_chinese_words"))
    if enc.missing:
        st.warning(t("missing_words", items=", ".join(missing_item(w, suggest(kv, w)) for w in enc.missing)))
    if not enc.tokens:
        st.error(t("no_known_words", text=text[:80]))
        return None
    return enc


def missing_item(word: str, near: list[str]) -> str:
    """'mlik' (did you mean milk?), for the known spellings `near` it."""
    if near:
        return t("missing_item", word=word[:40], suggestions=", ".join(f"“{w}”" for w in near))
    return t("missing_item_plain", word=word[:40])
