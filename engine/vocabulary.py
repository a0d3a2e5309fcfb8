"""An uploaded vocabulary without a Python object per word. A 100k-word list with its dict costs about 128 bytes a
word in small objects, spread over the interpreter's 1 MiB arenas; an arena goes back to the system only once every
object in it is gone, so after an upload was released the few objects other sessions made meanwhile kept most of its
arenas (bench/attack.py: 80 MB after ten uploads). Here the words sit in one UTF-8 buffer and two arrays, freed
whole: word i is text[starts[i]:starts[i+1]], and a word is found by its hash through `order`, the indices sorted by
hash. It serves gensim's KeyedVectors as index_to_key, and its `lookup` as key_to_index."""
from collections.abc import Iterable, Iterator, Sequence

import numpy as np


class Vocabulary(Sequence[str]):
    """Words by index (an int, a slice) and indices by word (`lookup`, `find`)."""

    def __init__(self, chunks: Iterable[list[str]]):
        texts = []
        lengths = [np.zeros(1, np.int64)]
        hashes = [np.zeros(0, np.int64)]
        for words in chunks:  # a chunk's words are let go as soon as they are encoded
            encoded = [w.encode("utf-8") for w in words]
            texts.append(b"".join(encoded))
            lengths.append(np.fromiter(map(len, encoded), np.int64, len(encoded)))
            hashes.append(np.fromiter(map(hash, words), np.int64, len(words)))
        self.text = b"".join(texts)
        self.starts = np.cumsum(np.concatenate(lengths))  # [n + 1]
        found = np.concatenate(hashes)  # [n]
        self.order = np.argsort(found, kind="stable")  # [n] indices by hash, ascending indices among equal hashes
        self.hashes = found[self.order]  # [n]
        self.lookup = Lookup(self)

    @property
    def nbytes(self) -> int:
        return len(self.text) + self.starts.nbytes + self.order.nbytes + self.hashes.nbytes

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.word(j) for j in range(len(self))[i]]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self.word(i % len(self))

    def word(self, i: int) -> str:
        return self.text[self.starts[i]:self.starts[i + 1]].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return map(self.word, range(len(self)))

    def __eq__(self, other: object) -> bool:  # equal to any sequence of the same words, as a list would be
        return isinstance(other, Sequence) and len(other) == len(self) and all(map(str.__eq__, self, other))

    __hash__ = None  # type: ignore[assignment]  # mutable-looking, like the list it stands for

    def __contains__(self, word: object) -> bool:
        return self.find(word) >= 0

    def find(self, word: object) -> int:
        """The word's index, or -1."""
        try:
            h = hash(word)
        except TypeError:
            return -1
        at = int(np.searchsorted(self.hashes, h))
        while at < len(self.hashes) and self.hashes[at] == h:
            i = int(self.order[at])
            if self.word(i) == word:
                return i
            at += 1
        return -1

    def repeated(self) -> str | None:
        """The first word that occurs for the second time, or None; only words of equal hash are compared."""
        second = len(self)
        for h in np.unique(self.hashes[1:][self.hashes[1:] == self.hashes[:-1]]):
            run = self.order[np.searchsorted(self.hashes, h, "left"):np.searchsorted(self.hashes, h, "right")]
            seen: set[str] = set()
            for i in sorted(run.tolist()):
                if self.word(i) in seen:
                    second = min(second, i)
                    break
                seen.add(self.word(i))
        return self.word(second) if second < len(self) else None


class Lookup:
    """The Vocabulary as a read-only mapping from word to index, as gensim asks of key_to_index."""

    def __init__(self, words: Vocabulary):
        self.words = words

    def get(self, word: object, default=None):
        i = self.words.find(word)
        return default if i < 0 else i

    def __getitem__(self, word: object) -> int:
        i = self.words.find(word)
        if i < 0:
            raise KeyError(word)
        return i

    def __contains__(self, word: object) -> bool:
        return self.words.find(word) >= 0

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)
