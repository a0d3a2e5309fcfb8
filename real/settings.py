"""Page 7's slice of Settings: the held-out sentence shown, the word searched for, and the words picked."""
import functools
from dataclasses import dataclass

from engine import treebank
from kit.state import MAX_WORD, Invalid, setting


@functools.cache
def held_out_ids() -> frozenset[str]:
    """The ids of the treebank's held-out sentences, read once per process."""
    return frozenset(s.sent_id for s in treebank.split(treebank.built_in(), "test"))


def held_out(sent_id: str) -> None:
    """Invalid unless `sent_id` names a held-out sentence."""
    if sent_id not in held_out_ids():
        raise Invalid("held_out")


@dataclass(frozen=True)
class RealSentences:
    """The held-out sentence shown, the word searched for, the word whose pick is predicted and the key compared."""

    real: str = setting("", check=held_out)  # its id; "": the page's default
    real_find: str = setting("", limit=100, in_view=False)
    real_query: str = setting("", limit=MAX_WORD, in_view=False)  # the word whose pick the learner predicts
    real_key: str = setting("", limit=MAX_WORD, in_view=False)  # the key word compared across queries
