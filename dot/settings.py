"""Page 3's slice of Settings: the two keys the query is compared with, and how a pair is ordered and drawn."""
from dataclasses import dataclass

from kit.state import MAX_WORD, setting

SORTS = {"dimension": "sort_dimension", "size": "sort_size"}  # each order's name (text keys)
PAIR_ROWS = {"qk": "pair_rows_qk", "embedding": "pair_rows_embedding"}  # the rows compared: q and k, or the words'


@dataclass(frozen=True)
class Pair:
    """The keys picked on page 3, the products' order, and which rows are compared."""

    key: str = setting("", limit=MAX_WORD)
    key2: str = setting("", limit=MAX_WORD)
    sort: str = setting("dimension", spec=tuple(SORTS))
    pair_rows: str = setting("qk", spec=tuple(PAIR_ROWS))
