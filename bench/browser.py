"""Browser figures in headless Chromium: cold start, a new visitor and every page's edits, next to the hello app."""
import functools
import time

from bench import controls
from bench.common import Row, cli, clocked, in_turn, median, ratio, seconds
from bench.probe import Interaction, interaction, launch, new_page, pages, ready
from bench.servers import HELLO, HOME, Server

FLOOR = "bench/floor/frame_app.py"  # the least a story page can be: the dashboard's frame and one heatmap
FLOOR_LABEL = "the frame and one heatmap"
PART = "bench/floor/part_app.py"  # the least a page's own control can be: a part that redraws one chart in place
# the hello app's time, at most: server start to home's charts, a new visitor's page load to them on a warm server,
# an edit to its redrawn charts on every page, and the median of those pages' ratios
BUDGET_COLD, BUDGET_VISIT, BUDGET_INTERACTION, BUDGET_MEDIAN = 1.6, 1.5, 3.0, 2.5
BUDGET_FLOOR = 1.35  # a sentence edit on any page, at most, against the frame and one heatmap
BUDGET_CONTROL, BUDGET_CONTROLS = 1.3, 1.2  # a page's own control against the hello app's edit; their median
USES = {  # a use's figure: how it is timed, its budget (× the hello app's edit), the least use as a row names it, a
    # use's budget against that one (where judged by one) and its key in the row's values
    "interaction": ("{control} until its {n} charts have redrawn", BUDGET_INTERACTION, "the frame", BUDGET_FLOOR,
                    "frame_s"),
    "control": ("its part alone until the {n} charts it changes have redrawn", BUDGET_CONTROL, "the least control",
                None, "least_s")}


def cold_start(browser, script: str, charts: int) -> float:
    """Seconds from launching `streamlit run script` until its first page has `charts` charts drawn."""
    server = Server(script)
    try:
        (started,), _ = clocked(lambda: server.start().wait_ready())
        return started + new_visitor(browser, server.url, charts)  # its page made in between, untimed as before
    finally:
        server.stop()


def new_visitor(browser, url: str, charts: int) -> float:
    """Seconds from opening `url` on a warm server in a fresh context (nothing cached) until its charts are drawn."""
    page = new_page(browser)
    try:
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        ready(page, charts)
        return time.perf_counter() - start
    finally:
        page.context.close()


def on_warm_servers(browser, quick: bool, visits: int) -> tuple[list, list, dict, dict]:
    """Pages' and controls' uses next to the hello app's edit, then new visitors of each app in turn: times, charts."""
    runs = 2 if quick else 5
    measured = []  # (label, page times, hello times, charts, control)
    with Server(HELLO) as hello_server, Server(HOME) as home:
        hello = Interaction(browser, hello_server.url)
        for label, path in pages()[:1] if quick else pages():
            measured.append(interaction(browser, hello, label, f"{home.url}/{path}", runs))
        own = controls.measured(browser, hello, home.url, runs, controls.CONTROLS[:1] if quick else controls.CONTROLS)
        if not quick:
            with Server(FLOOR) as floor, Server(PART) as part:
                measured.append(interaction(browser, hello, FLOOR_LABEL, floor.url, runs))
                own += controls.measured(browser, hello, part.url, runs, (controls.PART,))
        hello.close()
        charts = {HELLO: hello.charts, HOME: measured[0][3]}
        urls = {HELLO: hello_server.url, HOME: home.url}  # both servers warm now: a new visitor's page load, in turn
        times = in_turn({app: functools.partial(new_visitor, browser, urls[app], charts[app]) for app in urls}, visits)
    return measured, own, times, charts


def run(quick: bool) -> list[Row]:
    """Cold start of the dashboard and every page's interaction, each next to the hello app, as table rows."""
    from playwright.sync_api import sync_playwright

    cold_runs = 1 if quick else 5
    with sync_playwright() as p:
        browser = launch(p)
        measured, own, visits, charts = on_warm_servers(browser, quick, cold_runs)
        cold = in_turn({app: functools.partial(cold_start, browser, app, charts[app]) for app in charts}, cold_runs)
        browser.close()
    return [
        next_to_hello("cold start", f"`streamlit run dashboard.py` until the home page's {charts[HOME]} charts are "
                      f"drawn in Chromium; median of {cold_runs}", cold, BUDGET_COLD),
        next_to_hello("new visitor", f"a fresh browser opening the home page on a warm server until its "
                      f"{charts[HOME]} charts are drawn; median of {cold_runs}", visits, BUDGET_VISIT),
        *judged(measured, "interaction", "pages", FLOOR_LABEL, f"{FLOOR}, the least a story page can be",
                (BUDGET_INTERACTION, BUDGET_MEDIAN)),  # each page's sentence edit, then its own controls
        *judged(own, "control", "controls", controls.PART.label, f"{PART}, the least a page's own control can be",
                (BUDGET_CONTROL, BUDGET_CONTROLS))]


def next_to_hello(figure: str, how: str, samples: dict[str, list[float]], budget: float) -> Row:
    """The dashboard's median against the hello app's, within `budget` times it."""
    home = median(samples[HOME])
    hello = median(samples[HELLO])
    return Row(figure, how, seconds(home), f"hello app {seconds(hello)}", ratio(home, hello), f"≤ {budget}× hello",
               home <= budget * hello, {"dashboard_s": samples[HOME], "hello_s": samples[HELLO]})


def use_row(figure: str, label: str, times: list[float], hello_times: list[float], n: int, control: str,
            least: float | None) -> Row:
    """A use (a page's sentence edit, one of its own controls) against the hello app's edit and the least use's."""
    how, budget, named, most, key = USES[figure]
    m, h = median(times), median(hello_times)
    most = most if least else None  # a use judged against the least use too, where that was measured
    return Row(f"{figure} · {label}", f"{how.format(control=control, n=n)}; median of {len(times)}"
               + (f"; {ratio(m, least)} {named}'s" if least else ""), seconds(m), f"hello app {seconds(h)}",
               ratio(m, h), f"≤ {budget:g}× hello" + (f", ≤ {most}× {named}" if most else ""),
               m <= budget * h and (not most or m <= most * least),
               {"page_s": times, "hello_s": hello_times, "charts": n, key: least})


def judged(measured: list[tuple], figure: str, what: str, reference: str, least: str,
           budgets: tuple[float, float]) -> list[Row]:
    """Rows of the uses: the `reference` (unjudged), use_row(…, its median) for each other, their median ratio's."""
    rows, ratios = [], []
    least_s = next((median(times) for label, times, *_ in measured if label == reference and times), None)
    for label, times, hello_times, n, control in measured:
        if label == reference:
            rows.append(reference_row(label, f"{least}: {control} until its one chart has redrawn", times,
                                      hello_times))
        elif not times:
            rows.append(Row(f"{figure} · {label}", control, "—", budget=f"≤ {budgets[0]:g}× hello"))
        else:
            rows.append(use_row(figure, label, times, hello_times, n, control, least_s))
            ratios.append(median(times) / median(hello_times))
    return rows + median_row(f"{figure} · median over {what}", what, ratios, budgets[1])


def reference_row(label: str, how: str, times: list[float], hello_times: list[float]) -> Row:
    """A reference's row, judged by no budget: its median next to the hello app's."""
    m, h = median(times), median(hello_times)
    return Row(f"reference · {label}", f"{how}; median of {len(times)}", seconds(m), f"hello app {seconds(h)}",
               ratio(m, h), values={"page_s": times, "hello_s": hello_times})


def median_row(figure: str, what: str, ratios: list[float], budget: float) -> list[Row]:
    """The median of the rows' ratios to the hello app against `budget`; none without ratios."""
    if not ratios:
        return []
    middle = median(ratios)
    return [Row(figure, f"the median of the {len(ratios)} {what}' ratios above", f"{middle:.2f}×", "hello app 1×",
                f"{middle:.2f}×", f"≤ {budget}× hello", middle <= budget, {"ratios": ratios})]


if __name__ == "__main__":
    cli(run)
