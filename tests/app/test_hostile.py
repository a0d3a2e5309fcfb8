"""Hostile input through the widgets and the URL: a clear message or a sensible result, never a crash,
never NaN or infinity in a chart, and the app keeps working afterwards."""
import pickle
import sys
import tomllib

import numpy as np
import pyarrow as pa
import pytest

from engine.formats import MAX_UPLOAD_BYTES
from engine.layers import PRESETS
from engine.tokens import MAX_TOKENS
from harness.hostile import TEXTS
from kit.state import MAX_TEXT, cut, length
from lesson.settings import DEFAULTS, LIMITS
from tests.apptest_helpers import PAGES, ROOT, messages, open_layers, run_page, uploader
from tests.minilm_model import require_model_for

ALL = [None, *PAGES]  # None is the home page
FACTOR = "pages/2_Factor_matrix.py"
SENTENCE_FIELDS = ("sentence", "source_sentence", "target_sentence")
STORY = "The black cat drank the milk"
NORMAL = "The small cat drank the warm milk"
NOTICE = "Some settings in the link were not understood"
CUT_NOTICE = "Some text in the link was longer than the dashboard keeps and was cut"



def datasets(at):
    """Every dataset of every chart, one DataFrame each (stacking them would pad with NaN)."""
    return [pa.ipc.open_stream(d.data.data).read_pandas() for c in at.get("vega_lite_chart") for d in c.proto.datasets]


def sane(at, context=""):
    """No exception; every chart value finite and present; charts drawn or a message saying why not."""
    assert not at.exception, (context, [e.value for e in at.exception])
    for df in datasets(at):
        numbers = df.select_dtypes("number").to_numpy(dtype=float)
        assert np.isfinite(numbers).all(), (context, "non-finite number in chart data", df.head())
        assert not df.isna().any().any(), (context, "missing value in chart data", df[df.isna().any(axis=1)].head())
    assert at.get("vega_lite_chart") or messages(at).strip(), (context, "neither a chart nor a message")
    return at


def recovers(at, context=""):
    """A normal sentence typed, in every sentence box the page shows, after the bad input draws charts again."""
    boxes = [w.key for w in at.text_input if w.key in SENTENCE_FIELDS]
    assert boxes, (context, "no sentence box to type into")
    for name in boxes:
        at.text_input(key=name).set_value(NORMAL)
    sane(at.run(), f"{context}, then a normal sentence")
    assert at.get("vega_lite_chart"), (context, "no chart after a normal sentence")
    assert not at.error, (context, [e.value for e in at.error])
    assert all(at.query_params.get(name) == NORMAL for name in boxes)
    return at


def notice(at, sentence: str = NOTICE) -> str:
    return " ".join(w.value for w in at.warning if sentence in w.value)


# --- sentences: typed into the sidebar, and given in the URL ---

@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_typed_sentence(text):
    at = sane(run_page(FACTOR))
    at.sidebar.text_input(key="sentence").set_value(text).run()
    sane(at, "typed")
    shown = at.sidebar.text_input(key="sentence").value
    assert shown == text[:MAX_TEXT]  # the box holds at most MAX_TEXT characters, as in the browser
    recovers(at, "typed")


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_sentence_in_the_url(text):
    at = sane(run_page(FACTOR, {"sentence": text}), "url")
    if length(text) > MAX_TEXT:
        assert "sentence=" in notice(at, CUT_NOTICE) and f"cut to its first {MAX_TEXT:,}" in notice(at, CUT_NOTICE)
        assert at.sidebar.text_input(key="sentence").value == cut(text, MAX_TEXT) and not notice(at)
    else:
        assert at.sidebar.text_input(key="sentence").value == text and not notice(at)
    recovers(at, "url")


@pytest.mark.parametrize("text", [
    "", "a " * 500, "🥛🐈‍⬛", "猫喝了牛奶。", "\x00" * 20, "<script>alert(1)</script>", "milk milk", "x" * MAX_TEXT,
], ids=["empty", "500-tokens", "emoji", "chinese", "nul", "script", "repeat", "long-word"])
@pytest.mark.parametrize("page", ALL, ids=lambda p: p or "home")
def test_every_page_survives_bad_sentences_in_every_field(page, text):
    require_model_for(page)
    at = sane(run_page(page, dict.fromkeys(SENTENCE_FIELDS, text)), page)
    recovers(at, page)


def test_too_many_tokens_says_the_limit():
    at = sane(run_page(FACTOR, {"sentence": "a " * 500}))
    assert f"at most {MAX_TOKENS}" in " ".join(e.value for e in at.error) and not at.get("vega_lite_chart")


def test_only_unknown_words_say_so():
    at = sane(run_page(FACTOR, {"sentence": "🥛 猫喝了牛奶 qzxvbq"}))
    assert "vocabulary" in messages(at) and not at.get("vega_lite_chart")


# --- URL values: wrong types, out of range, unknown keys, repeats, very long ---

REFUSED = {
    "seed-not-a-number": {"q_seed": "abc"},
    "seed-fraction": {"k_seed": "1.5"},
    "seed-negative": {"v_seed": "-1"},
    "seed-too-big": {"q_seed": "10000"},
    "seed-100k-digits": {"q_seed": "9" * 100_000},
    "d_k-zero": {"d_k": "0"},
    "d_k-word": {"d_k": "sixteen"},
    "d_k-over-spec": {"d_k": "301"},
    "scale-zero": {"q_scale": "0"},
    "scale-negative": {"k_scale": "-1e6"},
    "scale-too-big": {"v_scale": "1e7"},
    "scale-nan": {"q_scale": "nan"},
    "scale-inf": {"k_scale": "inf"},
    "scale-minus-inf": {"v_scale": "-inf"},
    "scale-overflow": {"q_scale": "1e309"},
    "scale-100k-digits": {"q_scale": "1" * 100_000},
    "bool-maybe": {"scaled": "maybe"},
    "bool-two": {"softmax": "2"},
    "bool-empty": {"scaled": ""},
    "lang-unknown": {"lang": "fr"},
    "lang-case": {"lang": "ZH"},
    "preset-case": {"q_preset": "Random"},
    "preset-html": {"k_preset": "<b>identity</b>"},
    "sort-unknown": {"sort": "chaos"},
    "heads-zero": {"heads": "0"},
    "steps-huge": {"steps": "9" * 30},
    "lr-negative": {"lr": "-0.1"},
    "unknown-key": {"colour": "red"},
    "unknown-key-case": {"SENTENCE": STORY},
    "private-state-key": {"_settings": "x"},
    "proto-key": {"__proto__": "1"},
    "long-lang-100k": {"lang": "x" * 100_000},
    "long-key-100k": {"k" * 100_000: "1"},
    "position-negative": {"position": "-0.5"},
    "position-over-three": {"position": "3.5"},
    "position-nan": {"position": "nan"},
    "run-steps-zero": {"run_steps": "0"},
    "run-steps-huge": {"run_steps": "9" * 40},
    "run-lr-zero": {"run_lr": "0"},
    "run-lr-too-big": {"run_lr": "5"},
    "run-seed-negative": {"run_seed": "-5"},
    "tab-unknown": {"tab": "decoder"},
    "tab-html": {"tab": "<b>enc</b>"},
    "learn-start-unknown": {"learn_start": "pretrained"},
    "cosine-maybe": {"cosine": "maybe"},
    "v-preset-trained": {"v_preset": "trained"},
    "lang-made-up": {"lang": "xx"},
}


@pytest.mark.parametrize("query", REFUSED.values(), ids=REFUSED.keys())
def test_refused_url_value_gets_a_short_notice_and_the_default(query):
    at = sane(run_page(FACTOR, query), query)
    (key, value), = query.items()
    shown = notice(at)
    assert f"{key[:60]}=" in shown, shown[:300]
    assert len(shown) < 1000, f"the notice repeats the whole value: {len(shown)} characters"
    assert key not in at.query_params, "a refused value stayed in the address bar"
    assert at.get("vega_lite_chart")
    sane(at.run())
    assert not notice(at), "the notice should be shown once, not on every rerun"
    recovers(at, query)


CUT = {
    "long-query-100k": {"query": "x" * 100_000},
    "long-sentence-100k": {"sentence": "milk " * 20_000},
    "long-targets-emoji": {"targets": "🥛" * 5_000},
    "long-expected": {"expected": "drank > cat > black > " * 100},
}


@pytest.mark.parametrize("query", CUT.values(), ids=CUT.keys())
def test_a_text_longer_than_its_limit_is_cut_there_with_a_short_notice_once(query):
    at = sane(run_page(FACTOR, query), query)
    (key, value), = query.items()
    shown = notice(at, CUT_NOTICE)
    assert f"{key}=" in shown and len(shown) < 1000 and not notice(at), shown[:300]
    assert at.query_params[key] == cut(value, LIMITS.get(key, MAX_TEXT))
    sane(at.run())
    assert not notice(at, CUT_NOTICE), "the notice should be shown once, not on every rerun"
    recovers(at, query)


ODD = {  # values the URL may carry that a page might not be able to show
    "d_k-50": {"d_k": "50"},
    "d_k-100": {"d_k": "100"},
    "d_k-300": {"d_k": "300"},
    "heads-3": {"heads": "3"},
    "heads-300": {"heads": "300"},
    "words-not-in-sentence": dict.fromkeys(("query", "key", "key2", "dec_query", "cross_query"), "zebra"),
    "words-html": dict.fromkeys(("query", "key", "key2", "dec_query", "cross_query"), "<script>"),
    "targets-nan-inf": {"targets": "milk drank nan; milk cat inf; milk black -1e309; ; ;;"},
    "targets-junk": {"targets": "<b>x</b> y 1; milk; milk drank; === ; 猫 牛奶 1"},
    "learn-unknown": {"learn": "w_q,os.system,__import__"},
    "training-limits": {"lr": "10", "steps": "2000", "train_seed": "9999"},
    "lang-zh-and-sort": {"lang": "zh", "sort": "size", "causal": "0", "position": "0"},
    "position-full": {"position": "1"},
    "position-tiny": {"position": "0.0001"},
    "your-run-one-step": {"q_preset": "run", "k_preset": "run", "run_steps": "1", "run_lr": "1"},
    "your-run-other-seed": {"q_preset": "run", "k_preset": "run", "run_seed": "9999", "run_lr": "0.0001"},
    "learned-query-random-key": {"q_preset": "trained", "k_preset": "random", "k_seed": "0"},
    "learned-scaled-huge": {"q_scale": "1000000", "k_scale": "1000000"},
    "learned-d_k-1": {"d_k": "1"},
    "learned-d_k-50-no-position": {"d_k": "50", "position": "0"},
    "directions-only-from-random": {"cosine": "1", "learn_start": "random", "train_seed": "17"},
    "every-tab": {"tab": "cross", "heads": "16"},
    "decoder-tab-zh": {"tab": "dec", "lang": "zh"},
    "tracking-parameters": {"utm_source": "newsletter", "fbclid": "x" * 500, "gclid": "1"},
    "old-link-names": {"pair_sentence": "the dog ate the bone", "positional": "1"},
    "identity-cut": {"q_preset": "identity", "k_preset": "identity", "d_k": "8"},
    "sentence-of-one-word": {"sentence": "milk", "source_sentence": "milk"},
}


@pytest.mark.slow  # every page under every odd value: about a quarter of the fast lane's time
@pytest.mark.parametrize("query", ODD.values(), ids=ODD.keys())
@pytest.mark.parametrize("page", ALL, ids=lambda p: p or "home")
def test_odd_but_valid_url_values_draw_a_stable_view(page, query):
    """Whatever the URL holds, the page draws it, and the next run (any click) draws the same view."""
    require_model_for(page)
    at = sane(run_page(page, query), (page, query))
    first = [df.to_dict() for df in datasets(at)]
    sane(at.run(), (page, query))
    assert [df.to_dict() for df in datasets(at)] == first, (
        "the view changed on the next run: a widget cannot hold the value"
    )
    recovers(at, (page, query))


@pytest.mark.parametrize("values, expected", [
    (["<script>alert(1)</script>", STORY], STORY),
    ([STORY, "x" * 100_000], "x" * MAX_TEXT),
    (["a", "b", "milk"], "milk"),
], ids=["script-then-story", "story-then-too-long", "three"])
def test_repeated_sentence_key_uses_the_last_value(values, expected):
    at = sane(run_page(FACTOR, {"sentence": values}))
    assert at.sidebar.text_input(key="sentence").value == expected
    assert at.query_params.get("sentence", DEFAULTS.sentence) == expected


def test_repeated_number_key_with_a_bad_last_value_is_refused():
    at = sane(run_page(FACTOR, {"q_seed": ["5", "abc"], "k_seed": ["abc", "5"]}))
    assert "q_seed=abc" in notice(at) and "k_seed" not in notice(at)
    open_layers(at)
    assert at.sidebar.number_input(key="q_seed").value == DEFAULTS.q_seed
    assert at.sidebar.number_input(key="k_seed").value == 5


# --- no file-system path from the URL ---

OPENED: list[str] = []
WATCHING: list[bool] = []


def _audit(event, args):
    if event == "open" and WATCHING and args and isinstance(args[0], (str, bytes)):
        OPENED.append(str(args[0]))


sys.addaudithook(_audit)  # audit hooks cannot be removed; this one only records while a test watches


@pytest.mark.parametrize("source", [
    "../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "~/.ssh/id_rsa", "C:\\Windows\\win.ini",
    "\\\\server\\share\\vectors.txt", "glove/../../../etc/passwd", "https://example.invalid/vectors.txt",
    "/proc/self/environ", "glove\x00/etc/passwd",
])
def test_a_path_in_the_url_is_refused_and_never_opened(source):
    OPENED.clear()
    WATCHING.append(True)
    try:
        at = sane(run_page(FACTOR, {"source": source, "sentence": STORY}))
    finally:
        WATCHING.clear()
    assert "source=" in notice(at)
    assert at.sidebar.selectbox(key="source").value == DEFAULTS.source
    touched = [p for p in OPENED if any(part in p for part in ("passwd", "id_rsa", "win.ini", "environ", "share"))]
    assert touched == []


def test_xsrf_protection_stays_on():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["enableXsrfProtection"] is True


# --- extreme weights ---

@pytest.mark.parametrize("softmax", ["1", "0"], ids=["softmax", "raw"])
@pytest.mark.parametrize("preset", PRESETS)
def test_huge_weights_on_all_three_layers(preset, softmax):
    huge = {f"{x}_{p}": v for x in "qkv" for p, v in (("preset", preset), ("scale", "1000000"))}
    at = sane(run_page(FACTOR, {**huge, "d_k": "50", "softmax": softmax, "scaled": "0", "sentence": STORY}))
    assert not notice(at) and at.get("vega_lite_chart")
    recovers(at, preset)


@pytest.mark.parametrize("page", ALL, ids=lambda p: p or "home")
def test_every_page_survives_huge_weights(page):
    require_model_for(page)
    huge = {f"{x}_{p}": v for x in "qkv" for p, v in (("preset", "scaled identity"), ("scale", "1000000"))}
    at = sane(run_page(page, {**huge, "d_k": "50", "scaled": "0", "position": "0"}), page)
    recovers(at, page)


def test_huge_weights_typed_into_the_widgets():
    at = sane(open_layers(run_page(FACTOR, {"sentence": STORY})))
    for x in "qkv":
        at.sidebar.selectbox(key=f"{x}_preset").set_value("rotation")
        at.sidebar.number_input(key=f"{x}_scale").set_value(1e6)
    at.sidebar.number_input(key="d_k").set_value(50)
    sane(at.run())
    assert at.query_params.get("q_scale") == "1000000" and at.get("vega_lite_chart")
    recovers(at)


def test_tiny_weights_give_uniform_attention_not_nan():
    tiny = {f"{x}_{p}": v for x in "qkv" for p, v in (("preset", "scaled identity"), ("scale", "0.001"))}
    at = sane(run_page(FACTOR, {**tiny, "sentence": STORY}))
    assert at.get("vega_lite_chart")


# --- uploaded vectors through the sidebar (engine cases: tests/engine/test_vectors.py) ---

VALID = b"milk 0.1 0.2 0.3\ndrank 0.2 0.1 -0.3\ncat -0.1 0.4 0.2\nthe 0.0 0.1 0.0\n"
UPLOADS = {
    "empty": ("v.txt", b""),
    "binary-junk": ("v.txt", np.random.default_rng(0).bytes(4096)),
    "mixed-dimensions": ("v.txt", b"milk 1 2 3\ndrank 1 2\n"),
    "nan-and-inf": ("v.txt", b"milk 1 nan 3\ndrank 1 inf 2\n"),
    "over-the-size-cap": ("v.txt", b"milk 1 2\n" * (MAX_UPLOAD_BYTES // 9 + 1)),
    "header-lies": ("v.txt", b"100 3\nmilk 1 2 3\ndrank 1 2 3\n"),
    "pickle-renamed": ("v.txt", pickle.dumps({"milk": [0.1, 0.2]})),
    "npy-without-word-list": ("v.npy", b"\x93NUMPY junk"),
}


def upload(files):
    """The factor page after uploading `files` [(name, bytes)] as the visitor's vectors."""
    at = sane(run_page(FACTOR, {"source": "upload", "sentence": STORY}))
    uploader(at).set_value([(n, data, "application/octet-stream") for n, data in files])
    return sane(at.run())


@pytest.mark.parametrize("name", UPLOADS)
def test_bad_upload_says_why_and_keeps_the_previous_vectors(name):
    at = upload([UPLOADS[name]])
    assert any("could not be used" in e.value for e in at.error), messages(at)
    assert at.get("vega_lite_chart"), "the built-in vectors should still be drawn"
    uploader(at).set_value(None)  # the visitor removes the bad file
    recovers(at, name)


def test_good_upload_after_a_bad_one_is_used():
    at = upload([UPLOADS["pickle-renamed"]])
    uploader(at).set_value([("good.txt", VALID, "text/plain")])
    sane(at.run())
    assert not at.error and any("4 words of 3 dimensions" in c.value for c in at.sidebar.caption)
