"""Page 3's views: one (query, key) pair, dimension by dimension, and its four sign groups."""
import numpy as np
import streamlit as st

from dot.charts import sign_strips
from dot.tables import group_table, signs_table
from engine.alignment import PairAlignment, pair_alignment
from engine.relevance import length_angle, order_by
from kit import charts, render, tables
from kit.products import alignment_bars, alignment_frame, group_names, with_alignment_domains
from kit.text import plain, t, then


def compared(ctx) -> tuple[np.ndarray, np.ndarray]:  # -> [n, d_k] twice, or [n, d] twice
    """The rows the pair compares (Settings.pair_rows): the queries and the keys, or the words' own vectors."""
    return (ctx.att.q, ctx.att.k) if ctx.s.pair_rows == "qk" else (ctx.enc.embedding, ctx.enc.embedding)


def ranked(q_row: np.ndarray, k_rows: np.ndarray, i: int) -> tuple[list[int], np.ndarray]:  # [d], [n, d]
    """The other words than query i, best-scoring first, and the query's dot product with every word."""
    dots = length_angle(q_row, k_rows).dot
    return [j for j in order_by(dots) if j != i], dots


def default_keys(rows: list[str], others: list[int]) -> dict[str, str]:
    """The two keys first shown: the article's drank and black where present, else the best- and worst-scoring word."""
    return {"key": "drank" if "drank" in rows else rows[others[0]],
            "key2": "black" if "black" in rows else rows[others[-1]]}


def aligned(q_row: np.ndarray, key_rows: list[np.ndarray]) -> list[PairAlignment]:  # [d], k × [d]
    """Each (query, key) pair dimension by dimension."""
    return [pair_alignment(q_row, row) for row in key_rows]


def pair_products(pairs: list, q: str, keys: list[str], *, by_size: bool, fields: list[str], wheres: list):
    """Each (query, key) pair's products by dimension, coloured by sign group, with the running sum, side by side."""
    # on shared scales, so their bars and lines compare; each chart's CSV button keyed by its key's field
    frames = [alignment_frame(pair, by_size=by_size) for pair in pairs]
    shown_frames = with_alignment_domains(frames)
    for products, shown, k, field, where in zip(frames, shown_frames, keys, fields, wheres, strict=True):
        titles = charts.Titles(t("products_title", q=q, k=k), t("dim"), t("product"), group=t("group"),
                               running=t("running"))
        csv = render.Csv(f"dl_products_{field}", lambda df=products: df.to_csv(index=False))
        render.chart(alignment_bars, shown, titles=titles, group_names=group_names(), where=where,
                     save=render.Save(csv=csv))


def signs_view(q_row, key_rows: list, q: str, keys: list[str]):  # [d], 2 × [d]
    """The signs of q and of both keys, dimension by dimension, the query's strip between the two keys'."""
    # so that each key's signs sit next to the query's
    (k1, k2), (row1, row2) = keys, key_rows
    render.chart(sign_strips, signs_table([row1, q_row, row2], [f"k₁ · {k1}", f"q · {q}", f"k₂ · {k2}"]),
                 titles=charts.Titles(t("signs_title"), t("dim"), t("vector"), t("value")))


def pair_summary(pair, q: str, k: str, *, note: str, source: str, sign: str):
    """The pair's dot product, what its sign says (`sign`), its four sign groups' sums and the check they add up."""
    st.markdown(t("dot_pair_value", q=q, k=k, dot=pair.dot, agree=pair.agree, disagree=pair.dot - pair.agree)
                + then() + sign)
    groups = group_table(pair, group_names())
    st.dataframe(tables.styled(groups, {"sum": ".4f"}), hide_index=True, width="stretch", column_config={
        "group": t("group"), "dimensions": t("dimensions"), "sum": st.column_config.NumberColumn(t("group_sum"))})
    st.success(t("group_check", total=float(sum(pair.sums.values())), dot=pair.dot))
    st.caption(t(note, q=q, k=k, source=source))


def summaries(pairs: list[PairAlignment], q: str, keys: list[str], *, note: str, source: str, top: str, best: float):
    """Each pair's summary (pair_summary) in a column of its own, with what its sign says."""
    for where, k, pair in zip(st.columns(2, gap="large"), keys, pairs, strict=False):
        with where:
            pair_summary(pair, q, k, note=note, source=source, sign=pair_sign(pair.dot, q, k, top=top, best=best))


def pair_sign(dot: float, q: str, k: str, *, top: str, best: float) -> str:
    """Whether the same-sign dimensions won, what the sign says of the pair, and whether the top key scores above 0."""
    # `top`: the word the query attends to most, scored `best`; at or below 0, the sign says nothing with these weights
    said = t("signs_pair_above" if dot > 0 else "signs_pair_below" if dot < 0 else "signs_pair_zero",
             q=plain(q), k=plain(k))
    if best <= 0:
        said += then() + t("signs_row_below", q=plain(q), top=plain(top))
    return said
