"""The server entry point: `streamlit run dashboard.py` finds the app, and its start-up warm-up."""
import ast
import gc
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
from streamlit.web.server.app_discovery import discover_asgi_app

from classroom.questions import Question
from engine.sources import load_glove
from lesson import warm
from server import lifespan
from vectors import chosen

ROOT = Path(__file__).resolve().parents[2]


def test_streamlit_run_finds_the_app_serving_the_home_page():
    found = discover_asgi_app(ROOT / "dashboard.py")
    assert found.is_asgi_app and found.import_string == "dashboard:app"
    (app,) = [node.value for node in ast.parse((ROOT / "dashboard.py").read_text()).body
              if isinstance(node, ast.Assign) and node.targets[0].id == "app"]
    assert ast.literal_eval(app.args[0]) == "lesson/app.py" and (ROOT / "lesson" / "app.py").exists()
    assert [k.value.id for k in app.keywords if k.arg == "lifespan"] == ["lifespan"]


def test_importing_the_entry_point_starts_nothing():
    import subprocess
    import sys
    code = "import threading, dashboard; print(sorted(t.name for t in threading.enumerate()))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "warm-up" not in done.stdout and "MainThread" in done.stdout


def test_the_warm_up_starts_once_and_in_the_background(monkeypatch):
    calls, go = [], threading.Event()
    monkeypatch.setattr(lifespan, "warm_up", lambda prepare: go.wait(10) and calls.append(1))
    lifespan.start_warm_up.cache_clear()
    try:
        first = lifespan.start_warm_up(warm.up)
        assert first.is_alive() and not calls  # returned while the warm-up still runs
        assert lifespan.start_warm_up(warm.up) is first
        go.set()
        first.join(10)
        assert calls == [1]
    finally:
        lifespan.start_warm_up.cache_clear()


def test_warm_up_loads_the_vectors_into_the_shared_cache(monkeypatch, caplog):
    loads = []
    monkeypatch.setattr(chosen, "load_glove", lambda limit=None: loads.append(limit) or load_glove(limit))
    chosen.glove.clear()
    with caplog.at_level(logging.ERROR):
        lifespan.warm_up(warm.up)
    assert not caplog.records and loads == [None]
    assert gc.get_freeze_count() > 100_000  # modules and vectors: no full collection walks them again
    gc.unfreeze()  # the rest of the test session collects as usual
    assert pa.default_memory_pool().backend_name == "system"
    assert len(chosen.glove()) == 400_000 and loads == [None]  # a session's run gets what the warm-up loaded


def test_warm_up_readies_the_default_learned_weights_without_fitting(monkeypatch):
    from engine import corpus, treebank
    from fits import recipe, weights
    fits, loads = [], []
    monkeypatch.setattr(corpus, "fit", lambda *a, **k: fits.append(k))
    monkeypatch.setattr(treebank, "fit", lambda *a, **k: fits.append(k))
    real = recipe.load_fit
    monkeypatch.setattr(recipe, "load_fit", lambda path: loads.append(path) or real(path))
    recipe.shipped_fit.clear()
    lifespan.warm_up(warm.up)
    gc.unfreeze()
    assert loads == [treebank.SHIPPED] and not fits  # the shipped file, read once
    kv = chosen.glove()
    assert weights.warm(kv) is weights.warm(kv) and len(loads) == 1  # shared from then on


def test_a_failing_warm_up_is_logged_not_raised(monkeypatch, caplog):
    def broken():
        raise OSError("vectors file missing")
    monkeypatch.setattr(chosen, "glove", broken)
    with caplog.at_level(logging.ERROR):
        lifespan.warm_up(warm.up)
    assert "warm-up failed" in caplog.text and "vectors file missing" in caplog.text


def test_the_lifespan_notes_the_event_loop_and_starts_the_warm_up(monkeypatch):
    import asyncio

    from server import ledger
    started = []
    stopped = []
    monkeypatch.setattr(lifespan, "start_warm_up", lambda prepare: started.append(prepare))
    monkeypatch.setattr(ledger, "server_loop", [])

    async def serve():
        async with lifespan.of(warm.up, lambda: stopped.append(1))(None):
            return asyncio.get_running_loop()
    loop = asyncio.new_event_loop()  # a loop and a thread of its own: Playwright's sync API, once a browser test has
    try:  # started it, keeps a loop running in this thread for the rest of the session
        with ThreadPoolExecutor(1) as thread:
            assert thread.submit(loop.run_until_complete, serve()).result() is loop
    finally:
        loop.close()
    assert started == [warm.up] and ledger.server_loop == [loop] and not stopped


QUESTION = Question("factor", "", "milk", ("cat", "drank"), 1, ("drank",), "angle")  # a class's first question


def class_tables(folder: Path):
    """The SQLite class database a server started with CLASS_DATA=folder makes, once it has made every table, and the
    schema version it noted (None if not within 60 s): SQLite makes the tables at once and writes the version after."""
    import sqlalchemy as sa

    made = sa.create_engine(f"sqlite:///{folder / 'classes.sqlite'}")
    noted = sa.text("SELECT value FROM class_meta WHERE key = 'schema_version'")
    end, version = time.monotonic() + 60, None
    while time.monotonic() < end and version is None:
        time.sleep(0.2)
        if sa.inspect(made).has_table("class_meta"):
            with made.connect() as conn:
                version = conn.execute(noted).scalar()
    return made, version


def test_the_server_creates_the_class_tables_as_it_starts(tmp_path, monkeypatch):
    """Before anyone opens a class, the started server has made class mode's tables and noted their version; its
    route tells a class panel's watch the stage of a class (the teacher's only to the teacher's browser), and of
    anything else that no class is known by it."""
    import urllib.request

    import sqlalchemy as sa

    from classroom import classes, watch
    from tests import browser_helpers as b

    monkeypatch.setenv("CLASS_DATA", str(tmp_path))
    monkeypatch.delenv("CLASS_DATABASE_URL", raising=False)
    with b.server() as url:
        made, version = class_tables(tmp_path)
        assert version == str(classes.SCHEMA_VERSION)
        tables = {"class_classes", "class_students", "class_answers", "class_questions"}
        assert tables <= set(sa.inspect(made).get_table_names())
        opened = classes.start(made, QUESTION, now=time.time())
        teacher = {"Cookie": f"class_teacher={opened.code}.{opened.teacher_key}"}
        for query, cookie, said in (("c=ZZZZ2222", {}, "unknown"),  # first: the read it makes finds the class too
                                    (f"c={opened.code}", {}, "1.asking.0"),
                                    (f"c={opened.code}&as=teacher", {}, "1.asking.0"),  # no key, no counts
                                    (f"c={opened.code}&as=teacher", teacher, "1.asking.0.0.0"),
                                    ("c=%00%FF%3Cscript%3E", {}, "unknown"), ("c=" + "A" * 5000, {}, "unknown"),
                                    ("", {}, "unknown")):
            asked = urllib.request.Request(f"{url}{watch.ROUTE}?{query}", headers=cookie)
            with urllib.request.urlopen(asked, timeout=30) as answer:
                assert (answer.read().decode(), answer.headers["Cache-Control"]) == (said, "no-store"), query


def test_a_server_told_to_stop_answers_the_class_questions_it_holds_and_exits(tmp_path, monkeypatch):
    """A class panel's watch holds a question on the server for up to HOLD_S; a container's stop (SIGTERM) must not
    wait that out, or the container is killed first: the question is answered at once, with the stage it had, and the
    server exits cleanly."""
    import signal
    import urllib.request

    from classroom import classes, watch
    from harness.chromium import free_port, start_server, stop_server

    monkeypatch.setenv("CLASS_DATA", str(tmp_path))
    monkeypatch.delenv("CLASS_DATABASE_URL", raising=False)
    port = free_port()
    proc = start_server(port)
    try:
        made, _ = class_tables(tmp_path)
        opened = classes.start(made, QUESTION, now=time.time())
        held = f"http://127.0.0.1:{port}{watch.ROUTE}?c={opened.code}&shown=1.asking.0"
        with ThreadPoolExecutor(1) as thread:
            answer = thread.submit(lambda: urllib.request.urlopen(held, timeout=60).read().decode())
            time.sleep(1.0)
            assert not answer.done(), "the question was answered before anything changed"
            proc.send_signal(signal.SIGTERM)
            assert answer.result(timeout=watch.HOLD_S / 2) == "1.asking.0"  # not held to its end
        # its shutdown done, the server ends as the signal says (uvicorn raises it again once it has finished)
        assert proc.wait(timeout=watch.HOLD_S / 2) in (0, -signal.SIGTERM)
        assert "Traceback" not in proc.stdout.read()
    finally:
        stop_server(proc)
