"""Uploaded vectors read by engine.formats: word2vec and GloVe text, and .npy with a word list; every bad file named by
its line, never unpickled."""
import io
import os
import pickle
import re

import numpy as np
import pytest

from engine.errors import VectorsError
from engine.formats import load_npy_vectors, load_text_vectors
from tests.apptest_helpers import error_message


def text_error(data, **kwargs):
    """The message of the VectorsError that loading `data` as text vectors raises."""
    with pytest.raises(VectorsError) as e:
        load_text_vectors(data, **kwargs)
    return error_message(e.value)


class TestTextFiles:
    def test_glove_text_without_header(self):
        kv = load_text_vectors(b"the 0.1 -0.2 3\ncat -1 2.5 3e-2\n")
        assert kv.index_to_key == ["the", "cat"]
        np.testing.assert_array_equal(kv.vectors, np.array([[0.1, -0.2, 3], [-1, 2.5, 3e-2]], dtype=np.float32))

    def test_word2vec_text_with_header_round_trip(self, tmp_path):
        rows = np.random.default_rng(0).normal(size=(4, 5)).astype(np.float32)
        words = ["milk", "drank", "the", "café"]
        lines = [f"{w} " + " ".join(repr(float(x)) for x in row) for w, row in zip(words, rows, strict=False)]
        path = tmp_path / "vectors.txt"
        path.write_text("4 5\n" + "\n".join(lines) + "\n", encoding="utf-8")
        for source in (path, str(path), path.read_bytes()):
            kv = load_text_vectors(source)
            assert kv.index_to_key == words
            np.testing.assert_array_equal(kv.vectors, rows)

    def test_reads_what_gensim_writes(self, tmp_path, make_kv):
        kv = make_kv({"a": [0.1, -2.5, 3e-5], "b": [1, 2, 3]})
        kv.save_word2vec_format(tmp_path / "w2v.txt", binary=False)
        np.testing.assert_array_equal(load_text_vectors(tmp_path / "w2v.txt").vectors, kv.vectors)

    def test_windows_line_endings_tabs_and_blank_lines(self):
        kv = load_text_vectors(b"2 2\r\n\r\na\t1 2\r\n\r\nb  3   4\r\n")
        assert kv.index_to_key == ["a", "b"]
        np.testing.assert_array_equal(kv.vectors, [[1, 2], [3, 4]])

    @pytest.mark.parametrize("data, expected", [
        (b"3 3\na 1 2 3\nb 4 5 6\n", "header says 3 words of 3 dimensions.*2 words of 3"),
        (b"5 3\na 1 2 3\nb 4 5 6\n", "header says 5 words of 3 dimensions.*2 words of 3"),
        (b"2 4\na 1 2 3\nb 4 5 6\n", "Line 2 has 3 numbers, but the header says every vector has 4"),
        (b"3 5\n", "header line but no vectors"),
        ("\u00b2 3\na 1 2\n".encode(), "Line 2 has 2 numbers but earlier lines have 1"),
    ])
    def test_headers(self, data, expected):
        assert re.search(expected, text_error(data))

    @pytest.mark.parametrize("data", [b"", b"   ", b"\n\n\t \r\n  \n"])
    def test_empty(self, data):
        assert "empty" in text_error(data)

    def test_binary_junk(self):
        assert "not UTF-8" in text_error(np.random.default_rng(0).bytes(4096))
        assert text_error(bytes(range(256))).startswith("Line 2 is not UTF-8")

    def test_non_utf8_bytes_name_the_line(self):
        msg = text_error(b"the 1 2\ncat 3 4\ncaf\xe9 5 6\n")
        assert "Line 3" in msg and "UTF-8" in msg

    def test_line_numbers_count_blank_lines(self):
        assert text_error(b"a 1 2\n\n\nb 1\n").startswith("Line 4 has 1 numbers")

    @pytest.mark.parametrize("protocol", [0, pickle.HIGHEST_PROTOCOL])
    def test_pickle_is_never_unpickled(self, tmp_path, protocol):
        marker = tmp_path / "unpickled"

        class Payload:
            def __reduce__(self):
                return os.mkdir, (str(marker),)

        data = pickle.dumps(Payload(), protocol=protocol)
        pickle.loads(data)
        assert marker.exists(), "the payload must be live for this test to mean anything"
        marker.rmdir()
        path = tmp_path / "vectors.txt"
        path.write_bytes(data)
        for source in (data, path, str(path)):
            assert "Line 1" in text_error(source)
        assert not marker.exists()

    def test_pickle_of_plain_data(self):
        assert "Line 1" in text_error(pickle.dumps({"milk": [0.1, 0.2]}))

    def test_nul_bytes_name_the_line(self):
        msg = text_error(b"the 1 2\nc\x00t 3 4\n")
        assert "Line 2" in msg and "NUL" in msg
        assert "NUL" in text_error(b"\x00" * 64)

    def test_mixed_dimensions_name_the_line(self):
        msg = text_error(b"a 1 2 3\nb 4 5 6\nc 7 8\n")
        assert "Line 3 has 2 numbers but earlier lines have 3" in msg

    @pytest.mark.parametrize("value", [
        "nan", "NaN", "inf", "-inf", "Infinity",
        pytest.param("1e50", marks=pytest.mark.filterwarnings("ignore:overflow encountered in cast")),
    ])
    def test_nan_and_inf_name_the_line(self, value):
        msg = text_error(f"a 1 2\nb 3 {value}\n".encode())
        assert msg.startswith("Line 2") and "NaN or infinity" in msg

    @pytest.mark.parametrize("value", ["two", "0x10", "1,5", "--1", "1e", "½"])
    def test_non_numeric_value_names_line_and_value(self, value):
        assert text_error(f"a 1 2\nb 3 {value}\n".encode()) == f"Line 2: '{value}' is not a number."

    def test_word_without_numbers(self):
        assert text_error(b"a 1 2\nlonely\n") == "Line 2 has a word ('lonely') but no numbers."

    def test_duplicate_words(self):
        assert "'a' appears more than once" in text_error(b"a 1 2\nb 3 4\na 5 6\n")

    def test_file_over_the_size_cap(self, tmp_path):
        data = "".join(f"w{i} 1 2\n" for i in range(100)).encode()
        path = tmp_path / "big.txt"
        path.write_bytes(data)
        for source in (data, path):
            assert "at most" in text_error(source, max_bytes=len(data) - 1)
        assert load_text_vectors(path, max_bytes=len(data)).vectors.shape == (100, 2)


def npy_bytes(array, **kwargs):
    """`array` saved in .npy format, as bytes."""
    buf = io.BytesIO()
    np.save(buf, array, **kwargs)
    return buf.getvalue()


def npy_error(npy, words=b"a\nb\n", **kwargs):
    """The message of the VectorsError that loading a .npy upload raises."""
    with pytest.raises(VectorsError) as e:
        load_npy_vectors(npy, words, **kwargs)
    return error_message(e.value)


class TestNpyFiles:
    def test_round_trip(self):
        rows = np.random.default_rng(0).normal(size=(3, 4))
        kv = load_npy_vectors(npy_bytes(rows), "milk\r\ndrank\n\ncafé\n".encode())
        assert kv.index_to_key == ["milk", "drank", "café"] and kv.vectors.dtype == np.float32
        np.testing.assert_array_equal(kv.vectors, rows.astype(np.float32))

    def test_integer_matrix(self):
        np.testing.assert_array_equal(
            load_npy_vectors(npy_bytes(np.eye(2, dtype=np.int64)), b"a\nb\n").vectors, np.eye(2)
        )

    def test_object_dtype_is_refused(self):
        data = npy_bytes(np.array([[1, "a"], [2, "b"]], dtype=object), allow_pickle=True)
        assert "plain numeric array" in npy_error(data)

    def test_row_count_mismatch(self):
        assert npy_error(npy_bytes(np.ones((3, 2)))) == "The word list has 2 words but the matrix has 3 rows."

    @pytest.mark.parametrize("data", [
        pickle.dumps(np.ones((2, 2))), b"", b"junk that is not numpy", np.random.default_rng(0).bytes(512),
        npy_bytes(np.ones((2, 2)))[:-1], npy_bytes(np.ones((2, 2)))[:20],
    ])
    def test_not_a_readable_npy_file(self, data):
        assert ".npy" in npy_error(data)

    def test_npz_archive_is_refused(self):
        buf = io.BytesIO()
        np.savez(buf, vectors=np.ones((2, 2)))
        assert "not a .npy file" in npy_error(buf.getvalue())

    def test_header_declaring_a_huge_shape(self):
        buf = io.BytesIO()
        np.lib.format.write_array_header_1_0(buf, {"descr": "<f4", "fortran_order": False, "shape": (10**12, 50)})
        assert ".npy" in npy_error(buf.getvalue() + bytes(64))

    @pytest.mark.parametrize("array", [
        np.ones(2), np.ones((2, 2, 2)), np.array([["a", "b"], ["c", "d"]]), np.ones((2, 2), dtype=complex),
        np.ones((2, 2), dtype=bool), np.zeros(2, dtype=[("x", "f4"), ("y", "f4")]),
    ])
    def test_not_a_numeric_matrix(self, array):
        assert "2-D numeric matrix" in npy_error(npy_bytes(array))

    @pytest.mark.parametrize("value", [np.nan, np.inf, 1e300])
    def test_nan_and_inf(self, value):
        with np.errstate(over="ignore"):
            assert "NaN or infinity" in npy_error(npy_bytes(np.array([[1.0, value], [2.0, 3.0]])))

    def test_word_list_not_utf8(self):
        assert "not UTF-8" in npy_error(npy_bytes(np.ones((2, 2))), b"caf\xe9\nmilk\n")

    def test_duplicate_words(self):
        assert "repeats a word" in npy_error(npy_bytes(np.ones((2, 2))), b"a\na\n")

    def test_over_the_size_cap(self):
        data = npy_bytes(np.ones((100, 10)))
        assert "at most" in npy_error(data, max_bytes=len(data) - 1)
        assert "at most" in npy_error(npy_bytes(np.ones((2, 2))), b"a\n" * 1000, max_bytes=500)
