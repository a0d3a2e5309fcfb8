"""Class mode as the room follows it, in AppTest: every screen shows the sentence the question is about, the class page
carries none of the story's controls, an ended class shows no code or QR code, a student's answer goes only with its
Send button, a question no one answered (or a class) says so in a sentence instead of a chart, and the CSV has a
row per answer given, its time in UTC and its seconds since the class opened and since the question."""
import io
import json
import re

import pandas as pd
import sqlalchemy as sa

from classroom import board, classes, store
from classroom.questions import Question
from harness.apptest import run_page
from kit.text import in_language, t
from tests.app.test_class import (
    CLASS,
    RELEVANCE,
    button,
    code_of,
    database,  # noqa: F401 (the fixture: a database of each test's own)
    join,
    now,
    pick,
    send,
    store_engine,
    teach,
)
from tests.apptest_helpers import chart_data, deferred, messages

STORY_CONTROLS = {"sentence", "source_sentence", "_sentence_here", "_source_sentence_here", "source", "position",
                  "d_k", "q_preset"}  # the sentence boxes, the choice of vectors and the layers' controls


def sentence_line(at) -> str:
    """The text of the class's sentence line as the page's HTML holds it ('' for none)."""
    found = [h.proto.body for h in at.get("html") if "class-sentence" in h.proto.body]
    return found[0] if found else ""


def words_of(body: str) -> str:
    line = re.search(r'<p class="class-sentence" dir="auto">(.*?)</p>', body)
    return line.group(1) if line else ""


def test_the_teacher_and_every_student_see_the_sentence_with_the_query_s_word_marked_by_its_position():
    teacher = teach(query={"query": "the (5)"})
    code = code_of(teacher)
    students = [join(code, "Ana"), join(code, "小明", lang="zh")]
    for at in (teacher, *students):
        assert words_of(sentence_line(at)) == "the black cat drank <mark>the (5)</mark> milk", sentence_line(at)
    assert t("class_sentence", q="the (5)") in sentence_line(students[0])
    with in_language("zh"):
        assert t("class_sentence", q="the (5)") in sentence_line(students[1])
    button(teacher, "class_reveal").click().run()
    for at in (teacher, *students):
        at.run()
        assert "<mark>the (5)</mark>" in sentence_line(at)  # after the reveal too


def test_a_sentence_is_escaped_whatever_it_holds():
    q = Question(view="factor", link="", query="لبن", keys=("<b>x</b>", "لبن"), ordered=1, answer=("<b>x</b>",),
                 reason="angle", sentence=("<b>x</b>", "a&b", "🐈", "لبن"), position=4)
    line = words_of(board.line(q))
    assert line == "&lt;b&gt;x&lt;/b&gt; a&amp;b 🐈 <mark>لبن</mark>", line


def test_the_class_page_has_none_of_the_story_s_controls():
    teacher = teach()
    student = join(code_of(teacher), "Ana")
    newcomer = run_page(CLASS)
    for at in (teacher, student, newcomer):
        keys = {w.key for kind in ("text_input", "selectbox", "slider", "number_input") for w in at.get(kind)}
        assert not keys & STORY_CONTROLS, keys & STORY_CONTROLS
        assert t("layers") not in [e.label for e in at.expander]
        assert not at.exception


def test_an_ended_class_shows_no_code_or_qr_code_and_says_it_ended(monkeypatch):
    deferred(monkeypatch)
    teacher = teach()
    code = code_of(teacher)
    button(teacher, "class_end").click().run()
    assert not [img for i in teacher.get("image") for img in i.proto.imgs]
    assert not [c for c in teacher.code if code in c.value]
    assert not any(code[:4] in m.value for m in teacher.markdown)
    assert t("class_over") in [m.value for m in teacher.markdown]
    assert t("class_last", q="milk") in [h.value for h in teacher.subheader]  # no longer "is asked"


def test_an_ended_class_with_no_answers_says_so_in_a_sentence_and_draws_no_chart(monkeypatch):
    files = deferred(monkeypatch)
    for lang in ("en", "zh"):
        teacher = teach(lang=lang)
        join(code_of(teacher), "Ana", lang=lang)  # joined, never answered
        with in_language(lang):
            button(teacher, "class_end").click().run()
            said = messages(teacher)
            assert t("class_no_answers") in said and t("class_no_answers_class") in said, said
            assert t("class_ended_teacher") not in said and not teacher.get("download_button")
        assert not teacher.get("vega_lite_chart") and not teacher.exception
    assert not files


def test_a_question_no_one_answered_shows_the_sentence_where_its_chart_would_be(monkeypatch):
    files = deferred(monkeypatch)
    teacher = teach()
    code = code_of(teacher)
    ana = join(code, "Ana")
    teacher.toggle(key="_class_show").set_value(True).run()  # the live chart before the reveal: no answer yet
    assert t("class_no_answers_yet") in messages(teacher) and not teacher.get("vega_lite_chart")
    pick(ana, "drank")
    teacher.run()
    assert t("class_no_answers_yet") not in messages(teacher) and chart_data(teacher)[0]["students"].sum() == 1
    teacher.switch_page(RELEVANCE).run()
    button(teacher, "class_ask_next").click().run()
    teacher.switch_page(CLASS).run()
    button(teacher, "class_reveal").click().run()
    ana.run()
    for at in (teacher, ana):  # question 2 revealed with no answer: the sentence, not a chart of zeros
        assert t("class_no_answers") in messages(at) and not at.get("vega_lite_chart"), messages(at)
    button(teacher, "class_end").click().run()
    assert t("class_no_answers") in messages(teacher) and not teacher.get("vega_lite_chart")
    assert t("class_ended_teacher") in messages(teacher) and f"class-{code}.csv" in files  # question 1's answer
    assert teacher.get("download_button")


def test_a_student_s_answer_goes_only_with_its_send_button():
    teacher = teach()
    code = code_of(teacher)
    student = join(code, "Ana")
    send(student)  # nothing picked yet
    assert t("class_pick_first") in messages(student)
    next(r for r in student.radio if r.key.startswith("_class_pick_")).set_value("cat").run()
    assert classes.room(store_engine(), code, now=now()).answered == 0  # moving between the options sends nothing
    assert t("class_not_sent") in [c.value for c in student.caption]
    next(r for r in student.radio if r.key.startswith("_class_pick_")).set_value("cat")  # the choice the browser shows
    send(student)
    assert classes.room(store_engine(), code, now=now()).answered == 1
    assert t("class_sent", answer="cat") in [c.value for c in student.caption]


def test_the_csv_has_a_row_per_answer_given_with_the_sentence_and_the_right_answer(monkeypatch):
    files = deferred(monkeypatch)
    teacher = teach()
    code = code_of(teacher)
    ana, bo = join(code, "Ana"), join(code, "Bo")
    pick(ana, "cat")
    pick(bo, "drank")
    pick(ana, "drank")  # changed: a second row
    teacher.switch_page(RELEVANCE).run()
    button(teacher, "class_ask_next").click().run()
    teacher.switch_page(CLASS).run()
    ana.run()
    box = next(m for m in ana.multiselect if m.key.startswith("_class_pick_"))
    box.set_value(["drank", "cat", "black"])
    send(ana)
    button(teacher, "class_end").click().run()
    writer = files[f"class-{code}.csv"][0]
    rows = pd.read_csv(io.BytesIO(writer if isinstance(writer, bytes) else writer()), keep_default_na=False)
    assert list(zip(rows["question_no"], rows["nickname"], rows["answer"], rows["right"], strict=True)) == [
        (1, "Ana", "cat", False), (1, "Bo", "drank", True), (1, "Ana", "drank", True),
        (2, "Ana", "drank > cat > black", True)]
    assert set(rows["sentence"]) == {"the black cat drank the milk"} and set(rows["query"]) == {"milk"}
    assert list(rows["right_answer"]) == ["drank", "drank", "drank", "drank > cat > black"]
    assert list(rows.columns) == ["question_no", "sentence", "query", "right_answer", "student", "nickname", "answer",
                                  "right", "time_utc", "seconds_since_class_opened", "seconds_since_question"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", x) for x in rows["time_utc"])
    opened = list(rows["seconds_since_class_opened"])
    kept = classes.answers(store_engine(), code, teacher.session_state["_class"]["key"], now=now())
    assert opened == sorted(opened) and opened == [r["seconds_since_class_opened"] for r in kept]
    since = list(rows["seconds_since_question"])
    assert since[:3] == opened[:3] and 0 <= since[3] < opened[3]  # question 2 was asked after the class opened


def test_a_question_asked_on_pages_6_and_7_brings_its_sentence_too():
    kinds = teach("pages/6_Three_kinds.py")
    assert "<mark>" in sentence_line(kinds) and "ball" in words_of(sentence_line(kinds)), sentence_line(kinds)
    real = teach("pages/7_Real_sentences.py")
    marked = re.search(r"<mark>(.*?)</mark>", words_of(sentence_line(real)))
    assert marked and marked.group(1) == classes.room(store_engine(), code_of(real), now=now()).question.query


def test_a_class_whose_question_was_stored_before_questions_had_a_sentence_still_runs():
    teacher = teach()
    code = code_of(teacher)
    stored = classes.room(store_engine(), code, now=now()).question
    before = {k: v for k, v in json.loads(stored.to_json()).items() if k not in ("sentence", "position")}
    with store_engine().begin() as conn:
        conn.execute(sa.update(classes.CLASSES).where(classes.CLASSES.c.code == code).values(
            question=json.dumps(before)))
    store.forget(code)
    student = join(code, "Ana")
    assert t("predict_ask", q="milk") in [h.value for h in student.subheader]
    assert not sentence_line(student) and not sentence_line(teacher.run()) and not teacher.exception
    pick(student, "drank")
    assert classes.room(store_engine(), code, now=now()).answered == 1
