"""Numbers as the charts write them (d3-format): the true minus sign "−" in texts (kit.text) and in the tables a page
shows (kit.tables.styled)."""
import numpy as np
import pandas as pd
import pytest

from kit import tables
from kit.text import NUMBERS, in_language, number, signed, t


@pytest.mark.parametrize("written, shown", [
    ("-8.1792", "−8.1792"), ("  -1.00", "  −1.00"), ("-3", "−3"), ("-5%", "−5%"), ("-inf", "−inf"),
    ("-4.2e-17", "−4.2e-17"), ("4.2e-17", "4.2e-17"),  # an exponent keeps its "-", as in the charts
    ("-0.0000", "0.0000"), ("-0", "0"),  # rounded to zero: no sign, as in the charts
    ("+2", "+2"), ("0.5", "0.5"), ("—", "—")])
def test_a_written_number_gets_the_true_minus_sign(written, shown):
    assert signed(written) == shown


def test_a_text_writes_its_numeric_fields_with_the_true_minus_sign_and_leaves_other_fields_alone():
    text = NUMBERS.format("{id} {word} {date} q·k = {dot:.4f} ({offset:+d}) {n} {half:g} {f32:.2f} {up:+.1f} {flag}",
                          id="n01-002-3", word="-LRB-", date="2024-01-02", dot=-8.17923, offset=np.int64(-3), n=-7,
                          half=-0.5, f32=np.float32(-3.72), up=1.25, flag=True)
    assert text == "n01-002-3 -LRB- 2024-01-02 q·k = −8.1792 (−3) −7 −0.5 −3.72 +1.2 True"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_t_writes_a_negative_number_with_the_true_minus_sign(lang):
    with in_language(lang):
        said = t("dot_pair_value", q="a-b", k="x", dot=-8.17923, agree=1.5, disagree=-9.67923)
    assert "−8.1792" in said and "+1.5000" in said and "−9.6792" in said and "a-b" in said
    assert "-8" not in said and "-9" not in said


def test_a_number_written_outside_a_text_gets_the_true_minus_sign():
    assert number(-0.5, ".3f") == "−0.500" and number(np.float64(2), ".2f") == "2.00" and number(-3) == "−3"


def test_a_styled_table_shows_its_numbers_with_the_true_minus_sign_and_keeps_them_numbers():
    df = pd.DataFrame({"group": ["(−,−) both negative", "a-b"], "dimensions": [9, 3], "sum": [-5.67456, 0.25],
                       "offset": ["-2", "+1"], "id": ["x-1", "-LRB-"]})
    styler = tables.styled(df, {"sum": ".4f", "offset": ""})
    rows = [line.split("\t") for line in styler.hide().to_string(delimiter="\t").splitlines()[1:]]
    assert rows == [["(−,−) both negative", "9", "−5.6746", "−2", "x-1"], ["a-b", "3", "0.2500", "+1", "-LRB-"]]
    assert styler.data["sum"].tolist() == [-5.67456, 0.25]  # what st.dataframe sorts by
