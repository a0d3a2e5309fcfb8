"""A sentence through embedding, positional encoding and the three linear layers."""
from dataclasses import dataclass

import numpy as np
from gensim.models import KeyedVectors

from engine.positional import sinusoidal
from engine.tokens import embed, has_cjk, knows_cjk, tokenize


@dataclass(frozen=True)
class Encoded:
    tokens: list[str]  # [n] known tokens, in sentence order
    labels: list[str]  # [n] unique row labels ("the (1)", "the (5)" for repeats)
    missing: list[str]  # tokens left out because the vectors lack them
    embedding: np.ndarray  # [n, d]
    positional: np.ndarray  # [n, d]  position weight · sinusoidal encoding (zeros at weight 0)
    x: np.ndarray  # [n, d]  embedding + positional
    unread_chinese: bool = False  # the text has Chinese characters, and the vectors no Chinese words to read them by


def row_labels(tokens: list[str], positions: list[int] | None = None) -> list[str]:
    """Tokens as labels; a token that repeats gets its 1-based position in the sentence to tell the rows apart."""
    # the position: from `positions` where words were left out, else the place in `tokens` (as the encoding has it)
    at = positions or [i + 1 for i in range(len(tokens))]
    return [f"{t} ({p})" if tokens.count(t) > 1 else t for t, p in zip(tokens, at, strict=True)]


def encode(kv: KeyedVectors, text: str, *, position: float = 1.0) -> Encoded:
    """Tokenize, drop unknown words, embed, and add the positional encoding, times `position`, at the kept positions."""
    # Also says whether Chinese characters went unread (the vectors hold no Chinese words).
    unread = has_cjk(text) and not knows_cjk(kv)
    tokens = tokenize(text, kv)
    rows, missing = embed(kv, tokens)
    keep = [i for i, t in enumerate(tokens) if t not in missing]
    pe = position * sinusoidal(len(tokens), kv.vector_size)[keep]
    kept = [tokens[i] for i in keep]
    labels = row_labels(kept, [i + 1 for i in keep])
    return Encoded(kept, labels, list(dict.fromkeys(missing)), rows[keep], pe, rows[keep] + pe, unread)

