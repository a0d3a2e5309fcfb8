"""Every fit goes through the one queue: one at a time per process in the worker, in the order asked, bounded in steps
and per step by its work (d, d_k, steps and words), with its place shown and Stop, which keeps the steps reached."""
import threading
import time

import numpy as np
import pytest

from engine import treebank
from fits import cache, queue, recipe
from harness.apptest import run_page
from kit.text import error_text, in_language, t
from tests.apptest_helpers import chart_data, messages, uploader


def counting(steps: int, gate: threading.Event | None = None, log: list | None = None):
    """A fit's work: `steps` steps, each reported (and noted in `log`), held at the first until `gate` opens."""
    def work(report):
        for step in range(steps + 1):
            if log is not None:
                log.append(step)
            if gate is not None:
                gate.wait(10)
            if report(step) is False:
                return ("stopped", step)
        return ("done", steps)
    return work


def test_fits_run_one_at_a_time_in_the_worker_in_the_order_asked():
    gate, order, threads = threading.Event(), [], []

    def work(name):
        def run(report):
            order.append(name)
            threads.append(threading.current_thread())
            gate.wait(10)
            report(0)
            return name
        return run

    jobs = [queue.ask(queue.Job(work(name), 1, 0), name) for name in "abc"]
    while queue.ahead(jobs[0]) or not jobs[0].started:
        time.sleep(0.01)
    assert [queue.ahead(j) for j in jobs] == [0, 1, 2]  # the second waits behind the running one, the third behind both
    gate.set()
    assert all(j.ended.wait(10) for j in jobs)
    assert order == ["a", "b", "c"] and [j.result for j in jobs] == ["a", "b", "c"]
    assert {th.name for th in threads} == {"fits"} and threading.current_thread() not in threads
    assert queue.idle(5)


def test_asking_for_a_fit_that_is_queued_or_running_joins_it():
    gate = threading.Event()
    first = queue.ask(queue.Job(counting(3, gate), 3, 0, key=("same",)), "a")
    again = queue.ask(queue.Job(counting(3), 3, 0, key=("same",)), "b")
    other = queue.ask(queue.Job(counting(3), 3, 0, key=("other",)), "c")
    assert again is first and first.waiting == {"a", "b"} and other is not first
    gate.set()
    assert first.ended.wait(10) and other.ended.wait(10) and first.result == ("done", 3)


def test_stop_keeps_the_steps_reached_and_the_next_fit_starts_only_after():
    gate, log, later = threading.Event(), [], []
    job = queue.ask(queue.Job(counting(1000, gate, log), 1000, 0), "me")
    nxt = queue.ask(queue.Job(counting(2, log=later), 2, 0), "you")
    while not job.started:
        time.sleep(0.01)
    queue.leave(job, "me", wait=0)  # Stop, pressed while the fit is at its first step
    assert not later  # the next fit waits for this one's step to end
    gate.set()
    assert job.ended.wait(10) and job.result == ("stopped", 0) and log == [0]  # that step once, none again
    assert nxt.ended.wait(10) and later == [0, 1, 2]


def test_stop_by_one_of_two_visitors_leaves_the_fit_to_the_other():
    gate = threading.Event()
    job = queue.ask(queue.Job(counting(5, gate), 5, 0, key=("shared",)), "a")
    queue.ask(queue.Job(counting(5), 5, 0, key=("shared",)), "b")
    queue.leave(job, "a", wait=0)
    assert not job.stop.is_set()
    gate.set()
    assert job.ended.wait(10) and job.result == ("done", 5)


def test_leaving_the_queue_before_the_fit_begins_frees_the_place():
    gate = threading.Event()
    first = queue.ask(queue.Job(counting(1, gate), 1, 0), "a")
    queued = queue.ask(queue.Job(counting(1), 1, 0), "b")
    queue.leave(queued, "b")
    assert queued.ended.is_set() and queued.result is None and not queued.started
    assert queued not in queue.line
    gate.set()
    assert first.ended.wait(10) and queue.idle(5)


def test_a_fit_whose_step_would_take_too_long_is_refused_by_code():
    queue.check_step(100, 50, 16)  # a step of 100 words: well within STEP_WORK
    for words, code in ((20_000, "too_large"), (10_000_000, "too_large_any")):
        with pytest.raises(queue.TooLarge) as e:
            queue.check_step(words, 300, 300)
        most = queue.max_d_k(words, 300)
        assert (e.value.code, e.value.values) == (code, {"d": 300, "d_k": 300, "max": most})
        assert (most > 0) == (code == "too_large")
        with in_language("zh"):
            assert error_text(e.value) == t(f"fit_{code}", d=300, d_k=300, max=most)


def test_a_failing_fit_keeps_its_error_for_the_page():
    def broken(report):
        raise ValueError("numbers too large")
    job = queue.ask(queue.Job(broken, 1, 0), "me")
    assert job.ended.wait(10) and isinstance(job.error, ValueError) and job.result is None
    assert queue.idle(5)


def test_a_fit_runs_only_with_room_for_its_working_memory_in_the_ledger(monkeypatch):
    from engine.corpus import CorpusError
    from server import ledger
    monkeypatch.setenv(ledger.BUDGET_ENV, "1")  # 1 MiB for every visitor's uploads and fits
    monkeypatch.setattr(ledger, "results", {})  # the results earlier tests' sessions keep (they never end) aside
    monkeypatch.setattr(ledger, "shared", {})  # and the sentences page 8 read for them
    ran = []
    too_big = queue.ask(queue.Job(lambda report: ran.append(1), 1, 2**21), "me")
    assert too_big.ended.wait(10) and isinstance(too_big.error, CorpusError) and too_big.error.code == "no_room"
    assert ran == [] and not ledger.reserved  # never started, nothing left counted
    seen = []
    fits = queue.ask(queue.Job(lambda report: seen.append(dict(ledger.reserved)) or "done", 1, 2**19), "me")
    assert fits.ended.wait(10) and fits.result == "done" and list(seen[0].values()) == [2**19]  # counted while it ran
    assert not ledger.reserved and queue.idle(5)


def test_a_fit_for_a_closed_tab_stops_and_one_others_wait_for_goes_on(monkeypatch):
    from server import runtime
    monkeypatch.setattr(runtime, "connected", lambda session: session != "closed")
    gate, steps = threading.Event(), []
    queue.ask(queue.Job(counting(1, gate), 1, 0, session="open"), "a")  # holds the worker while the rest queue
    alone = queue.ask(queue.Job(lambda report: steps.append("alone"), 1, 0, session="closed"), "b")
    shared = queue.ask(
        queue.Job(lambda report: steps.append("shared") or "done", 1, 0, key=("k",), session="closed"), "c"
    )
    queue.ask(queue.Job(counting(1), 1, 0, key=("k",)), "d")  # another visitor waits for the same fit
    gate.set()
    assert alone.ended.wait(10) and shared.ended.wait(10) and queue.idle(5)
    assert alone.stop.is_set() and alone.result is None and steps == ["shared"] and shared.result == "done"


def test_a_page_whose_fit_has_no_room_says_so_and_shows_random_weights(monkeypatch):
    from server import ledger
    monkeypatch.setenv(ledger.BUDGET_ENV, "1")
    at = run_page(None, {"d_k": "8"})  # a head the project does not ship: fitted in the queue, if there is room
    assert "working memory" in messages(at) and not at.exception
    assert t("weights_random", q=1, k=2) in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("words, d, d_k, steps", [
    (6, 50, 16, 124_223), (64, 50, 16, 67_934), (64, 1000, 300, 1_031), (4_508, 50, 16, 1_901),
    (4_508, 50, 50, 1_590), (4_508, 1000, 300, 28)])
def test_a_fit_is_bounded_by_its_work_which_counts_words_d_and_d_k(words, d, d_k, steps):
    assert queue.max_steps(words, d, d_k) == steps


def test_one_step_is_bounded_too_and_says_the_widest_d_k_that_would_do():
    step = queue.reads(4_000, 37_650, every=40)  # a treebank minibatch, held-out accuracy every 40th step
    assert queue.step_work(step, 1000, 261) <= queue.STEP_WORK < queue.step_work(step, 1000, 262)
    assert queue.max_d_k(step, 1000) == 261 and queue.max_d_k(150_000, 1000) == 0  # nothing is narrow enough


def test_working_memory_counts_rows_scores_and_kept_snapshots():
    assert queue.fit_bytes(50, 16, 1_000) == 8 * (1_000 * 50 + 1_000 * (32 + queue.SCORE_COLUMNS) + 6 * 50 * 16)
    rows = queue.fit_bytes(1000, 300, 141_575, at_once=37_650)  # the treebank on 1,000 dimensions: over 1 GB
    assert 1.0e9 < rows < 1.5e9
    snapshots = queue.fit_bytes(1000, 300, 6, snapshots=51) - queue.fit_bytes(1000, 300, 6)
    assert 450e6 < snapshots < 550e6  # live training keeps 51 copies of W_Q and W_K


def vectors_text(words: list[str], d: int) -> bytes:
    rows = np.random.default_rng(0).normal(size=(len(words), d))
    return "\n".join(w + " " + " ".join(f"{x:.3f}" for x in r) for w, r in zip(words, rows, strict=False)).encode()


def test_a_link_asking_for_more_steps_than_a_run_may_take_is_capped():
    words = [f"w{i}" for i in range(20)]
    at = run_page("pages/5_Learning.py", {"steps": "5000", "source": "upload", "sentence": " ".join(words),
                                          "targets": "w0 w1 1; w0 w2 0", "d_k": "300", "q_preset": "random",
                                          "k_preset": "random"})
    uploader(at).set_value([("v.txt", vectors_text(words, 1000), "text/plain")])
    at.run()
    bound = queue.max_steps(20, 1000, 300)
    assert bound == 1571 and not at.exception
    assert at.number_input(key="steps").value == bound
    assert "5,000 steps is more than one run may take" in messages(at)


def test_a_fit_whose_one_step_takes_too_long_is_refused_with_a_sentence():
    words = [f"w{i}" for i in range(20)]
    at = run_page("pages/2_Factor_matrix.py", {"source": "upload", "sentence": "w0 w1 w2"})
    uploader(at).set_value([("v.txt", vectors_text(words, 1000), "text/plain")])
    at.run()
    at.session_state["d_k"] = 300
    at.run()
    assert not at.exception and not queue.pending()  # refused before it was queued
    assert t("fit_too_large", d=1000, d_k=300, max=261) in messages(at)
    assert any(m.value.startswith("**W_Q and W_K are random**") for m in at.markdown)


def test_the_worker_waits_while_another_visitor_s_page_is_drawn():
    page_done, page_started, order = threading.Event(), threading.Event(), []

    def page():  # another visitor's page, drawn until page_done
        queue.drawing()
        page_started.set()
        page_done.wait(10)
        order.append("page")

    def work(report):
        report(0)
        order.append("fit")

    other = threading.Thread(target=page)
    other.start()
    page_started.wait(5)
    queue.give_way()  # not the worker: never waits
    job = queue.ask(queue.Job(work, 0, 0, yields=30.0), "me")
    assert not job.ended.wait(0.3) and order == []  # still giving way
    page_done.set()
    other.join(10)
    assert job.ended.wait(10) and order == ["page", "fit"]


def test_the_worker_gives_way_no_longer_than_its_limit():
    release = threading.Event()

    def page():
        queue.drawing()
        release.wait(10)
    drawer = threading.Thread(target=page)
    drawer.start()
    job = queue.ask(queue.Job(counting(3), 3, 0, yields=0.0), "me")
    assert job.ended.wait(10) and job.result == ("done", 3)  # a page is drawn, but the limit has passed
    release.set()
    drawer.join(10)


def test_a_fit_on_built_in_vectors_is_made_once_and_shared_by_every_session(monkeypatch):
    calls, real = [], treebank.fit
    monkeypatch.setattr(treebank, "fit", lambda *a, **k: calls.append(1) or real(*a, **k))
    cache.FITTED.clear()  # a fresh server: nothing fitted yet
    link = {"q_preset": "run", "k_preset": "run", "run_steps": "40", "run_seed": "7"}
    first, second = (run_page("pages/2_Factor_matrix.py", link) for _ in range(2))
    assert len(calls) == 1 and not first.exception and not second.exception
    assert chart_data(first)[0].equals(chart_data(second)[0])


def test_a_queued_fit_does_not_keep_an_upload_released_for_others_and_does_not_run():
    import gc
    import weakref
    from dataclasses import replace

    from engine.formats import keyed_vectors
    from lesson.settings import DEFAULTS
    from vectors import chosen
    kv = keyed_vectors(["the", "cat"], np.ones((2, 3), dtype=np.float32))
    s = replace(DEFAULTS, source="upload")
    source = chosen.Source("upload", len(kv), kv.vector_size)
    wanted = recipe.job(s, "trained", source)
    job, vectors = wanted.job(kv, recipe.key(source, kv, wanted), lambda fit: None), weakref.ref(kv)
    assert job.inputs()
    del kv  # the ledger let go of the upload; only the queued fit could still hold it
    gc.collect()
    assert vectors() is None and not job.inputs()
    gate, ran = threading.Event(), []
    first = queue.ask(queue.Job(counting(1, gate), 1, 0), "a")  # holds the worker while the fit waits its turn
    queue.ask(job, "b")
    released = queue.ask(queue.Job(lambda report: ran.append(1), 1, 0, inputs=lambda: False), "c")
    gate.set()
    assert first.ended.wait(10) and job.ended.wait(10) and released.ended.wait(10)
    assert job.stop.is_set() and job.result is None and job.error is None and ran == []
