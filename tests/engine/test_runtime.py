"""server/runtime.py against the installed Streamlit: the internals it reads are where it reads them, and each answers
as the memory ledger expects, inside a script run and outside any server."""
import inspect
from types import SimpleNamespace

from streamlit.runtime import Runtime, scriptrunner
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from server import runtime


def test_outside_a_server_nobody_is_there():
    assert not runtime.running() and runtime.session_id() == "" and runtime.storage() == {} and runtime.peer() is None
    assert runtime.own_files() == {} and runtime.connected("any")
    runtime.remove_own_file("f")  # nothing to remove, nothing raised
    runtime.remove_files("s")
    runtime.close_if_gone("s")


def test_the_runtime_has_what_the_ledger_calls():
    for name in ("exists", "instance", "is_active_session", "close_session", "uploaded_file_mgr", "get_client"):
        assert hasattr(Runtime, name), name
    assert list(inspect.signature(Runtime.get_client).parameters) == ["self", "session_id"]
    assert list(inspect.signature(Runtime.is_active_session).parameters) == ["self", "session_id"]
    assert list(inspect.signature(Runtime.close_session).parameters) == ["self", "session_id"]
    assert "suppress_warning" in inspect.signature(scriptrunner.get_script_run_ctx).parameters


def test_a_script_run_sees_and_lets_go_of_its_own_files(monkeypatch):
    files = MemoryUploadedFileManager("/upload")
    files.add_file("s", UploadedFileRec("f1", "v.txt", "text/plain", b"the 1 2 3\n"))
    files.add_file("t", UploadedFileRec("f2", "w.txt", "text/plain", b"a 1 2 3\n"))
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx",
                        lambda suppress_warning=False: SimpleNamespace(session_id="s", uploaded_file_mgr=files))
    assert runtime.session_id() == "s"
    assert [(r.name, r.data) for r in runtime.own_files().values()] == [("v.txt", b"the 1 2 3\n")]
    runtime.remove_own_file("f1")
    assert runtime.own_files() == {} and list(files.file_storage["t"]) == ["f2"]
    files.remove_session_files("t")
    assert not files.file_storage.get("t")


def test_a_session_s_peer_is_its_client_s_remote_address(monkeypatch):
    from streamlit.web.server.starlette.starlette_websocket import StarletteClientContext

    assert isinstance(inspect.getattr_static(StarletteClientContext, "remote_ip"), property)
    client = SimpleNamespace(client_context=SimpleNamespace(remote_ip="192.0.2.7"))
    instance = SimpleNamespace(get_client=lambda session_id: client if session_id == "s" else None)
    def in_session(session_id):
        return lambda suppress_warning=False: SimpleNamespace(session_id=session_id)
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", in_session("s"))
    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: instance))
    assert runtime.peer() == "192.0.2.7"
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", in_session("t"))
    assert runtime.peer() is None  # its client has gone


def test_the_server_internals_forwarded_and_files_replace_are_where_they_replace_them():
    """server/forwarded.py swaps the middleware uvicorn's Config wraps the app in, server/files.py the method asyncio's
    selector loops call for a listening socket with connections waiting: an upgrade that moves either fails here."""
    import asyncio.selector_events

    import uvicorn.config
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    assert uvicorn.config.ProxyHeadersMiddleware is ProxyHeadersMiddleware or issubclass(
        uvicorn.config.ProxyHeadersMiddleware, ProxyHeadersMiddleware)
    assert "ProxyHeadersMiddleware(" in inspect.getsource(uvicorn.config.Config.load)
    assert "trusted_hosts" in inspect.signature(ProxyHeadersMiddleware).parameters
    accept = asyncio.selector_events.BaseSelectorEventLoop._accept_connection
    assert "self._accept_connection" in inspect.getsource(asyncio.selector_events.BaseSelectorEventLoop._start_serving)
    assert list(inspect.signature(accept).parameters)[:3] == ["self", "protocol_factory", "sock"]
