"""Page 8's model on a shared server: a bystander while ten visitors retype on page 8; a class on the 690 MB tier."""
import asyncio

from bench import capacity
from bench.clients import PERIOD_S, Requester, Student, close_all, open_all, rerun_with, to_page, visit
from bench.common import Row, errors, p50_p95, quantile, seconds
from bench.servers import HOME, Peak, Server

VISITORS, WORDS = 10, 63  # page-8 visitors retyping; words of each sentence (engine.tokens: at most 64)
P50_RATIO, P95_RATIO, HEADROOM_MB, TIER_MB = 1.5, 2.0, 100, 690
CLASS, ON_MODEL = 30, 10
SETTLE_S = 20.0  # after the class leaves, how long before the settled RSS is read (the ledger's sweep, collections)


def two_piece_words(limit: int = 400) -> list[str]:
    """Words of the built-in vectors, from the 5,000th on, that the model cuts into exactly two pieces."""
    from engine import minilm, sources

    model, words = minilm.load(), []
    for word in sources.load_glove(60000).index_to_key[5000:]:
        if word.isalpha() and len(minilm.pieces(model, [word]).ids) == 4:
            words.append(word)
            if len(words) == limit:
                break
    return words


def retyping(visitors: list[Requester], pool: list[str], done: asyncio.Event) -> list[asyncio.Task]:
    """Each visitor that opened types WORDS words of `pool` every PERIOD_S s until `done`, each time till drawn."""
    def longest(v: Requester):
        return lambda: rerun_with(v.widget, string_value=" ".join(v.rng.choice(pool) for _ in range(WORDS)))
    return [asyncio.create_task(v.again("page 8", longest(v), done, PERIOD_S, 120))
            for v in visitors if v.ws is not None]


async def bystander_window(bystander: Student, span: float, server: Server) -> dict:
    """The bystander edits every PERIOD_S seconds for `span` seconds; its latencies and the server's peak RSS."""
    with Peak(server.rss_mb) as peak:
        edits = await capacity.window([bystander], span, [server.proc.pid])
    return {"latencies": edits.latencies, "peak_mb": peak.mb}


async def model_fairness(server: Server, window: float) -> dict:
    """A bystander on page 3 edits alone, then while VISITORS visitors retype on page 8; the server's memory."""
    url, pool = server.url, two_piece_words()
    await visit(url, 99, "Real_model")  # page 8 once: the model loaded, as on any server where it was visited
    bystander = Student(url, 7)
    await bystander.open()
    await to_page(bystander, "Dot_product")
    idle_mb = server.rss_mb()
    alone = await bystander_window(bystander, window, server)
    visitors = [Requester(url, 4000 + i) for i in range(VISITORS)]
    errors = await open_all(visitors, "Real_model")
    done = asyncio.Event()
    typing = retyping(visitors, pool, done)
    await asyncio.sleep(PERIOD_S)  # every visitor has typed once
    busy = await bystander_window(bystander, window, server)
    done.set()
    await asyncio.gather(*typing)
    await close_all([bystander, *visitors])
    return {"idle_mb": idle_mb, "alone": alone, "busy": busy, "drawn_s": sorted(t for v in visitors for t in v.drawn),
            "errors": errors + [e for s in [bystander, *visitors] for e in s.errors]}


def fairness_row(server: Server, window: float, budget_mb: float, judged: bool) -> Row:
    """The bystander's p50 and p95 against its own alone, and the peak RSS against idle + budget + HEADROOM_MB."""
    v = asyncio.run(model_fairness(server, window))
    alone, busy, peak = v["alone"]["latencies"], v["busy"]["latencies"], v["busy"]["peak_mb"]
    p50 = quantile(busy, 0.5) / quantile(alone, 0.5)
    p95 = quantile(busy, 0.95) / quantile(alone, 0.95)
    bound = v["idle_mb"] + budget_mb + HEADROOM_MB
    drawn = v["drawn_s"]
    how = (f"a bystander on page 3 edits the sentence every {PERIOD_S:g} s for {window:g} s alone "
           f"({len(alone)} edits), then as long again while {VISITORS} visitors on page 8 each type a new "
           f"sentence of {WORDS} words ({2 * WORDS + 2} word pieces, the most the page reads) every {PERIOD_S:g} s "
           f"and wait for its page ({len(busy)} edits; {len(drawn)} page-8 pages drawn, typing → drawn "
           f"median {seconds(quantile(drawn, 0.5))}, p95 {seconds(quantile(drawn, 0.95))}); RSS idle (page 8 "
           f"visited once) {v['idle_mb']:.0f} MB, peak alone {v['alone']['peak_mb']:.0f} MB, peak with page 8 "
           f"{peak:.0f} MB; {errors(v)}")
    ok = p50 <= P50_RATIO and p95 <= P95_RATIO and peak <= bound and not v["errors"]
    return Row(f"hosting · bystander's edit while {VISITORS} visitors retype on page 8", how,
               f"{p50_p95(busy)}; peak {peak:.0f} MB", f"alone {p50_p95(alone)}", f"{p50:.2f}× p50, {p95:.2f}× p95",
               f"≤ {P50_RATIO:g}× p50, ≤ {P95_RATIO:g}× p95; peak ≤ idle + {budget_mb:.0f} + {HEADROOM_MB} MB "
               f"({bound:.0f} MB)", ok if judged else None, v)


async def class_on_tier(server: Server, span: float) -> dict:
    """CLASS students edit for `span` s, ON_MODEL of them retyping on page 8; peak RSS, then settled once gone."""
    url, pool = server.url, two_piece_words()
    idle_mb = server.rss_mb()
    students = [Requester(url, 5000 + i) for i in range(CLASS)]
    errors = await open_all(students)
    model, home = students[:ON_MODEL], [s for s in students[ON_MODEL:] if s.ws is not None]
    await asyncio.gather(*(to_page(s, "Real_model") for s in model if s.ws is not None))
    done = asyncio.Event()
    with Peak(server.rss_mb) as peak:
        typing = retyping(model, pool, done)
        edits = await capacity.window(home, span, [server.proc.pid])
        done.set()
        await asyncio.gather(*typing)
    await close_all(students)
    await asyncio.sleep(SETTLE_S)
    return {"idle_mb": idle_mb, "peak_mb": peak.mb, "settled_mb": server.rss_mb(),
            "edits": edits.edits, "drawn": sum(len(s.drawn) for s in model),
            "errors": errors + [e for s in students for e in s.errors]}


def tier_row(server: Server, window: float, budget_mb: float, judged: bool) -> Row:
    """A class of CLASS, ON_MODEL on page 8: peak and settled RSS against the TIER_MB tier."""
    v = asyncio.run(class_on_tier(server, window))
    how = (f"{CLASS} students on one process with ATTENTION_UPLOAD_BUDGET_MB={budget_mb:.0f}: {CLASS - ON_MODEL} edit "
           f"the home page's sentence every {PERIOD_S:g} s ({v['edits']} edits) while {ON_MODEL} retype {WORDS}-word "
           f"sentences on page 8 ({v['drawn']} pages drawn) for {window:g} s; RSS of the server process before "
           f"{v['idle_mb']:.0f} MB, peak {v['peak_mb']:.0f} MB, {SETTLE_S:g} s after they left "
           f"{v['settled_mb']:.0f} MB; {errors(v)}")
    ok = v["peak_mb"] <= TIER_MB and not v["errors"]
    return Row(f"hosting · a class of {CLASS}, {ON_MODEL} on page 8, on the {TIER_MB} MB tier", how,
               f"peak {v['peak_mb']:.0f} MB, settled {v['settled_mb']:.0f} MB", f"tier {TIER_MB} MB",
               f"{v['peak_mb'] / TIER_MB:.2f}× tier", f"peak ≤ {TIER_MB} MB", ok if judged else None, v)


def model_rows(window: float, judged: bool, only: set[str]) -> list[Row]:
    """The page-8 rows, each on a fresh server: fairness at the default budget, the class at the tier's budget."""
    from server import ledger

    rows = []
    if "model" in only:
        with Server(HOME) as server:
            rows.append(fairness_row(server, window, ledger.budget() / 2**20, judged))
    if "tier" in only:
        tier_budget = 250
        with Server(HOME, env={ledger.BUDGET_ENV: str(tier_budget)}) as server:
            rows.append(tier_row(server, window, tier_budget, judged))
    return rows

