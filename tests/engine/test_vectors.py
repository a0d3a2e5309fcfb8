"""Vectors: the real GloVe package, tokenize, embed, suggest and hostile user files."""
import gc
import io
import mmap
import os
import pickle
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import sources, spelling
from engine.errors import VectorsError
from engine.formats import keyed_vectors, load_npy_vectors, load_text_vectors
from engine.sources import load_glove, nearest, release
from engine.spelling import FREQUENT, suggest
from engine.tokens import MAX_TOKENS, embed, has_cjk, knows_cjk, tokenize
from tests.apptest_helpers import said


class TestGloVe:
    def test_all_words_load_offline(self, monkeypatch):
        def refuse(*args, **kwargs):
            raise OSError("network disabled in this test")

        monkeypatch.setattr(socket.socket, "connect", refuse)
        monkeypatch.setattr(socket, "getaddrinfo", refuse)
        kv = load_glove()
        assert len(kv) == 400_000 and kv.vector_size == 50
        assert kv.vectors.shape == (400_000, 50) and kv.vectors.dtype == np.float32
        assert len(kv.key_to_index) == 400_000

    def test_vectors_are_read_only(self, glove):
        assert not glove.vectors.flags.writeable
        with pytest.raises(ValueError):
            glove.vectors[0, 0] = 1.0

    def test_vectors_are_the_mapped_file_not_a_copy(self, glove):
        base = glove.vectors
        while isinstance(base, np.ndarray):
            base = base.base
        assert isinstance(base, mmap.mmap)
        assert Path(glove.vectors.filename).name == "glove_6B_50d_emb.npy"

    def test_limit_keeps_the_most_frequent_words(self, glove):
        kv = load_glove(limit=50_000)
        assert len(kv) == 50_000 and kv.index_to_key[:3] == ["the", ",", "."]
        assert kv.index_to_key == glove.index_to_key[:50_000]
        np.testing.assert_array_equal(kv.vectors[-1], glove.vectors[49_999])
        assert isinstance(kv.vectors, np.memmap) and not kv.vectors.flags.writeable

    def test_milk_is_closer_to_drank_than_to_cat(self, glove):
        assert glove.similarity("milk", "drank") > glove.similarity("milk", "cat")

    def test_most_similar_works_on_read_only_vectors(self, glove):
        near = [w for w, _ in glove.most_similar("milk", topn=10)]
        assert len(near) == 10 and "milk" not in near

    def test_nearest_leaves_the_vectors_file_out_of_resident_memory(self):
        kv = load_glove()  # its own mapping of the file
        expected = kv.most_similar("milk", topn=5)  # gensim's search reads every row of the 80 MB file
        assert resident_mb(kv.vectors) > 50
        assert nearest(kv, "milk", 5) == expected
        assert resident_mb(kv.vectors) < 5  # the pages went back to the page cache
        assert nearest(kv, "milk", 5) == expected  # read again from the cache: the same answer
        release(np.zeros(3))  # arrays in memory: nothing to release, no error

    def test_nearest_and_release_where_the_system_has_no_madv_dontneed(self, monkeypatch):
        monkeypatch.delattr(mmap, "MADV_DONTNEED")  # as on Windows
        kv = load_glove(limit=50_000)
        release(kv.vectors)
        assert nearest(kv, "milk", 5) == kv.most_similar("milk", topn=5)

    @pytest.mark.parametrize("typo, word", [("mlik", "milk"), ("drnak", "drank"), ("blak", "black")])
    def test_suggest_fixes_typos(self, glove, typo, word):
        assert word in suggest(glove, typo)

    @pytest.mark.parametrize("word", ["東京", "猫喝了牛奶", "молоко", "القط", "חלב", "とうきょう"])
    def test_words_in_other_scripts_get_no_latin_suggestions(self, glove, word):
        assert suggest(glove, word) == []  # GloVe's frequent words hold none of these scripts: no advice at all

    def test_suggestions_come_from_the_frequent_words(self, glove):
        assert glove.key_to_index["kefir"] > FREQUENT  # one edit from "kefirs", but rare
        found = suggest(glove, "kefirs")
        assert "kefir" not in found and all(glove.key_to_index[w] < FREQUENT for w in found)

    def test_long_words_get_one_edit_only(self, glove):
        assert suggest(glove, "attentoin") == ["attention"]  # a swap is one edit
        assert suggest(glove, "govrnmint") == []  # two edits from "government": too far for a long word
        assert suggest(glove, "governmnt") == ["government"]

    def test_sixty_four_long_unknown_words_all_get_an_answer(self, glove):
        rng = np.random.default_rng(0)
        words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), 12)) for _ in range(64)]
        answers = [suggest(glove, w) for w in words]
        assert [suggest(glove, w) for w in words] == answers  # the second time from the cache, the same
        assert all(len(a) <= 3 and all(w in glove.key_to_index for w in a) for a in answers)

    def test_chinese_text_stays_one_token_with_glove(self, glove):
        assert not knows_cjk(glove) and has_cjk("猫喝了牛奶")
        assert tokenize("猫喝了牛奶。", glove) == ["猫喝了牛奶", "。"]
        assert tokenize("The cat drank", glove) == ["the", "cat", "drank"]

    def test_embed_rows_and_missing_words(self, glove):
        rows, missing = embed(glove, ["milk", "drank", "qzxvbnmq", "milk"])
        np.testing.assert_array_equal(rows[0], glove["milk"])
        np.testing.assert_array_equal(rows[1], glove["drank"])
        np.testing.assert_array_equal(rows[2], np.zeros(50))
        np.testing.assert_array_equal(rows[3], rows[0])
        assert missing == ["qzxvbnmq"]

    def test_story_sentence_is_all_in_vocabulary(self, glove):
        rows, missing = embed(glove, tokenize("The black cat drank the milk. Don't they?"))
        assert missing == [] and rows.shape == (11, 50)


def resident_mb(mapped: np.ndarray) -> float:
    """Resident memory of the mapping that holds a memory-mapped array, from /proc/self/smaps."""
    address, inside = mapped.ctypes.data, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and ":" not in fields[0]:  # a mapping's first line: its address range first
                start, end = (int(x, 16) for x in fields[0].split("-"))
                inside = start <= address < end
            elif inside and fields[0] == "Rss:":
                return int(fields[1]) / 1024
    raise AssertionError("no mapping holds the array")


class TestSmallVectors:
    def test_keyed_vectors_does_not_copy(self):
        rows = np.arange(6, dtype=np.float32).reshape(3, 2)
        kv = keyed_vectors(["a", "b", "c"], rows)
        assert np.shares_memory(kv.vectors, rows)
        np.testing.assert_array_equal(kv["b"], [2, 3])

    def test_embed_on_hand_built_vectors(self, make_kv):
        kv = make_kv({"cat": [1, 0], "milk": [0, 1]})
        rows, missing = embed(kv, ["milk", "dog", "cat"])
        np.testing.assert_array_equal(rows, [[0, 1], [0, 0], [1, 0]])
        assert rows.dtype == np.float64 and missing == ["dog"]

    def test_embed_nothing(self, make_kv):
        rows, missing = embed(make_kv({"cat": [1, 0]}), [])
        assert rows.shape == (0, 2) and missing == []

    def test_suggest_orders_by_frequency_and_limits(self, make_kv):
        kv = make_kv({w: [i, 0] for i, w in enumerate(["car", "cat", "cap", "can", "bat"])})
        assert suggest(kv, "cax") == ["car", "cat", "cap"]
        assert suggest(kv, "cax", n=10) == ["car", "cat", "cap", "can"]

    def test_suggest_two_edits_and_none(self, make_kv):
        kv = make_kv({"milk": [1, 0], "drank": [0, 1]})
        assert suggest(kv, "mulks") == ["milk"]
        assert suggest(kv, "zzzzzzz") == []
        assert suggest(kv, "") == [] and suggest(kv, "x" * 31) == []

    def test_suggest_leaves_out_the_word_itself(self, make_kv):
        assert suggest(make_kv({"cat": [1, 0], "bat": [0, 1]}), "cat") == ["bat"]

    def test_suggest_stays_in_the_script_of_the_word(self, make_kv):
        kv = make_kv({"milk": [1, 0], "молоко": [0, 1], "東京": [1, 1], "京": [1, 2], "mulk": [2, 1]})
        assert suggest(kv, "малоко") == ["молоко"]
        assert suggest(kv, "mялк") == []  # mixed scripts: no advice
        assert suggest(kv, "東西") == ["東京"]
        assert suggest(kv, "mlk") == ["milk", "mulk"]

    def test_suggest_edits_swaps_inserts_and_deletes_at_any_position(self, make_kv):
        kv = make_kv({"drank": [1, 0]})
        for typo in ["drnak", "rdank", "drakn", "rank", "drak", "dran", "drannk", "xdrank", "drankx", "dbank", "drxnk"]:
            assert suggest(kv, typo) == ["drank"], typo
        assert suggest(kv, "knard") == []  # three edits

    def test_suggestions_are_cached_per_vector_set_and_forgotten_with_it(self, make_kv):
        kv = make_kv({"milk": [1, 0]})
        assert suggest(kv, "mlik") == ["milk"]
        lookup = sources.PER_VECTORS[kv][spelling.speller]
        assert suggest(kv, "mlik") == ["milk"] and lookup.cache_info().hits == 1
        before = len(sources.PER_VECTORS)
        del kv, lookup
        gc.collect()
        assert len(sources.PER_VECTORS) == before - 1
        assert suggest(make_kv({"silk": [1, 0]}), "mlik") == ["silk"]  # a new set of the same size: its own answers


def chinese_kv(make_kv):
    """A tiny vector set of Chinese words (and two English ones)."""
    words = ["猫", "喝", "了", "牛奶", "。", "我", "爱", "北京", "天安门", "cat", "milk"]
    return make_kv({w: [i, 1] for i, w in enumerate(words)})


class TestChinese:
    def test_chinese_vectors_segment_chinese_text(self, make_kv):
        kv = chinese_kv(make_kv)
        assert knows_cjk(kv)
        assert tokenize("猫喝了牛奶。", kv) == ["猫", "喝", "了", "牛奶", "。"]
        assert tokenize("我爱北京天安门", kv) == ["我", "爱", "北京", "天安门"]
        assert tokenize("The cat猫 喝了milk", kv) == ["the", "cat", "猫", "喝", "了", "milk"]
        rows, missing = embed(kv, tokenize("猫喝了牛奶。", kv))
        assert missing == [] and rows.shape == (5, 2)

    def test_segmented_words_count_towards_the_limit(self, make_kv):
        with pytest.raises(VectorsError) as e:
            tokenize("牛奶猫" * (MAX_TOKENS // 2 + 1), chinese_kv(make_kv))
        assert f"{2 * (MAX_TOKENS // 2 + 1)} tokens" in said(e.value)

    def test_vectors_without_chinese_words_keep_whole_runs(self, make_kv):
        kv = make_kv({**{f"word{i}": [i, 0] for i in range(40)}, "北京": [1, 1]})  # 1 in 41, as GloVe's few
        assert not knows_cjk(kv) and tokenize("猫喝了牛奶", kv) == ["猫喝了牛奶"] == tokenize("猫喝了牛奶")

    def test_has_cjk(self):
        assert has_cjk("猫") and has_cjk("milk 牛奶") and not has_cjk("milk") and not has_cjk("とうきょう")

    def test_jieba_loads_only_when_needed_quietly_and_offline(self, tmp_path):
        code = """
import socket, sys
def refuse(*a, **k):
    raise OSError("network disabled in this test")
socket.socket.connect, socket.getaddrinfo = refuse, refuse
import numpy as np
from engine.formats import keyed_vectors
from engine.tokens import tokenize
english = keyed_vectors(["cat", "milk"], np.ones((2, 2), dtype=np.float32))
chinese = keyed_vectors(["猫", "喝", "了", "牛奶"], np.ones((4, 2), dtype=np.float32))
tokenize("the cat 猫喝了牛奶", english)
assert "jieba" not in sys.modules
print(tokenize("猫喝了牛奶", chinese))
"""
        env = {**os.environ, "ATTENTION_VECTORS_CACHE": str(tmp_path)}
        done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parents[2], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "['猫', '喝', '了', '牛奶']" and done.stderr == ""


class TestTokenize:
    @pytest.mark.parametrize("text, tokens", [
        ("The black cat drank the milk.", ["the", "black", "cat", "drank", "the", "milk", "."]),
        ("LA BOLA ES AZUL", ["la", "bola", "es", "azul"]),
        ("Don't stop!", ["do", "n't", "stop", "!"]),
        ("It's John's ball, isn't it?", ["it", "'s", "john", "'s", "ball", ",", "is", "n't", "it", "?"]),
        ("We'll see; they've gone. I'd go, I'm sure.",
         ["we", "'ll", "see", ";", "they", "'ve", "gone", ".", "i", "'d", "go", ",", "i", "'m", "sure", "."]),
        ("You're (really) late...", ["you", "'re", "(", "really", ")", "late", ".", ".", "."]),
        ("Hello,world", ["hello", ",", "world"]),
        ("  the\tcat\n\n", ["the", "cat"]),
        ("state-of-the-art costs 3.14 in the U.S.", ["state-of-the-art", "costs", "3.14", "in", "the", "u.s", "."]),
        ("ＦＵＬＬ width", ["full", "width"]),
    ])
    def test_sentences(self, text, tokens):
        assert tokenize(text) == tokens

    def test_at_most_max_tokens(self):
        assert len(tokenize("cat " * MAX_TOKENS)) == MAX_TOKENS
        with pytest.raises(VectorsError) as e:
            tokenize("cat " * (MAX_TOKENS + 1))
        assert re.search(f"{MAX_TOKENS + 1} tokens.*at most {MAX_TOKENS}", said(e.value))

    @pytest.mark.parametrize("text", [
        "", " ", "   \t\n  ", "\n" * 100, "🥛🐈‍⬛ drank 🍼", "猫喝了牛奶。", "החתול שתה חלב", "القط شرب الحليب",
        "\u202eklim knard\u202c", "<script>alert('x')</script>", "<b>milk</b><img src=x onerror=alert(1)>",
        "milk\x00drank", "\x00" * 50, "zero\u200bwidth\u200d\ufeffjoiners\u2060", "\ud800 lone surrogate",
        "e\u0301 ﬁne café", "a" * 10_000, "milk " * 2_000, "'" * 10_000, "n't" * 3_000, "a-" * 5_000,
        "# Title\n\n**bold** _it_ [link](http://x.y) `code`\n- item", "\r\n\r\n", "'s 're n't", "\x1b[31mred\x1b[0m",
    ])
    def test_hostile_text_gives_tokens_or_a_clear_error(self, text):
        try:
            tokens = tokenize(text)
        except VectorsError as e:
            assert "tokens" in said(e)
            return
        assert isinstance(tokens, list) and len(tokens) <= MAX_TOKENS
        for t in tokens:
            assert isinstance(t, str) and t and t == t.strip() and "\x00" not in t and "\u200b" not in t


def text_error(data, **kwargs):
    """The message of the VectorsError that loading `data` as text vectors raises."""
    with pytest.raises(VectorsError) as e:
        load_text_vectors(data, **kwargs)
    return said(e.value)


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
    return said(e.value)


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
