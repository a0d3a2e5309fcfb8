"""The server's start-up work, run by the app's lifespan (dashboard.py): the warm-up starts in the background, so the
slow parts load while the server starts and the first visitor's browser is still loading Streamlit's frontend; importing
dashboard.py starts nothing. Also what it does when told to stop (on_stop)."""
import asyncio
import contextlib
import functools
import gc
import logging
import signal
import threading

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def lifespan(app):
    """The server's life: at its start, note its event loop (the upload sweeper ends sessions on it), have a stop
    release the class watches' questions, and start the warm-up; nothing to undo at its end."""
    from classroom import watch
    from server import ledger

    loop = asyncio.get_running_loop()
    ledger.server_loop[:] = [loop]
    on_stop(lambda: loop.call_soon_threadsafe(watch.release))
    start_warm_up()
    yield


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)  # a container's or a service manager's stop, and Ctrl+C


def on_stop(release) -> None:
    """Call release() when the server is told to stop, then the handler that was there (the server's own, which
    begins its shutdown: it waits for every open request to end). Only the main thread may set signal handlers; a
    lifespan run elsewhere (a test's) leaves them alone."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in STOP_SIGNALS:
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            release()
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_DFL:  # nobody had taken it: do what the signal does by default
                signal.signal(signum, signal.SIG_DFL)
                signal.raise_signal(signum)
        signal.signal(sig, handler)


@functools.cache
def start_warm_up() -> threading.Thread:
    """warm_up in a thread, started once per process; returns at once, so the server starts meanwhile."""
    thread = threading.Thread(target=warm_up, name="warm-up", daemon=True)
    thread.start()
    return thread


def warm_up() -> None:
    """Import gensim, pandas and Altair, load the built-in GloVe into the cache every session shares, read the default
    learned W_Q and W_K for it (shared the same way), and build one throwaway chart, so the first run finds all of it
    ready. A failure here is logged; the run that needs the part then meets the same failure and reports it there.

    Then everything alive is frozen out of the garbage collector: the modules and the 400k-word index live as long as
    the server, yet every full collection during a rerun would walk them again; frozen, a collection walks only what
    the sessions made, which halves the time from an edit to the redrawn charts."""
    try:
        from server import ledger

        ledger.map_large_blocks()
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())  # gives freed chart data back to the system; the default keeps it
        import numpy as np
        from threadpoolctl import threadpool_limits

        # every product here is small: one BLAS thread is as fast, and several visitors' fits do not fight over cores
        threadpool_limits(1, user_api="blas")
        from fits import weights
        from kit import charts, render, tables
        from vectors import chosen

        weights.warm(chosen.glove())
        render.vega_lite(charts.heatmap(tables.matrix_long(np.eye(2), ["a", "b"], [1, 2]),
                                        charts.Titles("")))  # kept nowhere: collected, not frozen
        gc.collect()
        gc.freeze()
    except Exception:
        log.exception("warm-up failed")
    class_database()


def class_database() -> None:
    """Create or upgrade class mode's tables as the server starts (classroom/store.py). A database that does not answer
    is only logged: the class page says so when someone uses it, and everything else works."""
    from classroom import store
    from engine.errors import ClassError

    try:
        store.engine()
    except (store.Unavailable, ClassError) as e:
        log.warning("the class database is not available: %s", e)

