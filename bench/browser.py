"""Browser figures in headless Chromium: cold start, a new visitor and every page's edits, next to the hello app."""
import time

from bench import controls
from bench.common import Row, cli, median, ratio, seconds
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
    times = {HELLO: [], HOME: []}
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
        for _ in range(visits):  # both servers warm now: a new visitor's page load, in turn
            times[HELLO].append(new_visitor(browser, hello_server.url, charts[HELLO]))
            times[HOME].append(new_visitor(browser, home.url, charts[HOME]))
    return measured, own, times, charts


def run(quick: bool) -> list[Row]:
    """Cold start of the dashboard and every page's interaction, each next to the hello app, as table rows."""
    from playwright.sync_api import sync_playwright

    cold_runs = 1 if quick else 5
    cold = {HELLO: [], HOME: []}
    with sync_playwright() as p:
        browser = launch(p)
        measured, own, visits, charts = on_warm_servers(browser, quick, cold_runs)
        for _ in range(cold_runs):
            cold[HELLO].append(cold_start(browser, HELLO, charts[HELLO]))
            cold[HOME].append(cold_start(browser, HOME, charts[HOME]))
        browser.close()
    return [
        next_to_hello("cold start", f"`streamlit run dashboard.py` until the home page's {charts[HOME]} charts are "
                      f"drawn in Chromium; median of {cold_runs}", cold, BUDGET_COLD),
        next_to_hello("new visitor", f"a fresh browser opening the home page on a warm server until its "
                      f"{charts[HOME]} charts are drawn; median of {cold_runs}", visits, BUDGET_VISIT),
        *edit_rows(measured), *control_rows(own)]


def next_to_hello(figure: str, how: str, samples: dict[str, list[float]], budget: float) -> Row:
    """The dashboard's median against the hello app's, within `budget` times it."""
    home = median(samples[HOME])
    hello = median(samples[HELLO])
    return Row(figure, how, seconds(home), f"hello app {seconds(hello)}", ratio(home, hello), f"≤ {budget}× hello",
               home <= budget * hello, {"dashboard_s": samples[HOME], "hello_s": samples[HELLO]})


def edit_rows(measured: list[tuple]) -> list[Row]:
    """A row per page's sentence edit against the hello app's and the frame's, the frame's own, and their median."""
    return judged(measured, "interaction", "pages", FLOOR_LABEL, f"{FLOOR}, the least a story page can be",
                  (BUDGET_INTERACTION, BUDGET_MEDIAN), edit_row)


def edit_row(label: str, times: list[float], hello_times: list[float], n: int, control: str,
             floor: float | None) -> Row:
    """A page's sentence edit against the hello app's and (where measured) the frame's."""
    m, h = median(times), median(hello_times)
    framed = f"; {ratio(m, floor)} the frame's" if floor else ""
    return Row(f"interaction · {label}", f"{control} until its {n} charts have redrawn; median of {len(times)}{framed}",
               seconds(m), f"hello app {seconds(h)}", ratio(m, h),
               f"≤ {BUDGET_INTERACTION:g}× hello" + (f", ≤ {BUDGET_FLOOR}× the frame" if floor else ""),
               m <= BUDGET_INTERACTION * h and (not floor or m <= BUDGET_FLOOR * floor),
               {"page_s": times, "hello_s": hello_times, "charts": n, "frame_s": floor})


def control_rows(own: list[tuple]) -> list[Row]:
    """A row per page-local control against the hello app's edit and the least such a control can be (PART), the
    latter's own, and their median."""
    return judged(own, "control", "controls", controls.PART.label, f"{PART}, the least a page's own control can be",
                  (BUDGET_CONTROL, BUDGET_CONTROLS), control_row)


def control_row(label: str, times: list[float], hello_times: list[float], n: int, control: str,
                least: float | None) -> Row:
    """A page's own control against the hello app's edit and (where measured) the least control's."""
    m, h = median(times), median(hello_times)
    beside = f"; {ratio(m, least)} the least control's" if least else ""
    return Row(f"control · {label}", f"its part alone until the {n} charts it changes have redrawn; median of "
               f"{len(times)}{beside}", seconds(m), f"hello app {seconds(h)}", ratio(m, h),
               f"≤ {BUDGET_CONTROL:g}× hello", m <= BUDGET_CONTROL * h,
               {"page_s": times, "hello_s": hello_times, "charts": n, "least_s": least})


def judged(measured: list[tuple], figure: str, what: str, reference: str, least: str, budgets: tuple[float, float],
           row) -> list[Row]:
    """The rows of measured uses: the reference's (the use labelled `reference`, the `least` a use can be, judged by
    no budget), row(label, times, hello times, charts, control, the reference's median) for each other use measured
    (one that was not says why, under the first of the `budgets`), and the median of their ratios to the hello app
    against the second."""
    rows, ratios = [], []
    least_s = next((median(times) for label, times, *_ in measured if label == reference and times), None)
    for label, times, hello_times, n, control in measured:
        if label == reference:
            rows.append(reference_row(label, f"{least}: {control} until its one chart has redrawn", times,
                                      hello_times))
        elif not times:
            rows.append(Row(f"{figure} · {label}", control, "—", budget=f"≤ {budgets[0]:g}× hello"))
        else:
            rows.append(row(label, times, hello_times, n, control, least_s))
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
