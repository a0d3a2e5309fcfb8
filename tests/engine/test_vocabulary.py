"""engine/vocabulary.py: an upload's words in one buffer, found by index and by word as a list and a dict would
find them, held without an object per word."""
import tracemalloc

import numpy as np
import pytest

from engine.formats import keyed_vectors, load_text_vectors
from engine.vocabulary import Vocabulary
from server import ledger

WORDS = ["the", "cat", "猫", "naïve", "drank", "", "milk"]


class Colliding(str):
    """A word whose hash collides with every other's, to reach the comparisons behind equal hashes."""

    def __hash__(self):
        return 7


def test_words_by_index_and_indices_by_word_as_a_list_and_a_dict_give_them():
    v = Vocabulary([WORDS[:3], WORDS[3:]])
    assert len(v) == len(WORDS) and list(v) == WORDS and v == WORDS and v != WORDS[::-1]
    assert [v[i] for i in range(-len(WORDS), len(WORDS))] == WORDS + WORDS
    assert v[1:5] == WORDS[1:5] and v[::3] == WORDS[::3]
    assert all(v.lookup[w] == i and w in v and w in v.lookup for i, w in enumerate(WORDS))
    assert v.lookup.get("dog", -1) == -1 and "dog" not in v and v.find(3) == -1 and v.find(["unhashable"]) == -1
    with pytest.raises(KeyError):
        v.lookup["dog"]
    with pytest.raises(IndexError):
        v[len(WORDS)]


def test_the_first_word_seen_twice_is_named_even_behind_equal_hashes():
    assert Vocabulary([WORDS]).repeated() is None and Vocabulary([]).repeated() is None
    assert Vocabulary([["a", "b", "c", "b", "a"]]).repeated() == "b"  # b's second time comes before a's
    same = [Colliding(w) for w in ("x", "y", "z", "y")]
    v = Vocabulary([same])
    assert v.repeated() == "y" and [v.find(w) for w in same[:3]] == [0, 1, 2]


def test_gensim_reads_an_upload_through_it():
    kv = load_text_vectors(b"the 1 0\ncat 0 1\nmilk 0.9 0.1\n")
    assert isinstance(kv.index_to_key, Vocabulary) and kv.key_to_index is kv.index_to_key.lookup
    assert "cat" in kv and "dog" not in kv and len(kv) == 3 and kv.get_index("milk") == 2
    np.testing.assert_array_equal(kv["cat"], [0, 1])
    assert kv.most_similar("the", topn=1)[0][0] == "milk"


def test_an_upload_holds_its_words_in_about_the_bytes_the_ledger_counts(glove):
    words = [w.encode().decode() for w in glove.index_to_key[:50_000]]  # strings of their own, as a file gives them
    tracemalloc.start()
    try:
        kv = keyed_vectors(Vocabulary([words[:25_000], words[25_000:]]), np.zeros((len(words), 2), dtype=np.float32))
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert 0.9 * ledger.size_of(kv) <= held <= 1.1 * ledger.size_of(kv), (held, ledger.size_of(kv))
    assert ledger.size_of(kv) < 0.3 * (kv.vectors.nbytes + ledger.WORD_BYTES * len(words))  # a dict's cost: 128 B
