"""Where classes are kept: one SQL database through Streamlit's st.connection("classes", type="sql") (SQLAlchemy).

The database's URL comes from the environment (CLASS_DATABASE_URL), else from secrets (`url` in [connections.classes],
where st.connection looks), else it is a SQLite file, var/classes.sqlite beside the app (CLASS_DATA names another
folder): embedded, nothing to set up, for one process, and it survives a restart. Hosted on several replicas, every
replica names the same PostgreSQL database (deploy/compose.yaml).

A database that is down, slow or stopped must not hold up the rest of the dashboard, nor freeze a student's tab:
`call` runs each class query in one of WORKERS threads and waits at most DEADLINE_S for it, whatever the database does
(a PostgreSQL stopped with SIGSTOP still accepts connections and acknowledges packets, so no server-side timeout
fires, and neither do TCP's); after a deadline missed while a query has been running for about DEADLINE_S, calls
fail at once for PAUSE_S, so that a stopped database costs each look one wait, not one a query (a deadline missed by
a query that only waited its turn, on a busy process, pauses nothing). A query the caller gave up on before it started
is not run; one that started finishes when the database answers again (a student's answer is then counted, and the
panel sends it again anyway). The connection's own timeouts and libpq's keepalives free the workers on a network
that drops. Every database failure becomes Unavailable, which the class panel says in a sentence.

A SQLite file deleted under a running server is made again, with its tables, on the next query."""
import functools
import os
import queue
import secrets
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import sqlalchemy as sa
import streamlit as st

from classroom import classes

ROOT = Path(__file__).resolve().parents[1]
NAME = "classes"  # st.connection's name, and its secrets section [connections.classes]
TIMEOUT_S = 2  # a connection, a statement or a wait for a pooled connection takes at most this long
DEADLINE_S, PAUSE_S, WORKERS = 2.0, 1.0, 8  # a caller waits at most DEADLINE_S (a student's tab: ≤ 3 s in all)
HANDOVER_S = 0.25  # what a busy process may take to hand a queued query to a worker: a query running for the
# caller's whole wait but this started that much after it was queued
SWEEP_S = 60.0  # expired classes are deleted at most this often per process
ROOM_S = 0.5  # a class's room, as its students see it, is read at most this often per process
_swept = [0.0]
_sweeping, _remaking, _starting = threading.Lock(), threading.Lock(), threading.Lock()
_paused = [0.0]  # time.monotonic() until which calls fail at once (a deadline was missed)
_running: dict[str, float] = {}  # a worker's name -> time.monotonic() when its current query started
_jobs: queue.SimpleQueue = queue.SimpleQueue()
_workers: list[threading.Thread] = []
_secrets: dict[str, str] = {}  # the database's URL -> its key for signing seats (classes.secret), once read


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
    """The database's engine, its tables created (or upgraded) once per process, and again when its SQLite file was
    deleted; Unavailable when it cannot be."""
    try:
        found = ready(url())
        remade(found)
        return found
    except sa.exc.SQLAlchemyError as e:
        raise Unavailable(str(e)[:200]) from e


def connect_args(address: str) -> dict:
    """How a connection gives up: PostgreSQL connects, runs a statement and notices a dead peer (keepalives, unsent
    data) within seconds; SQLite waits TIMEOUT_S for a lock."""
    if address.startswith("postgresql"):
        return {"connect_timeout": TIMEOUT_S, "options": f"-c statement_timeout={TIMEOUT_S * 1000}", "keepalives": 1,
                "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2, "tcp_user_timeout": 10_000}
    return {"timeout": TIMEOUT_S} if address.startswith("sqlite") else {}


@st.cache_resource(show_spinner=False)
def ready(address: str) -> sa.Engine:
    """st.connection's engine for `address`, with the schema created; cached only once it is."""
    found = st.connection(NAME, type="sql", url=address, pool_pre_ping=True, pool_timeout=TIMEOUT_S,
                          connect_args=connect_args(address)).engine
    classes.create(found)
    return found


def remade(db: sa.Engine) -> None:
    """A SQLite file that is gone is made again with its tables (and the key that signs seats, so that browsers keep
    theirs); its classes are lost, and their students are told so."""
    if db.dialect.name != "sqlite" or not db.url.database or Path(db.url.database).exists():
        return
    with _remaking:
        if Path(db.url.database).exists():
            return
        Path(db.url.database).parent.mkdir(parents=True, exist_ok=True)
        db.dispose()  # pooled connections still write to the deleted file
        classes.create(db)
        if str(db.url) in _secrets:
            classes.secret(db, _secrets[str(db.url)])


def call(fn, *args, **kwargs):
    """fn(engine, *args, now=..., **kwargs) in a worker, expired classes swept first now and then: its result within
    DEADLINE_S, else Unavailable (also when the database fails). A ClassError (a person's mistake) passes through."""
    if time.monotonic() < _paused[0]:
        raise Unavailable("the class database missed its deadline a moment ago")
    job: Future = Future()
    _jobs.put((job, time.monotonic() + DEADLINE_S, fn, args, kwargs, time.time()))
    started()
    try:
        return job.result(timeout=DEADLINE_S)
    except TimeoutError:
        job.cancel()  # not run if it has not started
        if stuck():
            _paused[0] = time.monotonic() + PAUSE_S
        raise Unavailable(f"the class database did not answer within {DEADLINE_S:g} s") from None


def stuck() -> bool:
    """Whether a worker's query has been running for about DEADLINE_S (HANDOVER_S less: it started that much after its
    caller began to wait): the database, not this process, is slow."""
    now = time.monotonic()
    return any(now - since >= DEADLINE_S - HANDOVER_S for since in list(_running.values()))


def started() -> None:
    """The workers, started once per process: daemon threads, so that a query stuck on a stopped database does not
    keep the process from exiting."""
    if len(_workers) < WORKERS:
        with _starting:
            while len(_workers) < WORKERS:
                _workers.append(threading.Thread(target=work, name=f"class-db-{len(_workers)}", daemon=True))
                _workers[-1].start()


def work() -> None:
    """A worker: run each job whose caller still waits for it."""
    while True:
        job, deadline, fn, args, kwargs, now = _jobs.get()
        if not job.set_running_or_notify_cancel():
            continue
        if time.monotonic() > deadline:
            job.set_exception(Unavailable("the caller stopped waiting"))
            continue
        _running[threading.current_thread().name] = time.monotonic()
        try:
            job.set_result(within(fn, args, kwargs, now))
        except BaseException as e:  # handed to the caller, who raises it
            job.set_exception(e)
        finally:
            del _running[threading.current_thread().name]


def within(fn, args, kwargs, now: float):
    """fn(engine, *args, now=now, **kwargs) after the sweep; a database failure as Unavailable."""
    try:
        db = engine()
        sweep(db, now)
        return fn(db, *args, now=now, **kwargs)
    except sa.exc.SQLAlchemyError as e:
        raise Unavailable(str(e)[:200]) from e


def secret() -> str:
    """The database's key for signing seats, read once per process (within the deadline), else Unavailable."""
    address = url()
    if address not in _secrets:
        _secrets[address] = call(stored_secret, _secrets.get(address) or secrets.token_urlsafe(24))
    return _secrets[address]


def secret_now() -> str | None:
    """secret() if it was read already, else None (without waiting)."""
    return _secrets.get(url())


def stored_secret(db: sa.Engine, proposed: str, *, now: float) -> str:
    return classes.secret(db, proposed)


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
