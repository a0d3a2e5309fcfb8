"""The one Settings of a view: every feature's slice joined (the order of its fields is the order of a link's
parameters), read from a link or the widgets (from_values, which also reads the names older links used) and kept
across pages by the sidebar. Each slice says what a link may set its settings to (kit/state.py, setting)."""
from dataclasses import dataclass, fields

from classroom.settings import Room
from dot.settings import Pair
from factor.settings import Shift
from fits.settings import Layers
from kinds.settings import Kinds
from kit import state
from kit.state import MAX_TEXT, MAX_WORD, setting
from kit.text import LANGS
from learning.settings import Training
from real.settings import RealSentences
from relevance.settings import Expectation
from swap.settings import Swap
from transformer.settings import RealModel
from vectors.settings import Vectors


@dataclass(frozen=True)
class Story:
    """What every page of the story reads: language, sentence, how attention is computed, query word, predict first."""

    lang: str = setting("en", spec=LANGS, in_view=False)  # the catalogues' languages: a new one is a new choice
    sentence: str = "The black cat drank the milk"
    scaled: bool = True  # scores divided by √d_k
    softmax: bool = True  # weights by softmax, or the raw scores
    own: bool = False  # whether a word may attend to itself
    query: str = setting("", limit=MAX_WORD, in_view=False)  # the query word picked on pages 2 to 4
    predict: bool = setting(False, in_view=False)  # ask the learner to predict first (pages 2, 4, 6 and 7)


@dataclass(frozen=True)
class Settings(Room, RealModel, RealSentences, Training, Kinds, Swap, Expectation, Pair, Shift, Layers, Vectors, Story):
    """Every setting of a view, the slices' in the order of the bases from the last (Story) to the first."""


DEFAULTS = Settings()
NAMES = tuple(f.name for f in fields(Settings))
SPEC = {name: state.spec(Settings, name) for name in NAMES if state.spec(Settings, name) is not None}
LIMITS = {name: state.limit(Settings, name) for name in NAMES
          if isinstance(getattr(DEFAULTS, name), str) and state.limit(Settings, name) != MAX_TEXT}
RENAMED = {"pair_sentence": "sentence"}  # links shared before a setting was renamed still open the same view
IGNORED = ("fbclid", "gclid", "utm_")  # tracking added by the sites a link passes through: not settings
KNOWN = (*NAMES, *RENAMED, "positional")  # what from_values reads from a link
UNREAD = "unread"  # marks a link Streamlit would not read whole, rewritten by server/links.py: the page says so


def parse(name: str, raw) -> object:
    """A valid value for setting `name` from a raw URL or widget value; state.Invalid if there is none."""
    return state.parse(Settings, name, raw)


def from_values(values: dict) -> tuple[Settings, list[tuple[str, str, state.Invalid]]]:
    """Settings from raw values (a link's, or the widgets'), and (name, value, reason) for each value refused or cut."""
    current = {}
    for name, raw in values.items():
        if name.startswith(IGNORED):
            continue
        name = RENAMED.get(name, name)
        if name == "positional":  # the on/off switch that became a weight from 0 to 1
            name, raw = "position", raw if str(raw).lower() in ("0", "false", "no", "off") else DEFAULTS.position
        current[name] = raw
    return state.from_values(Settings, current)


def readable(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """A link's (name, value) pairs cut down to what from_values reads, with the UNREAD mark."""
    # the last value of each setting, at most one character over its limit, so that from_values still says which were
    # cut
    kept = {name: state.cut(value, LIMITS.get(name, MAX_TEXT) + 1) for name, value in pairs if name in KNOWN}
    return kept | {UNREAD: "1"}
