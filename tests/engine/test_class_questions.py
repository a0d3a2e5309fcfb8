"""Class mode's questions, nicknames and rate limits, checked before anything reaches the class database."""
import json
import threading
import time
from collections import OrderedDict

import pytest

from classroom import answering, classes
from classroom.classes import Question
from classroom.limiter import ANSWERS_PER_STUDENT, Limiter
from tests.engine.test_classroom import MILK, T0, join, refused


def test_a_session_answering_ten_thousand_times_is_stopped(db):
    opened = classes.start(db, MILK, now=T0)
    token = join(db, opened.code, None, now=T0)
    limiter = Limiter(*ANSWERS_PER_STUDENT)
    kept = []
    for i in range(10_000):  # 10,000 tries in 10 seconds
        now, words = T0 + i / 1000, [MILK.keys[i % len(MILK.keys)]]
        if limiter.allow("session-1", now):
            answering.answer(db, opened.code, token, 1, words, now=now)
            kept.append(words)
    assert len(kept) == ANSWERS_PER_STUDENT[0] == 30
    assert classes.mine(db, opened.code, token, now=T0 + 10) == tuple(kept[-1])
    assert limiter.allow("session-1", T0 + 60.0) and not limiter.allow("session-1", T0 + 60.0005)


def test_the_limiter_slides_its_window_per_key():
    limiter = Limiter(3, 10.0)
    assert [limiter.allow("a", t) for t in (0.0, 1.0, 2.0, 3.0, 9.99)] == [True, True, True, False, False]
    assert limiter.allow("b", 3.0)
    assert limiter.allow("a", 10.0) and not limiter.allow("a", 10.5)  # the call at 0 has left the window
    assert limiter.allow("a", 11.0) and not limiter.allow("a", 11.5)
    assert refused("rate_limited", limiter.check, "a", 11.5).values == {"seconds": 10}


def test_the_limiter_forgets_old_keys_and_keeps_at_most_its_number_of_keys():
    limiter = Limiter(2, 60.0, keys=100)
    for i in range(10_000):
        assert limiter.allow(f"session-{i}", i / 100)
        assert len(limiter) <= 100
    assert limiter.allow("session-9999", 100.0) and not limiter.allow("session-9999", 100.0)  # still counted
    limiter.allow("late", 1000.0)
    assert len(limiter) == 1


class SlowTimes(OrderedDict):
    """A Limiter's store that lets other threads run between reading a key's calls and writing them back."""

    def pop(self, *args):
        calls = super().pop(*args)
        time.sleep(0.0002)
        return calls


def test_the_limiter_counts_exactly_under_threads():
    limiter, allowed = Limiter(200, 60.0), [[] for _ in range(8)]
    limiter._times = SlowTimes()
    barrier = threading.Barrier(len(allowed))

    def calls(mine: list):
        barrier.wait()
        mine.extend(limiter.allow("class", 5.0) for _ in range(50))
    threads = [threading.Thread(target=calls, args=(mine,)) for mine in allowed]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(map(sum, allowed)) == 200 and sum(map(len, allowed)) == 400


def test_a_huge_nickname_is_refused_before_the_database():
    refused("nickname_long", join, object(), "ABCDEFGH", "x" * 1_000_000, now=T0)  # object(): no database


@pytest.mark.parametrize("nickname, code", [
    ("a" * 21, "nickname_long"), (" " + "a" * 21 + " ", "nickname_long"), ("Ana\nBo", "nickname_chars"),
    ("A\x00", "nickname_chars"), ("A\tB", "nickname_chars"), ("\u202eanA", "nickname_chars"),
    ("A\u2028B", "nickname_chars"), ("\ud800", "nickname_chars"), ("A\x85B", "nickname_chars"), (7, "nickname_chars"),
])
def test_a_nickname_too_long_or_with_control_characters_is_refused(nickname, code):
    refused(code, join, object(), "ABCDEFGH", nickname, now=T0)


def test_nicknames_are_stripped_and_may_be_twenty_characters_of_any_script(db):
    opened = classes.start(db, MILK, now=T0)
    names = ("  " + "ü" * 20 + "\n", "小明", "👩‍🏫 Ms. Li", "", None)
    tokens = [join(db, opened.code, name, now=T0 + i) for i, name in enumerate(names)]
    for token in tokens:
        answering.answer(db, opened.code, token, 1, ["cat"], now=T0 + 9)
    listed = classes.answers(db, opened.code, opened.teacher_key, now=T0 + 10)
    assert [row["nickname"] for row in sorted(listed, key=lambda row: row["student"])] == [
        "ü" * 20, "小明", "👩‍🏫 Ms. Li", None, None]


def good(**changes) -> dict:
    return {"view": "relevance", "link": "?q=milk", "query": "milk", "keys": ("cat", "drank", "black"), "ordered": 1,
            "answer": ("drank",), "reason": "angle", **changes}


@pytest.mark.parametrize("field, changes", [
    ("keys", {"keys": ("drank",)}), ("keys", {"keys": tuple(f"w{i}" for i in range(65))}),
    ("keys", {"keys": ("cat", "cat", "drank")}), ("keys", {"keys": ("cat", "d" * 101)}),
    ("keys", {"keys": ("cat", "")}),
    ("keys", {"keys": ["cat", "drank"]}), ("keys", {"keys": ("cat", "dr\nank")}), ("ordered", {"ordered": 0}),
    ("ordered", {"ordered": 4, "keys": ("a", "b", "c", "d")}), ("ordered", {"ordered": True}),
    ("answer", {"answer": ("milk",)}), ("answer", {"answer": ("cat", "drank")}), ("answer", {"answer": ()}),
    ("answer", {"answer": ["drank"]}), ("ordered", {"ordered": 3, "keys": ("a", "b")}),
    ("reason", {"reason": "size"}), ("link", {"link": "?" + "q" * 2000}), ("link", {"link": "?q=\r\nX: y"}),
    ("query", {"query": ""}), ("query", {"query": "m" * 101}), ("view", {"view": None}),
])
def test_a_question_out_of_its_limits_is_refused(field, changes):
    assert refused("bad_question", Question, **good(**changes)).values == {"field": field}


def test_a_question_at_its_limits_is_kept_through_json():
    widest = Question(**good(keys=tuple(f"{i:03d}" + "k" * 97 for i in range(64)), ordered=3,
                             answer=tuple(f"{i:03d}" + "k" * 97 for i in (5, 0, 63)), link="?" + "q" * 1999))
    assert Question.from_json(widest.to_json()) == widest
    assert Question.from_json(MILK.to_json()) == MILK


@pytest.mark.parametrize("data", ["", "[]", "{", "null", '{"view": 1}', "[" * 100_000 + "]" * 100_000,
                                  json.dumps({**good(), "extra": 1}), json.dumps(good(keys="cat drank"))])
def test_a_question_from_json_that_is_not_one_is_refused(data):
    refused("bad_question", Question.from_json, data)


def test_start_and_advance_check_a_question_bent_after_it_was_made(db):
    bent = Question(**good())
    object.__setattr__(bent, "answer", ("milk",))
    refused("bad_question", classes.start, db, bent, now=T0)
    opened = classes.start(db, MILK, now=T0)
    refused("bad_question", classes.advance, db, opened.code, opened.teacher_key, bent, now=T0)
    assert classes.room(db, opened.code, now=T0).question_no == 1
