"""The longest link to a view: what the tests hold the proxy's buffers and the link guard against."""
from urllib.parse import urlencode

from kit.state import MAX_TEXT
from lesson.settings import DEFAULTS, LIMITS, NAMES, SPEC
from real.settings import held_out_ids
from transformer.settings import NAMES as HEAD_NAMES


def checked() -> dict[str, list[str]]:
    """The texts a check holds to values of their own: every id of a held-out sentence, every name of a head."""
    return {"real": sorted(held_out_ids()), "model_head": list(HEAD_NAMES)}


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
    if name in checked():
        return max(checked()[name], key=len)
    return "中" * LIMITS.get(name, MAX_TEXT)
