"""Whose X-Forwarded-For the server believes. Streamlit serves the app through uvicorn, which wraps it in its
ProxyHeadersMiddleware: a request or websocket from a peer in FORWARDED_ALLOW_IPS is given the address (and scheme)
that peer's headers name, and unset, that list is 127.0.0.1 and ::1, so any process on the machine could pass for any
address it writes. uvicorn reads the list as Streamlit makes its Config, before it imports dashboard.py, and wraps the
app right after that import; so the import calls follow(), and the wrapper believes the list the operator set
(FORWARDED_ALLOW_IPS, even empty), else the proxies class mode trusts (CLASS_TRUSTED_PROXIES), else nobody."""
import os

import uvicorn.config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

ENV = "FORWARDED_ALLOW_IPS"


def believed(proxies: str) -> str:
    """The peers whose forwarded headers the server takes: the operator's FORWARDED_ALLOW_IPS, else `proxies`."""
    return os.environ.get(ENV, proxies)


def follow(proxies: str) -> None:
    """Have the ProxyHeadersMiddleware uvicorn wraps the app in from now on believe `believed(proxies)` alone."""
    class Believing(ProxyHeadersMiddleware):
        """uvicorn's middleware with the list this module decides, whatever uvicorn's default."""

        def __init__(self, app, trusted_hosts: list[str] | str = "") -> None:
            super().__init__(app, trusted_hosts=believed(proxies))

    uvicorn.config.ProxyHeadersMiddleware = Believing  # type: ignore[misc]
