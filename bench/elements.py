"""What an element adds to an edit in the browser: the hello app with elements added, next to the hello app itself."""
import sys
from contextlib import ExitStack

from bench.common import Row, in_turn, median, ratio, seconds, table
from bench.probe import Interaction, launch
from bench.servers import Server

APP = "bench/elements_app.py"
EDITS = 12
# (label, what is added to the hello app)
VARIANTS = [
    ("hello app", {}),
    ("20 short paragraphs", {"TEXTS": 20, "LENGTH": 4}),
    ("40 short paragraphs", {"TEXTS": 40, "LENGTH": 4}),
    ("20 paragraphs four times as long", {"TEXTS": 20, "LENGTH": 16}),
    ("20 toggles", {"TOGGLES": 20}),
    ("20 select boxes", {"CHOICES": 20}),
    ("10 segmented controls", {"SEGMENTS": 10}),
    ("10 text boxes", {"INPUTS": 10}),
    ("10 closed popovers", {"POPOVERS": 10}),
    ("10 closed expanders", {"EXPANDERS": 10}),
    ("10 page links, their addresses changing with the sentence", {"LINKS": 10}),
    ("4 charts more", {"CHARTS": 4}),
    ("9 charts more", {"CHARTS": 9}),
    ("4 charts more, as one chart", {"CONCAT": 4}),
    ("9 charts more, as one chart", {"CONCAT": 9}),
    ("4 charts, 20 paragraphs, 10 toggles, 10 select boxes", {"CHARTS": 4, "TEXTS": 20, "LENGTH": 4, "TOGGLES": 10,
                                                             "CHOICES": 10}),
]


def run(edits: int, only: list[int] | None = None) -> list[Row]:
    """Each variant's median edit to redrawn charts, with its difference from the hello app's and their ratio."""
    from playwright.sync_api import sync_playwright

    variants = [v for i, v in enumerate(VARIANTS) if only is None or i == 0 or i in only]
    with ExitStack() as stack, sync_playwright() as p:
        servers = [stack.enter_context(Server(APP, env={f"ELEMENTS_{k}": str(v) for k, v in added.items()}))
                   for _, added in variants]
        browser = launch(p)
        times = list(in_turn({i: Interaction(browser, s.url).once for i, s in enumerate(servers)}, edits).values())
        browser.close()
    hello = median(times[0])
    rows = []
    for (label, _), measured in zip(variants, times, strict=True):
        m = median(measured)
        rows.append(Row(f"edit · {label}", f"sentence edited until the charts have redrawn; median of {edits}; "
                        f"{(m - hello) * 1e3:+.0f} ms against the hello app", seconds(m), f"hello app {seconds(hello)}",
                        ratio(m, hello), values={"s": measured}))
    return rows


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--edits") + 1]) if "--edits" in sys.argv else EDITS
    chosen = [int(i) for i in sys.argv[sys.argv.index("--only") + 1].split(",")] if "--only" in sys.argv else None
    print(table(run(n, chosen)))
