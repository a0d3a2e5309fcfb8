"""This tree against another commit in the browser: each page's edit-to-redraw time and Chromium's main-thread time.

python -m bench.ab REV [--edits N] [--pages home,1,2] [--query "sentence=The ball is blue"]

REV is checked out into a temporary git worktree and served by the same Python and packages as this tree, each tree
with its own .streamlit/config.toml. For every page, both servers' pages are open in one headless Chromium and the
sentence edit of bench.browser is made on each in turn, N times (the first one untimed), so drift on the machine hits
both alike. Two figures per edit: the wall time from the edit until every chart it changes has redrawn (bench.browser's
interaction figure) and Chromium's main-thread task time (CDP Performance.getMetrics TaskDuration) from the edit until
the page is settled, which moves far less from run to run than the wall time. Printed per page: medians and the median
of the paired ratios (this tree ÷ REV, edit by edit). --query opens every page of both trees with those URL
parameters (for example the same sentence where the two trees' defaults differ).
"""
import argparse
import os
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

from bench.browser import Interaction, launch, pages, ready, settle
from bench.common import ROOT, Server, median
from engine import minilm_files

EDITS = 16


class Measured(Interaction):
    """bench.browser's interaction, also reading Chromium's main-thread task time around each edit."""

    def __init__(self, browser, url: str):
        super().__init__(browser, url)
        self.cdp = self.page.context.new_cdp_session(self.page)
        self.cdp.send("Performance.enable")

    def task_s(self) -> float:
        """Seconds the renderer's main thread has spent in tasks so far."""
        metrics = self.cdp.send("Performance.getMetrics")["metrics"]
        return next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    def timed(self) -> tuple[float, float]:
        """(wall seconds to the redrawn charts, main-thread seconds until settled) of one edit."""
        go = self.prepare()
        self.page.evaluate("window.__bench.snapshot()")
        task = self.task_s()
        wall = time.perf_counter()
        go()
        ready(self.page, self.charts, self.changed, rerun=not self.changed)
        wall = time.perf_counter() - wall
        settle(self.page)
        return wall, self.task_s() - task


def worktree(rev: str, where: Path) -> Path:
    """REV checked out (detached) under `where`."""
    path = where / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), rev], check=True)
    return path


def compare(rev: str, edits: int, chosen: list[str] | None, query: str = "") -> list[tuple]:
    """(page, this tree's wall and task samples, REV's) for every chosen page."""
    from playwright.sync_api import sync_playwright

    found = pages()
    if chosen:
        found = [p for p in found if p[0].split()[0] in chosen]  # "home", "1 Words become rows", …
    out = []
    # the other tree has no copy of the real model's files: both servers read this tree's (page 8 draws with them)
    os.environ.setdefault(minilm_files.ENV, str(minilm_files.folder()))
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        other = worktree(rev, Path(tmp))
        try:
            browser = launch(p)
            with Server("dashboard.py") as ours, Server("dashboard.py", root=other) as theirs:
                for label, path in found:
                    tail = f"{path}?{urllib.parse.quote(query, safe='=&')}" if query else path
                    a, b = Measured(browser, f"{ours.url}/{tail}"), Measured(browser, f"{theirs.url}/{tail}")
                    samples = {a: [], b: []}
                    for i in range(edits + 1):
                        for x in (a, b) if i % 2 else (b, a):
                            sample = x.timed()
                            if i:
                                samples[x].append(sample)
                    out.append((label, samples[a], samples[b]))
                    a.close()
                    b.close()
            browser.close()
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)
    return out


def report(rev: str, results: list[tuple]) -> str:
    """One Markdown table: per page and figure, the medians and the median paired ratio."""
    lines = [f"| page | figure | this tree | {rev} | ratio of medians | median paired ratio |",
             "|---|---|---:|---:|---:|---:|"]
    for label, ours, theirs in results:
        for i, figure in enumerate(("edit to redrawn charts", "main-thread time")):
            x, y = [s[i] for s in ours], [s[i] for s in theirs]
            paired = median([p / q for p, q in zip(x, y, strict=False)])
            lines.append(f"| {label} | {figure} | {median(x) * 1e3:.1f} ms | {median(y) * 1e3:.1f} ms | "
                         f"{median(x) / median(y):.2f}× | {paired:.2f}× |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--edits", type=int, default=EDITS)
    parser.add_argument("--pages", help="comma-separated: home and page numbers (default: all)")
    parser.add_argument("--query", default="", help="URL parameters for every page of both trees")
    args = parser.parse_args()
    chosen = args.pages.split(",") if args.pages else None
    print(report(args.rev, compare(args.rev, args.edits, chosen, args.query)))
