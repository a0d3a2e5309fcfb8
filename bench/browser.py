"""Browser figures in headless Chromium: cold start, a new visitor on a warm server and interaction, each next to the
one-chart hello app.

A chart counts as drawn when its Vega-Lite element holds an <svg> or <canvas> of non-zero size, and the app is
idle: connected, the script not running, no status widget and no stale element. A redraw after an interaction
counts when every chart whose content that interaction changes (learnt in one untimed rehearsal) has changed since:
a DOM change inside its svg (seen by a MutationObserver, so waiting costs the page almost nothing), a new chart
element, or a different drawing on its canvas: a hash of what Vega drew, taken as it draws, else of the pixels, read
only after the canvas was drawn on (reading every canvas's pixels at each look, or even at each drawing, took the
page's main thread from the charts it timed). A reference row, judged by no budget, times the least a story page can
be (bench/floor/frame_app.py: the dashboard's frame around one heatmap) the same way, so that each run shows how much of
the pages' budgets the frame alone takes. Run alone: python -m bench.browser [--quick]
"""
import json
import sys
import time

from bench.common import Row, Server, median, ratio, seconds
from harness.chromium import CANVAS_DIGEST

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run",
        "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1400, "height": 900}
HOME, HELLO = "dashboard.py", "bench/hello_app.py"
FLOOR = "bench/floor/frame_app.py"  # the least a story page can be: the dashboard's frame and one heatmap
FLOOR_LABEL = "the frame and one heatmap"
SENTENCE_BOX = "[data-testid=stSidebar] [data-testid=stTextInput] input"
PRIMARY = "[data-testid=stMain] [data-testid=stBaseButton-primary]"
FIRST_WORD = "today "  # put first, it moves every word one position on: every row, hence every chart, changes
# the hello app's time, at most: server start to home's charts, a new visitor's page load to them on a warm server,
# an edit to its redrawn charts on every page, and the median of those pages' ratios
BUDGET_COLD, BUDGET_VISIT, BUDGET_INTERACTION, BUDGET_MEDIAN = 1.6, 1.5, 3.0, 2.5
BUDGET_FLOOR = 1.35  # a sentence edit on any page, at most, against the frame and one heatmap
BUDGET_CONTROL, BUDGET_CONTROLS = 1.3, 1.2  # a page's own control against the hello app's edit; their median
TIMEOUT_MS = 120_000
SETTLE_S = 0.8

PROBE = """
const B = window.__bench = {
  runs: 0,  // script runs finished (the app's script state leaving 'running')
  runsBefore: 0, editsBefore: 0,  // at the last snapshot
  edits: 0,  // DOM changes inside charts
  charts: () => [...document.querySelectorAll('[data-testid=stVegaLiteChart]')].filter(c => c.checkVisibility()),
  idle: () => {  // connected, the script has drawn something, is not running, and nothing on the page is stale
    const app = document.querySelector('[data-testid=stApp]');
    return !!app && app.dataset.testScriptState === 'notRunning' && app.dataset.testConnectionState === 'CONNECTED'
      && !!document.querySelector('[data-testid=stMain] [data-testid=stElementContainer]')
      && !document.querySelector('[data-testid=stStatusWidget]') && !document.querySelector('[data-stale=true]');
  },
  drawn: c => {
    const g = c.querySelector('svg, canvas');
    if (!g) return false;
    const r = g.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  },
  pixels: c => {  // a canvas chart's content (its last drawing's hash, else its pixels); an svg chart's: the observer
    const g = c.querySelector('canvas');
    return g && g.__sig ? g.__sig : B.digest(c);
  },
  digest: """ + CANVAS_DIGEST + """,
  snapshot: () => {
    B.runsBefore = B.runs;
    B.editsBefore = B.edits;
    B.before = new Map(B.charts().map(c => [c, B.pixels(c)]));
    B.charts().forEach(c => { c.__edited = false; c.__drawn = false; });
  },
  changed: c => {
    if (!B.before.has(c) || c.__edited) return true;
    if (c.__drawn) {  // drawn on since the snapshot: its pixels, once per drawing
      c.__drawn = false;
      c.__edited = B.pixels(c) !== B.before.get(c);
    }
    return c.__edited;
  },
  draws: 0,  // drawings on a chart's canvas
  sigs: () => B.charts().map(c => B.pixels(c) ?? c.querySelector('svg')?.innerHTML ?? ''),  // content, for rehearsals
  state: () => JSON.stringify([B.idle(), B.edits, B.draws, B.charts().length]),
};
// A canvas's content, read from Vega's drawing rather than its pixels: each top-level save() ... restore() is one
// drawing, whose fills (colour and rectangle), texts and their places are hashed as they are drawn. Reading the pixels
// back (getImageData) cost a page of nine canvases about 17 ms an edit, which no visitor's browser spends. A drawing
// that starts by clipping to a region (Vega redrawing only what moved) leaves no hash, and the pixels are read.
const C = CanvasRenderingContext2D.prototype;
const mix = (g, text) => {
  let h = g.__acc;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  g.__acc = h;
  g.__ops++;
};
const wrap = (name, before) => {
  const original = C[name];
  C[name] = function () { before(this, this.canvas, arguments); return original.apply(this, arguments); };
};
wrap('save', (ctx, g) => {  // Vega's canvas renderer saves the context at every drawing
  g.__depth = (g.__depth || 0) + 1;
  if (g.__depth > 1) return;
  Object.assign(g, {__acc: 0, __ops: 0, __partial: false});
  const chart = g.__chart || (g.__chart = g.closest?.('[data-testid=stVegaLiteChart]'));
  if (chart) { chart.__drawn = true; B.draws++; }
});
const original_restore = C.restore;
C.restore = function () {
  const g = this.canvas, r = original_restore.apply(this, arguments);
  if (g.__depth && --g.__depth === 0) g.__sig = g.__partial ? null : `${g.width}x${g.height}:${g.__acc}:${g.__ops}`;
  return r;
};
wrap('clip', (ctx, g) => { if (g.__depth === 1 && !g.__ops) g.__partial = true; });
wrap('fill', (ctx, g) => g.__depth && mix(g, String(ctx.fillStyle)));
wrap('rect', (ctx, g, a) => g.__depth && mix(g, `r${a[0]},${a[1]},${a[2]},${a[3]}`));
wrap('fillRect', (ctx, g, a) => g.__depth && mix(g, `R${ctx.fillStyle}${a[0]},${a[1]},${a[2]},${a[3]}`));
wrap('fillText', (ctx, g, a) => g.__depth && mix(g, `t${ctx.fillStyle}${a[0]}@${a[1]},${a[2]}`));
new MutationObserver(records => {
  for (const r of records) {
    if (r.attributeName === 'data-test-script-state') {
      if (r.oldValue === 'running') B.runs++;  // oldValue: the state may have moved on by the time we look
      continue;
    }
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const chart = el && (r.type !== 'attributes' || el.closest('svg')) && el.closest('[data-testid=stVegaLiteChart]');
    if (chart) { chart.__edited = true; B.edits++; }
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true});
"""
READY = """({n, changed, rerun}) => {
  const B = window.__bench;
  // a run seen to finish, or any chart edited: fast runs can pass without the page ever showing 'running'
  if (!B || !B.idle() || (rerun && B.runs === B.runsBefore && B.edits === B.editsBefore)) return false;
  const cs = B.charts();
  if (cs.length < n || !cs.every(B.drawn)) return false;
  return changed.every(i => i < cs.length && B.changed(cs[i]));
}"""


def launch(playwright):
    """Headless system Chromium with the bench flags."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def new_page(browser):
    """A page in a fresh context (empty cache and cookies) with the probe installed, the app's Content-Security-Policy
    bypassed: it forbids evaluating strings, which Playwright's wait_for_function does."""
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
    context.add_init_script(PROBE)
    return context.new_page()


def ready(page, n: int = 1, changed: list[int] = (), rerun: bool = False) -> None:
    """Wait until the app is idle with at least n charts drawn, the `changed` charts differ from the snapshot,
    and (with `rerun`) a script run has finished, or a chart changed, since the snapshot."""
    page.wait_for_function(READY, arg={"n": n, "changed": list(changed), "rerun": rerun}, polling=20,
                           timeout=TIMEOUT_MS)


def settle(page) -> int:
    """Wait until the app is idle and no chart changes for SETTLE_S; the number of charts then."""
    last, since = None, time.perf_counter()
    while True:
        state = page.evaluate("window.__bench.state()")
        if state != last or not json.loads(state)[0]:
            last, since = state, time.perf_counter()
        elif time.perf_counter() - since >= SETTLE_S:
            return json.loads(state)[3]
        time.sleep(0.1)


def pages() -> list[tuple[str, str]]:
    """(label, URL path) of the home page and every step of the story (lesson/pages.py's STEPS): the pages that draw the
    sentence's charts."""
    from lesson import pages as registry

    found = [("home", "")]
    for p in registry.STEPS[1:]:
        stem = p.path.rsplit("/", 1)[-1].removesuffix(".py")
        found.append((stem.replace("_", " "), p.url_path))
    return found


def cold_start(browser, script: str, charts: int) -> float:
    """Seconds from launching `streamlit run script` until its first page has `charts` charts drawn."""
    page = new_page(browser)
    server = Server(script)
    try:
        start = time.perf_counter()
        server.start()
        server.wait_ready()
        page.goto(server.url, wait_until="commit")
        ready(page, charts)
        return time.perf_counter() - start
    finally:
        page.context.close()
        server.stop()


def new_visitor(browser, url: str, charts: int) -> float:
    """Seconds from opening `url` in a fresh context (nothing cached, as a student opening the teacher's link) on a
    server that is already warm until its `charts` charts are drawn."""
    page = new_page(browser)
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        ready(page, charts)
        return time.perf_counter() - start
    finally:
        page.context.close()


class Interaction:
    """One open page and its control: the sidebar sentence (a first word added, then removed), or, on a page that draws
    no chart until asked, its primary button. `once()` times one use of the control until the charts have redrawn."""

    def __init__(self, browser, url: str):
        self.page = new_page(browser)
        self.listen(self.page)
        self.page.goto(url, wait_until="commit")
        ready(self.page, 0)
        self.charts = settle(self.page)
        self.runs = 0
        self.setup()
        go = self.prepare()
        before = self.page.evaluate("window.__bench.snapshot(), window.__bench.sigs()")
        go()
        ready(self.page, max(self.charts, 1), rerun=True)
        self.charts = settle(self.page)
        after = self.page.evaluate("window.__bench.sigs()")
        self.changed = [i for i, sig in enumerate(after) if i >= len(before) or sig != before[i]]

    def setup(self) -> None:
        """Choose the control: the sidebar's sentence, or on a page that draws no chart until asked, its primary
        button."""
        if self.charts:
            self.box, self.control = self.page.locator(SENTENCE_BOX).first, "sentence edited in the sidebar"
            self.texts = [FIRST_WORD + self.box.input_value(), self.box.input_value()]
        else:
            self.box, self.control = None, "primary button pressed"

    def listen(self, page) -> None:
        """What a subclass watches on the page from before it loads (bench.counts: the websocket's frames)."""

    def prepare(self):
        """Set up the next use of the control (type the other sentence); the action that commits it."""
        self.runs += 1
        if self.box is None:
            return self.page.locator(PRIMARY).first.click
        self.box.fill(self.texts[(self.runs - 1) % 2])
        return lambda: self.box.press("Enter")

    def once(self) -> float:
        """Seconds from using the control until the script has rerun and every chart it changes is redrawn."""
        go = self.prepare()
        self.page.evaluate("window.__bench.snapshot()")
        start = time.perf_counter()
        go()
        ready(self.page, self.charts, self.changed, rerun=not self.changed)
        elapsed = time.perf_counter() - start
        settle(self.page)
        return elapsed

    def close(self) -> None:
        self.page.context.close()


def interaction(browser, hello: Interaction, label: str, url: str, runs: int, opened=Interaction) -> tuple:
    """(label, page times, hello times, charts, control) of `runs` uses of the control of opened(browser, url) (the
    page at `url` and its sentence edit, unless told otherwise), each followed by one of the hello app's; no times, and
    why, for a page that could not be measured."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page = opened(browser, url)
    except PlaywrightError as e:  # e.g. a page with neither a chart nor a button: report it, go on
        return label, [], [], 0, f"not measured: {str(e).splitlines()[0]}"
    times = {hello: [], page: []}
    for _ in range(runs):  # alternate so that drift on the machine hits both apps alike
        for x in times:
            times[x].append(x.once())
    page.close()
    return label, times[page], times[hello], page.charts, page.control


def run(quick: bool) -> list[Row]:
    """Cold start of the dashboard and every page's interaction, each next to the hello app, as table rows."""
    from playwright.sync_api import sync_playwright

    from bench import controls

    cold_runs, interaction_runs = (1, 2) if quick else (5, 5)
    measured = []  # (label, page times, hello times, charts, control)
    own = []  # the same, of each page's own controls
    visits = {HELLO: [], HOME: []}
    with sync_playwright() as p:
        browser = launch(p)
        with Server(HELLO) as hello_server, Server(HOME) as home:
            hello = Interaction(browser, hello_server.url)
            for label, path in pages()[:1] if quick else pages():
                measured.append(interaction(browser, hello, label, f"{home.url}/{path}", interaction_runs))
            own = controls.measured(browser, hello, home.url, interaction_runs,
                                    controls.CONTROLS[:1] if quick else controls.CONTROLS)
            if not quick:
                with Server(FLOOR) as floor:
                    measured.append(interaction(browser, hello, FLOOR_LABEL, floor.url, interaction_runs))
            hello.close()
            home_charts = measured[0][3]
            for _ in range(cold_runs):  # both servers warm now: a new visitor's page load, in turn
                visits[HELLO].append(new_visitor(browser, hello_server.url, hello.charts))
                visits[HOME].append(new_visitor(browser, home.url, home_charts))
        cold = {HELLO: [], HOME: []}
        for _ in range(cold_runs):
            cold[HELLO].append(cold_start(browser, HELLO, hello.charts))
            cold[HOME].append(cold_start(browser, HOME, home_charts))
        browser.close()

    hello_cold, home_cold = median(cold[HELLO]), median(cold[HOME])
    rows = [Row("cold start", f"`streamlit run dashboard.py` until the home page's {home_charts} charts are drawn "
                f"in Chromium; median of {cold_runs}", seconds(home_cold),
                f"hello app {seconds(hello_cold)}", ratio(home_cold, hello_cold), f"≤ {BUDGET_COLD}× hello",
                home_cold <= BUDGET_COLD * hello_cold, {"dashboard_s": cold[HOME], "hello_s": cold[HELLO]})]
    hello_visit, home_visit = median(visits[HELLO]), median(visits[HOME])
    rows.append(Row("new visitor", f"a fresh browser opening the home page on a warm server until its {home_charts} "
                    f"charts are drawn; median of {cold_runs}", seconds(home_visit),
                    f"hello app {seconds(hello_visit)}", ratio(home_visit, hello_visit), f"≤ {BUDGET_VISIT}× hello",
                    home_visit <= BUDGET_VISIT * hello_visit, {"dashboard_s": visits[HOME], "hello_s": visits[HELLO]}))
    return rows + edit_rows(measured) + control_rows(own)


def edit_rows(measured: list[tuple]) -> list[Row]:
    """A row per page's sentence edit against the hello app's and the frame's, the frame's own, and their median."""
    rows, ratios = [], []
    floor = next((median(times) for label, times, *_ in measured if label == FLOOR_LABEL and times), None)
    for label, times, hello_times, n, control in measured:
        if label == FLOOR_LABEL:  # a reference for the pages' budgets, not a page
            m, h = median(times), median(hello_times)
            rows.append(Row(f"reference · {label}", f"{FLOOR}, the least a story page can be: {control} until "
                            f"its one chart has redrawn; median of {len(times)}", seconds(m),
                            f"hello app {seconds(h)}", ratio(m, h), values={"page_s": times, "hello_s": hello_times}))
            continue
        if not times:
            rows.append(Row(f"interaction · {label}", control, "—", budget=f"≤ {BUDGET_INTERACTION:g}× hello"))
            continue
        m, h = median(times), median(hello_times)
        ratios.append(m / h)
        framed = f"; {ratio(m, floor)} the frame's" if floor else ""
        rows.append(Row(f"interaction · {label}", f"{control} until its {n} charts have redrawn; "
                        f"median of {len(times)}{framed}", seconds(m), f"hello app {seconds(h)}", ratio(m, h),
                        f"≤ {BUDGET_INTERACTION:g}× hello" + (f", ≤ {BUDGET_FLOOR}× the frame" if floor else ""),
                        m <= BUDGET_INTERACTION * h and (not floor or m <= BUDGET_FLOOR * floor),
                        {"page_s": times, "hello_s": hello_times, "charts": n, "frame_s": floor}))
    return rows + median_row("interaction · median over pages", "pages", ratios, BUDGET_MEDIAN)


def control_rows(own: list[tuple]) -> list[Row]:
    """A row per page-local control against the hello app's edit, and their median."""
    rows, ratios = [], []
    for label, times, hello_times, n, control in own:
        if not times:
            rows.append(Row(f"control · {label}", control, "—", budget=f"≤ {BUDGET_CONTROL:g}× hello"))
            continue
        m, h = median(times), median(hello_times)
        ratios.append(m / h)
        rows.append(Row(f"control · {label}", f"its part alone until the {n} charts it changes have redrawn; "
                        f"median of {len(times)}", seconds(m), f"hello app {seconds(h)}", ratio(m, h),
                        f"≤ {BUDGET_CONTROL:g}× hello", m <= BUDGET_CONTROL * h,
                        {"page_s": times, "hello_s": hello_times, "charts": n}))
    return rows + median_row("control · median over controls", "controls", ratios, BUDGET_CONTROLS)


def median_row(figure: str, what: str, ratios: list[float], budget: float) -> list[Row]:
    """The median of the rows' ratios to the hello app against `budget`; none without ratios."""
    if not ratios:
        return []
    middle = median(ratios)
    return [Row(figure, f"the median of the {len(ratios)} {what}' ratios above", f"{middle:.2f}×", "hello app 1×",
                f"{middle:.2f}×", f"≤ {budget}× hello", middle <= budget, {"ratios": ratios})]


if __name__ == "__main__":
    from bench.common import table

    print(table(run("--quick" in sys.argv)))
