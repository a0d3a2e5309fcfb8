"""Every catalogue holds every key with the same placeholders, a new language is a column of the catalogues that
alone reaches every text of a page (the run's language, set once), and no English explanation is left on any page in
Chinese."""
import json
import re
import threading
import types

import pytest

from engine import corpus, tokens
from engine.errors import VectorsError
from kit.text import LANGS, error_text, in_language, name, t, with_language
from lesson import settings
from tests.apptest_helpers import PAGES, chart_data, charts, messages, run_page

ENGLISH = LANGS["en"].STRINGS

# Words that stay as they are in Chinese text: names, symbols and the sentences' own tokens.
KEEP = {"glove", "gensim", "word2vec", "softmax", "csv", "npy", "txt", "english", "the", "ball", "is", "blue",
        "black", "cat", "drank", "milk", "bola", "azul", "wikipedia", "gigaword", "transformer", "count", "dim",
        "numpy"}
NAMED = {"minilm", "bert", "base", "clark", "what", "does", "look", "pypi"}  # all-MiniLM-L6-v2, BERT-base, Clark et
# al.'s paper "What Does BERT Look At?", named on pages 7 and 8, and PyPI, where page 8 says its files come from


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"{(\w+)", text))


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_catalogue_has_every_key_with_the_same_placeholders(lang):
    catalogue = LANGS[lang].STRINGS
    assert set(catalogue) == set(ENGLISH)
    for key, text in catalogue.items():
        assert isinstance(text, str) and text.strip(), key
        assert placeholders(text) == placeholders(ENGLISH[key]), key


def test_the_language_switch_shows_every_language_under_its_own_distinct_name():
    names = [name(lang) for lang in LANGS]
    assert names == ["English", "简体中文"] and len(set(names)) == len(LANGS)


def test_every_error_code_the_engine_raises_has_a_sentence():
    for code in VectorsError.CODES:
        assert f"err_{code}" in ENGLISH
    for code in corpus.CODES:
        assert f"err_corpus_{code}" in ENGLISH
    with in_language("zh"):
        said = error_text(tokens.TooManyTokens(70))
    assert said == LANGS["zh"].STRINGS["err_too_many_tokens"].format(count=70, max=tokens.MAX_TOKENS)
    for code in ("bool", "number", "whole", "choice", "cut", "unknown"):
        assert f"url_{code}" in ENGLISH


def test_a_third_language_is_one_catalogue_and_an_entry_in_langs(monkeypatch):
    """What a translator adds: a column of every catalogue, read into LANGS as the language's STRINGS. Nothing else
    changes."""
    fake = types.SimpleNamespace(STRINGS={k: "·" + v for k, v in ENGLISH.items()} | {"language_name": "Pig Latin"})
    monkeypatch.setitem(LANGS, "xx", fake)
    assert settings.parse("lang", "xx") == "xx"
    at = run_page("pages/2_Factor_matrix.py", {"lang": "xx"})
    assert not at.exception and not messages(at).count("unknown")
    assert at.title[0].value == "·" + ENGLISH["factor_title"] and chart_data(at)
    assert "Pig Latin" in at.sidebar.button_group(key="lang").options


OWN = "⟦", "⟧"  # around every string of the made-up catalogue below


def shown_strings(at) -> list[str]:
    """Every piece of text a rendered page shows that is not the learner's data: text elements, widget labels, help
    and placeholders, table column labels, and every chart's titles and screen-reader sentence."""
    found = [e.value for kind in (at.title, at.header, at.subheader, at.markdown, at.caption, at.error, at.warning,
                                  at.info, at.success) for e in kind]
    for kind in ("text_input", "selectbox", "toggle", "number_input", "slider", "checkbox", "radio", "button",
                 "button_group", "multiselect", "expander", "popover", "page_link", "download_button"):
        for w in at.get(kind):
            found += [text for text in (getattr(w.proto, name, "") for name in ("label", "help", "placeholder"))
                      if isinstance(text, str) and text]
    for table in at.get("arrow_data_frame"):
        found += [c["label"] for c in json.loads(table.proto.columns).values() if c.get("label")]
    for spec in charts(at):
        found += [spec["description"], *chart_titles(spec)]
    return found


def chart_titles(spec) -> list[str]:
    """Every title in a Vega-Lite spec: the chart's, its parts', axes', legends' and tooltips'."""
    if isinstance(spec, list):
        return [x for part in spec for x in chart_titles(part)]
    if not isinstance(spec, dict):
        return []
    titles = [v.get("text") if isinstance(v, dict) else v for k, v in spec.items() if k == "title"]
    titles = [json.loads(x["expr"].rsplit(" : ", 1)[1]) if isinstance(x, dict) else x for x in titles]  # kit.narrow
    return [x for x in titles if isinstance(x, str) and x] + [
        x for k, v in spec.items() if k not in ("title", "datasets", "data") for x in chart_titles(v)]


def test_a_page_in_a_language_the_test_registers_shows_only_that_catalogue(monkeypatch):
    """The run's language is set once, from the visitor's Settings: a catalogue registered here, which no code names,
    reaches every text, label and chart title of a page, its sidebar's included."""
    fake = types.SimpleNamespace(STRINGS={k: OWN[0] + v + OWN[1] for k, v in ENGLISH.items()})
    monkeypatch.setitem(LANGS, "xx", fake)
    at = run_page("pages/2_Factor_matrix.py", {"lang": "xx"})
    assert not at.exception and charts(at)
    shown = shown_strings(at)
    assert len(shown) > 60 and at.title[0].value == OWN[0] + ENGLISH["factor_title"] + OWN[1]
    assert not [text for text in shown if OWN[0] not in text], "not from the registered catalogue"
    left = {w.lower() for text in shown for w in re.findall(r"[A-Za-z]{4,}", unmarked(text))}
    assert not left - {"black", "drank", "milk"}, "words from another catalogue, or none"  # the sentence's words stay


def unmarked(text: str) -> str:
    """What is left of a text once every string of the made-up catalogue (the innermost first) is taken out."""
    while (shorter := re.sub(f"{OWN[0]}[^{''.join(OWN)}]*{OWN[1]}", "", text)) != text:
        text = shorter
    return text


def test_a_function_kept_in_a_runs_language_speaks_it_in_a_thread_of_its_own():
    """A new thread starts in the default language; with_language() carries the run's to it (a fragment's own rerun)."""
    with in_language("zh"):
        stop = with_language(lambda: t("learn_stop"))
    said = []
    thread = threading.Thread(target=lambda: said.append((stop(), t("learn_stop"))))
    thread.start()
    thread.join()
    assert said == [(LANGS["zh"].STRINGS["learn_stop"], ENGLISH["learn_stop"])]


def test_unknown_language_falls_back_to_english():
    with in_language("xx"):
        said = t("app_title")
    assert said == t("app_title") == ENGLISH["app_title"]


def visible_text(at) -> str:
    """Titles, markdown, captions, messages, widget labels and chart titles of a rendered page."""
    parts = [e.value for kind in (at.title, at.header, at.subheader, at.markdown, at.caption, at.error,
                                  at.warning, at.info, at.success) for e in kind]
    parts += [w.label for kind in (at.text_input, at.selectbox, at.toggle, at.number_input, at.slider,
                                   at.checkbox, at.radio, at.button) for w in kind]
    for spec in charts(at):
        parts += re.findall(r'"title": "([^"]*)"', json.dumps(spec, ensure_ascii=False)) + chart_titles(spec)
    return " ".join(parts)


def quoted(page, text: str = "") -> set[str]:
    """English a page shows in Chinese as data: page 7 quotes a held-out treebank sentence, its id and the treebank's
    relation names; page 8 the treebank's relations, and code and file names (`…` in `text`); both name the models
    and the paper (NAMED)."""
    from engine import treebank
    from heldout import sentences
    if page == "pages/8_Real_model.py":
        code = {w.lower() for span in re.findall(r"`([^`]*)`", text) for w in re.findall(r"[A-Za-z]+", span)}
        names = {part for r in sentences.RELATIONS for part in r.split(":")}
        return code | names | NAMED
    if page != "pages/7_Real_sentences.py":
        return set()
    (s,) = [x for x in treebank.read() if x.sent_id == sentences.DEFAULT]
    names = {part for r in s.relations + sentences.RELATIONS for part in r.split(":")}
    return set(s.tokens) | set(re.findall(r"[a-z]+", s.sent_id.lower())) | names | NAMED


@pytest.mark.parametrize("page", [None, *PAGES])
def test_chinese_pages_have_no_english_explanations(page):
    at = run_page(page, {"lang": "zh"})
    assert not at.exception
    text = visible_text(at)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} - KEEP - quoted(page, text)
    assert not words, f"English left on {page or 'home'} in Chinese mode: {sorted(words)[:20]}"


def test_page_5s_chinese_order_sentence_reads_as_one_sentence():
    with in_language("zh"):
        order = t("learn_order_row", q="milk", keys="drank 0.68 > cat 0.10")
        sentences = [t(key, order=order, end=200) for key in ("learn_start_missed", "learn_start_held",
                                                             "learn_verdict_missed")]
    for said in sentences:
        assert "为 对" not in said and "而言" not in said  # no clause spliced into another
        assert "“milk” 的各分数从高到低为 drank 0.68 > cat 0.10" in said
