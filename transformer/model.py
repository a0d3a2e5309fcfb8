"""The real model on the page: its files' absence said in one sentence, its weights loaded once per server and shared by
every session (st.cache_resource; they are memory-mapped, so processes share them too), and one sentence's run at word
level (transformer/runs.py queues and keeps the runs)."""
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from engine import minilm, minilm_files
from transformer import fetching

SPECIAL = ("[CLS]", "[SEP]")  # the keys every head can also attend to, after the words


@dataclass(frozen=True)
class Seen:
    """One sentence as the real model read it, at word level (minilm.to_words)."""

    pieces: minilm.Pieces
    words: np.ndarray  # [layers, heads, m, m + 2] from each word to each word, then to [CLS] and [SEP]; rows sum to 1
    picks: np.ndarray  # [layers, heads, m] the other word each head attends to most from each word (minilm.top_other)
    parked: np.ndarray  # [layers, heads, m] each word's share on [CLS] and [SEP]

    @property
    def shape(self) -> tuple[int, int]:
        """Layers and heads."""
        return self.words.shape[0], self.words.shape[1]


@st.cache_resource(show_spinner=False)
def shared(folder: str) -> minilm.Model:
    """The model from `folder`, once per server: every session reads the same mapped weights."""
    return minilm.load(Path(folder))


def model() -> minilm.Model:
    """The model; without its files, the offer to fetch them here (fetching.offer), and the page stops there."""
    where = minilm_files.folder()
    if minilm_files.missing(where):
        fetching.offer(where)
    return shared(str(where))


def read(m: minilm.Model, words: tuple[str, ...], after=lambda done: None) -> Seen:
    """`words` through the model, after(layers done) told between layers, kept at word level only."""
    # word level only: a 64-word sentence's is about 2 MB
    r = minilm.run(m, list(words), after)
    w = minilm.to_words(r.attention, r.pieces.word)
    return Seen(r.pieces, np.concatenate([w.words, w.special], axis=-1), minilm.top_other(w),
                w.special.sum(axis=-1))
