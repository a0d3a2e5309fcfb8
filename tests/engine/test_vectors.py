"""Vectors: the real GloVe package, tokenize, embed, suggest and hostile user files."""
import gc
import mmap
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import per_vectors, spelling
from engine.errors import VectorsError
from engine.formats import keyed_vectors
from engine.sources import load_glove, nearest, release
from engine.spelling import FREQUENT, suggest
from engine.tokens import MAX_TOKENS, embed, has_cjk, knows_cjk, tokenize
from tests.apptest_helpers import error_message


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
        lookup = per_vectors.PER_VECTORS[kv][spelling.speller]
        assert suggest(kv, "mlik") == ["milk"] and lookup.cache_info().hits == 1
        before = len(per_vectors.PER_VECTORS)
        del kv, lookup
        gc.collect()
        assert len(per_vectors.PER_VECTORS) == before - 1
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
        assert f"{2 * (MAX_TOKENS // 2 + 1)} tokens" in error_message(e.value)

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
        assert re.search(f"{MAX_TOKENS + 1} tokens.*at most {MAX_TOKENS}", error_message(e.value))

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
            assert "tokens" in error_message(e)
            return
        assert isinstance(tokens, list) and len(tokens) <= MAX_TOKENS
        for t in tokens:
            assert isinstance(t, str) and t and t == t.strip() and "\x00" not in t and "\u200b" not in t
