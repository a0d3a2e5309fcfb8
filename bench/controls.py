"""A page's own controls, each running its page's part alone, timed from the change to the redrawn charts."""
import functools
from collections.abc import Callable
from dataclasses import dataclass

from bench.probe import Interaction, interaction, settle

# a guess is given once per view: a sentence of many words gives views enough to time
GUESSED = ("black", "cat", "drank", "warm", "milk", "slowly", "in", "kitchen")
LONGER = "predict=1&sentence=The+black+cat+drank+the+warm+milk+slowly+in+the+kitchen"
# page 5 follows a word of its last run's results only when the targets name two query words
TWO_QUERIES = "targets=milk+drank+1%3B+milk+black+0%3B+cat+drank+1%3B+cat+milk+0&steps=40"
Action = Callable[[object, int], Callable[[], None]]  # (page, the use's number from 1) -> what commits the use


def select(label: str, first: str, second: str) -> Action:
    """The selectbox `label`, `second` on odd uses and `first` on even ones, typed: the timed use is Enter."""
    def use(page, n: int):
        box = page.get_by_role("combobox", name=label, exact=True)
        box.scroll_into_view_if_needed()  # the page scrolls in a box of its own, which a click does not scroll
        box.click()
        page.keyboard.type(second if n % 2 else first)
        page.get_by_role("option", name=second if n % 2 else first, exact=True).wait_for()
        return lambda: page.keyboard.press("Enter")
    return use


def keyed(find: Callable[[object, int], object], key: str) -> Action:
    """The element find(page, n) focused before the use is timed, which is pressing `key` on it."""
    def use(page, n: int):
        found = find(page, n)
        found.scroll_into_view_if_needed()
        found.focus()
        return lambda: page.keyboard.press(key)
    return use


def role(kind: str, key: str, first: str, second: str = "") -> Action:
    """The element of ARIA role `kind` called `first` (`second` on odd uses, where given), used with `key`."""
    return keyed(lambda page, n: page.get_by_role(kind, name=second if second and n % 2 else first, exact=True), key)


def tab(first: int, second: int) -> Action:
    """Two of the page's tabs, in turn, with Enter."""
    return keyed(lambda page, n: page.locator("[data-testid=stMain] [role=tab]").nth(second if n % 2 else first),
                 "Enter")


def guess(words: tuple[str, ...]) -> Action:
    """The predict-first guess on a view not guessed yet (query word words[n], another word): the use is Check."""
    def chosen(page, n: int):
        q = words[n % len(words)]
        select("Query word", q, q)(page, n)()
        settle(page)
        answer = next(w for w in words if w != q)
        page.locator("[data-testid=stRadio]").get_by_text(answer, exact=True).click()
        return page.get_by_role("button", name="Check", exact=True)
    return keyed(chosen, "Enter")


def trained(page) -> None:
    """Page 5's Train pressed and the run's results drawn."""
    page.get_by_role("button", name="Train", exact=True).click()
    page.get_by_role("combobox", name="Query word", exact=True).wait_for(timeout=120_000)
    settle(page)


@dataclass(frozen=True)
class PageControl:
    """A page-local control: its row's label, its page's URL path and link, what is done before its first use, a use."""
    label: str
    path: str
    use: Action
    link: str = ""
    before: Callable[[object], None] | None = None


CONTROLS = (
    PageControl("2 · query word", "Factor_matrix", select("Query word", "milk", "cat")),
    PageControl("2 · divide by √d_k", "Factor_matrix", role("switch", "Space", "Divide by √d_k")),
    PageControl("2 · softmax", "Factor_matrix", role("switch", "Space", "Softmax along each row")),
    PageControl("2 · the guess, predict first", "Factor_matrix", guess(GUESSED), link=LONGER),
    PageControl("3 · query word", "Dot_product", select("Query word", "milk", "cat")),
    PageControl("3 · key word", "Dot_product", select("Key word", "drank", "cat")),
    PageControl("3 · order of the dimensions", "Dot_product",  # a segmented control's two options, in turn
                role("radio", "Space", "by dimension", "largest product first")),
    PageControl("4 · query word", "Relevance", select("Query word", "milk", "cat")),
    PageControl("5 · word the results follow", "Learning", select("Query word", "cat", "milk"), link=TWO_QUERIES,
                before=trained),
    PageControl("6 · tab", "Three_kinds", tab(0, 1)),
    PageControl("6 · heads", "Three_kinds", select("Heads", "1", "2")),
    PageControl("7 · another held-out sentence", "Real_sentences",
                role("button", "Enter", "Another held-out sentence")),
    PageControl("8 · head shown large", "Real_model", select("Head shown large", "L1-H1", "L1-H2")),
)
PART = PageControl("the query word in a part of one chart", "", select("Query word", "milk", "cat"))  # bench/floor


class Control(Interaction):
    """One open page and one of its own controls (a PageControl), used back and forth, twice untimed first."""

    def __init__(self, browser, url: str, control: PageControl):
        self.spec = control
        super().__init__(browser, f"{url}/{control.path}" + (f"?{control.link}" if control.link else ""))
        # The second untimed use goes back to the first choice: the uses wait for the charts both choices change, not
        # one that changed only on the first (a page's default drawn once) nor one that a choice adds (page 6's heads).
        before, settled, after = self.rehearsal(1)
        self.charts = min(self.charts, settled)
        self.changed = [i for i in self.changed if i < min(len(before), len(after), self.charts)
                        and after[i] != before[i]]

    def setup(self) -> None:
        if self.spec.before is not None:
            self.spec.before(self.page)
            self.charts = settle(self.page)
        self.box, self.control = None, self.spec.label

    def prepare(self):
        self.runs += 1
        return self.spec.use(self.page, self.runs)


def measured(browser, hello: Interaction, url: str, runs: int, controls=CONTROLS) -> list[tuple]:
    """bench.probe.interaction's figures of each control on the dashboard at `url`, `runs` uses each."""
    return [interaction(browser, hello, control.label, url, runs, functools.partial(Control, control=control))
            for control in controls]
