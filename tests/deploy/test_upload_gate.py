"""The upload endpoint of a real server: each file is admitted into the memory ledger before its body is read."""
import uuid
from contextlib import contextmanager

import pytest
import requests
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from harness.chromium import free_port, start_server, stop_server

XSRF = "_streamlit_xsrf"
MB = 2**20


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = start_server(port, "--server.maxUploadSize", "2")
    yield f"http://127.0.0.1:{port}"
    stop_server(proc)


@contextmanager
def session(url: str):
    """A session's id, its websocket open while inside."""
    with connect(url.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"], origin=url,
                 max_size=None) as ws:
        ws.send(BackMsg(rerun_script={}).SerializeToString())
        msg = ForwardMsg()
        while msg.WhichOneof("type") != "new_session":
            msg.ParseFromString(ws.recv(timeout=60))
        yield msg.new_session.initialize.session_id


def put(url: str, session_id: str, size: int, **headers) -> requests.Response:
    """PUT a file of `size` bytes to a new file id of the session, with the XSRF cookie and token."""
    token = requests.get(url + "/_stcore/health", timeout=10).cookies[XSRF]
    return requests.put(f"{url}/_stcore/upload_file/{session_id}/{uuid.uuid4()}",
                        files={"file": ("v.txt", b"x" * size, "text/plain")},
                        headers={"Cookie": f"{XSRF}={token}", "X-Xsrftoken": token, **headers}, timeout=30)


def test_a_session_stores_one_files_worth_and_the_rest_is_refused_with_a_sentence(server):
    with session(server) as sid:
        assert put(server, sid, MB).status_code == 204  # 1 of the session's 2 MiB
        refused = put(server, sid, 3 * MB // 2)  # 2.5 MiB would be stored: refused before its body is read
        assert refused.status_code == 413 and "one file per visitor" in refused.text
        assert put(server, sid, MB // 2).status_code == 204  # what still fits is taken
        with session(server) as other:
            assert put(server, other, MB).status_code == 204  # another visitor has a share of their own


def test_an_upload_that_does_not_say_its_length_is_refused(server):
    with session(server) as sid:
        token = requests.get(server + "/_stcore/health", timeout=10).cookies[XSRF]
        chunks = iter([b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"v.txt\"\r\n\r\n",
                       b"x\r\n--b--\r\n"])
        r = requests.put(f"{server}/_stcore/upload_file/{sid}/{uuid.uuid4()}", data=chunks,
                         headers={"Cookie": f"{XSRF}={token}", "X-Xsrftoken": token,
                                  "Content-Type": "multipart/form-data; boundary=b"}, timeout=30)
        assert r.status_code == 411
