"""Settings <-> URL, for any Settings made of slices: each feature declares its own settings as a frozen dataclass whose
fields say what a link may set them to (setting), and lesson/settings.py joins the slices into the one Settings of a
view. A value from a link or a widget is parsed or refused with a reason (Invalid), a text cut to its limit; to_query
writes the view back as URL parameters, write_url into the address bar, and write_setting() is the one way a page
writes a setting (open_tab: tabs whose open one is a setting)."""
import functools
from dataclasses import Field, asdict, field, fields, replace
from urllib.parse import urlencode

import streamlit as st

from engine.errors import CodedError

# How long a text may be, in characters as the browser's text box counts them (UTF-16 code units: an emoji counts two)
MAX_TEXT = 1000  # a sentence or the targets: 64 words of 15 letters (a longer sentence has too many words)
MAX_WORD = 100  # a word picked from the sentence (GloVe's longest has 68 letters) with its " (12)" position
LINKED = 8192  # characters: page links carry the view's URL parameters up to this length (see linked)


class Invalid(CodedError):
    """Why a URL or widget value was refused, or cut: a reason `code` and its values (the catalogues' url_<code>)."""

    CODES, TEXT_PREFIX = ("bool", "number", "whole", "choice", "held_out", "unknown", "cut"), "url_"


def setting(default, *, spec: tuple | None = None, limit: int = MAX_TEXT, check=None, in_view: bool = True):
    """A field of a Settings slice: its default and what a link may set it to."""
    # `spec`: the choices of a text or the bounds (lo, hi) of a number; `limit`: the most characters of a text;
    # `check(text)` raises Invalid for a text no link may hold
    # in_view=False leaves it out of what identifies a view for a guess (view_key), as for the language, a word picked
    # or a text typed to look with
    return field(default=default, metadata={"spec": spec, "limit": limit, "check": check, "in_view": in_view})


@functools.cache
def by_name(cls: type) -> dict[str, Field]:
    """The fields of a Settings class, by name."""
    return {f.name: f for f in fields(cls)}


def spec(cls: type, name: str) -> tuple | None:
    """The choices or bounds of setting `name` (None: any text)."""
    return by_name(cls)[name].metadata.get("spec")


def limit(cls: type, name: str) -> int:
    """The most characters setting `name` may hold, when it is a text."""
    return by_name(cls)[name].metadata.get("limit", MAX_TEXT)


def parse(cls: type, name: str, raw) -> object:
    """A valid value for field `name` of `cls` from a raw URL or widget value; Invalid if there is none."""
    found = by_name(cls)[name]
    default, choices = found.default, found.metadata.get("spec")
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        if str(raw).lower() in ("1", "true", "yes", "on"):
            return True
        if str(raw).lower() in ("0", "false", "no", "off"):
            return False
        raise Invalid("bool")
    if isinstance(default, (int, float)):
        lo, hi = choices or (float("-inf"), float("inf"))  # a number without bounds takes any
        try:
            value = float(raw) if isinstance(default, float) else int(str(raw).strip())
        except (ValueError, TypeError, OverflowError):
            value = None
        if value is None or not lo <= value <= hi:  # also rejects NaN
            raise Invalid("number" if isinstance(default, float) else "whole", lo=f"{lo:g}", hi=f"{hi:g}")
        return value
    raw = str(raw)
    if choices and raw not in choices:
        raise Invalid("choice", options=", ".join(choices))
    if found.metadata.get("check") and raw:
        found.metadata["check"](raw)
    return cut(raw, limit(cls, name))


def from_values(cls: type, values: dict) -> tuple[object, list[tuple[str, str, Invalid]]]:
    """Settings of `cls` from raw values by name, and (name, value, reason) for each value refused or cut."""
    good, bad = {}, []
    for name, raw in values.items():
        if name not in by_name(cls):
            bad.append((name[:60], str(raw)[:60], Invalid("unknown")))
            continue
        try:
            good[name] = parse(cls, name, raw)
        except Invalid as e:
            bad.append((name, str(raw)[:60], e))
            continue
        if isinstance(good[name], str) and good[name] != str(raw):
            bad.append((name, str(raw)[:60], Invalid("cut", max=f"{limit(cls, name):,}")))
    return cls(**good), bad


def length(text: str) -> int:
    """The text's length as the browser's text box counts it (UTF-16 code units: an emoji counts two)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def cut(text: str, limit: int) -> str:
    """The text's first `limit` characters as length() counts them."""
    units = text.encode("utf-16-le", "surrogatepass")
    if len(units) <= 2 * limit:
        return text
    kept = units[:2 * limit]
    if 0xD8 <= kept[-1] <= 0xDB:  # the first half of an emoji's pair: the emoji goes whole
        kept = kept[:-2]
    return kept.decode("utf-16-le", "surrogatepass")


def to_query(settings) -> dict[str, str]:
    """URL parameters for every setting that differs from its default."""
    defaults = type(settings)()
    out = {}
    for name, value in asdict(settings).items():
        if value != getattr(defaults, name):
            out[name] = (("1" if value else "0") if isinstance(value, bool)
                         else number(value) if isinstance(value, float) else str(value))
    return out


def number(value: float) -> str:
    """A float as written in a link: '0', '0.25', '1e-05', exact on the way back."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


@functools.lru_cache(maxsize=64)
def query_items(s) -> tuple[tuple[str, str], ...]:
    """to_query once per Settings."""
    return tuple(to_query(s).items())


def linked(s) -> dict[str, str]:
    """The URL parameters page links carry: the view's, so a page opened in a new tab shows it; none past LINKED."""
    # A page has up to thirteen links, each of which would encode such parameters and send them to the browser again on
    # every rerun, more work than the rest of the run. Only texts near their limits pass LINKED, and moving between
    # pages keeps the view all the same, from the session.
    return dict(linked_items(s))


@functools.lru_cache(maxsize=64)
def linked_items(s) -> tuple[tuple[str, str], ...]:
    """query_items when page links carry them, else none; measured once per Settings."""
    items = query_items(s)
    return items if len(urlencode(items)) <= LINKED else ()


def link(s) -> str:
    """The address of this exact view, for the clipboard."""
    params = urlencode(to_query(s))
    return (st.context.url or "") + (f"?{params}" if params else "")


def view_key(name: str, s, q: str) -> str:
    """What identifies one view for a guess: the page, the query word and every setting in view (setting's in_view)."""
    defaults = type(s)()
    others = replace(s, **{f.name: getattr(defaults, f.name) for f in fields(s) if not f.metadata.get("in_view", True)})
    return f"{name}:{q}?" + urlencode(sorted(to_query(others).items()))


def write_setting(s, name: str):
    """Write a setting the page changes itself into the session and the URL: the one way a page does so."""
    # for a setting without a widget, or before its widget is drawn this run
    st.session_state["_settings"] = s
    st.session_state[name] = getattr(s, name)
    write_url(s)


def open_tab(s, name: str, key: str, labels: dict[str, str]):
    """Tabs (the widget `key`), one per option of setting `name`; the open tab's container and its option."""
    # `labels`: option -> label, in tab order. The open tab is the setting, so a link opens it, and switching runs the
    # page again, so only the open one need be built. A label of another language (the language just changed) leaves the
    # setting as it is. (None, None) when no tab is open.
    ss = st.session_state
    options = {label: option for option, label in labels.items()}
    chosen: str = options.get(ss.get(key, ""), getattr(s, name))
    if chosen != getattr(s, name):
        write_setting(replace(s, **{name: chosen}), name)
    ss[key] = labels[chosen]
    opened = st.tabs(list(labels.values()), key=key, on_change="rerun")
    return next(((tab, option) for tab, option in zip(opened, labels, strict=True) if tab.open), (None, None))


def write_url(s):
    """Write the view's parameters into the address bar, unless it holds them already."""
    # Streamlit would encode them and send them to the browser again, which for long texts is much of a rerun's work
    wanted = dict(query_items(s))
    if {k: st.query_params.get_all(k) for k in st.query_params} != {k: [v] for k, v in wanted.items()}:
        st.query_params.from_dict(wanted)
