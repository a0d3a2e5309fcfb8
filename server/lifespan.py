"""The server's life, for st.App (dashboard.py composes it): as the server starts, the warm-up runs in the background,
so the slow parts load while the first visitor's browser is still loading Streamlit's frontend (importing dashboard.py
starts nothing); when the server is told to stop, what the app asked to be told first (on_stop). What the warm-up
prepares and what a stop releases are the app's, handed in: the server knows no page. At its start the process also
takes all the open files it is allowed (more_files): every visitor's websocket and every held request is one; it says
what they hold, and keeps answering when they run short (server/files.py)."""
import asyncio
import contextlib
import functools
import gc
import logging
import resource
import signal
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


def of(prepare: Callable[[], None], stopping: Callable[[], None], class_cap: int = 0):
    """The lifespan st.App runs: the open files taken and watched, the loop noted, stops heard, the warm-up started."""
    # files.watch_open_files says what the open files hold against a class of `class_cap` students, its checks ending
    # with the server; the memory ledger's sweeper ends sessions on the loop noted; a stop calls stopping() on that loop
    # first
    @contextlib.asynccontextmanager
    async def lifespan(app):
        from server import files, ledger

        loop = asyncio.get_running_loop()
        checks = files.watch_open_files(loop, *more_files(), class_cap)
        ledger.server_loop[:] = [loop]
        on_stop(lambda: loop.call_soon_threadsafe(stopping))
        start_warm_up(prepare)
        try:
            yield
        finally:
            checks.cancel()
    return lifespan


def more_files() -> tuple[int, int]:
    """Raise this process's soft limit on open files to its hard limit: (soft, hard) as they are after."""
    # the soft one is often 1,024, which 1,000 idle connections reach (where the hard one is as low, server/files.py
    # keeps the server answering)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 2**20  # Linux takes no more than fs.nr_open, 2**20 by default
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            log.warning("could not raise the open-files limit from %s to %s", soft, wanted)
    return resource.getrlimit(resource.RLIMIT_NOFILE)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)  # a container's or a service manager's stop, and Ctrl+C


def on_stop(release) -> None:
    """Call release() when the server is told to stop, then the handler that was there (the server's own)."""
    # The server's own begins its shutdown: it waits for every open request to end. Only the main thread may set signal
    # handlers; a lifespan run elsewhere (a test's) leaves them alone.
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
def start_warm_up(prepare: Callable[[], None]) -> threading.Thread:
    """warm_up(prepare) in a thread, started once per process; returns at once, so the server starts meanwhile."""
    thread = threading.Thread(target=warm_up, args=(prepare,), name="warm-up", daemon=True)
    thread.start()
    return thread


def warm_up(prepare: Callable[[], None]) -> None:
    """Ready the process for its visitors and prepare() what the app's first run needs, then freeze what is alive."""
    # Blocks of memory mapped on their own, Arrow on the system allocator, one BLAS thread. A failure here is logged;
    # the run that needs the part then meets the same failure and reports it there.
    try:
        from server import ledger

        ledger.map_large_blocks()
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())  # gives freed chart data back to the system; the default keeps it
        from threadpoolctl import threadpool_limits

        # every product here is small: one BLAS thread is as fast, and several visitors' fits do not fight over cores
        threadpool_limits(1, user_api="blas")
        prepare()
        # The modules and the 400k-word index live as long as the server, yet every full collection during a rerun would
        # walk them again; frozen out of the collector, a collection walks only what the sessions made, which halves the
        # time from an edit to the redrawn charts.
        gc.collect()
        gc.freeze()
    except Exception:
        log.exception("warm-up failed")
