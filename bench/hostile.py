"""Hostile input stays fast: every hostile sentence (harness/hostile.py) typed into every page's sentence box, each a
warm AppTest rerun of one session per page, timed; the row is the slowest. Run alone: python -m bench.hostile [--quick]
"""
import sys
import time

from bench.common import Row, seconds
from harness.apptest import PAGES, run_page
from harness.hostile import TEXTS
from ui.state import MAX_TEXT

BUDGET_S = 1.0  # a rerun the learner still reads as an answer to what they typed
QUICK_PAGES = ("pages/2_Factor_matrix.py",)
FIELD = {"pages/6_Three_kinds.py": "target_sentence"}  # the sentence box on the page itself; elsewhere the sidebar's


def rerun_s(at, field: str, text: str) -> float:
    """Wall-clock seconds of the rerun after typing `text` (as the box holds it) into `field`."""
    box = at.text_input(key=field)
    box.set_value(text[:MAX_TEXT])
    start = time.perf_counter()
    at.run()
    took = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"{field} = {text[:40]!r}: {at.exception[0].value}")
    return took


def run(quick: bool) -> list[Row]:
    """The slowest rerun of any hostile sentence on any page (home included), and where it was."""
    pages = QUICK_PAGES if quick else (None, *PAGES)
    times = {}
    for page in pages:
        at = run_page(page)
        for name, text in TEXTS.items():
            times[(page or "home.py", name)] = rerun_s(at, FIELD.get(page, "sentence"), text)
            rerun_s(at, FIELD.get(page, "sentence"), "The black cat drank the milk")  # back, so each case is a change
    (page, name), worst = max(times.items(), key=lambda item: item[1])
    label = page.removeprefix("pages/").removesuffix(".py").replace("_", " ")
    return [Row("hostile input · slowest rerun", f"each of {len(TEXTS)} hostile sentences typed on "
                f"{len(pages)} page(s), a warm AppTest rerun each ({len(times)} in all); the slowest: “{name}” on "
                f"{label}", seconds(worst), f"median {seconds(sorted(times.values())[len(times) // 2])}", "—",
                f"≤ {BUDGET_S:g} s", worst <= BUDGET_S, {"s": {f"{p} · {n}": t for (p, n), t in times.items()}})]


if __name__ == "__main__":
    from bench.common import table
    print(table(run("--quick" in sys.argv)))
