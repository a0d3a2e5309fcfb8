"""Uploads at scale: the fast text parser, limits checked before the work, memory, word2vec binary, and gensim-data
sets fetched as data only (never their code) and cached as memory-mapped .npy files."""
import gzip
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

from engine import sources
from engine.errors import VectorsError
from engine.formats import (
    MAX_DIMS,
    MAX_WORDS,
    fast_rows,
    load_npy_vectors,
    load_text_vectors,
    load_upload,
    load_word2vec_binary,
)
from engine.sources import load_gensim_data, reachable
from tests.apptest_helpers import error_message
from tests.engine.test_formats import npy_bytes

ROOT = Path(__file__).resolve().parents[2]


def error(load, *args, **kwargs) -> VectorsError:
    """The VectorsError that load(*args, **kwargs) raises."""
    with pytest.raises(VectorsError) as e:
        load(*args, **kwargs)
    return e.value


def text_of(words, rows, header=False, line_end="\n") -> bytes:
    """word2vec/GloVe text of the rows, values as Python writes float32s (they read back exactly)."""
    lines = [f"{w} " + " ".join(repr(float(x)) for x in row) + line_end for w, row in zip(words, rows, strict=False)]
    return ((f"{len(rows)} {rows.shape[1]}\n" if header else "") + "".join(lines)).encode()


class TestFastParser:
    def test_agrees_with_gensim_on_a_word2vec_text_file(self, tmp_path):
        rows = np.random.default_rng(1).normal(size=(3000, 40)).astype(np.float32) * 10.0 ** np.arange(-20, 20)
        words = [f"w{i}" for i in range(3000)]
        (tmp_path / "v.txt").write_bytes(text_of(words, rows, header=True))
        theirs = KeyedVectors.load_word2vec_format(tmp_path / "v.txt", binary=False)
        ours = load_text_vectors(tmp_path / "v.txt")
        assert ours.index_to_key == theirs.index_to_key == words
        np.testing.assert_array_equal(ours.vectors, theirs.vectors)
        assert ours.vectors.dtype == np.float32 and ours.vectors.flags.owndata  # one float32 matrix, no view of more

    def test_takes_every_glove_word_as_it_is(self, glove):
        data = "".join(f"{w} {i % 7}\n" for i, w in enumerate(glove.index_to_key)).encode()
        matrix = np.empty((len(glove), 1), dtype=np.float32)
        assert fast_rows(data, 0, matrix) == glove.index_to_key  # the C parser, not the line-by-line fallback
        np.testing.assert_array_equal(matrix[:, 0], np.arange(len(glove)) % 7)
        assert load_text_vectors(data).index_to_key == glove.index_to_key

    @pytest.mark.parametrize("data", [b"a 1 2\nb 3 4\n", b"a\t1  2 \nb 3\t\t4\t\n", b"a 1 2\nb  3 4\n"])
    def test_single_spaces_and_runs_of_spaces_both_take_the_c_parser(self, data):
        matrix = np.empty((2, 2), dtype=np.float32)
        assert fast_rows(data, 0, matrix) == [
            "a",
            "b",
        ]  # a run of spaces late in the file: split again, not line by line
        np.testing.assert_array_equal(matrix, [[1, 2], [3, 4]])

    @pytest.mark.parametrize("data, words, rows", [
        (b"a\t1  2 \nb 3\t\t4\t\n", ["a", "b"], [[1, 2], [3, 4]]),  # tabs, runs of spaces, trailing space
        (b"\xef\xbb\xbfa 1 2\r\nb 3 4\r\n", ["a", "b"], [[1, 2], [3, 4]]),  # Windows: byte-order mark, CRLF
        ("a\u00a01 2\nb 3 4\n".encode(), ["a", "b"], [[1, 2], [3, 4]]),  # a no-break space splits, as str.split does
        ("a\u30001 2\nb 3\u20034\n".encode(), ["a", "b"], [[1, 2], [3, 4]]),
        (b"a 1 2\rb 3 4\n", None, None),  # a lone CR is a space within line 1, not a line break
        (b"1_000 1_0 2\nnan 3 4\n#x 5 6\n\"q 7 8\n", ["1_000", "nan", "#x", '"q'], [[10, 2], [3, 4], [5, 6], [7, 8]]),
        (b"2 2\na 1 2 \nb 3 4 \n", ["a", "b"], [[1, 2], [3, 4]]),  # fastText .vec: a header, trailing spaces
        (b"a +1 -2.\nb .5 1E1\n", ["a", "b"], [[1, -2], [0.5, 10]]),
    ])
    def test_odd_but_valid_files_read_as_the_line_by_line_parser_reads_them(self, data, words, rows):
        if words is None:
            assert error(load_text_vectors, data).code == "not_number"
            return
        kv = load_text_vectors(data)
        assert kv.index_to_key == words
        np.testing.assert_array_equal(kv.vectors, rows)

    @pytest.mark.parametrize("value", ["true", "False", "TRUE", "yes", "0x1", "1,5", "--1"])
    def test_values_the_c_parser_might_take_are_refused_naming_the_line(self, value):
        rows = "".join(f"w{i} 1 2\n" for i in range(5000))  # long enough to go through several chunks
        message = error_message(error(load_text_vectors, f"{rows}x 3 {value}\n".encode()))
        assert message == f"Line 5001: '{value}' is not a number."

    def test_problems_deep_in_a_large_file_name_their_line(self):
        rows = "".join(f"w{i} 0.5 -0.25\n" for i in range(20_000))
        cases = {"w 1\n": "Line 20001 has 1 numbers but earlier lines have 2",
                 "w 1 2 3\n": "Line 20001 has 3 numbers but earlier lines have 2",
                 "w 1 inf\n": "Line 20001 ('w') contains NaN or infinity",
                 "w0 1 2\n": "The word 'w0' appears more than once"}
        for last, expected in cases.items():
            assert error_message(error(load_text_vectors, (rows + last).encode())).startswith(expected)


class TestLimits:
    @pytest.mark.parametrize("header, code", [(f"3 {MAX_DIMS + 1}", "too_many_dims"),
                                              (f"{MAX_WORDS + 1} 2", "too_many_words"),
                                              (f"{10**30} {10**30}", "too_many_dims")])
    def test_a_header_past_the_limits_is_refused_before_any_line_is_read(self, header, code):
        junk = b"not a vectors line\n" * 3  # line 2 on would fail in any parser
        assert error(load_text_vectors, header.encode() + b"\n" + junk).code == code
        assert error(load_word2vec_binary, header.encode() + b"\n\xff\x00" + junk).code == code

    def test_too_many_dimensions_without_a_header_is_refused_at_the_first_line(self):
        data = ("a " + " ".join(["1"] * (MAX_DIMS + 1)) + "\nb junk\n").encode()
        e = error(load_text_vectors, data)
        assert e.code == "too_many_dims" and f"at most {MAX_DIMS}" in error_message(e)
        assert load_text_vectors(("a " + " ".join(["1"] * MAX_DIMS) + "\n").encode()).vector_size == MAX_DIMS

    def test_too_many_words_without_a_header(self):
        data = b"".join(b"w%d 1\n" % i for i in range(MAX_WORDS + 1))
        e = error(load_text_vectors, data)
        assert e.code == "too_many_words" and "500,000" in error_message(e)
        assert len(load_text_vectors(data[: data.rindex(b"w")])) == MAX_WORDS

    def test_a_header_that_disagrees_stops_at_the_first_line_that_disagrees(self):
        junk = b"junk\n" * 1000  # never reached
        assert error_message(error(load_text_vectors, b"2 4\na 1 2 3\n" + junk)) == \
            "Line 2 has 3 numbers, but the header says every vector has 4."
        assert error_message(error(load_text_vectors, b"2 2\na 1 2\nb 3 4\nc 5 6\n" + junk)) == \
            "Line 4 holds word number 3, but the header says the file has only 2 words."

    def test_a_header_promising_more_than_the_file_holds_sets_aside_only_what_it_can(self):
        e = error(load_text_vectors, f"{MAX_WORDS} {MAX_DIMS}\n".encode() + b"a " + b"1 " * MAX_DIMS + b"\n")
        assert e.code == "header_lies" and e.values["n"] == 1  # no 2 GB matrix was set aside for it

    def test_npy_past_the_limits(self):
        assert error(load_npy_vectors, npy_bytes(np.ones((2, MAX_DIMS + 1))), b"a\nb\n").code == "too_many_dims"
        words = b"".join(b"w%d\n" % i for i in range(MAX_WORDS + 1))
        matrix = npy_bytes(np.ones((MAX_WORDS + 1, 1), np.float32))
        assert error(load_npy_vectors, matrix, words).code == "too_many_words"


class TestMemory:
    """tracemalloc counts every Python object and numpy array made while loading; the upload's bytes come before."""

    @staticmethod
    def traced(data: bytes):
        """(vectors, memory held afterwards, peak memory) of loading `data`."""
        load_text_vectors(b"a 1 2\nb 3 4\n")  # pandas imported before measuring: its modules are not the upload's
        tracemalloc.start()
        try:
            kv = load_text_vectors(data)
            held, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return kv, held, peak

    @staticmethod
    def glove_like(n: int, d: int) -> tuple[bytes, np.ndarray]:
        """About 20 MB of 'word v1 ... vd' lines with six decimals, as GloVe writes them, and their [n, d] values."""
        texts = [" ".join(f"{x:.6f}" for x in row) for row in np.random.default_rng(0).normal(size=(100, d))]
        data = "".join(f"word{i} {texts[i % 100]}\n" for i in range(n)).encode()
        return data, np.array([t.split() for t in texts], dtype=np.float32)[np.arange(n) % 100]

    def test_a_20_mb_file_of_300_dimensions_costs_at_most_1_3_times_its_float32_matrix(self):
        data, rows = self.glove_like(7000, 300)
        assert len(data) > 19 * 2**20
        kv, held, peak = self.traced(data)
        np.testing.assert_array_equal(kv.vectors, rows)
        assert held <= 1.3 * rows.nbytes and peak <= 1.3 * rows.nbytes, (held, peak, rows.nbytes)

    def test_a_20_mb_file_of_50_dimensions_holds_the_matrix_and_the_words_only(self):
        data, rows = self.glove_like(40_000, 50)
        kv, held, peak = self.traced(data)
        np.testing.assert_array_equal(kv.vectors, rows)
        words = sum(map(sys.getsizeof, kv.index_to_key)) + sys.getsizeof(kv.index_to_key) + \
            sys.getsizeof(kv.key_to_index)
        assert held - words <= 1.3 * rows.nbytes and peak - held <= 0.3 * rows.nbytes, (held, peak, words)


def word2vec_binary(kv: KeyedVectors, tmp_path: Path) -> bytes:
    """kv as gensim writes word2vec's binary format."""
    kv.save_word2vec_format(tmp_path / "v.bin", binary=True)
    return (tmp_path / "v.bin").read_bytes()


def small_kv(words=("milk", "drank", "café", "the"), d=5) -> KeyedVectors:
    kv = KeyedVectors(d)
    kv.add_vectors(list(words), np.random.default_rng(0).normal(size=(len(words), d)).astype(np.float32))
    return kv


class TestWord2vecBinary:
    def test_reads_what_gensim_writes(self, tmp_path):
        kv = small_kv()
        for name in ("vectors.bin", "VECTORS.BIN"):
            ours = load_upload([(name, word2vec_binary(kv, tmp_path))])
            assert ours.index_to_key == kv.index_to_key
            np.testing.assert_array_equal(ours.vectors, kv.vectors)

    def test_reads_what_the_word2vec_c_tool_writes(self):
        rows = np.arange(6, dtype="<f4").reshape(3, 2)
        data = b"3 2\n" + b"".join(
            w + b" " + r.tobytes() + b"\n" for w, r in zip([b"a", b"b", b"c"], rows, strict=False)
        )
        kv = load_word2vec_binary(data)
        assert kv.index_to_key == ["a", "b", "c"]
        np.testing.assert_array_equal(kv.vectors, rows)

    def test_damage_is_a_sentence(self, tmp_path):
        good = word2vec_binary(small_kv(), tmp_path)
        nan = word2vec_binary(small_kv(), tmp_path).replace(good[-20:], np.full(5, np.nan, "<f4").tobytes())
        cases = {
            b"": "bin_header",
            b"hello world\n": "bin_header",
            good.replace(b"4 5", b"4 0", 1): "bin_header",
            b"0 5\n": "header_only",
            good[:-3]: "bin_unreadable",
            good + b"extra": "bin_unreadable",
            good.replace(b"4 5", b"9 5", 1): "bin_unreadable",
            good.replace(b"milk", b"m\xffik"): "bin_unreadable",
            good.replace(b"drank", b"milk", 1): "duplicate",
            nan: "bin_not_finite",
        }
        for data, code in cases.items():
            assert error(load_word2vec_binary, data).code == code, data[:40]
        assert "'the'" in error_message(error(load_word2vec_binary, nan))

    def test_size_cap(self, tmp_path):
        data = word2vec_binary(small_kv(), tmp_path)
        assert error(load_word2vec_binary, data, max_bytes=len(data) - 1).code == "too_big"

    def test_a_pickle_named_bin_is_never_unpickled(self, tmp_path):
        marker = tmp_path / "unpickled"

        class Payload:
            def __reduce__(self):
                return os.mkdir, (str(marker),)

        assert error(load_upload, [("v.bin", pickle.dumps(Payload()))]).code == "bin_header"
        assert not marker.exists()


class TestUploads:
    def test_fasttext_vec_with_header_and_trailing_spaces(self):
        rows = np.random.default_rng(2).normal(size=(50, 8)).astype(np.float32)
        kv = load_upload([("cc.en.300.vec", text_of([f"w{i}" for i in range(50)], rows, True, " \n"))])
        assert kv.index_to_key[-1] == "w49"
        np.testing.assert_array_equal(kv.vectors, rows)

    def test_dispatch_by_extension(self, tmp_path):
        binary = word2vec_binary(small_kv(), tmp_path)
        assert load_upload([("v.bin", binary)]).vector_size == 5
        assert error(load_upload, [("v.txt", binary)]).code == "not_utf8"  # the text parser never reads .bin bytes
        assert error(load_upload, [("a.bin", binary), ("b.bin", binary)]).code == "upload_one"


def gz_of(text: bytes, path: Path) -> Path:
    with gzip.open(path, "wb") as f:
        f.write(text)
    return path


class TestGensimData:
    @pytest.fixture
    def cache(self, tmp_path, monkeypatch):
        monkeypatch.setenv(sources.CACHE_ENV, str(tmp_path / "cache"))
        return tmp_path / "cache"

    def serve(self, monkeypatch, gz: Path) -> list:
        """Let download_gz 'download' the given file; returns the list of names asked for."""
        asked = []

        def download(name, path, timeout):
            asked.append(name)
            path.write_bytes(gz.read_bytes())

        monkeypatch.setattr(sources, "download_gz", download)
        return asked

    def test_converted_once_then_memory_mapped_from_the_cache(self, cache, tmp_path, monkeypatch):
        rows = np.random.default_rng(3).normal(size=(300, 7)).astype(np.float32)
        words = [f"w{i}" for i in range(298)] + ["café", "\"quoted"]
        asked = self.serve(monkeypatch, gz_of(text_of(words, rows, header=True), tmp_path / "set.gz"))
        for _ in range(2):
            kv = load_gensim_data("glove-wiki-gigaword-100")
            assert kv.index_to_key == words
            np.testing.assert_array_equal(kv.vectors, rows)
            assert isinstance(kv.vectors, np.memmap) and not kv.vectors.flags.writeable
        assert asked == ["glove-wiki-gigaword-100"]  # the second load came from the cache
        assert Path(kv.vectors.filename) == cache / "glove-wiki-gigaword-100" / "vectors.npy"
        assert sorted(p.name for p in cache.iterdir()) == ["glove-wiki-gigaword-100"]  # no download left behind

    @pytest.mark.parametrize("text, reason", [
        (b"3 2\na 1 2\nb 3 4\n", "2 words, not 3"), (b"a 1 2\nb 3 4\n", "no word2vec header"),
        (b"2 2\na 1 2\nb 3 x\n", "")])
    def test_a_damaged_download_is_refused_and_not_kept(self, cache, tmp_path, monkeypatch, text, reason):
        self.serve(monkeypatch, gz_of(text, tmp_path / "bad.gz"))
        e = error(load_gensim_data, "glove-wiki-gigaword-300")
        assert e.code == "download_damaged" and reason in error_message(e)
        assert list(cache.iterdir()) == []

    def test_a_download_that_is_not_gzip_is_refused(self, cache, tmp_path, monkeypatch):
        (tmp_path / "plain.gz").write_bytes(b"2 2\na 1 2\nb 3 4\n")
        self.serve(monkeypatch, tmp_path / "plain.gz")
        assert error(load_gensim_data, "glove-wiki-gigaword-50").code == "download_damaged"
        assert list(cache.iterdir()) == []

    def test_offline_fails_with_the_offline_sentence_and_leaves_nothing(self, cache, monkeypatch):
        def refuse(*args, **kwargs):
            raise OSError("network disabled in this test")

        monkeypatch.setattr(socket.socket, "connect", refuse)
        monkeypatch.setattr(socket, "getaddrinfo", refuse)
        e = error(load_gensim_data, "glove-wiki-gigaword-100")
        assert e.code == "offline" and "glove-wiki-gigaword-100" in error_message(e)
        assert list(cache.iterdir()) == []

    def test_a_name_lookup_that_hangs_does_not_hang_the_check(self, monkeypatch):
        release = threading.Event()

        def hang(*args, **kwargs):
            release.wait(60)
            raise OSError("the name lookup gave up")

        monkeypatch.setattr(socket, "getaddrinfo", hang)
        start = time.monotonic()
        try:
            assert reachable("gensim-data.invalid", timeout=0.2) is False
            assert time.monotonic() - start < 30  # not the 60 s the lookup hangs for
        finally:
            release.set()

    def test_unknown_sets_are_refused(self):
        with pytest.raises(ValueError, match="not one of the gensim-data sets"):
            load_gensim_data("../../etc/passwd")

    def test_gensim_downloader_is_never_imported(self, tmp_path):
        code = ("import socket, sys\nsocket.create_connection = lambda *a, **k: (_ for _ in ()).throw(OSError())\n"
                "from engine.errors import VectorsError\nfrom engine.sources import load_gensim_data\n"
                "try:\n    load_gensim_data('glove-wiki-gigaword-100')\nexcept VectorsError as e:\n    print(e.code)\n"
                "print('gensim.downloader' in sys.modules)\n")
        env = {**os.environ, sources.CACHE_ENV: str(tmp_path)}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.stdout.split() == ["offline", "False"], done.stderr
