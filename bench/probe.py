"""An edit in headless Chromium, timed until every chart it changes has redrawn: what the browser benchmarks share."""
import json
import time

from bench.common import in_turn, label
from harness.chromium import CANVAS_DIGEST, CHROMIUM, CHROMIUM_ARGS, VIEWPORT

SENTENCE_BOX = "[data-testid=stSidebar] [data-testid=stTextInput] input"
PRIMARY = "[data-testid=stMain] [data-testid=stBaseButton-primary]"
FIRST_WORD = "today "  # put first, it moves every word one position on: every row, hence every chart, changes
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
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def new_page(browser, url: str = ""):
    """A page in a fresh context (empty cache and cookies) with the probe installed, loading `url` (if given)."""
    context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)  # the app's CSP forbids wait_for_function
    context.add_init_script(PROBE)
    page = context.new_page()
    if url:
        page.goto(url, wait_until="commit")
    return page


def ready(page, n: int = 1, changed: list[int] = (), rerun: bool = False) -> None:
    """Wait until the app is idle with n charts drawn, the `changed` ones new (with `rerun`: and a run or a change)."""
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


def pages(chosen: str = "") -> list[tuple[str, str]]:
    """(label, URL path) of home and every step of the story (kit/pages.py), or of those `chosen` ("home", "1", …)."""
    from kit import pages as registry

    found = [(label(p.path), p.url_path) for p in registry.STEPS]
    return [p for p in found if not chosen or p[0].split()[0] in chosen.split(",")]


class Interaction:
    """One open page and its control (the sentence, or its primary button): once() times a use until charts redraw."""

    def __init__(self, browser, url: str):
        self.page = new_page(browser)
        self.listen(self.page)
        self.page.goto(url, wait_until="commit")
        ready(self.page, 0)
        self.charts = settle(self.page)
        self.runs = 0
        self.setup()
        before, self.charts, after = self.rehearsal(1)  # a use may change how many charts there are (page 6's tabs)
        self.changed = [i for i, sig in enumerate(after) if i >= len(before) or sig != before[i]]

    def setup(self) -> None:
        """The control: the sidebar's sentence (a first word added, then removed), or a chartless page's button."""
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

    def rehearsal(self, n: int) -> tuple[list, int, list]:
        """One untimed use with n charts drawn: the charts' content before, their number once settled, content then."""
        go = self.prepare()
        before = self.page.evaluate("window.__bench.snapshot(), window.__bench.sigs()")
        go()
        ready(self.page, n, rerun=True)
        settled = settle(self.page)
        return before, settled, self.page.evaluate("window.__bench.sigs()")

    def once(self, mark=None) -> float:
        """Seconds from a use until every chart it changes has redrawn (mark() just before the clock starts)."""
        go = self.prepare()
        self.page.evaluate("window.__bench.snapshot()")
        if mark is not None:
            mark()
        start = time.perf_counter()
        go()
        ready(self.page, self.charts, self.changed, rerun=not self.changed)
        elapsed = time.perf_counter() - start
        settle(self.page)
        return elapsed

    def close(self) -> None:
        self.page.context.close()


class Timed(Interaction):
    """An interaction that also reads Chromium's main-thread task time (CDP Performance.getMetrics TaskDuration)."""

    def __init__(self, browser, url: str):
        super().__init__(browser, url)
        self.cdp = self.page.context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")

    def task_s(self) -> float:
        """Seconds the renderer's main thread has spent in tasks so far."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    def timed(self, mark=None) -> tuple[float, float]:
        """(wall seconds to the redrawn charts, main-thread seconds until settled) of one use (mark() as in once)."""
        task = []

        def marked() -> None:
            if mark is not None:
                mark()
            task.append(self.task_s())
        wall = self.once(marked)
        return wall, self.task_s() - task[0]


def interaction(browser, hello: Interaction, label: str, url: str, runs: int, opened=Interaction) -> tuple:
    """(label, page times, hello times, charts, control) of `runs` uses of opened(browser, url)'s control, in turn."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page = opened(browser, url)
    except PlaywrightError as e:  # e.g. a page with neither a chart nor a button: report it, go on
        return label, [], [], 0, f"not measured: {str(e).splitlines()[0]}"
    times = in_turn({hello: hello.once, page: page.once}, runs)
    page.close()
    return label, times[page], times[hello], page.charts, page.control
