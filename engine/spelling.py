"""Spelling suggestions for words the vectors do not know: the most frequent known words of the word's own script
that are one edit away (two for short words), found by a cheap letter-count bound and then an exact
optimal-string-alignment distance over all candidates at once. The index is built once per vector set and the answers
are cached."""
import functools
import unicodedata
from collections.abc import Callable

import numpy as np
from gensim.models import KeyedVectors

from engine.per_vectors import per_vectors

FREQUENT = 100_000  # spelling suggestions come from this many most frequent words ("bola" is number 53,593)
SHORT = 6  # words up to this long may be two edits from a suggestion, longer ones one
SpellingGroup = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # ranks, lengths, codes, bags


def suggest(kv: KeyedVectors, word: str, n: int = 3) -> list[str]:
    """Up to n of the FREQUENT most frequent words in the word's script with the fewest edits, most frequent first."""
    # The fewest edits: one, two for short words, never more than half its letters. Answers are cached per vector
    # set.
    if not 2 <= len(word) <= 30 or not word.isalpha():  # emoji, symbols and numbers get no spelling advice
        return []
    return list(per_vectors(kv, speller)(word, n))


def speller(kv: KeyedVectors) -> Callable[[str, int], tuple[str, ...]]:
    """closest() over kv's frequent words, remembering its last 4,096 answers."""
    return functools.lru_cache(maxsize=4096)(functools.partial(closest, spelling_index(kv.index_to_key[:FREQUENT])))


def spelling_index(words: list[str]) -> dict[str, SpellingGroup]:
    """The alphabetic words of each script (words that mix scripts are left out), as spelling_group()s."""
    groups: dict[str, list[int]] = {}
    for rank, w in enumerate(words):
        if w.isalpha() and len(w) <= 32:  # suggestions are at most two edits from words of at most 30 letters
            groups.setdefault(script(w), []).append(rank)
    groups.pop("", None)
    return {name: spelling_group([words[r] for r in ranks], np.array(ranks)) for name, ranks in groups.items()}


def spelling_group(words: list[str], ranks: np.ndarray) -> SpellingGroup:  # [m] words and their frequency ranks
    """(ranks [m], lengths [m], codes [m, L], bags [m, 32]) of the words, sorted by length, then rank."""
    # codes: the code points, zero-padded (16 bits where they fit: this is held as long as the vectors), and spell
    # the words again (word_at); bags count letters by code point modulo 32. Arrays only: no object per word stays
    # behind.
    codes = codes_of(words)
    lengths = (codes != 0).sum(axis=1)
    order = np.argsort(lengths, kind="stable")  # ranks come ascending, and stay so within a length
    codes = codes[order].astype(np.uint16) if codes.max() < 2**16 else codes[order]
    return ranks[order], lengths[order], codes, letter_bags(codes).astype(np.uint8)


def codes_of(words: list[str]) -> np.ndarray:  # [m] -> [m, L]
    """Each word's Unicode code points, zero-padded to the longest."""
    return np.array(words, dtype=str).view(np.uint32).reshape(len(words), -1)


def letter_bags(codes: np.ndarray) -> np.ndarray:  # [m, L] -> [m, 32]
    """How often each code point modulo 32 occurs in each row (padding left out)."""
    cells = (np.arange(len(codes))[:, None] * 32 + codes % 32).ravel()
    return np.bincount(cells, weights=(codes != 0).ravel(), minlength=len(codes) * 32).reshape(-1, 32).astype(np.int16)


def script(word: str) -> str:
    """The Unicode script of a word's letters, by their names ('LATIN', 'CYRILLIC', 'CJK', ...); '' when they mix."""
    if word.isascii():
        return "LATIN"
    names = {unicodedata.name(c, "").split(" ")[0] for c in word}
    return names.pop() if len(names) == 1 else ""


def closest(index: dict[str, SpellingGroup], word: str, n: int) -> tuple[str, ...]:
    """Up to n words of the word's script with the fewest edits from it, most frequent first."""
    # At least one edit, at most the word's budget (`most`).
    if script(word) not in index:
        return ()
    ranks, lengths, codes, bags = index[script(word)]
    most = min(2 if len(word) <= SHORT else 1, len(word) // 2)
    lo, hi = np.searchsorted(lengths, [len(word) - most, len(word) + most + 1])
    # An edit changes at most two letter counts by one each: a cheap bound that leaves few rows for the exact distance.
    apart = np.abs(bags[lo:hi] - letter_bags(codes_of([word]))).sum(axis=1)  # int16: no wrap-around
    near = lo + np.flatnonzero(apart <= 2 * most)
    dist = edit_distances(word, codes[near, :len(word) + most], lengths[near])
    fits = (dist > 0) & (dist <= most)
    if not fits.any():
        return ()
    found = near[fits & (dist == dist[fits].min())]
    return tuple(word_at(codes, lengths, i) for i in found[np.argsort(ranks[found], kind="stable")][:n])


def word_at(codes: np.ndarray, lengths: np.ndarray, i: int) -> str:  # [m, L], [m]
    """The word of row i, from its code points."""
    return "".join(map(chr, codes[i, :lengths[i]].tolist()))


def edit_distances(word: str, codes: np.ndarray, lengths: np.ndarray) -> np.ndarray:  # [m, L], [m] -> [m]
    """Optimal-string-alignment distance (insert, delete, substitute, swap two neighbours) from `word` to every row."""
    # All rows at once: one table row per letter of `word`, in which insertions are a running minimum.
    m, width = codes.shape
    steps = np.arange(width + 1)
    before, row = None, np.broadcast_to(steps, (m, width + 1))
    for i, c in enumerate(map(ord, word), 1):
        best = np.empty((m, width + 1), dtype=np.int64)  # without insertions first
        best[:, 0] = i
        np.minimum(row[:, 1:] + 1, row[:, :-1] + (codes != c), out=best[:, 1:])
        if before is not None:  # word[i-2:i] is the row's two letters swapped
            swap = (codes[:, :-1] == c) & (codes[:, 1:] == ord(word[i - 2]))
            best[:, 2:] = np.where(swap, np.minimum(best[:, 2:], before[:, :-2] + 1), best[:, 2:])
        before, row = row, np.minimum.accumulate(best - steps, axis=1) + steps
    return row[np.arange(m), lengths]

