"""Page 8's slice of Settings: which sentence the real model reads, the head shown large, and the word picked."""
from dataclasses import dataclass

from engine import minilm
from kit.state import MAX_WORD, Invalid, setting

LAYERS, HEADS = 6, 12  # all-MiniLM-L6-v2's (its config.json); a link can name a head before the model is loaded
NAMES = tuple(minilm.label(layer, head) for layer in range(LAYERS) for head in range(HEADS))  # L1-H1 … L6-H12
SOURCES = ("yours", "treebank")  # the sidebar's sentence, or a held-out treebank sentence picked as on page 7
VIEWS = ("large", "finders", "parked", "compare")  # the tabs under the grid: one head large, which heads find each
# word's head, what the heads park on [CLS] and [SEP], the model against ours over every held-out sentence


def head_name(text: str) -> None:
    """Invalid unless `text` names one of the model's heads."""
    if text not in NAMES:
        raise Invalid("choice", options=f"{NAMES[0]} … {NAMES[-1]}")


@dataclass(frozen=True)
class RealModel:
    """The sentence the real model reads, the head shown large, the word the page follows and the open tab."""

    model_sentence: str = setting("yours", spec=SOURCES)
    model_head: str = setting("", limit=8, check=head_name)  # "": the best single head on the held-out sentences
    model_word: str = setting("", limit=MAX_WORD, in_view=False)
    model_view: str = setting("large", spec=VIEWS)
