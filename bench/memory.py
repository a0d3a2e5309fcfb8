"""Server memory: the dashboard server's resident size with 1 and with 10 browser sessions, full 400k vocabulary."""
from bench.common import Row, cli
from bench.probe import launch, new_page, pages, ready, settle
from bench.servers import HOME, Server

SESSIONS = 10
BUDGET_MB = 350
LINKS = "[data-testid=stSidebar] a[data-testid=stPageLink-NavLink]"
SWITCHED = """([path, title]) => location.pathname.replace(/\\/$/, '') === '/' + path
  && (document.querySelector('h1')?.innerText ?? '') !== title"""


def loaded(page) -> None:
    """Wait until the page's charts are drawn and nothing changes any more."""
    ready(page)
    settle(page)


def switch_all(sessions, path: str) -> None:
    """Follow the sidebar's link to `path` in every session at once and wait for each."""
    link = f'{LINKS}[href="{path}"], {LINKS}[href^="{path}?"]'  # with or without the view's query string
    sessions[0].locator(link).first.wait_for(timeout=30_000)  # no link: fail rather than measure fewer pages
    titles = [page.evaluate("document.querySelector('h1')?.innerText ?? ''") for page in sessions]
    for page in sessions:
        page.locator(link).click()
    for page, title in zip(sessions, titles, strict=False):
        page.wait_for_function(SWITCHED, arg=[path, title], polling=50, timeout=120_000)
        loaded(page)


def run(quick: bool) -> list[Row]:
    """RSS of the server process tree after one session, then after SESSIONS sessions have loaded pages."""
    from playwright.sync_api import sync_playwright

    if quick:
        return [Row("memory", f"server RSS with 1 and {SESSIONS} Chromium sessions", "skipped with --quick (slowest)",
                    budget=f"≤ {BUDGET_MB} MB with {SESSIONS}")]

    with sync_playwright() as p, Server(HOME) as server:
        browser = launch(p)
        sessions = [new_page(browser, server.url)]
        loaded(sessions[0])
        one = server.rss_mb()
        sessions += [new_page(browser, server.url) for _ in range(SESSIONS - 1)]
        for page in sessions[1:]:
            loaded(page)
        visited = ["home"]
        for label, path in pages()[1:]:
            switch_all(sessions, path)
            visited.append(label)
        ten = server.rss_mb()
        browser.close()
    how = (f"server RSS (process tree), full 400k vocabulary, after {SESSIONS} Chromium sessions each loaded the "
           "home page, then every page through the sidebar; next to the same after 1 session on the home page")
    return [Row("memory", how, f"{ten:.0f} MB with {SESSIONS} sessions", f"{one:.0f} MB with 1 session",
                f"{ten / one:.2f}×", f"≤ {BUDGET_MB} MB with {SESSIONS}", ten <= BUDGET_MB,
                {"rss_1_mb": one, f"rss_{SESSIONS}_mb": ten, "pages": visited})]


if __name__ == "__main__":
    cli(run)
