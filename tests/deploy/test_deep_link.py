"""A page's own address as a fresh server's first page request: the page runs through the entry (lesson/app.py: the
visitor's Settings, the sidebar, the page's title), never alone. Streamlit runs a script of a pages/ folder that sits
beside the main script by itself on such a request; the entry lives in lesson/ so that none does."""
import urllib.request

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from harness.chromium import free_port, start_server, stop_server
from kit import pages
from kit.text import t


def first_run(url: str, page_name: str) -> dict[str, list[str]]:
    """What the first run of a new session on the page at URL path `page_name` draws, by element type: its text (a
    heading's, a page link's label, an exception's message), as the browser's websocket receives it."""
    drawn: dict[str, list[str]] = {}
    with connect(url.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"], origin=url,
                 max_size=None) as ws:
        msg = BackMsg()
        msg.rerun_script.page_name = page_name
        ws.send(msg.SerializeToString())
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(ws.recv(timeout=120))
            kind = fwd.WhichOneof("type")
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                said = {"heading": element.heading.body, "page_link": element.page_link.label,
                        "exception": element.exception.message}.get(which, "")
                drawn.setdefault(which, []).append(said)
            elif kind == "script_finished" and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return drawn


def test_a_fresh_servers_first_request_for_a_page_runs_it_through_the_entry():
    learning = pages.page("learn")
    port = free_port()
    proc = start_server(port)
    try:
        url = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{url}/{learning.url_path}", timeout=30) as answer:
            assert answer.status == 200  # the address a shared link names, as the browser asks for it first
        drawn = first_run(url, learning.url_path)
    finally:
        stop_server(proc)
    assert not drawn.get("exception"), drawn.get("exception")
    assert t(learning.title) in drawn["heading"]  # the title the frame writes
    assert drawn["page_link"][:len(pages.PAGES)] == [t(p.nav) for p in pages.PAGES]  # the sidebar the entry draws
