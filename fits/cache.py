"""The fits this process keeps, so that no page waits twice for the same one: those on built-in vectors in FITTED,
shared by every session (the last FITS_KEPT made), those on an upload in its visitor's session only (the last one)."""
import threading
import weakref
from collections.abc import Callable

import streamlit as st
from gensim.models import KeyedVectors

from engine.fit import Fit
from server import ledger

FITTED: dict[tuple, Fit] = {}  # fits on built-in vectors by (source, recipe), the last FITS_KEPT made
FITS_KEPT = 32
kept_lock = threading.Lock()  # the worker keeps fits too


def store(key: tuple, kv: KeyedVectors) -> dict:
    """Where the fit named `key` is kept: FITTED, or for an upload the fits made on this session's upload."""
    # a new upload starts with none; a weak reference names its vectors without keeping a released upload alive
    if key[0] != "upload":
        return FITTED
    fitted_on, fits = st.session_state.get("_upload_fits", (None, {}))
    if fitted_on is None or fitted_on() is not kv:
        fits = {}
        st.session_state["_upload_fits"] = (weakref.ref(kv), fits)
    return fits


def shared(key: tuple, fit: Fit) -> Fit:
    """The fit, found from now on under `key` in FITTED, which keeps the last FITS_KEPT."""
    with kept_lock:
        FITTED[key] = fit
        while len(FITTED) > FITS_KEPT:
            FITTED.pop(next(iter(FITTED)))
    return fit


def storing_in(mine: dict, key: tuple) -> Callable[[Fit], None]:
    """What keeps a fit the queue made to its end under `key` in `mine`: FITTED, or as the upload's one fit."""
    session = ledger.session_of()

    def put(fit: Fit):
        if mine is FITTED:
            shared(key, fit)
        else:
            mine.clear()
            mine[key] = fit
            ledger.keep_result(session, "upload_fit", fit)
    return put
