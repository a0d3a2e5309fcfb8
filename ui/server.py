"""The server around the pages, started by `streamlit run dashboard.py`: it readies the slow parts at start, while the
first visitor's browser is still loading Streamlit's frontend."""
import logging
import threading
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)


@asynccontextmanager
async def lifespan(app):
    """At start: the warm-up, in a thread, so the server answers at once."""
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    yield


def warm_up() -> None:
    """Import gensim, pandas and Altair, load the built-in GloVe into the cache every session shares, and build one
    throwaway chart, so the first run finds all of it ready. A failure here is logged; the run that needs the part
    then meets the same failure and reports it there."""
    try:
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())  # gives freed chart data back to the system; the default keeps it
        import numpy as np

        from ui import charts, page, sidebar, tables

        sidebar.glove()
        cells = tables.matrix_long(np.eye(2), ["a", "b"], [1, 2])
        page.vega_lite(charts.heatmap(cells, title="", x_title="", y_title="", value_title=""))
    except Exception:
        log.exception("warm-up failed")

