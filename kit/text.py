"""Every user-facing string comes from a catalogue: one texts.toml per feature folder (kit/texts.toml for the words
features share), each text under its key with its English and its Chinese side by side, and for each translation the
short hash of the English it was checked against (kit/catalogue.py: a stale translation fails a test).

A language is a column of every catalogue and an entry in CODES: nothing else in the dashboard names a language.
LANGS maps each code to its strings (STRINGS, every key of the English, the same placeholders).

The language is the run's context, as render's file names are: the entry sets it once per run from the visitor's
Settings (use), and t() reads it, so no view, chart or table carries it. in_language() speaks another one for a while,
on purpose; with_language() carries the run's language to code that runs later in another thread (a fragment's own
rerun).

Numbers are written as the charts write them (d3-format): a negative one with the true minus sign "−", never "-";
one that rounds to zero without a sign; an exponent as it is ("4.2e-17")."""
import numbers
import re
import string
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
MINUS = "\u2212"  # the true minus sign, as d3-format writes it
SIGN = re.compile(r"^([^\d.-]*)-(?=[\d.]|inf)")  # a formatted number's own "-", after any padding: not an exponent's
NONZERO = re.compile(r"[1-9]|inf|nan")  # a digit that keeps a number off zero once it is rounded


class Numbers(string.Formatter):
    """str.format, with the numbers filled in written with the true minus sign (signed), other fields as they are."""

    def format_field(self, value, format_spec: str) -> str:
        """One {field}: signed() where it is a number, else as str.format writes it."""
        text = super().format_field(value, format_spec)
        return signed(text) if isinstance(value, numbers.Real) and not isinstance(value, bool) else text


NUMBERS = Numbers()


def t(key: str, /, **values) -> str:
    """The string `key` in the run's language (English for an unknown language), with {placeholders} filled in."""
    text = LANGS.get(LANGUAGE.get(), LANGS["en"]).STRINGS[key]
    if not values:
        return text  # as written: braces and all
    if not any(isinstance(v, numbers.Real) and v < 0 for v in values.values()):
        return text.format(**values)  # no sign to write: str.format's own speed
    return NUMBERS.format(text, **values)


def signed(text: str) -> str:
    """A formatted number as the charts write it: "−" for its leading "-", no sign where it rounds to zero."""
    # "-8.1792" -> "−8.1792", "-0.000" -> "0.000"; an exponent's "-" stays ("4.2e-17")
    match = SIGN.match(text)
    if match is None:
        return text
    rest = text[match.end():]
    zero = NONZERO.search(re.split("[eE]", rest)[0]) is None
    return match.group(1) + ("" if zero else MINUS) + rest


def number(value, spec: str = "") -> str:
    """`value` formatted by `spec` (".4f"), with the true minus sign: a number a view writes outside a text."""
    return signed(format(value, spec))


def use(lang: str) -> None:
    """Speak `lang` for the rest of this run: the entry (lesson/app.py) calls it once, with the visitor's Settings."""
    LANGUAGE.set(lang)


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    """Inside, t() speaks `lang`."""
    # for the few texts in another language on purpose, such as each language's own name on the language switch
    token = LANGUAGE.set(lang)
    try:
        yield
    finally:
        LANGUAGE.reset(token)


def with_language(fn: Callable) -> Callable:
    """`fn` in the run's language wherever and whenever it is called."""
    # a fragment's own rerun may come in a new script thread, which starts with the default language, not the run's
    lang = LANGUAGE.get()

    def in_its_language(*args, **kwargs):
        with in_language(lang):
            return fn(*args, **kwargs)
    return in_its_language


def labels(keys: Mapping[str, str]) -> Callable[[str], str]:
    """A widget's format_func: option `v` shown as the string keys[v], in the run's language whenever called."""
    # Streamlit calls it again to match a value to its label, and so does AppTest, from its own thread
    return with_language(lambda v: t(keys[v]))


def then() -> str:
    """What goes between two sentences: a space in English, nothing after a Chinese full stop."""
    return t("two_sentences", first="", second="")


def error_text(e) -> str:
    """A problem reported by code (an engine.errors.CodedError, the engine's or the UI's) in the run's language."""
    # the text keyed by its class's TEXT_PREFIX and its code (the code is written in full where it is raised)
    return t(e.TEXT_PREFIX + e.code, **e.values)


def name(code: str) -> str:
    """A language's own name, as the language switch shows it, whatever the run's language."""
    with in_language(code):
        return t("language_name")


def plain(text: str) -> str:
    """User text (a word, a chart title quoting words) shown literally inside markdown."""
    return MARKDOWN.sub(r"\\\1", text)
