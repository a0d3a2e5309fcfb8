"""Settings <-> URL values: parsing, refusals with reasons, and the round trip through to_query."""
import math
from dataclasses import FrozenInstanceError, fields, replace
from urllib.parse import quote_plus, urlencode

import pytest

from kit.state import MAX_TEXT, Invalid, cut, length, to_query
from kit.text import t
from lesson.settings import DEFAULTS, LIMITS, NAMES, SPEC, Settings, from_values, parse
from tests.longest import checked, longest_query


def refusal(name: str, raw) -> str:
    """Why parse refuses the value, as the notice says it in English."""
    with pytest.raises(Invalid) as e:
        parse(name, raw)
    return t(f"url_{e.value.code}", **e.value.values)


def test_a_refusal_is_a_coded_error_said_in_both_languages():
    from engine.errors import CodedError
    from kit.text import error_text, in_language
    for code in Invalid.CODES:
        e = Invalid(code, lo="1", hi="2", options="a, b", max="3")
        with in_language("zh"):
            chinese = error_text(e)
        assert isinstance(e, CodedError) and error_text(e) != chinese
        assert error_text(e) == t(f"url_{code}", **e.values)
    with pytest.raises(KeyError):
        Invalid("no_such_reason")


def other_value(name: str):
    """A valid value for field `name` that differs from its default."""
    default = getattr(DEFAULTS, name)
    if isinstance(default, bool):
        return not default
    if isinstance(default, (int, float)):
        lo, hi = SPEC[name]
        return type(default)(hi if default != hi else lo)
    if name in SPEC:
        return next(c for c in SPEC[name] if c != default)
    if name in checked():  # the id of a held-out treebank sentence, the name of a head
        return min(checked()[name])
    return default + " “ß” 牛奶 & <b>?x=1#"


def test_defaults_give_an_empty_query():
    assert to_query(DEFAULTS) == {}
    assert from_values({}) == (DEFAULTS, [])


def test_every_setting_survives_the_round_trip():
    changed = Settings(**{name: other_value(name) for name in NAMES})
    query = to_query(changed)
    assert set(query) == set(NAMES)
    assert all(isinstance(v, str) for v in query.values())
    assert from_values(query) == (changed, [])


@pytest.mark.parametrize("name", NAMES)
def test_each_setting_alone_round_trips(name):
    one = replace(DEFAULTS, **{name: other_value(name)})
    assert to_query(one) == {name: to_query(one)[name]}
    assert from_values(to_query(one)) == (one, [])


def test_floats_round_trip_exactly():
    s = replace(DEFAULTS, q_scale=0.1 + 0.2, lr=1e-4, k_scale=123456.789)
    assert from_values(to_query(s))[0] == s


@pytest.mark.parametrize("raw, value", [("1", True), ("true", True), ("Yes", True), ("on", True), (True, True),
                                        ("0", False), ("FALSE", False), ("no", False), ("off", False), (False, False)])
def test_booleans(raw, value):
    assert parse("scaled", raw) is value


def test_booleans_are_written_as_one_and_zero():
    assert to_query(replace(DEFAULTS, scaled=False, causal=False)) == {"scaled": "0", "causal": "0"}


@pytest.mark.parametrize("raw", ["maybe", "", "2", "None"])
def test_bad_booleans_are_refused(raw):
    assert "true or false" in refusal("softmax", raw)


def test_whole_numbers():
    assert parse("d_k", "8") == 8
    assert parse("d_k", " 8 ") == 8
    assert parse("q_seed", 0) == 0


@pytest.mark.parametrize("name, raw", [("d_k", "abc"), ("d_k", "0"), ("d_k", "301"), ("d_k", "8.5"), ("d_k", "1e2"),
                                       ("q_seed", "-1"), ("steps", ""), ("heads", "9" * 400)])
def test_bad_whole_numbers_are_refused_with_the_range(name, raw):
    lo, hi = SPEC[name]
    assert f"a whole number from {lo:g} to {hi:g}" in refusal(name, raw)


def test_numbers():
    assert parse("q_scale", "2.5") == 2.5
    assert parse("lr", "1e-3") == 1e-3
    assert isinstance(parse("q_scale", "3"), float)


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-inf", "1e400", "0", "-1", "x", "1e7"])
def test_bad_numbers_are_refused(raw):
    assert "a number from" in refusal("q_scale", raw)


@pytest.mark.parametrize("name", [n for n in NAMES if isinstance(SPEC.get(n), tuple)
                                  and all(isinstance(c, str) for c in SPEC[n])])
def test_choices_accept_their_options_and_refuse_others(name):
    for choice in SPEC[name]:
        assert parse(name, choice) == choice
    assert "expected one of" in refusal(name, "fr")


def test_language_and_new_page_settings():
    assert parse("lang", "zh") == "zh"
    assert parse("pair_rows", "embedding") == "embedding"
    assert parse("sort", "size") == "size"
    assert DEFAULTS.expected == "drank > cat > black"
    assert parse("expected", "black > cat") == "black > cat"


def test_text_is_kept_verbatim_up_to_the_limit_and_cut_there_with_a_notice():
    text = "<script>alert(1)</script> 🐱 牛奶 " + "x" * 100
    assert parse("sentence", text) == text
    assert parse("sentence", "a" * MAX_TEXT) == "a" * MAX_TEXT
    s, notices = from_values({"sentence": "牛奶" * MAX_TEXT, "d_k": "8"})
    assert (s.sentence, s.d_k) == ("牛奶" * (MAX_TEXT // 2), 8)
    (name, shown, reason), = notices
    assert (name, reason.code, len(shown)) == ("sentence", "cut", 60)
    assert t("url_cut", **reason.values) == f"cut to its first {MAX_TEXT:,} characters"


def test_an_emoji_counts_two_characters_as_in_the_browsers_text_box_and_is_never_cut_in_half():
    assert [length(x) for x in ("a", "牛", "😀", "🐈‍⬛", "\ud800")] == [1, 1, 2, 4, 1]
    assert parse("sentence", "😀" * MAX_TEXT) == "😀" * (MAX_TEXT // 2)
    assert parse("sentence", "a" + "😀" * MAX_TEXT) == "a" + "😀" * (MAX_TEXT // 2 - 1)
    assert cut("ab😀", 3) == "ab" and cut("ab😀", 4) == "ab😀"


@pytest.mark.parametrize("name", [n for n in NAMES if isinstance(getattr(DEFAULTS, n), str) and n not in SPEC
                                  and n not in checked()])
def test_every_text_is_cut_at_its_own_limit(name):
    limit = LIMITS.get(name, MAX_TEXT)
    assert parse(name, "x" * limit) == "x" * limit and parse(name, "x" * (limit + 1)) == "x" * limit


def test_word_picks_hold_any_word_of_glove_with_its_position(glove):
    longest = max(glove.index_to_key, key=len)
    assert parse("query", f"{longest} (64)") == f"{longest} (64)"


def test_longest_query_is_the_longest_link_to_a_view():
    texts = [n for n in NAMES if isinstance(getattr(DEFAULTS, n), str) and n not in SPEC and n not in checked()]
    longest_view = replace(DEFAULTS, **{name: "中" * LIMITS.get(name, MAX_TEXT) for name in texts},
                           **{n: max(values, key=len) for n, values in checked().items()},
                           **{n: max(SPEC[n], key=len) for n in SPEC if isinstance(getattr(DEFAULTS, n), str)})
    assert from_values(to_query(longest_view)) == (longest_view, [])
    written = len(urlencode(to_query(longest_view)))
    assert written <= longest_query() < written + 1000  # numbers are counted at 24 characters each, as floats
    assert all(len(quote_plus(c)) <= 9 * length(c) for c in ("😀", "é", "中", "!", " ", "🐈‍⬛"))


def test_from_values_keeps_the_good_and_reports_the_bad():
    s, bad = from_values({"d_k": "abc", "lang": "fr", "colour": "red", "q_seed": "7", "sentence": "Hi there"})
    assert (s.d_k, s.lang, s.q_seed, s.sentence) == (DEFAULTS.d_k, DEFAULTS.lang, 7, "Hi there")
    assert {name for name, _, _ in bad} == {"d_k", "lang", "colour"}
    reasons = {name: reason for name, _, reason in bad}
    assert {name: r.code for name, r in reasons.items()} == {"d_k": "whole", "lang": "choice", "colour": "unknown"}
    assert t(f"url_{reasons['colour'].code}") == "unknown setting"
    said = {name: t(f"url_{r.code}", **r.values) for name, r in reasons.items()}
    assert "whole number from 1 to 300" in said["d_k"] and "en, zh" in said["lang"]
    assert reasons["lang"].values == {"options": "en, zh"}


def test_refused_values_are_shortened_in_the_report():
    _, bad = from_values({"d_k": "9" * 500})
    assert len(bad[0][1]) <= 60


def test_settings_are_frozen_and_every_field_has_a_default():
    with pytest.raises(FrozenInstanceError):
        DEFAULTS.d_k = 3
    assert [f.name for f in fields(Settings)] == list(NAMES)
    assert all(not (isinstance(v, float) and math.isnan(v)) for v in map(lambda n: getattr(DEFAULTS, n), NAMES))


def test_every_range_and_choice_names_a_real_field_and_holds_its_default():
    for name, spec in SPEC.items():
        assert name in NAMES
        default = getattr(DEFAULTS, name)
        if isinstance(default, str):
            assert default in spec
        else:
            assert spec[0] <= default <= spec[1]
