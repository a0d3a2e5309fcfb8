"""What the browser tests share: a fresh visitor."""
import pytest

from tests import browser_helpers as b


@pytest.fixture
def page(chromium, app_url):
    """A fresh visitor: a new browser context with its own Streamlit session. It ignores the app's
    Content-Security-Policy, which would refuse the scripts a test injects (axe-core)."""
    p = b.new_page(chromium)
    yield p
    b.leave(p)
