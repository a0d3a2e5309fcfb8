"""Where classes are kept: one SQL database through Streamlit's st.connection("classes", type="sql") (SQLAlchemy).

The database's URL comes from the environment (CLASS_DATABASE_URL), else from secrets (`url` in [connections.classes],
where st.connection looks), else it is a SQLite file, var/classes.sqlite beside the app (CLASS_DATA names another
folder): embedded, nothing to set up, for one process, and it survives a restart. Hosted on several replicas, every
replica names the same PostgreSQL database (deploy/compose.yaml).

A database that is down or slow must not hold up the rest of the dashboard: connections and statements give up after
TIMEOUT_S, and `call` turns every database failure into Unavailable, which the class panel says in a sentence."""
import functools
import os
import threading
import time
from pathlib import Path

import sqlalchemy as sa
import streamlit as st

from classroom import classes

ROOT = Path(__file__).resolve().parents[1]
NAME = "classes"  # st.connection's name, and its secrets section [connections.classes]
TIMEOUT_S = 2  # a connection or a statement waits at most this long
SWEEP_S = 60.0  # expired classes are deleted at most this often per process
ROOM_S = 0.5  # a class's room, as its students see it, is read at most this often per process
_swept = [0.0]
_sweeping = threading.Lock()


class Unavailable(Exception):
    """The class database did not answer (down, slow, or refusing)."""


def url() -> str:
    """The database's URL: from the environment, else from secrets, else the SQLite file's."""
    return located(os.environ.get("CLASS_DATABASE_URL", ""), os.environ.get("CLASS_DATA", ""))


@functools.lru_cache(maxsize=16)
def located(from_environment: str, folder: str) -> str:
    """url() for these environment values, worked out once per process (every look of a live panel asks)."""
    if from_environment:
        return from_environment
    try:
        return str(st.secrets["connections"][NAME]["url"])
    except (FileNotFoundError, KeyError, st.errors.StreamlitSecretNotFoundError):
        path = Path(folder or ROOT / "var")
        path.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path / 'classes.sqlite'}"


def engine() -> sa.Engine:
    """The database's engine, its tables created (or upgraded) once per process; Unavailable when it cannot be."""
    try:
        return ready(url())
    except sa.exc.SQLAlchemyError as e:
        raise Unavailable(str(e)[:200]) from e


@st.cache_resource(show_spinner=False)
def ready(address: str) -> sa.Engine:
    """st.connection's engine for `address`, with the schema created; cached only once it is."""
    kind = address.split(":", 1)[0]
    connect_args = ({"connect_timeout": TIMEOUT_S, "options": f"-c statement_timeout={TIMEOUT_S * 1000}"}
                    if kind.startswith("postgresql") else {"timeout": TIMEOUT_S} if kind.startswith("sqlite") else {})
    found = st.connection(NAME, type="sql", url=address, pool_pre_ping=True, connect_args=connect_args).engine
    classes.create(found)
    return found


def call(fn, *args, **kwargs):
    """classes.fn(engine, *args, now=..., **kwargs), expired classes swept first now and then; Unavailable when the
    database fails. A ClassError (a person's mistake) passes through."""
    now = time.time()
    try:
        db = engine()
        sweep(db, now)
        return fn(db, *args, now=now, **kwargs)
    except sa.exc.SQLAlchemyError as e:
        raise Unavailable(str(e)[:200]) from e


def sweep(db: sa.Engine, now: float) -> None:
    """Delete expired classes with their answers, at most once a SWEEP_S per process, by one caller at a time."""
    if now - _swept[0] < SWEEP_S or not _sweeping.acquire(blocking=False):
        return
    try:
        _swept[0] = now
        classes.sweep(db, now=now)
    finally:
        _sweeping.release()


def shared_room(db: sa.Engine, code: str, *, now: float) -> classes.Room:
    """classes.room as the students' panels see it: read at most once every ROOM_S per process for each class,
    however many of its students look (one read a class, not one a tab); a failure is not kept. The teacher's panel
    reads classes.room itself, and the teacher's changes are seen here at once in this process (forget), within
    ROOM_S in the others."""
    return kept_room(url(), code, _db=db)


@st.cache_data(ttl=ROOM_S, max_entries=10_000, show_spinner=False)
def kept_room(address: str, code: str, _db: sa.Engine) -> classes.Room:
    return classes.room(_db, code, now=time.time())


FORGOTTEN: list = []  # what else hears that a class changed on this process: watch.py wakes its watchers


def forget(code: str) -> None:
    """The next look at `code`'s room in this process reads the database (someone here changed the class)."""
    kept_room.clear(url(), code, _db=None)
    for hear in FORGOTTEN:
        hear(code)
