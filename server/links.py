"""Links Streamlit would not read. Streamlit hands the page an empty query string when the link's is longer than 512 Ki
characters or holds more than 1,000 parameters, and the page would open on the default view without a word. This ASGI
middleware, which dashboard.py hands to st.App, answers the request for such a link with a redirect to the same page
carrying only the dashboard's settings (`readable`, lesson/settings.py's, which dashboard.py hands it): the view opens
as far as the link holds it, and says that the link was not read whole."""
from collections.abc import Callable
from urllib.parse import parse_qsl, quote, urlencode

from starlette.middleware import Middleware
from starlette.responses import RedirectResponse

# What Streamlit 1.67 reads of a query string (runtime/state/query_params.py); tests/deploy/test_links.py fails when
# it changes
MAX_CHARS, MAX_FIELDS = 512 * 1024, 1000


def unreadable(query: str) -> bool:
    """True for a query string Streamlit would drop whole, by its own count of characters and fields."""
    return len(query) > MAX_CHARS or query.count("&") + 1 > MAX_FIELDS


class Links:
    """ASGI middleware: a page requested with a query string Streamlit would drop is sent to its readable part."""
    # the readable part: the settings `readable` keeps of the link's (name, value) pairs

    def __init__(self, app, readable: Callable[[list[tuple[str, str]]], dict[str, str]]):
        self.app, self.readable = app, readable

    async def __call__(self, scope, receive, send):
        query = scope.get("query_string", b"").decode("latin-1")
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and unreadable(query):
            settings = self.readable(parse_qsl(query, keep_blank_values=True))
            await RedirectResponse(f"{quote(scope['path'])}?{urlencode(settings)}", 303)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def middleware(readable: Callable[[list[tuple[str, str]]], dict[str, str]]) -> Middleware:
    """Links, for st.App's middleware, keeping what `readable` keeps of a link."""
    return Middleware(Links, readable=readable)
