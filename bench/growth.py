"""Growth with sentence length: each page's rerun, its charts rebuilt, with every sentence 6, 16, 32 and 64 tokens."""
from bench.common import Row, cli, label, median, ratio, seconds

LENGTHS = (6, 16, 32, 64)
BUDGET = 2.0
TEXT = ("The black cat drank the milk while the small dog slept under the old wooden table in the quiet kitchen "
        "and the young girl read a long story about a brave sailor who crossed the wide sea to find a lost island "
        "where strange birds sang every morning and tall trees grew beside a clear river that ran down from the "
        "cold mountains toward the distant town")


def sentence(n: int) -> str:
    """The first n words of TEXT: n tokens, every one in the GloVe vocabulary."""
    words = TEXT.split()
    assert len(words) >= n, f"TEXT has only {len(words)} words"
    return " ".join(words[:n])


def forget() -> None:
    """Clear the caches a rerun could reuse, so that it builds its charts anew, as after an edit of the sentence."""
    import streamlit as st

    from kit import render, views

    st.cache_data.clear()
    render.forget()
    views.cells_of.cache_clear()


def run(quick: bool) -> list[Row]:
    """One row per page: its 64-token rerun next to its 6-token rerun, lengths interleaved round by round."""
    from bench.hostile import SENTENCE_FIELDS  # every sentence of every page, n tokens long
    from bench.pages import TIMEOUT, rounds
    from harness.apptest import PAGES, run_page

    runs = 3 if quick else 9
    lengths = (LENGTHS[0], LENGTHS[-1]) if quick else LENGTHS
    rows = []
    for page in [None] if quick else [None, *PAGES]:
        sessions = {n: run_page(page, dict.fromkeys(SENTENCE_FIELDS, sentence(n)), timeout=TIMEOUT) for n in lengths}
        for n, at in sessions.items():
            assert not at.exception, f"{page or 'home'} at {n} tokens raised: {at.exception[0].value}"
        wall, cpu = rounds(sessions, runs, forget)
        w, c = {n: median(v) for n, v in wall.items()}, {n: median(v) for n, v in cpu.items()}
        short, long = lengths[0], lengths[-1]
        steps = ", ".join(f"{n}: {seconds(m)}" for n, m in w.items())
        name = label(page)
        rows.append(Row(f"growth · {name}", "AppTest rerun, charts rebuilt, every sentence n tokens long, interleaved; "
                        f"median of {runs}; wall clock ({steps}; CPU time ratio {ratio(c[long], c[short])})",
                        f"{seconds(w[long])} at {long}", f"{seconds(w[short])} at {short}", ratio(w[long], w[short]),
                        f"≤ {BUDGET:g}× at {short}", max(w[long] / w[short], c[long] / c[short]) <= BUDGET,
                        {"wall_s": wall, "cpu_s": cpu}))
    return rows


if __name__ == "__main__":
    cli(run)
