"""A real server: a "run" link's fit goes through the one queue, with its place, progress and Stop, over the
websocket as the page speaks to the server."""
import time

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from harness.chromium import free_port, start_server, stop_server
from kit.text import in_language, t

RUN_LINK = "q_preset=run&k_preset=run&run_steps=2000&d_k=50"  # a fit no server has: ~10 s of CPU


class Visitor:
    """One session over a bare websocket, as Streamlit's frontend speaks to the server."""

    def __init__(self, ws, query: str):
        self.ws, self.query, self.fragment, self.buttons, self.alerts, self.text = ws, query, "", {}, [], []

    def run(self, fragment: str = "", press: str = "") -> str:
        """A run of the page (or of its fragment), pressing the button labelled `press`; how it finished."""
        msg = BackMsg()
        msg.rerun_script.query_string, msg.rerun_script.fragment_id = self.query, fragment
        if press:
            state = msg.rerun_script.widget_states.widgets.add()
            state.id, state.trigger_value = self.buttons[press], True
        self.alerts, self.text = [], []
        self.ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(self.ws.recv(timeout=120))
            kind = fwd.WhichOneof("type")
            if kind == "auto_rerun":
                self.fragment = fwd.auto_rerun.fragment_id
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                if which == "alert":
                    self.alerts.append(element.alert.body)
                elif which == "button":
                    self.buttons[element.button.label] = element.button.id
                elif which == "markdown":
                    self.text.append(element.markdown.body)
                elif which == "exception":
                    raise AssertionError(element.exception.message)
            elif kind == "script_finished" and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return ForwardMsg.ScriptFinishedStatus.Name(fwd.script_finished)

    def look(self) -> str:
        """What the waiting notice's next look shows (a run of its fragment, as the frontend sends every POLL s)."""
        self.run(self.fragment)
        return " ".join(self.alerts)


def stream(url: str):
    """A websocket to the server, as the page opens it."""
    return connect(url.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"], origin=url, max_size=None)


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = start_server(port)
    yield f"http://127.0.0.1:{port}"
    stop_server(proc)


def test_a_run_link_fits_in_the_queue_with_its_place_and_stop_and_stop_keeps_the_step(server):
    with stream(server) as one, stream(server) as two:
        visit(Visitor(one, RUN_LINK), Visitor(two, RUN_LINK + "&run_seed=1"))


def test_the_waiting_notice_speaks_the_visitors_language_on_its_own_looks(server):
    """Each look of the notice is a run of its fragment alone, which the server may start in a script thread of its
    own: it still speaks the language of the page that asked for the fit."""
    with stream(server) as ws:
        visitor = Visitor(ws, RUN_LINK + "&run_seed=2&lang=zh")
        assert visitor.run() == "FINISHED_SUCCESSFULLY" and visitor.fragment
        with in_language("zh"):
            stop, notices = t("learn_stop"), (t("queue_wait", n=1)[:8], t("fit_running", step=0, total=0)[:8])
        for _ in range(3):
            visitor.buttons.clear()
            said = visitor.look()
            assert stop in visitor.buttons and said.startswith(notices), said
            time.sleep(0.6)  # the last look's script thread has ended: the next look starts a new one
        end = time.monotonic() + 60
        while visitor.run(visitor.fragment, press=stop) == "FINISHED_FRAGMENT_RUN_SUCCESSFULLY":
            assert time.monotonic() < end  # the fit is ending its step


def visit(first: Visitor, second: Visitor):
    """The first visitor's fit queued, shown, running; the second's queued behind it; Stop on the first."""
    assert first.run() == "FINISHED_SUCCESSFULLY"  # the page's run ends without the fit
    assert first.fragment and t("learn_stop") in first.buttons
    assert any(a.startswith(t("queue_wait", n=1)[:30]) or a.startswith(t("fit_running", step=0, total=0)[:20])
               for a in first.alerts)
    end = time.monotonic() + 60
    while not (first.look().startswith(t("fit_running", step=0, total=0)[:20]) and "step 0 of" not in first.alerts[0]):
        assert time.monotonic() < end
        time.sleep(0.2)  # until it runs, at a step past the first
    second.run()
    assert any(a.startswith(t("queue_wait", n=1)) for a in second.alerts)  # one fit ahead of it: the first
    finished = first.run(first.fragment, press=t("learn_stop"))
    while finished == "FINISHED_FRAGMENT_RUN_SUCCESSFULLY":  # the fit was still ending its step (a busy machine)
        assert t("fit_stopping", step=0)[:12] in " ".join(first.alerts) and time.monotonic() < end
        finished = first.run(first.fragment)  # the notice's next look
    assert finished == "FINISHED_SUCCESSFULLY"  # the page drawn again
    stopped = " ".join(first.text)
    assert "**W_Q and W_K come from your training run**" in stopped and "The fit was stopped at step" in stopped
    assert "cut to that" in stopped  # 2,000 steps asked, fewer allowed with d_k = 50
    while not second.look().startswith(t("fit_running", step=0, total=0)[:20]):
        assert time.monotonic() < end
        time.sleep(0.2)  # the second fit runs once the first has ended
