"""Sentences into tokens, and tokens into rows. Tokens follow GloVe 6B's Penn Treebank style (clitics and each
punctuation mark stand alone, everything lower-cased); runs of Chinese characters are cut into words by jieba, loaded
on first use, only when the vectors hold Chinese words. A sentence has at most MAX_TOKENS tokens (TooManyTokens
otherwise); a token missing from the vocabulary becomes a zero row and is reported."""
import functools
import logging
import re
import unicodedata
from collections.abc import Callable

import numpy as np
from gensim.models import KeyedVectors

from engine.errors import VectorsError
from engine.per_vectors import per_vectors
from engine.sources import cache_dir

MAX_TOKENS = 64
# GloVe 6B follows the Penn Treebank tokenizer: clitics ("'s", "n't") and each punctuation mark stand alone.
TOKEN = re.compile(r"n't|'(?:s|re|ve|ll|d|m)\b|\w+?(?=n't)|\w+(?:[-.]\w+)*|[^\w\s]")
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"  # Chinese characters (CJK ideographs)
HAN_RUN = re.compile(f"([{HAN}]+)")


class TooManyTokens(VectorsError):
    """A sentence longer than MAX_TOKENS; `count` says how long it was."""

    def __init__(self, count: int):
        super().__init__("too_many_tokens", count=count, max=MAX_TOKENS)
        self.count = count


def tokenize(text: str, kv: KeyedVectors | None = None) -> list[str]:
    """Lower-cased GloVe tokens: words, numbers, clitics and single punctuation marks."""
    # When the vectors `kv` hold Chinese words, runs of Chinese characters are cut into words by jieba; otherwise
    # each run stays one token.
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") or c.isspace())
    chinese = kv is not None and has_cjk(text) and knows_cjk(kv)
    tokens = segment(text) if chinese else TOKEN.findall(text)
    if len(tokens) > MAX_TOKENS:
        raise TooManyTokens(len(tokens))
    return tokens


def segment(text: str) -> list[str]:
    """TOKEN's tokens, with each run of Chinese characters cut into words by jieba."""
    parts = HAN_RUN.split(text)  # [other, chinese, other, chinese, ..., other]
    return [t for i, part in enumerate(parts) for t in (chinese_words()(part) if i % 2 else TOKEN.findall(part))]


@functools.cache
def chinese_words() -> Callable[[str], list[str]]:
    """jieba's segmenter, imported and its dictionary (shipped in the wheel) loaded on first use only, quietly."""
    import jieba

    jieba.setLogLevel(logging.WARNING)  # it logs "Building prefix dict ..." to stderr at DEBUG level
    segmenter = jieba.Tokenizer()
    try:  # its dictionary cache goes to our own folder rather than the shared /tmp
        cache_dir().mkdir(parents=True, exist_ok=True)
        segmenter.tmp_dir = str(cache_dir())
    except OSError:
        pass
    return segmenter.lcut


def has_cjk(text: str) -> bool:
    """Whether the text holds a Chinese character."""
    return HAN_RUN.search(text) is not None


def knows_cjk(kv: KeyedVectors) -> bool:
    """Whether the vectors hold Chinese words: at least 1 in 20 of ~1,000 words spread over the vocabulary."""
    # GloVe 6B has 39 such words in 400,000.
    return per_vectors(kv, chinese_share) >= 0.05


def chinese_share(kv: KeyedVectors) -> float:
    """The share of ~1,000 words spread evenly over the vocabulary that contain a Chinese character."""
    sample = kv.index_to_key[:: max(1, len(kv.index_to_key) // 1000)]
    return sum(has_cjk(w) for w in sample) / max(1, len(sample))


def embed(kv: KeyedVectors, tokens: list[str]) -> tuple[np.ndarray, list[str]]:  # -> [n, d], missing
    """One row per token; tokens missing from the vocabulary get a zero row and are listed."""
    missing = [t for t in tokens if t not in kv.key_to_index]
    rows = np.zeros((len(tokens), kv.vector_size), dtype=np.float64)
    for i, t in enumerate(tokens):
        if t in kv.key_to_index:
            rows[i] = kv.vectors[kv.key_to_index[t]]
    return rows, missing

