"""The real app in headless Chromium: a Streamlit server on a free loopback port, the browser, and page helpers."""
import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from streamlit.source_util import page_icon_and_name

from harness.chromium import (  # noqa: F401
    CANVAS_DIGEST,
    CHROMIUM,
    CHROMIUM_ARGS,
    COUNT_RUNS,
    PENDING,
    SETTLED,
    free_port,
    start_server,
    stop_server,
)
from kit import pages

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = [p.path for p in pages.STEPS]  # the story's pages, each drawing charts
VIEWPORT, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}  # a laptop's screen and a phone's
SHOTS = ROOT / "screenshots"
TIMEOUT_MS = 90_000  # every wait is for a condition; this only bounds one on a loaded machine
BAD_NUMBER = re.compile(r"\bNaN\b|Infinity|∞")
VEGA_LOG = ("WARN", "ERROR")  # how Vega and Vega-Lite start what they log to the console
STILL = """async e => {  // five frames alike, or 10 s; a frame every 50 ms at the least (a hidden page draws none)
  let last = '', same = 0;
  const end = performance.now() + 10000;
  while (same < 5 && performance.now() < end) {
    await new Promise(r => { requestAnimationFrame(r); setTimeout(r, 50); });
    const r = e.getBoundingClientRect(), now = `${r.top},${r.height}`;
    same = now === last ? same + 1 : 0; last = now;
  }
}"""


def url_path(script: str) -> str:
    """The URL path Streamlit serves a page script under ('' for the home page)."""
    return "" if script == "pages/0_Home.py" else page_icon_and_name(Path(script))[1]


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


# A test's page lives for seconds, too short for V8's optimising compilers (Maglev, TurboFan) to pay for themselves.
# Without them the accessibility tests' Chromium took 139 CPU-s against 153 (one run each, a small lever at best, see
# bench/README.md). The benchmarks keep the browser as a visitor has it.
TEST_ARGS = [*CHROMIUM_ARGS, "--js-flags=--max-opt=1"]


@contextmanager
def chromium():
    """Headless system Chromium driven by Playwright, with JavaScript compiled as far as its baseline tier only."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=TEST_ARGS)
        try:
            yield browser
        finally:
            browser.close()


IDLE: dict[tuple, list] = {}  # tabs no visitor holds, by the browser and the options their context was made with


def new_page(browser, **options):
    """A fresh visitor: a tab with no cookies, storage or permissions of an earlier one, that counts script runs and
    records dialogs, console messages and errors (the console's, and responses with an HTTP error). The tab is one an
    earlier visitor left (leave), emptied, when there is one: its renderer keeps the frontend's compiled scripts, so
    the page loads as for a visitor who came before, at half
    the browser's work of a new context; two visitors held at once never share a context. The app's
    Content-Security-Policy forbids evaluating strings, which Playwright's wait_for_function does, so the page ignores
    it here; tests/deploy/test_headers.py opens every page under it. `options` go to the context (a phone's viewport,
    is_mobile, has_touch)."""
    made = {"viewport": VIEWPORT, "bypass_csp": True, **options}
    idle = IDLE.setdefault((id(browser), repr(sorted(made.items()))), [])
    if idle:
        page = idle.pop()
        page.context.clear_cookies()
        page.context.clear_permissions()
        page.set_viewport_size(made["viewport"])
    else:
        context = browser.new_context(**made)
        context.add_init_script(COUNT_RUNS)
        page = context.new_page()
        page.idle = idle
        page.set_default_timeout(TIMEOUT_MS)
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("console", lambda m: (page.console.append(m.text), m.type == "error" and page.errors.append(m.text)))
        page.on("response", lambda r: r.status >= 400 and page.errors.append(f"HTTP {r.status} {r.url}"))
        page.on("crash", lambda _: page.events.append("the page crashed"))
        page.on("framenavigated", lambda f: f == page.main_frame and page.events.append(f"navigated to {f.url[:200]}"))
    page.dialogs, page.console, page.events, page.errors = [], [], [], []
    return page


def leave(page) -> None:
    """The visitor of new_page goes: its site's storage is emptied and the tab leaves the app for the server's health
    check on the same site (the session ends, the renderer stays), to wait for the next visitor. A tab that crashed,
    whose context opened other tabs, or whose server has stopped closes with its context."""
    crashed = page.is_closed() or "the page crashed" in page.events
    origin = "null" if crashed else page.evaluate("location.origin")
    if origin == "null" or len(page.context.pages) > 1:
        page.context.close()
        return
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    try:
        page.goto(f"{origin}/_stcore/health")
    except Exception:  # the server has stopped (its fixture ended first): the tab goes with its context
        page.context.close()
        return
    page.idle.append(page)


def address(app_url: str, script: str, lang: str) -> str:
    """A page's address in a language."""
    return f"{app_url}/{url_path(script)}?lang={lang}"


def first_view(kept: dict, browser, url: str, *, read_only: bool = False):
    """A fresh visitor's page at `url`, opened and settled. A test that only reads what the page drew (`read_only`)
    leaves it in `kept` for the next test asking for the same address, which takes it instead of loading the page
    again (a page load is most of a browser test's work); a page it takes is its own to change and close."""
    page = kept.pop(url, None)
    if page is None:
        page = new_page(browser)
        visit(page, url)
    if read_only:
        kept[url] = page
    return page


def settle(page) -> None:
    """Wait until the script has finished, nothing is stale, and every chart has drawn."""
    try:
        page.wait_for_function(SETTLED, timeout=TIMEOUT_MS, polling=100)
    except Exception as e:  # a timeout: say what the page was still waiting for
        said = f"{page.evaluate(PENDING)}; {problems(page)}; events {page.events[-5:]}; console {page.console[-5:]}"
        raise AssertionError(f"{page.url} did not settle: {said}") from e


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


STOP_SHOWN = """() => [...document.querySelectorAll('[data-testid=stMain] [class*="st-key-"]')].some(e =>
  [...e.classList].some(c => c.startsWith('st-key-') && c.endsWith('stop')))"""


def fits_ended(page) -> None:
    """Wait until no fit of the page is queued or running (no Stop shown), and the page has drawn what it gave."""
    page.wait_for_function(f"!({STOP_SHOWN})()", timeout=TIMEOUT_MS, polling=100)
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
    """Show a tab and wait for its charts: page 6 builds a tab only while it is shown, so choosing another one runs the
    script again, and the wait is for that run (on a busy machine the page could look settled before it began)."""
    tab = tabs(page).nth(index)
    if tab.get_attribute("aria-selected") == "true":
        settle(page)
    else:
        rerun(page, tab.click)


def marks(page) -> list[list[str]]:
    """Per chart, the accessible label of every mark: its data fields and values, as the tooltip shows them."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].map(c =>
      [...c.querySelectorAll('[role=graphics-symbol]')].map(m => m.getAttribute('aria-label') || ''))""")


def pictures(page) -> list[str | None]:
    """Per chart, a digest of what its canvas shows (None for a chart drawn as SVG, whose marks() say it)."""
    return page.evaluate(f"() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].map({CANVAS_DIGEST})")


def data_marks(page) -> list[list[str]]:
    """marks() without the axes' and colour legends' descriptions: a chart whose data was swapped in place may step
    its ticks, and round the ends its legend's description names, otherwise than the same chart drawn afresh, while
    every mark and value is the same."""
    return [[m for m in chart if not m.startswith(("X-axis", "Y-axis", "Gradient legend"))] for chart in marks(page)]


def problems(page) -> list[str]:
    """Exception and error boxes, Vega's warnings and errors in the console, and NaN or infinite numbers in the page
    text or in any chart mark."""
    found = [f"exception box: {t[:300]}" for t in page.locator("[data-testid=stException]").all_inner_texts()]
    found += [f"console: {m[:300]}" for m in page.console if m.startswith(VEGA_LOG)]
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
    if expander.get_attribute("open") is None:  # opening runs the script again, which builds the widgets inside
        rerun(page, lambda: expander.locator("summary").click())
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
    """Click, where a user would, the middle of the first mark of a chart whose label contains label_part, once it
    has stopped moving."""
    mark = chart.locator(f'[role=graphics-symbol][aria-label*="{label_part}"]').first
    mark.scroll_into_view_if_needed()
    mark.evaluate(STILL)
    box = mark.bounding_box()
    rerun(page, lambda: page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))


def screenshot(page, name: str, folder: Path = SHOTS) -> Path:
    """The whole page (not only the window), at the window's width, as <folder>/<name>.png."""
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    height = page.evaluate("""() => {
      const main = document.querySelector('[data-testid=stMain]');
      main.scrollTo(0, 0);
      const bottoms = [...main.querySelectorAll('[data-testid=stElementContainer]')]
        .map(e => e.getBoundingClientRect().bottom);
      return Math.ceil(Math.max(0, ...bottoms) + main.scrollTop + 48);
    }""")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height, 16_000))})
    page.mouse.move(0, 0)  # no hover toolbar over a chart
    settle(page)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    page.set_viewport_size(size)
    return path


def axes(page) -> list[list[dict]]:
    """Per chart, each axis: its accessible label, and its shown labels' text, font size and centre (Vega hides a
    label that would overlap another by making it transparent)."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].map(c =>
      [...c.querySelectorAll('[aria-roledescription=axis]')].map(a => ({
        aria: a.getAttribute('aria-label') || '',
        labels: [...a.querySelectorAll('.role-axis-label text')]
          .filter(t => t.getAttribute('opacity') !== '0').map(t => {
          const r = t.getBoundingClientRect();
          return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize),
                  x: r.x + r.width / 2, y: r.y + r.height / 2};
        }),
      })))""")


def turned_titles(page) -> list[str]:
    """The axis titles turned on their side in any visible chart: Chinese reads sideways there."""
    return page.evaluate("""() => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')]
      .filter(c => c.checkVisibility()).flatMap(c => [...c.querySelectorAll('.role-axis-title text')])
      .filter(t => /rotate/.test(t.getAttribute('transform') || '')).map(t => t.textContent)""")


# What runs past the window or out of a chart: the page wider than the window; a chart's title, legend or axis text
# outside its picture (a glyph's box may reach 4 px above or below it) or cut short with "…"; a label cut by its box;
# any text past the window's right edge. Inside a box that scrolls sideways (a table, the tabs, the line view) a thing
# may be wider than the window: a phone swipes it.
OVERFLOW = (ROOT / "tests" / "overflow.js").read_text(encoding="utf-8")


def overflow(page) -> list[str]:
    """Whatever runs past the window or out of its chart on the page as shown (OVERFLOW)."""
    return page.evaluate(OVERFLOW)


def legend_labels(chart) -> list[str]:
    """The text of every legend label of a chart."""
    return chart.locator(".role-legend-label text").all_text_contents()


def cells_holding_their_numbers(chart) -> tuple[int, int]:
    """(numbers drawn in a heatmap's cells, those wider than a cell)."""
    return tuple(chart.evaluate("""c => {
      const width = c.querySelector('.mark-rect path').getBoundingClientRect().width;
      const texts = [...c.querySelectorAll('.mark-text.role-mark text')].map(t => t.getBoundingClientRect().width);
      return [texts.length, texts.filter(w => w > width).length];
    }"""))
