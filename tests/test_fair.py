"""Training takes turns and stays bounded: one run at a time per process, the rest queue; Stop leaves the queue."""
import threading
import time

import pytest

from harness.apptest import run_page
from ui import fair


def test_runs_take_turns_in_the_order_they_asked():
    order, seen_ahead = [], []
    first_in = threading.Event()

    def run(name, hold):
        with fair.turn(lambda n: seen_ahead.append((name, n))):
            order.append(name)
            first_in.set()
            time.sleep(hold)

    a = threading.Thread(target=run, args=("a", 0.5))
    a.start()
    first_in.wait(5)
    b = threading.Thread(target=run, args=("b", 0))
    c = threading.Thread(target=run, args=("c", 0))
    b.start()
    time.sleep(0.05)
    c.start()
    for thread in (a, b, c):
        thread.join(10)
    assert order == ["a", "b", "c"]
    assert ("b", 1) in seen_ahead and ("c", 2) in seen_ahead  # c waited behind b and the run of a
    assert fair.running == 0 and not fair.waiting


def test_leaving_the_queue_frees_the_place():
    class Stopped(Exception):
        pass

    def stop(_):
        raise Stopped  # what Streamlit raises at the next drawing call after Stop
    with fair.turn(lambda n: None):
        with pytest.raises(Stopped):
            with fair.turn(stop):
                pass
        assert not fair.waiting
    assert fair.running == 0


@pytest.mark.parametrize("words, dims, steps", [(6, 50, 53_333), (64, 50, 5_000), (64, 1000, 250), (64, 300, 833)])
def test_a_run_is_bounded_by_its_work(words, dims, steps):
    assert fair.max_steps(words, dims) == steps


def test_a_link_asking_for_more_steps_than_a_run_may_take_is_capped():
    import numpy as np
    from tests.app import messages, uploader
    words = [f"w{i}" for i in range(20)]
    rows = np.random.default_rng(0).normal(size=(20, 300))
    text = "\n".join(w + " " + " ".join(f"{x:.3f}" for x in r) for w, r in zip(words, rows)).encode()
    at = run_page("pages/5_Learning.py", {"steps": "5000", "source": "upload", "sentence": " ".join(words),
                                          "targets": "w0 w1 1; w0 w2 0"})
    uploader(at).set_value([("v.txt", text, "text/plain")])
    at.run()
    bound = fair.max_steps(20, 300)
    assert bound == 2666 and not at.exception
    assert at.number_input(key="steps").value == bound
    assert "5,000 steps is more than one run may take" in messages(at)


def test_the_run_with_the_turn_waits_while_another_page_is_drawn(monkeypatch):
    monkeypatch.setattr(fair, "GIVE_WAY_S", 30.0)
    page_done, page_started, order = threading.Event(), threading.Event(), []

    def page():  # another visitor's page, drawn until page_done
        fair.drawing()
        page_started.set()
        page_done.wait(10)
        order.append("page")

    def run():
        with fair.turn(lambda n: None):
            fair.give_way()
            order.append("run")

    other = threading.Thread(target=page)
    other.start()
    page_started.wait(5)
    fair.give_way()  # not in a turn: never waits
    trainer = threading.Thread(target=run)
    trainer.start()
    trainer.join(0.3)
    assert trainer.is_alive() and order == []  # still giving way
    page_done.set()
    for thread in (other, trainer):
        thread.join(10)
    assert order == ["page", "run"]


def test_a_run_does_not_give_way_to_runs_in_the_queue_nor_past_its_limit(monkeypatch):
    queued_in, release, done = threading.Event(), threading.Event(), []

    def queued():  # a second run: it waits in the queue, so it is not a page being drawn
        fair.drawing()
        with fair.turn(lambda n: queued_in.set()):
            pass

    with fair.turn(lambda n: None):
        second = threading.Thread(target=queued)
        second.start()
        queued_in.wait(5)
        monkeypatch.setattr(fair, "GIVE_WAY_S", 30.0)
        fair.give_way()  # returns: the only other thread is queued
        done.append("no wait")

        def page():
            fair.drawing()
            release.wait(10)
        drawer = threading.Thread(target=page)
        drawer.start()
        monkeypatch.setattr(fair, "GIVE_WAY_S", 0.0)
        fair.give_way()  # a page is drawn, but the limit has passed: the run moves on
        done.append("limit")
        release.set()
    for thread in (second, drawer):
        thread.join(10)
    assert done == ["no wait", "limit"] and fair.running == 0 and not fair.waiting
