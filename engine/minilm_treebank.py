"""The real model's heads on the treebank: for every word, the other word each of its 72 heads attends to most (word
level, engine/minilm.py), and how often that is the word's grammatical head, per head and per relation, with
engine/treebank.py's conventions (the root and punctuation have no target; a word is never its own head)."""
import numpy as np

from engine import minilm, treebank

PAST_END = -2  # a pick past a sentence's end (never a head: heads are >= 0 and "none" is -1), as offset_pick writes


def picks(model: minilm.Model, sentences: list[treebank.Sentence]) -> tuple[np.ndarray, np.ndarray]:
    """Every head's pick for every word of every sentence ([layers, heads, B, L], PAST_END beyond a sentence's end,
    rows as treebank.batch lays the same sentences out), and each head's share parked on [CLS] and [SEP] in each
    sentence ([layers, heads, B], the mean over its words)."""
    longest = max(len(s.tokens) for s in sentences)
    found = np.full((model.layers, model.heads, len(sentences), longest), PAST_END)
    parked = np.zeros((model.layers, model.heads, len(sentences)))
    for b, s in enumerate(sentences):
        found[:, :, b, :len(s.tokens)], parked[:, :, b] = sentence_picks(model, list(s.tokens))
    return found, parked


def sentence_picks(model: minilm.Model, words: list[str]) -> tuple[np.ndarray, np.ndarray]:  # -> [L, h, m], [L, h]
    """The other word each head attends to most, for each word of one sentence; the share each head parks."""
    r = minilm.run(model, words)
    w = minilm.to_words(r.attention, r.pieces.word)
    return minilm.top_other(w), minilm.parked(w)


def accuracies(b: treebank.Batch, found: np.ndarray, relations: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per relation, and "all" for every word with a head: each head's share of words it points at their head
    ([layers, heads]); a relation with no word in the batch is left out."""
    has = b.head >= 0
    right = (found == b.head)[:, :, has]  # [layers, heads, words with a head]
    rel = b.relation[has]
    out = {"all": right.mean(axis=-1)}
    return out | {r: right[:, :, rel == r].mean(axis=-1) for r in relations if (rel == r).any()}


def best(accuracy: np.ndarray) -> tuple[str, float]:  # [layers, heads] -> label, accuracy
    """The head with the highest accuracy (the first on a tie, in layer then head order) and its accuracy."""
    layer, head = np.unravel_index(int(accuracy.argmax()), accuracy.shape)
    return minilm.label(int(layer), int(head)), float(accuracy[layer, head])


def finders(found: np.ndarray, gold: np.ndarray) -> list[list[str]]:  # [layers, heads, m], [m] -> m lists of labels
    """For each word of one sentence, the heads (by label, layer then head order) whose pick is its grammatical head
    (treebank.gold: -1 where the word has none, and then no head finds it)."""
    right = (found == gold) & (gold >= 0)  # [layers, heads, m]
    return [[minilm.label(int(i), int(h)) for i, h in zip(*np.nonzero(right[:, :, w]), strict=True)]
            for w in range(len(gold))]
