"""What the app itself says and refuses (server/headers.py), served directly by `streamlit run dashboard.py` and through
nginx with deploy/nginx/nginx.conf: each security header once, the metrics closed by default, websockets only from the
page's own host and port."""
import base64
import hashlib
import http.client
import re
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from harness import proxy as nginx
from kit import pages
from server import page_base
from tests import browser_helpers as b
from tests.deploy.test_deploy import answering, require_nginx, static_asset, until
from tests.minilm_model import require_model_for

HEADERS = {"x-frame-options": "SAMEORIGIN", "x-content-type-options": "nosniff",
           "referrer-policy": "strict-origin-when-cross-origin",
           "permissions-policy": "camera=(), microphone=(), geolocation=()"}
CSP_NEEDS = ["default-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
             "frame-ancestors 'self'", "object-src 'none'"]
OPENED = 101
# Some chart is visible, and every visible chart has drawn its marks.
DRAWN = """() => {
  const c = [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].filter(e => e.checkVisibility());
  return c.length > 0 && c.every(e => e.querySelector('svg [role=graphics-symbol], canvas')); }"""


@pytest.fixture(scope="module")
def direct():
    """`streamlit run dashboard.py` on its own, as the README's single-process setups run it; its URL."""
    with b.server() as url:
        yield url


@pytest.fixture(scope="module")
def proxied(request, direct, tmp_path_factory):
    """nginx with deploy/nginx/nginx.conf in front of the direct server; its URL."""
    require_nginx()
    workdir, port = tmp_path_factory.mktemp("nginx"), b.free_port()
    return answering(request, workdir, nginx.start(workdir, [direct.removeprefix("http://")], f"127.0.0.1:{port}"),
                     port)


@pytest.fixture(params=["direct", "proxied"])
def url(request):
    """Each way a browser may reach the app."""
    return request.getfixturevalue(request.param)


def get(url: str):
    """Status, headers (every value of each) and body of a GET; errors included."""
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def handshake(url: str, origin: str) -> int:
    """HTTP status of a websocket handshake on url's /_stcore/stream from a page at origin (101: it opened)."""
    try:
        with connect(url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], origin=origin,
                     open_timeout=10) as ws:
            return ws.response.status_code
    except InvalidStatus as refused:
        return refused.response.status_code


def test_the_page_an_asset_and_the_health_check_carry_each_security_header_once(url):
    _, _, html = get(url + "/")
    host = url.removeprefix("http://")
    for path in ("/", static_asset(html), "/_stcore/health"):
        status, headers, _ = get(url + path)
        assert status == 200, path
        if path.endswith(".js"):  # nosniff: the browser runs it only as what it says it is
            assert headers["content-type"].startswith(("text/javascript", "application/javascript"))
        for name, value in HEADERS.items():
            assert headers.get_all(name) == [value], (path, name)
        policies = headers.get_all("content-security-policy") or []
        assert len(policies) == 1, (path, policies)
        directives = [d.strip() for d in policies[0].split(";")]
        assert set(CSP_NEEDS) <= set(directives) and f"connect-src 'self' ws://{host} wss://{host}" in directives


def test_a_forged_host_header_stays_out_of_the_policy(direct):
    """The policy names the websocket's host from the request; a Host that is no host name adds no directive."""
    connection = http.client.HTTPConnection(*direct.removeprefix("http://").split(":"), timeout=10)
    connection.putrequest("GET", "/", skip_host=True)
    connection.putheader("Host", "example.com; script-src *")
    connection.endheaders()
    csp = connection.getresponse().getheader("content-security-policy")
    connection.close()
    assert csp and "connect-src 'self';" in csp and "*" not in csp and "example.com" not in csp


def test_metrics_are_refused_unless_the_operator_turns_them_on(direct, proxied, monkeypatch):
    for url in (direct, proxied):
        status, headers, _ = get(url + "/_stcore/metrics")
        assert status == 404 and headers.get_all("x-content-type-options") == ["nosniff"], url
    monkeypatch.setenv("ATTENTION_METRICS", "1")
    port = b.free_port()
    proc = b.start_server(port)
    try:
        status, _, body = get(f"http://127.0.0.1:{port}/_stcore/metrics")
    finally:
        b.stop_server(proc)
    assert status == 200 and b"session_events_total" in body


def test_a_websocket_opens_only_from_a_page_of_the_same_host_and_port(url, direct):
    host, port = url.removeprefix("http://").split(":")
    assert handshake(url, url) == OPENED
    assert handshake(url, url.replace("http://", "https://")) == OPENED  # TLS ended in front: the page is https
    foreign = {"http://127.0.0.1:1", f"http://localhost:{port}", f"http://{host}:{int(port) + 1}",
               "https://example.com", "null", direct if url != direct else "http://127.0.0.1"}
    assert {origin: handshake(url, origin) for origin in foreign} == dict.fromkeys(foreign, 403)


def test_the_policy_allows_exactly_the_inline_scripts_of_the_page_served(url):
    _, headers, html = get(url + "/")
    scripts = re.findall(rb"<script>(.*?)</script>", html, flags=re.S)
    assert scripts, "Streamlit's index.html has no inline script any more"
    digests = {f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'" for script in scripts}
    script_src = next(d for d in headers["content-security-policy"].split("; ") if d.startswith("script-src "))
    assert set(script_src.split()[1:]) == {"'self'", "blob:", "'wasm-unsafe-eval'", *digests}


def test_every_page_s_address_carries_the_same_policy(url):
    """A visitor may arrive at any page's address: each gets the policy that the home page's response carries."""
    _, headers, home = get(url + "/")
    policy = headers.get_all("content-security-policy")
    for script in b.SCRIPTS:
        status, headers, html = get(f"{url}/{b.url_path(script)}")
        assert (status, headers.get_all("content-security-policy"), html) == (200, policy, home), script


def test_every_page_is_answered_whole_with_its_script_and_its_length_told(url):
    """Each page's address, asked for as a browser asks (compressed if it may be), returns Streamlit's index.html with
    the script of server/page_base.py, uncompressed and as long as it says; a HEAD says the same length."""
    served = page_base.page([p.url_path for p in pages.PAGES if p.url_path])
    for script in b.SCRIPTS:
        for method in ("GET", "HEAD"):
            asked = urllib.request.Request(f"{url}/{b.url_path(script)}", method=method,
                                           headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(asked, timeout=10) as r:
                said, sent = (r.headers["content-length"], r.headers["content-encoding"]), r.read()
            assert (said, sent) == ((str(len(served)), None), served if method == "GET" else b""), (script, method)


def test_every_page_draws_under_the_policy_in_chromium_with_no_violation(url, request, chromium):
    """Under the policy its first response carried (the home page directly, a deep link through the proxy), a visitor
    goes through every page from the sidebar's links, and each page's charts draw with no violation and no console
    error. The pages switch within that one document, as a visitor's clicks do; every address's response carries the
    same policy (test_every_page_s_address_carries_the_same_policy)."""
    require_model_for(*b.SCRIPTS)
    first = b.SCRIPTS[0] if request.node.callspec.params["url"] == "direct" else b.SCRIPTS[-1]
    context = chromium.new_context(viewport=b.VIEWPORT)
    try:
        context.add_init_script(b.COUNT_RUNS)
        context.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', "
                                "e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));")
        page = context.new_page()
        console = []
        page.on("console", lambda m: m.type == "error" and console.append(m.text[:200]))
        policy = page.goto(f"{url}/{b.url_path(first)}").headers.get("content-security-policy", "")
        assert "script-src 'self' blob: 'wasm-unsafe-eval' 'sha256-" in policy
        links = page.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]")
        runs = 0
        for script in [first, *(x for x in b.SCRIPTS if x != first)]:
            if script != first:
                runs = page.evaluate("window.__runs")
                links.nth([p.path for p in pages.PAGES].index(script)).click()  # the sidebar lists PAGES in order
            # Polled from here: Playwright's wait_for_function evaluates strings, which this policy rightly forbids.
            drawn = until(lambda runs=runs: page.evaluate("window.__runs") > runs and page.evaluate(b.SETTLED)
                          and page.evaluate(DRAWN))
            violations = page.evaluate("window.__csp")
            boxes = page.locator("[data-testid=stException], [data-testid=stAlertContentError]").all_inner_texts()
            assert drawn, f"{script}: charts not drawn; CSP: {violations}; console: {console}; errors: {boxes}"
            assert violations == [] and console == [], script
            assert urlsplit(page.url).path == f"/{b.url_path(script)}", (script, page.url)
    finally:
        context.close()
