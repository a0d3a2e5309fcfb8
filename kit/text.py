"""Every user-facing string comes from a catalogue: one texts.toml per feature folder (kit/texts.toml for the words
features share), each text under its key with its English and its Chinese side by side, and for each translation the
short hash of the English it was checked against (kit/catalogue.py: a stale translation fails a test).

A language is a column of every catalogue and an entry in CODES: nothing else in the dashboard names a language.
LANGS maps each code to its strings (STRINGS, every key of the English, the same placeholders).

The language is the run's context, as render's file names are: the entry sets it once per run from the visitor's
Settings (use), and t() reads it, so no view, chart or table carries it. in_language() speaks another one for a while,
on purpose; kept() carries the run's language to code that runs later in another thread (a fragment's own rerun)."""
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from kit import catalogue

CODES = ("en", "zh")  # the catalogues' columns, English first: the default


@dataclass(frozen=True)
class Language:
    """One language's strings: every key of every catalogue."""

    STRINGS: Mapping[str, str]


MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$])")  # what markdown would read as formatting
LANGS = {code: Language(catalogue.strings(code)) for code in CODES}  # code -> its strings; English first
LANGUAGE: ContextVar[str] = ContextVar("language", default="en")  # this run's (use), else the default


def t(key: str, /, **values) -> str:
    """The string `key` in the run's language (English for an unknown language), with {placeholders} filled in."""
    text = LANGS.get(LANGUAGE.get(), LANGS["en"]).STRINGS[key]
    return text.format(**values) if values else text


def use(lang: str) -> None:
    """Speak `lang` for the rest of this run: the entry (lesson/app.py) calls it once, with the visitor's Settings."""
    LANGUAGE.set(lang)


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    """Inside, t() speaks `lang`: for the few texts that are in another language on purpose, such as each language's
    own name on the language switch."""
    token = LANGUAGE.set(lang)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


def kept(fn: Callable) -> Callable:
    """`fn` in the run's language wherever and whenever it is called: a fragment's own rerun may come in a new script
    thread, which starts with the default language, not the run's."""
    lang = LANGUAGE.get()

    def in_its_language(*args, **kwargs):
        with in_language(lang):
            return fn(*args, **kwargs)
    return in_its_language


def labels(keys: Mapping[str, str]) -> Callable[[str], str]:
    """A widget's format_func: option `v` shown as the string keys[v], in the run's language whenever it is called
    (Streamlit calls it again to match a value to its label, and so does AppTest, from its own thread)."""
    return kept(lambda v: t(keys[v]))


def then() -> str:
    """What goes between two sentences: a space in English, nothing after a Chinese full stop."""
    return t("two_sentences", first="", second="")


def error_text(e) -> str:
    """A problem reported by code (an engine.errors.CodedError, the engine's or the UI's), in the run's language: the
    text keyed by its class's TEXT_PREFIX and its code (the code is written in full where it is raised)."""
    return t(e.TEXT_PREFIX + e.code, **e.values)


def name(code: str) -> str:
    """A language's own name, as the language switch shows it, whatever the run's language."""
    with in_language(code):
        return t("language_name")


def plain(text: str) -> str:
    """User text (a word, a chart title quoting words) shown literally inside markdown."""
    return MARKDOWN.sub(r"\\\1", text)
