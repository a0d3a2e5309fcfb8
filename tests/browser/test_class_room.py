"""A class the room can follow, end to end in headless Chromium: a teacher and three students (English at 1440 px,
Chinese, a 390 × 844 phone) in browser contexts of their own. Every screen shows the question's sentence with the
query's word marked, large; answers go with Send; after two questions, one answer changed, the teacher ends the class
(its code and QR code go) and the CSV has a row per answer given, with the sentence and the right answer."""
import csv
import io
import os
import re
from pathlib import Path

from kit.text import in_language, t
from tests import browser_helpers as b
from tests.browser.test_class import metric

SHOTS = Path(os.environ.get("CLASS_SHOTS", "/tmp/shots45"))
WIDE = {"width": 1440, "height": 900}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
STUDENTS = (("Ana", "en", {"viewport": WIDE}), ("小明", "zh", {}), ("Bo", "en", PHONE))
SENTENCE = "the black cat drank the milk"
FIRST = "the black cat drank the (5) milk"  # the second "the" marked, by its label


def text_in(lang: str, key: str, **values) -> str:
    with in_language(lang):
        return t(key, **values)


def shot(page, name: str) -> Path:
    """The whole page at its own width as SHOTS/<name>.png."""
    return b.screenshot(page, name, SHOTS)


def sentence_shown(page, query: str, shown: str) -> None:
    """The page shows the sentence as `shown` in large type within the screen's width, the query's word marked."""
    line = page.locator("p.class-sentence")
    line.wait_for()
    b.settle(page)
    assert line.locator("mark").inner_text() == query
    assert re.sub(r"\s+", " ", line.inner_text()).strip() == shown
    box, width = line.bounding_box(), page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)
    assert float(line.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 28


def answer(page, lang: str, word: str) -> None:
    """The student picks `word`, presses Send and sees it sent."""
    page.locator("[data-testid=stRadio] label").filter(has_text=re.compile(rf"^{re.escape(word)}$")).click()
    page.get_by_role("button", name=text_in(lang, "class_send")).click()
    page.get_by_text(text_in(lang, "class_sent", answer=word)).wait_for()


def answered(teacher, n: int) -> None:
    label = text_in("en", "class_answered")
    teacher.wait_for_function(
        "([label, n]) => [...document.querySelectorAll('[data-testid=stMetric]')].some(m => "
        "m.innerText.includes(label) && m.querySelector('[data-testid=stMetricValue]').innerText.trim() === n)",
        arg=[label, str(n)], timeout=b.TIMEOUT_MS)


def ask(teacher, base: str, query: str, key: str) -> None:
    """The teacher opens page 2 on `query` with predict first and asks the class (a new one, or next)."""
    b.visit(teacher, f"{base}/{b.url_path('pages/2_Factor_matrix.py')}?predict=1&query={query}")
    b.rerun(teacher, lambda: teacher.get_by_role("button", name=text_in("en", key)).click())
    teacher.locator("p.class-sentence").wait_for()


def join(chromium, link: str, nickname: str, lang: str, options: dict):
    page = b.new_page(chromium, **options)
    b.visit(page, f"{link}&lang={lang}")
    page.get_by_role("textbox", name=text_in(lang, "class_nickname")).fill(nickname)
    b.rerun(page, lambda: page.get_by_role("button", name=text_in(lang, "class_join")).click())
    return page


def test_a_class_of_three_follows_two_questions_and_the_csv_has_every_answer_given(chromium, app_url, tmp_path):
    teacher = b.new_page(chromium, viewport=WIDE)
    pages = [teacher]
    try:
        ask(teacher, app_url, "the+%285%29", "class_ask")
        link = teacher.locator("[data-testid=stCode]").inner_text().strip()
        sentence_shown(teacher, "the (5)", FIRST)
        pages += [join(chromium, link, name, lang, options) for name, lang, options in STUDENTS]
        revealed = first_question(teacher, pages[1:])
        ask(teacher, app_url, "cat", "class_ask_next")
        for page, (_, lang, _), word in zip(pages[1:], STUDENTS, ("drank", "black", "drank"), strict=True):
            page.get_by_text(text_in(lang, "predict_ask", q="cat")).wait_for()  # moved on without a reload
            sentence_shown(page, "cat", SENTENCE)
            answer(page, lang, word)
        answered(teacher, 3)
        rows = end_and_download(teacher, link, tmp_path)
        assert [(r["question_no"], r["nickname"], r["answer"]) for r in rows] == [
            ("1", "Ana", "drank"), ("1", "小明", "cat"), ("1", "Bo", "milk"), ("1", "小明", "drank"),
            ("2", "Ana", "drank"), ("2", "小明", "black"), ("2", "Bo", "drank")]
        assert {(r["question_no"], r["sentence"], r["query"]) for r in rows} == {
            ("1", SENTENCE, "the (5)"), ("2", SENTENCE, "cat")}
        for r in rows:
            assert r["right_answer"] and r["right"] == str(r["answer"] == r["right_answer"]), r
            assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", r["time_utc"])
            assert 0 <= float(r["seconds_since_question"]) <= float(r["seconds_since_class_opened"]), r
        (right,) = {r["right_answer"] for r in rows if r["question_no"] == "1"}
        assert text_in("en", "class_answer", order=f"“{right}”") in revealed  # the answer the room was shown
        pages[1].get_by_text(text_in("en", "class_ended")).wait_for()
        for page in pages:
            assert b.problems(page) == []
    finally:
        for page in pages:
            b.leave(page)


def first_question(teacher, students: list) -> str:
    """Every student sees the question with its sentence and answers, one changes their answer, the teacher reveals
    and every screen shows the sentence still (screenshots of each, asking and revealed): what the first student's
    page said once revealed."""
    for page, (_, lang, _) in zip(students, STUDENTS, strict=True):
        page.get_by_text(text_in(lang, "predict_ask", q="the (5)")).wait_for()  # the question, with its sentence
        sentence_shown(page, "the (5)", FIRST)
        assert not page.locator("[data-testid=stSidebar] input[type=text]").count()  # no story sentence box
    for page, (_, lang, _), word in zip(students, STUDENTS, ("drank", "cat", "milk"), strict=True):
        answer(page, lang, word)
    answer(students[1], "zh", "drank")  # changed before the reveal: a second row in the CSV
    answered(teacher, 3)
    names = ("student-en-1440", "student-zh", "student-phone-390x844")
    for page, name in zip((*students, teacher), (*names, "teacher"), strict=True):
        shot(page, f"{name}-asking")
        assert b.overflow(page) == [], name  # nothing past the window or out of its chart, phone and laptop alike
    teacher.get_by_role("button", name=text_in("en", "class_reveal")).click()
    for page, (_, lang, _) in zip(students, STUDENTS, strict=True):
        page.get_by_text(re.compile(re.escape(text_in(lang, "class_answer", order="“")[:-1]))).first.wait_for()
        b.charts(page).first.locator("svg, canvas").first.wait_for()
        sentence_shown(page, "the (5)", FIRST)
    b.charts(teacher).first.locator("svg, canvas").first.wait_for()
    revealed = students[0].locator("[data-testid=stMain]").inner_text()
    for page, name in zip((*students, teacher), (*names, "teacher"), strict=True):
        shot(page, f"{name}-revealed")
        assert b.overflow(page) == [], name
    return revealed


def end_and_download(teacher, link: str, folder: Path) -> list[dict]:
    """The teacher ends the class: its code, link and QR code go (a screenshot), and the CSV's rows."""
    teacher.get_by_role("button", name=text_in("en", "class_end")).click()
    teacher.get_by_text(text_in("en", "class_ended_teacher")).wait_for()
    b.settle(teacher)
    assert not teacher.locator("[data-testid=stImage]").count()  # no QR code
    assert not teacher.get_by_text(link).count() and not teacher.locator("[data-testid=stCode]").count()
    shot(teacher, "teacher-ended")
    assert metric(teacher, text_in("en", "class_joined")) == "3"
    with teacher.expect_download(timeout=b.TIMEOUT_MS) as saved:
        teacher.get_by_role("button", name=text_in("en", "class_csv")).click()
    path = folder / saved.value.suggested_filename
    saved.value.save_as(path)
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
