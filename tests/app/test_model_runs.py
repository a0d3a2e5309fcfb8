"""Page 8's model runs share the server (transformer/runs.py): a new sentence takes its turn in the one queue, with its
place shown and Stop, its working memory counted in the ledger before it runs; what it read is kept for everyone in a
cache by sentence, bounded and counted; and every chart drawn in a turn lets others' pages go first."""
import threading
import time

import numpy as np
import pytest

from engine import minilm
from engine.minilm import ModelError
from fits import queue
from harness.apptest import ASKED, as_it_ends
from kit.text import error_text, t
from server import ledger
from tests.apptest_helpers import chart_data, messages, run_page
from tests.minilm_model import require_model
from transformer import runs
from transformer.model import Seen

PAGE = "pages/8_Real_model.py"
SENTENCE = {"sentence": "The old dog slept by the warm fire"}


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with no sentence read, as a fresh server does."""
    runs.cache.clear()
    yield
    runs.cache.clear()
    ledger.shared.pop("model runs", None)


def busy_worker() -> tuple[queue.Job, threading.Event]:
    """Another visitor's fit holding the queue's worker until the event is set."""
    gate = threading.Event()
    blocker = queue.ask(queue.Job(lambda report: gate.wait(30), 1, 0), "another visitor")
    while not blocker.started:
        time.sleep(0.01)
    return blocker, gate


def test_a_sentence_read_once_is_drawn_for_everyone_without_another_run():
    require_model()
    before = ASKED[0]
    first = run_page(PAGE, SENTENCE)
    asked = ASKED[0] - before
    second = run_page(PAGE, SENTENCE)
    assert not first.exception and not second.exception
    assert asked == 1 and ASKED[0] - before == 1  # the second visitor's page asked the queue for nothing
    assert all(a.equals(b) for a, b in zip(chart_data(first), chart_data(second), strict=True))
    assert ledger.shared["model runs"] == sum(map(ledger.nbytes, runs.cache.values())) > 0


def test_a_new_sentence_waits_its_turn_with_its_place_and_stop_and_can_be_asked_again():
    require_model()
    blocker, gate = busy_worker()
    try:
        with as_it_ends():
            at = run_page(PAGE, SENTENCE)
            assert t("model_queue_wait", n=1) in messages(at) and not at.get("vega_lite_chart")
            at.button(key=runs.STOP).click().run()
            assert t("model_run_stopped") in messages(at)
            assert not [j for j in queue.line if j.key and j.key[0] == "model"]  # it left the line
            at.button(key="model_run_again").click().run()
            assert t("model_queue_wait", n=1) in messages(at)
        gate.set()
        assert blocker.ended.wait(10) and queue.idle(30)
        at.run()
        assert not at.exception and any(c.key == "model_grid_pick" for c in at.get("vega_lite_chart"))
    finally:
        gate.set()


def test_a_run_without_room_for_its_working_memory_says_so(monkeypatch):
    require_model()
    model = minilm.load()
    monkeypatch.setenv(ledger.BUDGET_ENV, "0.01")  # 10 KiB for every visitor's uploads, fits and runs
    at = run_page(PAGE, SENTENCE)
    words = SENTENCE["sentence"].lower().split()
    needs = minilm.run_bytes(model, len(minilm.pieces(model, words).ids)) / 2**20
    assert error_text(ModelError("no_room", mb=f"{needs:,.0f}", budget="0")) in messages(at)
    assert not at.exception and not at.get("vega_lite_chart") and not ledger.reserved and not runs.cache
    monkeypatch.setenv(ledger.BUDGET_ENV, "300")  # room again: the button asks once more, and the page is drawn
    at.button(key="model_run_again").click().run()
    assert not at.exception and any(c.key == "model_grid_pick" for c in at.get("vega_lite_chart"))


def test_the_cache_keeps_the_sentences_read_last_within_its_bound_and_the_ledger_counts_them(monkeypatch):
    monkeypatch.setattr(runs, "CACHE_BYTES", 3 * 2**20)
    seen = {i: Seen(None, np.zeros(2**18, dtype=np.float32), np.zeros(0), np.zeros(0)) for i in range(5)}  # 1 MiB each
    for i in range(3):
        runs.store(("f", (str(i),)), seen[i])
    assert runs.cached(("f", ("0",))) is seen[0]  # read again: now the last to go
    for i in (3, 4):
        runs.store(("f", (str(i),)), seen[i])
    assert [words for _, (words,) in runs.cache] == ["0", "3", "4"]
    assert ledger.shared["model runs"] == 3 * 2**20


def test_every_chart_of_a_page_asks_the_queue_whether_to_let_others_go_first(monkeypatch):
    asked = []
    monkeypatch.setattr(queue, "give_way", lambda: asked.append(1))
    at = run_page("pages/2_Factor_matrix.py")
    assert not at.exception and len(asked) >= len(at.get("vega_lite_chart")) > 0
