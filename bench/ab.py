"""This tree against another commit in the browser: each page's edit-to-redraw time and Chromium's main-thread time."""
import argparse
import os
import urllib.parse

from bench.common import in_turn, markdown, median
from bench.probe import Timed, launch, pages
from bench.servers import HOME, Server, worktree
from engine import minilm_files

EDITS = 16


def compare(rev: str, edits: int, chosen: str, query: str = "") -> list[tuple]:
    """(page, this tree's wall and task samples, REV's) for every chosen page ("home,1,2"; none: all)."""
    from playwright.sync_api import sync_playwright

    out = []
    # the other tree has no copy of the real model's files: both servers read this tree's (page 8 draws with them)
    os.environ.setdefault(minilm_files.ENV, str(minilm_files.folder()))
    with worktree(rev) as other, sync_playwright() as p:
        browser = launch(p)
        with Server(HOME) as ours, Server(HOME, root=other) as theirs:
            for label, path in pages(chosen):
                tail = f"{path}?{urllib.parse.quote(query, safe='=&')}" if query else path
                a, b = Timed(browser, f"{ours.url}/{tail}"), Timed(browser, f"{theirs.url}/{tail}")
                in_turn({b: b.timed, a: a.timed}, 1)  # untimed, in the order the timed rounds' second takes
                samples = in_turn({a: a.timed, b: b.timed}, edits, swap=True)
                out.append((label, samples[a], samples[b]))
                a.close()
                b.close()
        browser.close()
    return out


def report(rev: str, results: list[tuple]) -> str:
    """One Markdown table: per page and figure, the medians and the median paired ratio."""
    rows = []
    for label, ours, theirs in results:
        for i, figure in enumerate(("edit to redrawn charts", "main-thread time")):
            x, y = [s[i] for s in ours], [s[i] for s in theirs]
            paired = median([p / q for p, q in zip(x, y, strict=False)])
            rows.append([label, figure, f"{median(x) * 1e3:.1f} ms", f"{median(y) * 1e3:.1f} ms",
                         f"{median(x) / median(y):.2f}×", f"{paired:.2f}×"])
    return markdown(["page", "figure", "this tree", rev, "ratio of medians", "median paired ratio"], rows, "llrrrr")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--edits", type=int, default=EDITS)
    parser.add_argument("--pages", default="", help="comma-separated: home and page numbers (default: all)")
    parser.add_argument("--query", default="", help="URL parameters for every page of both trees")
    args = parser.parse_args()
    print(report(args.rev, compare(args.rev, args.edits, args.pages, args.query)))
