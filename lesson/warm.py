"""What the first run of a page needs, made as the server starts (server/lifespan.py runs up() in the background):
the real model's fetch started when the host asks for it (page 8 shows its progress meanwhile), gensim, pandas and
Altair imported, the built-in GloVe in the cache every session shares, the default learned W_Q and W_K for it (shared
the same way), one throwaway chart, and class mode's tables. Importing this file loads nothing."""
import logging

log = logging.getLogger(__name__)


def up() -> None:
    """Load and build what the first run of a page needs; a class database that does not answer is only logged."""
    import numpy as np

    from fits import weights
    from kit import charts, render, tables
    from transformer import fetching
    from vectors import chosen

    fetching.at_start()  # first: it runs in a thread of its own, and the download takes the longest
    weights.warm(chosen.glove())
    render.vega_lite(charts.heatmap(tables.matrix_long(np.eye(2), ["a", "b"], [1, 2]),
                                    charts.Titles("")))  # kept nowhere: collected, not frozen
    class_database()


def class_database() -> None:
    """Create or upgrade class mode's tables (classroom/store.py); a database that does not answer is only logged."""
    # the class page says so when someone uses it, and everything else works
    from classroom import store
    from engine.errors import ClassError

    try:
        store.engine()
    except (store.Unavailable, ClassError) as e:
        log.warning("the class database is not available: %s", e)
