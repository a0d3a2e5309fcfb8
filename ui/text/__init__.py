"""Every user-facing string comes from a catalogue, one module per language (en.py, zh.py), keyed by name.

A language is a catalogue module with STRINGS (every key of en.py, the same placeholders; `language_name` is how the
language switch shows it) and an entry in LANGS: nothing else in the dashboard names a language."""
import re
from importlib import import_module

MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$])")  # what markdown would read as formatting
LANGS = {code: import_module(f"ui.text.{code}") for code in ("en", "zh")}  # code -> catalogue; en first, the default


def t(key: str, lang: str = "en", **values) -> str:
    """The string `key` in `lang` (English for an unknown language), with {placeholders} filled in."""
    text = LANGS.get(lang, LANGS["en"]).STRINGS[key]
    return text.format(**values) if values else text


def then(lang: str) -> str:
    """What goes between two sentences: a space in English, nothing after a Chinese full stop."""
    return t("two_sentences", lang, first="", second="")


def has(key: str) -> bool:
    """Whether the catalogues have a string for `key`."""
    return key in LANGS["en"].STRINGS


def error_text(e, lang: str) -> str:
    """A problem reported by code (an engine.errors.CodedError, the engine's or the UI's), in the visitor's language."""
    return t(e.TEXT_PREFIX + e.code, lang, **e.values)


def name(lang: str) -> str:
    """A language's own name, as the language switch shows it."""
    return t("language_name", lang)


def plain(text: str) -> str:
    """User text (a word, a chart title quoting words) shown literally inside markdown."""
    return MARKDOWN.sub(r"\\\1", text)
