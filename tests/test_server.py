"""The server entry point: `streamlit run dashboard.py` finds the app, and its start-up warm-up."""
import gc
import logging
from pathlib import Path

import pyarrow as pa
from streamlit.web.server.app_discovery import discover_asgi_app

from engine.vectors import load_glove
from ui import server, sidebar

ROOT = Path(__file__).resolve().parents[1]


def test_streamlit_run_finds_the_app_serving_the_home_page():
    found = discover_asgi_app(ROOT / "dashboard.py")
    assert found.is_asgi_app and found.import_string == "dashboard:app"
    import dashboard
    assert Path(dashboard.app.script_path) == Path("home.py")


def test_warm_up_loads_the_vectors_into_the_shared_cache(monkeypatch, caplog):
    loads = []
    monkeypatch.setattr(sidebar, "load_glove", lambda limit=None: loads.append(limit) or load_glove(limit))
    sidebar.glove.clear()
    with caplog.at_level(logging.ERROR):
        server.warm_up()
    assert not caplog.records and loads == [None]
    assert gc.get_freeze_count() > 100_000  # modules and vectors: no full collection walks them again
    gc.unfreeze()  # the rest of the test session collects as usual
    assert pa.default_memory_pool().backend_name == "system"
    assert len(sidebar.glove()) == 400_000 and loads == [None]  # a session's run gets what the warm-up loaded


def test_a_failing_warm_up_is_logged_not_raised(monkeypatch, caplog):
    def broken():
        raise OSError("vectors file missing")
    monkeypatch.setattr(sidebar, "glove", broken)
    with caplog.at_level(logging.ERROR):
        server.warm_up()
    assert "warm-up failed" in caplog.text and "vectors file missing" in caplog.text
