"""Page 6's slice of Settings: its two sentences, its heads, the open tab, the decoder's mask, each tab's query and
which heads the encoder shows."""
from dataclasses import dataclass

from kit.state import MAX_WORD, setting


@dataclass(frozen=True)
class Kinds:
    """The source and target sentences, and how page 6 shows attention between them."""

    source_sentence: str = "The ball is blue"
    target_sentence: str = "La bola es azul"
    heads: int = setting(1, spec=(1, 300))
    tab: str = setting("enc", spec=("enc", "dec", "cross"))
    causal: bool = True
    dec_query: str = setting("", limit=MAX_WORD, in_view=False)
    cross_query: str = setting("", limit=MAX_WORD, in_view=False)
    enc_heads: str = setting("learned", spec=("learned", "slices"))  # the four learned heads, or slices of one head
