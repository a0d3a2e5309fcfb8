"""A sentence through embedding, positional encoding and the three linear layers."""
from dataclasses import dataclass

import numpy as np
from gensim.models import KeyedVectors

from engine.layers import preset
from engine.positional import sinusoidal
from engine.vectors import embed, tokenize


@dataclass(frozen=True)
class Encoded:
    tokens: list[str]  # [n] known tokens, in sentence order
    labels: list[str]  # [n] unique row labels ("the (1)", "the (5)" for repeats)
    missing: list[str]  # tokens left out because the vectors lack them
    embedding: np.ndarray  # [n, d]
    positional: np.ndarray  # [n, d] (zeros when switched off)
    x: np.ndarray  # [n, d]  embedding + positional


def row_labels(tokens: list[str]) -> list[str]:
    """Tokens as labels; a token that repeats gets its 1-based position to tell the rows apart."""
    return [f"{t} ({i + 1})" if tokens.count(t) > 1 else t for i, t in enumerate(tokens)]


def encode(kv: KeyedVectors, text: str, *, positional: bool = True) -> Encoded:
    """Tokenize, drop unknown words, embed, and add the positional encoding at the kept positions."""
    tokens = tokenize(text)
    rows, missing = embed(kv, tokens)
    keep = [i for i, t in enumerate(tokens) if t not in missing]
    pe = sinusoidal(len(tokens), kv.vector_size)[keep] if positional else np.zeros((len(keep), kv.vector_size))
    kept = [tokens[i] for i in keep]
    return Encoded(kept, row_labels(kept), list(dict.fromkeys(missing)), rows[keep], pe, rows[keep] + pe)


def layer_weights(d: int, d_k: int, specs: dict) -> dict[str, np.ndarray]:  # -> {"w_q": [d, d_k], ...}
    """W_Q, W_K, W_V from {"q": (preset, seed, scale), ...}; d_k is capped at d."""
    d_k = min(d_k, d)
    return {f"w_{name}": preset(p, d, d_k, seed=seed, scale=scale) for name, (p, seed, scale) in specs.items()}
