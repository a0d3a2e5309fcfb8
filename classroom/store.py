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

Students' answers are the writes a class makes most (30 students answering within a few seconds, a script's seats at
their allowance): `write` queues them for one writer thread, which writes every answer waiting in one transaction,
so that a crowd of answers costs the database a few short transactions instead of one each, and SQLite (in WAL mode,
one writer) never makes a script thread queue for its lock. The caller still waits for its own answer's outcome
within DEADLINE_S.

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
from engine.errors import ClassError

ROOT = Path(__file__).resolve().parents[1]
NAME = "classes"  # st.connection's name, and its secrets section [connections.classes]
TIMEOUT_S = 2  # a connection, a statement or a wait for a pooled connection takes at most this long
DEADLINE_S, PAUSE_S, WORKERS = 2.0, 1.0, 8  # a caller waits at most DEADLINE_S (a student's tab: ≤ 3 s in all)
BATCH = 500  # answers written in one transaction at most
HANDOVER_S = 0.25  # what a busy process may take to hand a queued query to a worker: a query running for the
# caller's whole wait but this started that much after it was queued
SWEEP_S = 60.0  # expired classes are deleted at most this often per process
ROOM_S = 0.5  # a class's room, as its students see it, is read at most this often per process
_swept = [0.0]
_sweeping = threading.Lock()
_remaking = threading.Lock()
_starting = threading.Lock()
_making = threading.Lock()
_paused = [0.0]  # time.monotonic() until which calls fail at once (a deadline was missed)
_running: dict[str, float] = {}  # a worker's name -> time.monotonic() when its current query started
_jobs: queue.SimpleQueue = queue.SimpleQueue()
_writes: queue.SimpleQueue = queue.SimpleQueue()  # the writer's jobs (write)
_workers: list[threading.Thread] = []
_engines: dict[str, sa.Engine] = {}  # the database's URL -> its engine, its tables made (ready)
ROOMS: dict[tuple[str, str], tuple[float, classes.Room]] = {}  # (URL, code) -> (time.monotonic() read, room)
ROOMS_KEPT = 10_000  # rooms kept before those past ROOM_S are dropped
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
    """The database's engine, tables made once per process and again if its SQLite file is gone; else Unavailable."""
    try:
        found = ready(url())
        remade(found)
        return found
    except sa.exc.SQLAlchemyError as e:
        raise Unavailable(str(e)[:200]) from e


def connect_args(address: str) -> dict:
    """How a connection gives up: PostgreSQL within seconds, SQLite after waiting TIMEOUT_S for a lock."""
    # PostgreSQL connects, runs a statement and notices a dead peer (keepalives, unsent data) within seconds
    if address.startswith("postgresql"):
        return {"connect_timeout": TIMEOUT_S, "options": f"-c statement_timeout={TIMEOUT_S * 1000}", "keepalives": 1,
                "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2, "tcp_user_timeout": 10_000}
    return {"timeout": TIMEOUT_S} if address.startswith("sqlite") else {}


def ready(address: str) -> sa.Engine:
    """st.connection's engine for `address`, with the schema created; kept only once it is."""
    # a dictionary, not st.cache_resource: every class query asks, and hashing its argument each time cost more than the
    # look-up
    if address not in _engines:
        with _making:
            if address not in _engines:
                _engines[address] = made(address)
    return _engines[address]


def made(address: str) -> sa.Engine:
    """st.connection's engine for `address`, its schema created."""
    found = st.connection(NAME, type="sql", url=address, pool_timeout=TIMEOUT_S, connect_args=connect_args(address),
                          pool_pre_ping=not address.startswith("sqlite")).engine  # a file has no connection to lose
    if found.dialect.name == "sqlite":
        sa.event.listen(found, "connect", wal)
        found.dispose()  # a connection made before the listener would not be in WAL mode
    classes.create(found)
    return found


def wal(connection, _record) -> None:
    """A SQLite connection in WAL mode: readers do not wait for the writer, and a commit does not sync the file."""
    # only a checkpoint syncs it: a power cut may lose the last answers, never the file
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")


def remade(db: sa.Engine) -> None:
    """Make a deleted SQLite file again with its tables and the key that signs seats; its classes are lost."""
    # the key again, so that browsers keep their seats; the lost classes' students are told so
    if db.dialect.name != "sqlite" or not db.url.database or Path(db.url.database).exists():
        return
    with _remaking:
        if Path(db.url.database).exists():
            return
        Path(db.url.database).parent.mkdir(parents=True, exist_ok=True)
        db.dispose()  # pooled connections still write to the deleted file
        for stale in ("-wal", "-shm"):  # the old file's log would be played into the new one
            Path(db.url.database + stale).unlink(missing_ok=True)
        classes.create(db)
        if str(db.url) in _secrets:
            classes.secret(db, _secrets[str(db.url)])


def call(fn, *args, **kwargs):
    """fn(engine, *args, now=..., **kwargs) in a worker: its result within DEADLINE_S, else Unavailable."""
    # Expired classes are swept first now and then; a ClassError (a person's mistake) passes through. A room shared_room
    # read less than ROOM_S ago is handed back at once, in the caller's thread: a busy process's threads wait for each
    # other's turn on the interpreter, and a look that needs no database should not.
    found = ROOMS.get((url(), args[0])) if fn is shared_room and args else None
    if found is not None and time.monotonic() - found[0] < ROOM_S and time.monotonic() >= _paused[0]:
        return found[1]
    return waited(_jobs, fn, args, kwargs)


def write(fn, *args, **kwargs):
    """fn(connection, *args, now=..., **kwargs) by the writer, in one transaction with the other writes waiting."""
    # its result within DEADLINE_S, else Unavailable; a ClassError passes through (the others are written)
    return waited(_writes, fn, args, kwargs)


def waited(jobs: queue.SimpleQueue, fn, args: tuple, kwargs: dict):
    """The result of a job put in `jobs`, within DEADLINE_S (call and write)."""
    if time.monotonic() < _paused[0]:
        raise Unavailable("the class database missed its deadline a moment ago")
    job: Future = Future()
    jobs.put((job, time.monotonic() + DEADLINE_S, fn, args, kwargs, time.time()))
    started()
    try:
        return job.result(timeout=DEADLINE_S)
    except TimeoutError:
        job.cancel()  # not run if it has not started
        if stuck():
            _paused[0] = time.monotonic() + PAUSE_S
        raise Unavailable(f"the class database did not answer within {DEADLINE_S:g} s") from None


def stuck() -> bool:
    """Whether a worker's query has been running for about DEADLINE_S: the database, not this process, is slow."""
    # HANDOVER_S less: it started that much after its caller began to wait
    now = time.monotonic()
    return any(now - since >= DEADLINE_S - HANDOVER_S for since in list(_running.values()))


def started() -> None:
    """Start the workers and the writer, once per process."""
    # daemon threads, so that a query stuck on a stopped database does not keep the process from exiting
    if len(_workers) <= WORKERS:
        with _starting:
            while len(_workers) < WORKERS:
                _workers.append(threading.Thread(target=work, name=f"class-db-{len(_workers)}", daemon=True))
                _workers[-1].start()
            if len(_workers) == WORKERS:
                _workers.append(threading.Thread(target=writer, name="class-db-writer", daemon=True))
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


def writer() -> None:
    """The writer: every job waiting, up to BATCH, written in one transaction."""
    while True:
        batch = [_writes.get()]
        while len(batch) < BATCH and not _writes.empty():
            batch.append(_writes.get())
        batch = [b for b in batch if b[0].set_running_or_notify_cancel()]
        late = [b for b in batch if time.monotonic() > b[1]]
        for job, *_ in late:
            job.set_exception(Unavailable("the caller stopped waiting"))
        if len(late) < len(batch):
            _running[threading.current_thread().name] = time.monotonic()
            try:
                written([b for b in batch if b not in late])
            finally:
                del _running[threading.current_thread().name]


def written(batch: list) -> None:
    """Run each job of the batch on one transaction: its result once committed, its ClassError at once."""
    # Unavailable for all when the database fails
    done: list[tuple[Future, object]] = []
    try:
        db = engine()
        sweep(db, batch[0][5])
        with db.begin() as conn:
            for job, _, fn, args, kwargs, now in batch:
                try:
                    done.append((job, fn(conn, *args, now=now, **kwargs)))
                except (ClassError, ValueError, TypeError) as e:  # checked before anything is written: others go on
                    job.set_exception(e)
    except Exception as e:  # the database failed (or the batch could not be written): no job waits for nothing
        failed = e if isinstance(e, Unavailable) else Unavailable(str(e)[:200])
        for job, *_ in batch:
            if not job.done():
                job.set_exception(failed)
        return
    for job, result in done:
        job.set_result(result)


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
    """classes.room as the students' panels see it: read at most once every ROOM_S per process for each class."""
    # One read a class, not one a tab, however many of its students look; a failure is not kept. The teacher's panel
    # reads classes.room itself, and the teacher's changes are seen here at once in this process (forget), within ROOM_S
    # in the others. Kept in ROOMS: a Room is frozen, so every look shares it with no copy to make.
    key = (url(), code)
    found = ROOMS.get(key)
    if found is None or time.monotonic() - found[0] >= ROOM_S:
        if len(ROOMS) >= ROOMS_KEPT:
            for old in [k for k, (at, _) in list(ROOMS.items()) if time.monotonic() - at >= ROOM_S]:
                ROOMS.pop(old, None)
        found = ROOMS[key] = (time.monotonic(), classes.room(db, code, now=now))
    return found[1]


FORGOTTEN: list = []  # what else hears that a class changed on this process: watch.py wakes its watchers


def forget(code: str) -> None:
    """The next look at `code`'s room in this process reads the database (someone here changed the class)."""
    ROOMS.pop((url(), code), None)
    for hear in FORGOTTEN:
        hear(code)


COUNTED: list = []  # what hears that an answer was given on this process: watch.py reads the counts again soon


def counted(code: str) -> None:
    """Have class `code`'s counts read again within a moment (watch.py): someone here answered in it."""
    # not at once, so that a room answering together costs a read now and then, not one an answer
    for hear in COUNTED:
        hear(code)
