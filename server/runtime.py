"""The one place that reads Streamlit's server runtime, which has no public API: the running script's session and the
address of its connection, the files Streamlit stores for each session, whether a session's tab is connected, and
ending a session. The memory ledger
(server/ledger.py) counts and frees through these; tests/engine/test_runtime.py checks each against the installed
Streamlit, so an upgrade that moves them fails there first. Outside a server (tests, AppTest) each answers as if nobody
were there."""
from streamlit.runtime import Runtime, scriptrunner
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager


def running() -> bool:
    """Whether a Streamlit server runs in this process."""
    return Runtime.exists()


def session_id() -> str:
    """The running script's session id ('' outside a script run)."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx else ""


def peer() -> str | None:
    """The address the running session's websocket came from, as the server's socket saw it."""
    # None outside a server, or when the session's client is gone. Streamlit's st.context.ip_address hides a loopback
    # peer.
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    if ctx is None or not running():
        return None
    client = Runtime.instance().get_client(ctx.session_id)
    found = getattr(getattr(client, "client_context", None), "remote_ip", None)
    return found if isinstance(found, str) else None  # AppTest's runtime is a mock


def storage() -> dict:
    """Streamlit's stored upload files: session id -> file id -> record with .name and .data."""
    # {} without a server, or where the server keeps files elsewhere than in memory
    if not running():
        return {}
    files = Runtime.instance().uploaded_file_mgr
    return files.file_storage if isinstance(files, MemoryUploadedFileManager) else {}


def own_files() -> dict:
    """The running session's stored files, file id -> record ({} outside a script run)."""
    # through the manager its script run was given, the one Streamlit serves with (its own chat_input checks the same
    # way)
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    files = ctx.uploaded_file_mgr if ctx is not None else None
    if isinstance(files, MemoryUploadedFileManager):
        return files.file_storage.get(ctx.session_id, {})
    return {}


def remove_own_file(file_id: str) -> None:
    """Let go of one of the running session's stored files."""
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        ctx.uploaded_file_mgr.remove_file(ctx.session_id, file_id)


def connected(session: str) -> bool:
    """Whether the session's tab is open (always, outside a server or for no session)."""
    return not session or not running() or Runtime.instance().is_active_session(session)


def remove_files(session: str) -> None:
    """Let go of every file Streamlit stores for the session."""
    if running():
        Runtime.instance().uploaded_file_mgr.remove_session_files(session)


def close_if_gone(session: str) -> None:
    """End the session (its state and its place in Streamlit's store) unless its tab has come back."""
    # to be called on the server's event loop
    if running() and not Runtime.instance().is_active_session(session):
        Runtime.instance().close_session(session)
