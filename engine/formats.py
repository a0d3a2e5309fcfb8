"""Vector files a person brings, parsed into KeyedVectors without pickle: word2vec/GloVe/fastText text, word2vec
binary, and a .npy matrix with a word list (load_upload picks the parser). Every limit (size, words, dimensions) is
checked before the numbers are read, the numbers go straight into one float32 matrix, and every problem is a
VectorsError that names its line or word. keyed_vectors() wraps words and rows without copying, for every source."""
import codecs
import csv
import io
import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from gensim.models import KeyedVectors

from engine.errors import VectorsError
from engine.vocabulary import Vocabulary

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_DIMS = 1000
MAX_WORDS = 500_000
MAX_WORD_BYTES = 1000  # a longer "word" in a binary file means the file is not what its header says
BLOCK = 2**20  # bytes (or matrix values) handled at a time where a whole-file temporary would double the memory
CHUNK_VALUES = 2**16  # numbers pandas parses at a time, at least: larger chunks parse faster, smaller ones hold less
SPACE = re.compile(r"\s")  # what str.split() splits on


def keyed_vectors(words: list[str] | Vocabulary, vectors: np.ndarray) -> KeyedVectors:  # [n], [n, d]
    """Wrap words and rows in KeyedVectors without copying the array; a Vocabulary serves as both of its indices."""
    kv = KeyedVectors(vectors.shape[1], count=0, dtype=vectors.dtype)
    kv.index_to_key = words
    kv.key_to_index = words.lookup if isinstance(words, Vocabulary) else {w: i for i, w in enumerate(words)}
    kv.vectors = vectors
    return kv


def load_upload(files: list[tuple[str, bytes]]) -> KeyedVectors:
    """Uploaded (name, bytes): a text vectors file (.txt, .vec, ...), a word2vec .bin, or a .npy plus a word list."""
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


def load_text_vectors(source: str | os.PathLike[str] | bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """word2vec, GloVe or fastText text ("word v1 v2 ...", optional "count dim" header); never unpickles."""
    # The limits are checked before parsing, and the numbers go straight into one float32 matrix: through pandas'
    # C parser, or line by line where that parser might judge a line differently, so that a message can name it.
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
    """(line number, byte offset, text) of each non-blank line, decoded one at a time; a UTF-8 BOM is skipped."""
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
    """Rows and columns to hold `size` bytes of `lines` lines of d numbers; refuses at once what the limits rule out."""
    # No more rows than the bytes can hold, whatever a header says: a line takes at least 2d + 2 bytes (a word,
    # then d numbers after a space each, and a line break).
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


def fast_rows(data: bytes, offset: int, matrix: np.ndarray) -> Vocabulary | None:
    """read_rows over the lines from byte `offset` on, or None where the careful path should read them."""
    # Split at single spaces (the quicker parse, right for GloVe and word2vec files), else at any run of spaces and
    # tabs. None where the careful path might judge a line differently (NUL bytes, a lone CR, spaces other than
    # space and tab) or read_rows refuses a line, so that path can name it.
    if b"\x00" in data or (b"\r" in data and data.count(b"\r") != data.count(b"\r\n")):
        return None
    for sep in (" ", r"\s+"):
        stream = io.BytesIO(data)
        stream.seek(offset)
        try:
            words = read_rows(stream, matrix, sep=sep)
        except ValueError:
            continue
        return None if SPACE.search(words.text.decode("utf-8")) else words
    return None


def read_rows(stream: io.BufferedIOBase, matrix: np.ndarray,  # fills matrix [capacity, d] from row 0
              sep: str = r"\s+") -> Vocabulary:
    """The words of lines 'word v1 ... vd', their numbers read into matrix by pandas' C parser a chunk at a time."""
    # ValueError at anything it cannot take as it is (a wrong count, a non-number, NaN or infinity, more lines than
    # rows).
    import pandas as pd

    capacity, d = matrix.shape
    values = max(CHUNK_VALUES, matrix.size // 32)  # a chunk's float64 and float32 copies: under a tenth of the matrix
    options = dict(sep=sep, header=None, quoting=csv.QUOTE_NONE, na_filter=False, dtype={0: object},
                   encoding="utf-8", chunksize=max(1, values // max(1, d)), low_memory=False)
    filled = 0

    def words() -> Iterator[list[str]]:  # each chunk's words, once its numbers are in matrix
        nonlocal filled
        with np.errstate(over="ignore"), pd.read_csv(stream, **options) as chunks:  # overflow: inf, refused below
            for chunk in chunks:
                if chunk.shape[1] != d + 1 or any(t.kind not in "if" for t in chunk.dtypes.iloc[1:]):
                    raise ValueError(f"a line without exactly {d} numbers")  # "true" would be bool, "nan" text
                block = chunk.iloc[:, 1:].to_numpy(np.float32)
                if not np.isfinite(block).all() or filled + len(block) > capacity:
                    raise ValueError("NaN or infinity, or more lines than expected")
                matrix[filled:filled + len(block)] = block
                filled += len(block)
                yield chunk[0].tolist()
    return Vocabulary(words())


def careful_rows(lines: Iterator[tuple[int, int, str]], matrix: np.ndarray,
                 header: tuple[int, int] | None) -> list[str]:
    """Each line parsed and checked on its own into matrix; the first problem raises, naming its line."""
    capacity, d = matrix.shape
    words: list[str] = []
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


def vectors_of(found: list[str] | Vocabulary, matrix: np.ndarray, header: tuple[int, int] | None) -> KeyedVectors:
    """KeyedVectors of the filled rows and the words (one Vocabulary), after the checks only the whole file answers."""
    words = found if isinstance(found, Vocabulary) else Vocabulary([found])
    if header and len(words) != header[0]:
        raise VectorsError("header_lies", words=header[0], dims=header[1], n=len(words), d=matrix.shape[1])
    matrix.resize((len(words), matrix.shape[1]), refcheck=False)  # hand back rows set aside for blank lines, in place
    repeat = words.repeated()
    if repeat is not None:
        raise VectorsError("duplicate", word=repeat[:40])
    return keyed_vectors(words, matrix)


def load_word2vec_binary(source: str | os.PathLike[str] | bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> KeyedVectors:
    """word2vec's binary format, parsed here with the limits checked first; never unpickles."""
    # The format: a line 'words dims', then per word its UTF-8 bytes, a space and dims little-endian float32s.
    # Parsed here because gensim reads it only from a path.
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
    """The words of a word2vec binary from byte `at` on, their vectors written into matrix; stops at first damage."""
    n, d = matrix.shape
    words: list[str] = []
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
    return keyed_vectors(Vocabulary([words]), vectors)


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


def read_capped(source: str | os.PathLike[str] | bytes, max_bytes: int) -> bytes:
    """Bytes of an upload or a local file, refusing anything over max_bytes before reading it."""
    size = len(source) if isinstance(source, (bytes, bytearray)) else os.path.getsize(source)
    if size > max_bytes:
        raise VectorsError("too_big", size=human_size(size), limit=human_size(max_bytes))
    return bytes(source) if isinstance(source, (bytes, bytearray)) else Path(source).read_bytes()


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

