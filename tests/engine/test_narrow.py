"""Charts fit a phone: long titles get lines for a narrow box and stay one line elsewhere; legends wrap."""
import json

import pytest

from kit import narrow

LONG = {"en": "Signs of q and of both keys, dimension by dimension (blue +, red −)",
        "zh": "各关系中把最多注意力放在中心词上的词所占比例"}


@pytest.mark.parametrize("lang", LONG)
def test_a_long_title_breaks_into_even_lines_each_narrow_enough_for_a_phone(lang):
    text = LONG[lang]
    lines = narrow.balanced(text)
    assert len(lines) == 2 and all(narrow.text_px(line) <= narrow.LINE_PX for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost, nothing added
    assert abs(narrow.text_px(lines[0]) - narrow.text_px(lines[1])) < narrow.text_px(text) / 2  # no lone last word


def test_chinese_breaks_between_characters_but_never_before_closing_punctuation():
    for line in narrow.lines("训练的起点（当前使用的权重）：“milk” 与各词，然后逐步更新", 120)[1:]:
        assert line[0] not in "，。：；、）」』”’)]", line


def test_the_browser_picks_the_lines_in_a_narrow_box_and_one_line_elsewhere_or_in_a_file():
    text = LONG["en"]
    expr = narrow.fitted(text)["expr"]
    test, choices = expr.split(" ? ")
    lines, one_line = choices.rsplit(" : ", 1)
    assert test.startswith("containerSize()[0] > 0 && containerSize()[0] < ")  # no box (a saved file): one line
    assert json.loads(lines) == narrow.balanced(text) and json.loads(one_line) == text
    assert narrow.fitted("Factor matrix F = Q·Kᵀ") == "Factor matrix F = Q·Kᵀ"


def test_titles_of_a_chart_and_its_parts_are_fitted_and_axis_titles_are_left_alone():
    long = LONG["en"]
    spec = {"title": long, "vconcat": [{"title": {"text": long, "anchor": "end"}, "mark": "bar",
                                        "encoding": {"x": {"field": "a", "title": long}}}]}
    fitted = narrow.fit_titles(spec)
    assert fitted["title"]["text"] == narrow.fitted(long)
    assert fitted["vconcat"][0]["title"] == {"text": narrow.fitted(long), "anchor": "end"}
    assert fitted["vconcat"][0]["encoding"]["x"]["title"] == long
    assert narrow.fit_titles({"title": "Short"}) == {"title": "Short"}


def test_a_legend_takes_as_many_columns_as_its_box_holds_and_all_of_them_in_a_file():
    assert narrow.columns(8, 85).to_dict() == {
        "expr": "containerSize()[0] > 0 ? clamp(floor(containerSize()[0] / 85), 1, 8) : 8"}
