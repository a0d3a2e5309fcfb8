"""Every string in both languages, and no English explanation left on any page in Chinese."""
import re

import pytest

from tests.app import PAGES, charts, run_page
from ui.text import LANGS, STRINGS, t

# Words that stay as they are in Chinese text: names, symbols and the sentences' own tokens.
KEEP = {"glove", "gensim", "word2vec", "softmax", "csv", "npy", "txt", "english", "the", "ball", "is", "blue",
        "black", "cat", "drank", "milk", "bola", "azul", "wikipedia", "gigaword", "transformer", "count", "dim"}


def test_every_key_has_both_languages():
    for key, texts in STRINGS.items():
        assert len(texts) == len(LANGS), key
        assert all(isinstance(x, str) and x.strip() for x in texts), key


def test_placeholders_match_across_languages():
    for key, (en, zh) in STRINGS.items():
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", zh)), key


def test_unknown_language_falls_back_to_english():
    assert t("app_title", "xx") == t("app_title", "en")


def visible_text(at) -> str:
    """Titles, markdown, captions, messages, widget labels and chart titles of a rendered page."""
    parts = [e.value for kind in (at.title, at.header, at.subheader, at.markdown, at.caption, at.error,
                                  at.warning, at.info, at.success) for e in kind]
    parts += [w.label for kind in (at.text_input, at.selectbox, at.toggle, at.number_input, at.slider,
                                   at.checkbox, at.radio, at.button) for w in kind]
    for spec in charts(at):
        parts += re.findall(r'"title": "([^"]*)"', __import__("json").dumps(spec, ensure_ascii=False))
    return " ".join(parts)


@pytest.mark.parametrize("page", [None, *PAGES])
def test_chinese_pages_have_no_english_explanations(page):
    at = run_page(page, {"lang": "zh"})
    assert not at.exception
    text = visible_text(at)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} - KEEP
    assert not words, f"English left on {page or 'home'} in Chinese mode: {sorted(words)[:20]}"
