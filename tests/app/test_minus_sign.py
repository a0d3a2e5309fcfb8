"""One minus sign everywhere: the tables of pages 2 to 4 write a negative number with the true minus sign "−", as
the charts do, while their columns still hold numbers."""
import json
import re

import pytest
from streamlit import dataframe_util

from kit.text import t
from tests.apptest_helpers import run_page

FACTOR, DOT, RELEVANCE = "pages/2_Factor_matrix.py", "pages/3_Dot_product.py", "pages/4_Relevance.py"
HYPHEN = re.compile(r"(?<![eE\w])-\d")  # an ASCII "-" before a digit, not an exponent's nor inside a word


def formats(element) -> dict[str, str]:
    """Each column's own NumberColumn format, where it has one (st.dataframe; st.table has none)."""
    if element.type != "dataframe":
        return {}
    columns = json.loads(element.proto.columns)
    return {c: f for c, v in columns.items() if (f := v.get("type_config", {}).get("format"))}


def cells(element) -> dict[str, list[str]]:
    """Each column's cells as the browser writes them: the Styler's display value the page passed, unless the column
    is a number with a format of its own (then the browser writes the value in that format, printf-style)."""
    raw, own = element.value, formats(element)
    shown = element.proto.arrow_data.styler.display_values
    display = dataframe_util.convert_arrow_bytes_to_pandas_df(shown) if shown else None
    out = {}
    for c in raw.columns:
        if c in own or display is None:
            out[c] = [own[c] % v if "%" in own.get(c, "") else str(v) for v in raw[c]]
        else:
            out[c] = display[c].tolist()
    return out


def tables(at) -> list:
    """Every table on the page: data grids and static tables."""
    return list(at.dataframe) + list(at.table)


@pytest.mark.parametrize("page", [FACTOR, DOT, RELEVANCE])
def test_no_table_writes_a_hyphen_for_a_minus(page):
    at = run_page(page)
    assert not at.exception and tables(at)
    for element in tables(at):
        for column, written in cells(element).items():
            assert not [w for w in written if HYPHEN.search(w)], (page, column, written)


def test_the_sign_groups_write_a_negative_sum_with_the_minus_sign_and_keep_it_a_number():
    at = run_page(DOT)
    groups = at.dataframe[0]
    raw, written = groups.value, cells(groups)
    assert raw["sum"].dtype.kind == "f" and "format" not in json.loads(groups.proto.columns)["sum"].get(
        "type_config", {})  # a format of its own would hide the display values
    negative = [i for i, v in enumerate(raw["sum"]) if v < 0]
    assert negative and t("group_+-") in raw["group"].tolist()
    for i in negative:
        assert written["sum"][i] == f"−{abs(raw['sum'][i]):.4f}"


def test_the_softmax_table_writes_a_negative_score_with_the_minus_sign():
    at = run_page(FACTOR)
    (table,) = [x for x in at.table if t("signs_shift_before") in x.value.columns]
    score = t("qk_scaled")
    raw, written = table.value[score], cells(table)[score]
    assert (raw < 0).any()
    assert [w for v, w in zip(raw, written, strict=True) if v < 0] == [f"−{-v:.4f}" for v in raw if v < 0]
