"""The vectors a visitor chose: the built-in GloVe, a gensim-data download or their own upload, and the widgets and
sentences that go with the choice."""
from typing import NamedTuple

import streamlit as st
from gensim.models import KeyedVectors

from engine.errors import VectorsError
from engine.formats import load_upload
from engine.sources import load_gensim_data, load_glove
from kit.text import error_text, t
from server import ledger
from vectors.settings import SHORT

REFUSED = {"share": "upload_refused_share", "room": "upload_refused_room"}  # why the door turned a file away


class Source(NamedTuple):
    """Which vectors are in use: their name (a `source` setting's), how many words and how many dimensions."""
    # what a fit or a search made on them is kept under, as the vectors themselves are too large to hash

    name: str
    size: int
    dims: int


BUILT_IN = Source("glove", 400_000, 50)  # the built-in GloVe, all of it: the vectors the project ships fits for


@st.cache_resource(show_spinner=False)
def glove(limit: int | None = None) -> KeyedVectors:
    """The built-in vectors, loaded once per server process and shared by every session."""
    return load_glove(limit)


@st.cache_resource(show_spinner=False)
def gensim_data(name: str) -> KeyedVectors:
    """A larger gensim-data set, downloaded once per server where the internet is reachable."""
    return load_gensim_data(name)


def vectors(s, where) -> tuple[KeyedVectors, Source]:
    """The vectors the visitor chose, and their Source: which vectors are in use (short() names them in sentences)."""
    # What the choice needs is drawn `where` (the sidebar, under the choice): the uploader and what it holds, or why a
    # download cannot be used. The built-in GloVe stands in, and is named so, while an upload or a download is not
    # available.
    if s.source == "upload":
        with where:
            kv = uploaded()
    elif s.source.startswith("glove-wiki"):
        with where:
            kv = downloaded(s.source)
    else:
        kv = glove(50_000) if s.source == "glove50k" else glove()
    name = "glove" if kv is glove() else s.source
    return kv, Source(name, len(kv), kv.vector_size)


def short(source: Source) -> str:
    """The vectors' short name, as sentences quote them ('GloVe', 'uploaded'), in the run's language."""
    return t(SHORT[source.name])


def uploaded() -> KeyedVectors:
    """The visitor's upload, with the uploader and what it holds (or that it was released); else the built-in GloVe."""
    if ledger.was_evicted(visitor()):
        st.warning(t("upload_evicted"))
    upload_widget()
    held = ledger.get(visitor())
    if held is None:
        st.info(t("upload_none"))
        return glove()
    st.caption(t("upload_ok", n=len(held.kv.index_to_key), d=held.kv.vector_size))
    return held.kv


def downloaded(name: str) -> KeyedVectors:
    """A gensim-data set, or the built-in GloVe in its place, with a sentence, where it cannot be downloaded."""
    try:
        return gensim_data(name)
    except VectorsError:
        st.error(t("source_offline"))
        return glove()


def visitor() -> ledger.Token:
    """This session's claim on its upload (the upload itself is held in server.ledger, within the server's budget)."""
    return st.session_state.setdefault("_visitor", ledger.Token())


VECTOR_FILES = ("txt", "vec", "bin", "npy")  # what the vectors uploader takes


def upload_widget():
    """The uploader; a new file is read, checked, held, and then cleared from the uploader so it is not kept twice."""
    ss = st.session_state
    key = f"upload_files_{ss.get('_upload_round', 0)}"
    files = st.file_uploader(t("upload_files"), type=list(VECTOR_FILES), accept_multiple_files=True, key=key,
                             help=t("upload_help"))
    if files:  # read it, then run again with a new, empty uploader: Streamlit lets go of the file just read
        ss["_upload_problem"] = read_upload(ledger.file_bytes(files))
        ss["_upload_round"] = ss.get("_upload_round", 0) + 1
        del ss[key]  # the widget's value: file objects over the bytes, which the session would keep as long as it lives
        st.rerun()
    problem = ss.pop("_upload_problem", None)
    refused = ledger.refusal(ledger.session_of())  # a file the server turned away before it arrived
    if refused:
        problem = t(REFUSED[refused], mb=ledger.session_cap() / 2**20,
                    budget=ledger.budget() / 2**20)
    if problem:
        st.error(problem)


def read_upload(files: list[tuple[str, bytes]]) -> str | None:
    """Read, check and hold the uploaded (name, bytes) files; None, or a sentence for the learner when that fails."""
    # Either way Streamlit's copy of the files is let go (ledger.drop_files). A selection refused for its files never
    # releases anyone's upload; one that will be read first makes room in the memory ledger for the vectors it holds.
    name = tuple((n, len(data)) for n, data in files)
    token = visitor()
    kv = None
    budget = ledger.budget() / 2**20
    try:
        if len(files) > 2:
            raise VectorsError("upload_one")
        # a file is about as long as the vectors it holds or longer (text spells each number out): room for them
        if not ledger.make_room(token, sum(size for _, size in name), ledger.session_of()):
            return t("upload_no_room", budget=budget)
        kv = load_upload(files)
    except VectorsError as e:
        return t("upload_error", error=error_text(e))
    finally:
        ledger.drop_files(name)
        if kv is None:
            ledger.unreserve(token)
    if not ledger.hold_upload(token, kv, name):  # hold_upload() takes the room made, whether it holds kv or not
        size = ledger.size_of(kv) / 2**20
        return t("upload_over_budget" if size > budget else "upload_no_room", size=size, budget=budget)
    return None
