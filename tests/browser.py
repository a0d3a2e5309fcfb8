"""The real app in headless Chromium: a Streamlit server on a free loopback port, the browser, and page helpers."""
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit.source_util import page_icon_and_name

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync"]
SCRIPTS = ["home.py"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
SHOTS = ROOT / "screenshots"
VIEWPORT = {"width": 1400, "height": 900}
TIMEOUT_MS = 30_000
BAD_NUMBER = re.compile(r"\bNaN\b|Infinity|∞")
# Counts finished script runs as the browser receives them: Streamlit's ForwardMsg.script_finished (protobuf field 6,
# any status but FINISHED_EARLY_FOR_RERUN = 2), read off the websocket. The page's own running/not-running flag can
# miss a quick run when the browser is busy. Also notes when the DOM last changed.
COUNT_RUNS = """
window.__runs = 0; window.__changed = performance.now();
(() => {
  const varint = (b, i) => { let v = 0, s = 0, x; do { x = b[i++]; v += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return [v, i]; };
  const finished = buffer => {
    const b = new Uint8Array(buffer); let i = 0;
    while (i < b.length) {
      let key, n; [key, i] = varint(b, i);
      const field = Math.floor(key / 8), wire = key & 7;
      if (wire === 0) { [n, i] = varint(b, i); if (field === 6) return n !== 2; }
      else if (wire === 2) { [n, i] = varint(b, i); i += n; }
      else if (wire === 1) i += 8; else if (wire === 5) i += 4; else return false;
    }
    return false;
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', e => { if (e.data instanceof ArrayBuffer && finished(e.data)) window.__runs++; });
    }
  };
  new MutationObserver(() => { window.__changed = performance.now(); })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""
SETTLED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  if (!app || app.dataset.testScriptState !== 'notRunning' || app.dataset.testConnectionState !== 'CONNECTED') return false;
  if (!document.querySelector('[data-testid=stMain] [data-testid=stElementContainer]')) return false;
  if (document.querySelector('[data-stale=true], [data-testid=stSkeleton]')) return false;  // skeletons: charts still loading
  if (performance.now() - window.__changed < 300) return false;  // the last message may not be drawn yet
  return [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].every(c => !c.checkVisibility() || c.querySelector('svg, canvas'));
}"""

PENDING = """() => ({
  script: document.querySelector('[data-testid=stApp]')?.dataset.testScriptState,
  connection: document.querySelector('[data-testid=stApp]')?.dataset.testConnectionState,
  stale: document.querySelectorAll('[data-stale=true]').length,
  loading: document.querySelectorAll('[data-testid=stSkeleton]').length,
  undrawn: [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].filter(c => c.checkVisibility() && !c.querySelector('svg, canvas')).length,
})"""

STILL = """async e => {
  let last = '', same = 0;
  while (same < 5) {
    await new Promise(r => requestAnimationFrame(r));
    const r = e.getBoundingClientRect(), now = `${r.top},${r.height}`;
    same = now === last ? same + 1 : 0; last = now;
  }
}"""


def url_path(script: str) -> str:
    """The URL path Streamlit serves a page script under ('' for the home page)."""
    return "" if script == "home.py" else page_icon_and_name(Path(script))[1]


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, *options: str, timeout: float = 60) -> subprocess.Popen:
    """`streamlit run dashboard.py [options]` on 127.0.0.1:port, returned once /_stcore/health answers ok."""
    cmd = [sys.executable, "-m", "streamlit", "run", "dashboard.py", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", *options]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the Streamlit server exited with code {proc.returncode}:\n{proc.stdout.read()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"the Streamlit server did not answer /_stcore/health within {timeout:.0f} s")


def stop_server(proc: subprocess.Popen) -> str:
    """Terminate the server (kill it if it lingers) and return what it printed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.stdout.read() if proc.stdout else ""


@contextmanager
def server():
    """The app's base URL while a server runs."""
    port = free_port()
    proc = start_server(port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def require_chromium() -> None:
    """Fail (REQUIRE_BROWSER=1, as in CI) or skip when the system Chromium is missing."""
    if CHROMIUM.exists():
        return
    message = f"Chromium not found at {CHROMIUM}; install it (apt-get install chromium) to run the browser tests"
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {message}.", pytrace=False)
    pytest.skip(message)


@contextmanager
def chromium():
    """Headless system Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser):
    """A page in a fresh context (no shared cookies or storage) that counts script runs and records dialogs."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(COUNT_RUNS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    return page


def settle(page) -> None:
    """Wait until the script has finished, nothing is stale, and every chart has drawn."""
    try:
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=100)
    except Exception as e:  # a timeout: say what the page was still waiting for
        raise AssertionError(f"{page.url} did not settle: {page.evaluate(PENDING)}; {problems(page)}") from e


def visit(page, url: str) -> None:
    """Open url and wait for the first complete run."""
    page.goto(url)
    page.wait_for_function("window.__runs > 0", timeout=TIMEOUT_MS)
    settle(page)


def rerun(page, action) -> None:
    """Do something that makes Streamlit run the script again, and wait for that run to finish."""
    runs = page.evaluate("window.__runs")
    action()
    page.wait_for_function(f"window.__runs > {runs}", timeout=TIMEOUT_MS)
    settle(page)


def charts(page):
    """Locator of every Vega-Lite chart on the page."""
    return page.locator("[data-testid=stVegaLiteChart]")


def drawn(page) -> list[dict]:
    """Per chart: its size and how many marks its SVG or canvas holds."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].map(c => {
      const g = c.querySelector('svg, canvas'); const r = g ? g.getBoundingClientRect() : {width: 0, height: 0};
      return {kind: g ? g.tagName.toLowerCase() : null, width: r.width, height: r.height, visible: c.checkVisibility(),
              marks: c.querySelectorAll('[role=graphics-symbol]').length};
    })""")


def tabs(page):
    """Locator of every tab button in the main area."""
    return page.locator("[data-testid=stMain] [role=tab]")


def open_tab(page, index: int) -> None:
    """Show a tab and wait for its charts."""
    tabs(page).nth(index).click()
    settle(page)


def marks(page) -> list[list[str]]:
    """Per chart, the accessible label of every mark: its data fields and values, as the tooltip shows them."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].map(c =>
      [...c.querySelectorAll('[role=graphics-symbol]')].map(m => m.getAttribute('aria-label') || ''))""")


def problems(page) -> list[str]:
    """Exception and error boxes, and NaN or infinite numbers in the page text or in any chart mark."""
    found = [f"exception box: {t[:300]}" for t in page.locator("[data-testid=stException]").all_inner_texts()]
    found += [f"error box: {t[:300]}" for t in page.locator("[data-testid=stAlertContentError]").all_inner_texts()]
    text = page.evaluate("() => document.body.innerText")
    found += [f"page text shows {m!r}" for m in sorted(set(BAD_NUMBER.findall(text)))]
    labels = [label for chart in marks(page) for label in chart]
    found += [f"chart mark {label[:120]!r}" for label in labels if BAD_NUMBER.search(label)][:5]
    return found


def sidebar_input(page):
    """The sentence field in the sidebar."""
    return page.locator("[data-testid=stSidebar] [data-testid=stTextInput] input").first


def combobox(page, label: str):
    """A selectbox by its label."""
    return page.get_by_role("combobox", name=label, exact=True)


def number_input(page, label: str):
    """A number input by its label."""
    return page.locator("[data-testid=stNumberInput]").filter(has_text=label).locator("input")


def widget_values(page) -> dict[str, str]:
    """Every text, number and select field's current value, by label."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '[data-testid=stTextInput], [data-testid=stNumberInput], [data-testid=stSelectbox]')].map(w => {
        const label = w.querySelector('[data-testid=stWidgetLabel]'); const input = w.querySelector('input');
        return [label ? label.innerText.trim() : '?', input ? input.value : null];
      }))""")


def type_sentence(page, text: str) -> None:
    """Replace the sidebar sentence and press Enter."""
    box = sidebar_input(page)
    rerun(page, lambda: (box.fill(text), box.press("Enter")))


def open_layers(page) -> None:
    """Expand the sidebar's linear-layers section if it is closed."""
    expander = page.locator("[data-testid=stSidebar] [data-testid=stExpander] details").first
    if expander.get_attribute("open") is None:
        expander.locator("summary").click()
    expander.locator("[data-testid=stExpanderDetails]").wait_for(state="visible")
    expander.evaluate(STILL)  # widgets move while the expander animates open; clicks would miss them


def choose(page, label: str, option: str) -> None:
    """Pick an option of a selectbox."""
    box = combobox(page, label)
    box.scroll_into_view_if_needed()
    rerun(page, lambda: (box.click(), page.get_by_role("option", name=option, exact=True).click()))


def set_number(page, label: str, value) -> None:
    """Type a number into a number input and press Enter."""
    box = number_input(page, label)
    rerun(page, lambda: (box.fill(str(value)), box.press("Enter")))


def click_mark(page, chart, label_part: str) -> None:
    """Click, where a user would, the middle of the first mark of a chart whose label contains label_part."""
    mark = chart.locator(f'[role=graphics-symbol][aria-label*="{label_part}"]').first
    mark.scroll_into_view_if_needed()
    box = mark.bounding_box()
    rerun(page, lambda: page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))


def screenshot(page, name: str) -> Path:
    """The whole page (not only the window) as screenshots/<name>.png."""
    SHOTS.mkdir(exist_ok=True)
    height = page.evaluate("""() => {
      const main = document.querySelector('[data-testid=stMain]');
      main.scrollTo(0, 0);
      const bottoms = [...main.querySelectorAll('[data-testid=stElementContainer]')].map(e => e.getBoundingClientRect().bottom);
      return Math.ceil(Math.max(0, ...bottoms) + main.scrollTop + 48);
    }""")
    page.set_viewport_size({"width": VIEWPORT["width"], "height": max(VIEWPORT["height"], min(height, 16_000))})
    settle(page)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    page.set_viewport_size(VIEWPORT)
    return path
