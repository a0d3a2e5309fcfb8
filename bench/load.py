"""Many visitors at once: concurrent Chromium sessions on one server, their errors, and the server's memory and CPU."""
import argparse
import asyncio
import gc
import platform
import re
import time

import psutil

from bench.common import RESULTS, markdown, median, quantile
from bench.probe import launch
from bench.servers import HOME, Peak, Server, tree_cpu, tree_memory
from harness import chromium

LOG = RESULTS / "load-server.log"
PER_SESSION_MB = 5
STEP_TIMEOUT_MS = 90_000
DEADLINE_S = 900
# none is the default sentence, which typed again would run nothing
SENTENCES = ("A dog ate the bone quickly", "The old man read the paper", "She reads old books",
             "The small cat drank the warm milk")
ERRORS = "[data-testid=stException], [data-testid=stAlertContentError]"


class Session:
    """One visitor in its own browser context, counting its errors and timing its steps."""

    def __init__(self, browser, url: str, number: int):
        self.browser, self.url, self.number = browser, url, number
        self.errors: list[str] = []
        self.times: list[float] = []
        self.page = None

    async def open(self):
        # the app's Content-Security-Policy forbids evaluating strings, which Playwright's wait_for_function does
        context = await self.browser.new_context(viewport=chromium.VIEWPORT, bypass_csp=True)
        await context.add_init_script(chromium.COUNT_RUNS)
        self.page = await context.new_page()
        self.page.set_default_timeout(STEP_TIMEOUT_MS)

    async def close(self):
        await self.page.context.close()

    async def step(self, name: str, action):
        """Do one interaction, wait for its script run and for every chart, and check the page for errors."""
        start = time.perf_counter()
        try:
            runs = await self.page.evaluate("window.__runs || 0")
            await action()
            await self.page.wait_for_function(f"window.__runs > {runs}", timeout=STEP_TIMEOUT_MS)
            await self.page.wait_for_function(chromium.SETTLED, timeout=STEP_TIMEOUT_MS, polling=100)
            shown = await self.page.locator(ERRORS).all_inner_texts()
            self.errors += [f"session {self.number}, {name}: {text[:160]!r}" for text in shown]
        except Exception as e:  # a failed load or a step that never finished: counted, the session goes on
            try:
                state = await self.page.evaluate(chromium.PENDING)
            except Exception:
                state = "page unavailable"
            self.errors.append(f"session {self.number}, {name}: {type(e).__name__}: {str(e).splitlines()[0][:120]} "
                               f"(page: {state})")
        self.times.append(time.perf_counter() - start)

    async def link(self, label: str):
        links = self.page.locator("[data-testid=stSidebar] [data-testid=stPageLink-NavLink]")
        await links.filter(has_text=label).first.click()

    async def type(self, text: str):
        box = self.page.locator("[data-testid=stSidebar] [data-testid=stTextInput] input").first
        await box.fill(text)
        await box.press("Enter")

    async def seed(self, label: str, value: int):
        details = self.page.locator("[data-testid=stSidebar] [data-testid=stExpander] details").first
        if await details.get_attribute("open") is None:
            await details.locator("summary").click()
            await self.page.wait_for_timeout(400)  # let the expander finish opening before typing into it
        box = self.page.locator("[data-testid=stNumberInput]").filter(has_text=label).locator("input")
        await box.fill(str(value))
        await box.press("Enter")

    async def toggle(self, label: str):
        await self.page.locator("[data-testid=stCheckbox]").filter(has_text=label).first.locator("label").click()

    async def click_cell(self, row: str):
        cell = self.page.locator("[data-testid=stVegaLiteChart]").filter(has_text="Factor matrix").first.locator(
            f'[role=graphics-symbol][aria-label*="query word: {row};"]').first
        await cell.scroll_into_view_if_needed()
        box = await cell.bounding_box()
        await self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    async def visit(self, steps: int):
        """The visitor's interactions, the first `steps` of a fixed tour through the app."""
        n = self.number
        tour = [
            ("load home", lambda: self.page.goto(self.url)),
            ("type a sentence", lambda: self.type(SENTENCES[n % len(SENTENCES)])),
            ("change W_V seed", lambda: self.seed("W_V seed", 100 + n)),  # W_Q, W_K: learned, no seed
            ("go to factor matrix", lambda: self.link("factor matrix")),
            ("click a factor cell", lambda: self.click_cell(SENTENCES[n % len(SENTENCES)].split()[1].lower())),
            ("toggle softmax", lambda: self.toggle("Softmax along each row")),
            ("go to words become rows", lambda: self.link("Words become rows")),
            ("change W_V seed again", lambda: self.seed("W_V seed", 200 + n)),
            ("type another sentence", lambda: self.type(SENTENCES[(n + 1) % len(SENTENCES)])),
            ("go home", lambda: self.link("Home")),
        ]
        for i in range(steps):
            await self.step(*tour[i % len(tour)])


async def main_async(sessions: int, steps: int) -> dict:
    from playwright.async_api import async_playwright

    with Server(HOME, env={"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}) as server:  # as deployed: no reloads
        async with async_playwright() as p:
            browser = await launch(p)
            result = await visits(browser, f"{server.url}/", server.proc.pid, sessions, steps)
            await browser.close()
        log = server.log.read_text()
    LOG.write_text(log)
    result["tracebacks"] = len(re.findall(r"^Traceback", log, flags=re.M))
    result["exceptions"] = sorted(set(re.findall(r"^(\w+(?:\.\w+)*(?:Error|Exception)\b.*)$", log, flags=re.M)))
    return result


async def visits(browser, url: str, pid: int, sessions: int, steps: int) -> dict:
    """One session warms every page, then `sessions` make `steps` interactions at once: memory, CPU, errors."""
    result = {"sessions": sessions, "steps": steps, "server_start": tree_memory(pid, full=True)}
    warm = Session(browser, url, 0)  # every page and cache touched once, then measured with one session
    await warm.open()
    await warm.visit(10)
    await asyncio.sleep(2)
    gc.collect()
    result["one"] = tree_memory(pid, full=True)
    result["warm_errors"] = warm.errors
    crowd = [Session(browser, url, i + 1) for i in range(sessions)]
    with Peak(lambda: tree_memory(pid)["rss"], 0.25) as peak:
        started = time.perf_counter()
        server_cpu = tree_cpu(pid, reaped=False)
        own_cpu = tree_cpu(psutil.Process().pid, reaped=False)
        await asyncio.gather(*(s.open() for s in crowd))
        await asyncio.wait_for(asyncio.gather(*(s.visit(steps) for s in crowd)), timeout=DEADLINE_S)
        result["wall"] = time.perf_counter() - started
        result["server_cpu"] = tree_cpu(pid, reaped=False) - server_cpu
        result["browser_cpu"] = tree_cpu(psutil.Process().pid, reaped=False) - own_cpu  # Playwright and Chromium
        await asyncio.sleep(2)
        result["after_open"] = tree_memory(pid, full=True)
        for s in crowd:
            await s.close()
        await warm.close()
        await asyncio.sleep(5)  # sessions are dropped when their websockets close
        result["after_closed"] = tree_memory(pid, full=True)
    result["peak"] = {"rss": peak.mb}
    result["errors"] = [e for s in crowd for e in s.errors]
    result["times"] = [t for s in crowd for t in s.times]
    return result


def table(r: dict) -> str:
    """The run as a Markdown table, with the targets."""
    budget = r["one"]["rss"] + PER_SESSION_MB * r["sessions"]
    times = sorted(r["times"])
    p95 = quantile(times, 0.95) if times else float("nan")
    errors = len(r["errors"])
    rows = [
        ("Concurrent sessions × interactions", f"{r['sessions']} × {r['steps']} = {len(times)}", "", ""),
        ("Errors (exception/error boxes, failed or stuck steps)", f"{errors}", "0", "yes" if errors == 0 else "**no**"),
        ("Tracebacks in the server log", f"{r['tracebacks']}", "0", "yes" if r["tracebacks"] == 0 else "**no**"),
        ("Server RSS after start (MB)", f"{r['server_start']['rss']:.1f}", "", ""),
        ("Server RSS, one warmed session (MB)", f"{r['one']['rss']:.1f}", "", ""),
        ("Server RSS peak during the run (MB)", f"{r['peak']['rss']:.1f}", "", ""),
        (f"Server RSS after the run, {r['sessions']} sessions still open (MB)", f"{r['after_open']['rss']:.1f}",
         f"≤ {budget:.1f}", "yes" if r["after_open"]["rss"] <= budget else "**no**"),
        ("Server RSS after the sessions closed (MB)", f"{r['after_closed']['rss']:.1f}",
         f"≤ {budget:.1f}", "yes" if r["after_closed"]["rss"] <= budget else "**no**"),
        ("Growth per open session (MB)", f"{(r['after_open']['rss'] - r['one']['rss']) / r['sessions']:.2f}",
         f"≤ {PER_SESSION_MB}", ""),
        ("Server USS, one session → after the run (MB)", f"{r['one']['uss']:.1f} → {r['after_open']['uss']:.1f}",
         "", ""),
        ("Interaction time, median / p95 (s)", f"{median(times):.2f} / {p95:.2f}" if times else "–", "", ""),
        ("Wall time of the concurrent run (s)", f"{r['wall']:.1f}", "", ""),
        ("CPU time during the run: server / browser (s)", f"{r['server_cpu']:.1f} / {r['browser_cpu']:.1f}", "", ""),
    ]
    return markdown(["Measure", "Value", "Target", "Met"], rows, "lrrc")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    r = asyncio.run(main_async(args.sessions, args.steps))
    print(f"Python {platform.python_version()}, {platform.machine()}, {psutil.cpu_count()} CPUs; server on 127.0.0.1; "
          f"{args.sessions} Chromium contexts in one browser.\n")
    print(table(r))
    if r["warm_errors"] or r["errors"]:
        print("\nErrors:\n" + "\n".join(f"- {e}" for e in (r["warm_errors"] + r["errors"])[:30]))
    if r["tracebacks"]:
        print(f"\nServer exceptions (full log in {LOG.relative_to(LOG.parents[2])}):\n"
              + "\n".join(f"- {e[:200]}" for e in r["exceptions"]))


if __name__ == "__main__":
    main()
