"""Page 4's views: the expected order read from the learner's text, whether each measure meets it, every key's rank
under each measure, and which word each word attends to most."""
import numpy as np
import streamlit as st

from engine.attention import Attention, one_key, top_keys
from engine.pipeline import Encoded
from engine.relevance import degrees, in_order, raw_scores
from kit import render, tables
from kit.charts import Titles, relevance_bars
from kit.text import number, plain, t, then
from kit.views import download_table, score_name, span
from relevance.tables import ranking_table

SHORT = {"dot": "measure_dot_short", "cosine": "measure_cosine_short"}  # column names; Q·K's is its score's name


def partners(att: Attention, labels: list[str]):
    """Which word each word attends to most, and whether they differ (relevance of the pair) or not (of one key)."""
    tops = top_keys(att)
    pairs = t("list_sep").join(f"“{plain(labels[i])}” → “{plain(labels[j])}”" for i, j in enumerate(tops))
    same = one_key(tops)
    st.markdown(t("relevance_pairs", pairs=pairs) + then() + (
        t("relevance_pairs_differ") if same is None else t("relevance_pairs_same", k=plain(labels[same]))))


def takeaway_view(cosine: np.ndarray, keys: list[str], att: Attention, labels: list[str], *, story: bool):  # [n]
    """What to take away (takeaway), then which word each word attends to most (partners)."""
    st.subheader(t("takeaway_title"))
    st.markdown(takeaway(cosine, keys, story=story))
    partners(att, labels)


def takeaway(cosine: np.ndarray, keys: list[str], *, story: bool) -> str:  # [n] raw cos θ of the query and each key
    """What to take away: how much closer “milk” points to “drank” than to the others, or what vectors carry."""
    # the first, in degrees, on the story sentence with GloVe; elsewhere what pretrained vectors carry in general
    deg = degrees(cosine)
    if not story or int(np.argmin(deg)) != keys.index("drank"):  # other vectors may put another word closest
        return t("relevance_takeaway_other")
    return t("relevance_takeaway", deg=deg[keys.index("drank")], degs=span(deg, keys.index("drank"), "{:.0f}°"))


def scores(enc: Encoded, att: Attention, i: int, others: list[int]) -> dict[str, np.ndarray]:  # -> each [len(others)]
    """Query i's relevance to each other word, measured on the vectors' own rows (dot product, cosine), then as Q·K."""
    return raw_scores(enc.embedding, i, others) | {"qk": att.scores[i, others]}


def measure_names(source: str, *, scaled: bool) -> dict[str, str]:
    """The three measures' names: the vectors' own dot product and cosine, and Q·K (scaled or not)."""
    return {"dot": t("measure_dot", source=source), "cosine": t("measure_cosine", source=source),
            "qk": t("measure_qk_scaled" if scaled else "measure_qk")}


def bars(scores: dict[str, np.ndarray], names: dict[str, str], keys: list[str], source: str, *, scaled: bool):
    """Each measure's scores of the keys as bars, side by side, and a caption on what the measures are."""
    for where, m in zip(st.columns(len(scores)), scores, strict=False):
        axis = score_name(scaled) if m == "qk" else t("score")
        render.chart(relevance_bars, tables.relevance_table({m: scores[m]}, keys), where=where,
                     titles=Titles(names[m], axis, t("word"), rank=t("rank")))
    st.caption(t("relevance_note", source=source))


def verdicts(scores: dict[str, np.ndarray], names: dict[str, str], keys: list[str], order: list[str]):
    """For each measure, whether its scores put the keys in the expected order, with the numbers."""
    pos = [keys.index(x) for x in order]
    shown = " > ".join(f"“{x}”" for x in order)
    for m, v in scores.items():
        values = t("list_sep").join(f"“{x}” {number(y, '.3f')}" for x, y in zip(order, v[pos], strict=False))
        met = in_order(v[pos])
        (st.success if met else st.warning)(t("verdict_met" if met else "verdict_missed", measure=names[m],
                                              order=shown, values=values))


def ranking(scores: dict[str, np.ndarray], names: dict[str, str], keys: list[str], q: str, *, scaled: bool):
    """Every key's score and rank under each measure, side by side, with its download."""
    st.subheader(t("ranking", q=q))
    table = ranking_table(scores, keys)
    shown = tables.styled(table, dict.fromkeys(names, ".3f"))
    st.dataframe(shown, hide_index=True, width="stretch", column_config=ranking_columns(names, scaled))
    shown = t("item_sep").join(t("ranking_name", short=short_name(m, names, scaled), name=names[m]) for m in scores)
    st.caption(t("ranking_legend", columns=shown))
    download_table(table, t("file_ranking"), key="ranking")


def ranking_columns(names: dict[str, str], scaled: bool) -> dict:
    """The ranking table's column settings: each measure's score under a short name, then its rank as "#"."""
    # short names, so that seven columns fit a phone's width; the full names are in each column's help and in the
    # caption below the table
    config = {"word": t("word")}
    for m, name in names.items():
        config[m] = st.column_config.NumberColumn(short_name(m, names, scaled), help=name)  # tables.styled: ".3f"
        config[f"{m}_rank"] = st.column_config.NumberColumn(t("rank_short"), format="%d",
                                                            help=f"{t('rank')} · {name}")
    return config


def short_name(m: str, names: dict[str, str], scaled: bool) -> str:
    """A measure's short column name: Q·K's is its score's name (score_name), another's its short or full name."""
    if m == "qk":
        return score_name(scaled)
    return t(SHORT[m]) if m in SHORT else names[m]




def expected_order(text: str, tokens: list[str], labels: list[str], query: str) -> list[str] | None:
    """The row labels named in 'drank > cat > black', or None after telling the learner what is wrong."""
    names = [w.strip().lower() for w in text.split(">")]
    if len(names) < 2 or not all(names):
        st.warning(t("order_format"))
        return None
    order = []
    for name in names:
        found = [label for token, label in zip(tokens, labels, strict=False) if name in (token, label.lower())]
        if len(found) > 1:
            problem = t("order_ambiguous", word=name, labels=" / ".join(f"“{x}”" for x in found))
        elif not found:
            words = t("list_sep").join(f"“{x}”" for x in labels if x != query)
            problem = t("order_unknown", word=name[:40], words=words)
        elif found[0] == query:
            problem = t("order_query", word=name)
        elif found[0] in order:
            problem = t("order_repeated", word=name)
        else:
            order.append(found[0])
            continue
        st.warning(problem)
        return None
    return order
