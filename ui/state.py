"""One Settings dataclass, mirrored in the URL and kept across pages."""
import functools
from dataclasses import asdict, dataclass, fields, replace
from urllib.parse import urlencode

from engine import corpus, treebank
from engine.errors import CodedError
from engine.layers import PRESETS
from engine.positional import WEIGHT
from engine.training import MAX_LR, MAX_STEPS, SIGN_WEIGHT
from ui.text import LANGS

# W_Q/W_K fitted on a corpus: the head learned from the treebank's real sentences (the default), the fit on the
# template sentences, or the learner's own run on page 5
LEARNED = ("trained", "templates", "run")
QK_PRESETS = LEARNED + PRESETS

# How long a text may be, in characters as the browser's text box counts them (UTF-16 code units: an emoji counts two)
MAX_TEXT = 1000  # a sentence or the targets: 64 words of 15 letters (a longer sentence has too many words)
MAX_WORD = 100  # a word picked from the sentence (GloVe's longest has 68 letters) with its " (12)" position
LIMITS = {
    **dict.fromkeys(("query", "key", "key2", "dec_query", "cross_query", "real_query", "real_key"), MAX_WORD),
    "expected": 200, "real_find": 100,  # their text boxes on pages 4 and 7
    "swap": 43,  # "63:" and the new word's 40 characters
    "learn": 100,  # what learns, "w_q, w_k, w_v, x" at most, with room to spare
    "room": 40,  # a class code as typed, "ABCD 2345" or "abcd-2345" (engine.questions.normal_code reads it)
}


@dataclass(frozen=True)
class Settings:
    # what is read: the language, the vectors and the sentences
    lang: str = "en"
    source: str = "glove"
    sentence: str = "The black cat drank the milk"
    source_sentence: str = "The ball is blue"
    target_sentence: str = "La bola es azul"
    # the layers: how much position counts, the width d_k, then each linear layer's preset, seed and scale
    position: float = WEIGHT
    d_k: int = 16
    # W_Q
    q_preset: str = "trained"
    q_seed: int = 1
    q_scale: float = 1.0
    # W_K
    k_preset: str = "trained"
    k_seed: int = 2
    k_scale: float = 1.0
    # W_V
    v_preset: str = "random"
    v_seed: int = 3
    v_scale: float = 1.0
    # how attention is computed: scaled by √d_k, softmax (or raw scores), and whether a word may attend to itself
    scaled: bool = True
    softmax: bool = True
    own: bool = False
    # the words picked on pages 2 to 4, the number page 2 adds to the query's row of scores, and how page 3 orders and
    # draws a pair
    query: str = ""
    shift: float = 5.0
    key: str = ""
    key2: str = ""
    sort: str = "dimension"
    pair_rows: str = "qk"
    # page 4's expected order; pages 2, 4 and 6: predict first, swap or remove a word
    expected: str = "drank > cat > black"
    predict: bool = False
    swap: str = ""  # "position:word" replaces the word at that position, "position:" removes it
    # page 6: heads, the open tab, the decoder's mask and each tab's query word
    heads: int = 1
    tab: str = "enc"
    causal: bool = True
    dec_query: str = ""
    cross_query: str = ""
    # page 5: training on the learner's own targets
    targets: str = "milk drank 1; milk cat 0.5; milk black 0"
    learn: str = "w_q,w_k"
    lr: float = 0.01
    steps: int = 200
    train_seed: int = 0
    cosine: bool = False
    learn_start: str = "sidebar"
    # page 5, both runs: how much the objective's sign term counts beside the cross-entropy
    sign_weight: float = SIGN_WEIGHT
    # page 5: the corpus run, on the treebank's real sentences or on the template sentences
    run_on: str = "treebank"
    run_steps: int = treebank.LIVE.steps
    run_lr: float = treebank.LIVE.lr
    run_seed: int = 0
    # page 7: the held-out treebank sentence shown (its id; "" for the page's default), the word searched for, the
    # word whose pick the learner predicts, and the key word compared across queries
    real: str = ""
    real_find: str = ""
    real_query: str = ""
    real_key: str = ""
    # class mode: the code of the class this visitor was sent to (the class page's join form starts from it)
    room: str = ""


SPEC = {
    "lang": LANGS,  # the catalogues: a new one is a new choice
    "source": ("glove", "glove50k", "upload", "glove-wiki-gigaword-100", "glove-wiki-gigaword-300"),
    "q_preset": QK_PRESETS, "k_preset": QK_PRESETS, "v_preset": PRESETS,
    "sort": ("dimension", "size"),
    "learn_start": ("sidebar", "random"),
    "tab": ("enc", "dec", "cross"),
    "pair_rows": ("qk", "embedding"),
    "run_on": ("treebank", "templates"),
    "q_seed": (0, 9999), "k_seed": (0, 9999), "v_seed": (0, 9999), "train_seed": (0, 9999),
    "q_scale": (1e-3, 1e6), "k_scale": (1e-3, 1e6), "v_scale": (1e-3, 1e6),
    "position": (0.0, 3.0), "run_steps": (1, corpus.MAX_STEPS), "run_lr": (1e-4, 1.0), "run_seed": (0, 9999),
    "d_k": (1, 300), "heads": (1, 300), "lr": (1e-4, MAX_LR), "steps": (1, MAX_STEPS),
    "shift": (-20.0, 20.0), "sign_weight": (0.0, 20.0),
}
DEFAULTS = Settings()
RENAMED = {"pair_sentence": "sentence"}  # links shared before a setting was renamed still open the same view
IGNORED = ("fbclid", "gclid", "utm_")  # tracking added by the sites a link passes through: not settings
NAMES = tuple(f.name for f in fields(Settings))
KNOWN = (*NAMES, *RENAMED, "positional")  # what from_values reads from a link
UNREAD = "unread"  # marks a link Streamlit would not read whole, rewritten by ui/links.py: the page says so


class Invalid(CodedError):
    """Why a URL or widget value was refused, or cut: a reason `code` and its values (the catalogues' url_<code>)."""

    CODES, TEXT_PREFIX = ("bool", "number", "whole", "choice", "held_out", "unknown", "cut"), "url_"


def parse(name: str, raw) -> object:
    """A valid value for field `name` from a raw URL or widget value; ValueError if there is none."""
    default = getattr(DEFAULTS, name)
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        if str(raw).lower() in ("1", "true", "yes", "on"):
            return True
        if str(raw).lower() in ("0", "false", "no", "off"):
            return False
        raise Invalid("bool")
    if isinstance(default, (int, float)):
        lo, hi = SPEC[name]
        try:
            value = float(raw) if isinstance(default, float) else int(str(raw).strip())
        except (ValueError, TypeError, OverflowError):
            value = None
        if value is None or not lo <= value <= hi:  # also rejects NaN
            raise Invalid("number" if isinstance(default, float) else "whole", lo=f"{lo:g}", hi=f"{hi:g}")
        return value
    raw = str(raw)
    if name in SPEC and raw not in SPEC[name]:
        raise Invalid("choice", options=", ".join(SPEC[name]))
    if name == "real" and raw and raw not in held_out_ids():
        raise Invalid("held_out")
    return cut(raw, LIMITS.get(name, MAX_TEXT))


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


@functools.cache
def held_out_ids() -> frozenset[str]:
    """The ids of the treebank's held-out sentences, read once per process."""
    return frozenset(s.sent_id for s in treebank.split(treebank.built_in(), "test"))


def from_values(values: dict) -> tuple[Settings, list[tuple[str, str, "Invalid"]]]:
    """Settings from raw values, and (name, value, reason) for every value that was refused, or cut to its limit (the
    reason's code 'cut')."""
    good, bad = {}, []
    for name, raw in values.items():
        if name.startswith(IGNORED):
            continue
        name = RENAMED.get(name, name)
        if name == "positional":  # the on/off switch that became a weight from 0 to 1
            name, raw = "position", raw if str(raw).lower() in ("0", "false", "no", "off") else DEFAULTS.position
        if name not in NAMES:
            bad.append((name[:60], str(raw)[:60], Invalid("unknown")))
            continue
        try:
            good[name] = parse(name, raw)
        except Invalid as e:
            bad.append((name, str(raw)[:60], e))
            continue
        if isinstance(good[name], str) and good[name] != str(raw):
            bad.append((name, str(raw)[:60], Invalid("cut", max=f"{LIMITS.get(name, MAX_TEXT):,}")))
    return replace(DEFAULTS, **good), bad


def readable(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """A link's (name, value) pairs cut down to what from_values reads: the last value of each setting, at most one
    character longer than its limit (so that from_values still says which were cut), and the UNREAD mark."""
    kept = {name: cut(value, LIMITS.get(name, MAX_TEXT) + 1) for name, value in pairs if name in KNOWN}
    return kept | {UNREAD: "1"}


def longest_query() -> int:
    """The length of the longest query string a link to a view can have: urlencode(to_query(settings)) with every
    setting at its longest, each text at its limit in characters of three UTF-8 bytes (nine characters each once
    percent-encoded, the most per character as length() counts them: an emoji's four bytes count two)."""
    return len(urlencode({name: longest(name) for name in NAMES}))


def longest(name: str) -> str:
    """A value of setting `name` as long, once percent-encoded, as any to_query can write."""
    default = getattr(DEFAULTS, name)
    if isinstance(default, bool):
        return "1"
    if isinstance(default, float):
        return "1" * 24  # number() writes a float in at most 24 characters ('-2.2250738585072014e-308')
    if isinstance(default, int):
        return max((str(end) for end in SPEC[name]), key=len)
    if name in SPEC:
        return max(SPEC[name], key=len)
    if name == "real":
        return max(held_out_ids(), key=len)
    return "中" * LIMITS.get(name, MAX_TEXT)


def to_query(settings: Settings) -> dict[str, str]:
    """URL parameters for every setting that differs from its default."""
    out = {}
    for name, value in asdict(settings).items():
        if value != getattr(DEFAULTS, name):
            out[name] = (("1" if value else "0") if isinstance(value, bool)
                         else number(value) if isinstance(value, float) else str(value))
    return out


def number(value: float) -> str:
    """A float as written in a link: '0', '0.25', '1e-05', exact on the way back."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
