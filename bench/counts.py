"""What an edit costs the browser, counted rather than timed: nodes, websocket bytes, charts rebuilt, React renders."""
import argparse

from bench.common import median
from bench.probe import Timed, launch, pages
from bench.servers import HELLO, HOME, Server

NODES = """() => {
  const charts = [...document.querySelectorAll('[data-testid=stVegaLiteChart]')];
  const inSvg = charts.reduce((n, c) => n + c.querySelectorAll('svg *').length, 0);
  const inCharts = charts.reduce((n, c) => n + c.querySelectorAll('*').length, 0);
  const sidebar = document.querySelector('[data-testid=stSidebar]');
  return {dom: document.querySelectorAll('*').length, svg: inSvg, outside: document.querySelectorAll('*').length
          - inCharts, sidebar: sidebar ? sidebar.querySelectorAll('*').length : 0, charts: charts.length,
          canvas: charts.filter(c => c.querySelector('canvas')).length};
}"""
TAG = """() => window.__bench.charts().forEach(c => {
  const g = c.querySelector('svg, canvas');
  if (g) g.__old = true;
})"""
REBUILT = """() => window.__bench.charts().filter(c => { const g = c.querySelector('svg, canvas');
  return !g || !g.__old; }).length"""


RECORD = "Object.assign(window.__react, {recording: true, commits: 0, rendered: 0})"  # from here, count
# React calls a developer-tools hook at every commit, when one is installed before it loads. This one counts the
# commits made while `recording`, and the components among them whose props or state are not those of the last commit
# (so a component that React left alone is not counted, nor a DOM element).
REACT = """
const seen = new WeakMap();
window.__react = {recording: false, commits: 0, rendered: 0};
const kind = f => typeof f.type === 'function' || (f.type !== null && typeof f.type === 'object');
const walk = fiber => {
  let n = 0;
  for (let f = fiber; f; f = f.sibling) {
    const last = seen.get(f) || (f.alternate && seen.get(f.alternate));
    if (kind(f) && (!last || last.props !== f.memoizedProps || last.state !== f.memoizedState)) n++;
    const now = {props: f.memoizedProps, state: f.memoizedState};
    seen.set(f, now);
    if (f.alternate) seen.set(f.alternate, now);
    if (f.child) n += walk(f.child);
  }
  return n;
};
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, isDisabled: false, renderers: new Map(), inject: () => 1, checkDCE() {},
  onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
  onCommitFiberRoot(id, root) {
    const n = walk(root.current.child), r = window.__react;
    if (r.recording) { r.commits++; r.rendered += n; }
  },
};
"""


class Counted(Timed):
    """bench.probe's interaction, also counting websocket bytes, charts built anew and main-thread time."""

    def __init__(self, browser, url: str, react: bool = False):
        self.received, self.react = 0, react
        super().__init__(browser, url)

    def listen(self, page) -> None:
        page.on("websocket", lambda ws: ws.on("framereceived", self.frame))
        if self.react:
            page.add_init_script(REACT)

    def frame(self, payload) -> None:
        """Count a websocket frame's bytes."""
        self.received += len(payload)

    def counted(self) -> dict:
        """One edit: wall and main-thread seconds, bytes received, charts built anew and charts changed."""
        seen = {}

        def mark() -> None:
            self.page.evaluate(TAG)
            seen["sigs"] = self.page.evaluate("window.__bench.sigs()")
            seen["received"] = self.received
        wall, task = self.timed(mark)
        after = self.page.evaluate("window.__bench.sigs()")
        changed = sum(a != b for a, b in zip(seen["sigs"], after, strict=False))
        return {"wall": wall, "task": task, "bytes": self.received - seen["received"],
                "rebuilt": self.page.evaluate(REBUILT), "changed": changed}

    def rendered(self) -> dict:
        """One edit, with the React hook: its commits and the components they rendered, until the page settled."""
        self.once(lambda: self.page.evaluate(RECORD))
        return self.page.evaluate("window.__react.recording = false, window.__react")


def run(edits: int, chosen: str) -> None:
    """Print the counts of the hello app and of each chosen page ("home,1,2"; none: all), medians of `edits` edits."""
    from playwright.sync_api import sync_playwright

    found = [("hello", None), *pages(chosen)]
    print(f"{'page':24} {'dom':>6} {'svg':>6} {'outside':>7} {'sidebar':>7} {'canvas':>6} {'charts':>6} "
          f"{'KB/edit':>8} {'rebuilt':>7} {'changed':>7} {'task ms':>8} {'wall ms':>8} {'commits':>7} "
          f"{'rendered':>8}")
    with sync_playwright() as p:
        browser = launch(p)
        with Server(HELLO) as hello, Server(HOME) as home:
            for label, path in found:
                x = Counted(browser, hello.url if path is None else f"{home.url}/{path}")
                nodes = x.page.evaluate(NODES)
                samples = [x.counted() for _ in range(edits)]
                x.close()
                x = Counted(browser, hello.url if path is None else f"{home.url}/{path}", react=True)
                samples = [s | x.rendered() for s in samples]
                x.close()
                m = {k: median([s[k] for s in samples]) for k in samples[0]}
                print(f"{label[:24]:24} {nodes['dom']:6} {nodes['svg']:6} {nodes['outside']:7} {nodes['sidebar']:7} "
                      f"{nodes['canvas']:6} {nodes['charts']:6} {m['bytes'] / 1024:8.1f} {m['rebuilt']:7.0f} "
                      f"{m['changed']:7.0f} {m['task'] * 1000:8.0f} {m['wall'] * 1000:8.0f} {m['commits']:7.0f} "
                      f"{m['rendered']:8.0f}", flush=True)
        browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--pages", default="")
    args = parser.parse_args()
    run(args.edits, args.pages)
