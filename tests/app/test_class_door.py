"""Who may join a class, in AppTest: the teacher closes joining, removes students (one by one, or everyone who joined
in a minute) and raises the cap on the live panel, or a full class's in one click; a student is told to ask their
teacher, never the cap; a session whose browser has no seat joins nothing."""
import time

import pytest

from classroom import admission, door, visitor
from harness.apptest import run_page
from kit.text import t
from tests.app.test_class import (
    CLASS,
    button,
    code_of,
    database,  # noqa: F401 (the fixture: a database of each test's own)
    join,
    metrics,
    pick,
    store_engine,
    teach,
)
from tests.apptest_helpers import messages
from tests.class_helpers import load_pixels


def opened(at):
    """The teacher's panel with its door open, as a click on "Who may join" opens it."""
    at.session_state["_class_door"] = True
    return at.run()


def try_to_join(code: str, nickname: str = "", jar: dict | None = None):
    """A student's session that tried to join from a browser with its cookies in `jar` (a new one: None): the
    session, whatever happened."""
    at = run_page(CLASS, {"room": code})
    load_pixels(at, jar)
    next(box for box in at.text_input if box.label == t("class_nickname")).input(nickname)
    next(b for b in at.button if b.label == t("class_join")).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_teacher_closes_joining_and_opens_it_again():
    teacher = teach()
    code = code_of(teacher)
    join(code, "Ana")
    opened(teacher).toggle(key=door.LOCK).set_value(True).run()
    assert t("class_locked_teacher") in messages(teacher)
    late = try_to_join(code, "Late")
    assert t("err_class_locked") in messages(late) and "_class" not in late.session_state
    teacher.toggle(key=door.LOCK).set_value(False).run()
    join(code, "Later")
    assert metrics(teacher.run())[t("class_joined")] == "2"


def test_a_full_class_tells_the_teacher_its_cap_and_the_student_only_to_ask_and_a_raised_cap_lets_them_in():
    teacher = teach()
    code = code_of(teacher)
    opened(teacher).number_input(key=door.CAP).set_value(1).run()
    join(code, "Ana")
    late = try_to_join(code, "Bo")
    assert t("err_class_full") in messages(late) and "1" not in messages(late)
    teacher.run()
    assert t("class_cap_reached", cap=1) in messages(teacher)
    teacher.number_input(key=door.CAP).set_value(2).run()
    join(code, "Bo")
    assert metrics(teacher.run())[t("class_joined")] == "2" and t("class_cap_reached", cap=2) in messages(teacher)


def test_a_full_class_s_teacher_lets_more_in_with_one_click():
    teacher = teach()
    code = code_of(teacher)
    opened(teacher).number_input(key=door.CAP).set_value(1).run()
    assert button_or_none(teacher, "class_cap_raise") is None  # not full: no button
    join(code, "Ana")
    teacher.run()
    assert t("class_cap_reached", cap=1) in messages(teacher)
    button_or_none(teacher, "class_cap_raise").click().run()
    assert t("class_cap_reached", cap=1) not in messages(teacher) and button_or_none(teacher, "class_cap_raise") is None
    assert opened(teacher).number_input(key=door.CAP).value == 1 + admission.CAP_STEP  # the input says the new cap
    join(code, "Bo")
    assert metrics(teacher.run())[t("class_joined")] == "2"


def button_or_none(at, key: str):
    """The full class's button that takes CAP_STEP more students, None when the panel shows none."""
    return next((b for b in at.button if b.label == t(key, n=admission.CAP_STEP)), None)


def test_the_teacher_sees_joins_by_minute_and_removes_everyone_who_joined_in_the_minute_picked():
    teacher = teach()
    code = code_of(teacher)
    jars = {"Ana": {}, "Bo": {}}  # their browsers: their cookies
    for name, jar in jars.items():
        assert "_class" in try_to_join(code, name, jar).session_state
    key = teacher.session_state["_class"]["key"]
    students = admission.roster(store_engine(), code, key, now=time.time())
    minute = students[0].joined // 60 * 60  # Ana's (Bo's too, unless the clock's minute turned between them)
    gone = [s.nickname for s in students if minute <= s.joined < minute + 60]
    chooser = opened(teacher).radio(key=door.MINUTE)
    assert door.clock(minute) in chooser.options and chooser.value is None
    assert button(teacher, "class_remove_minute").disabled
    chooser.set_value(minute).run()
    button(teacher, "class_remove_minute").click().run()
    assert t("class_removed", n=len(gone)) in [s.value for s in teacher.success]
    assert metrics(teacher)[t("class_joined")] == str(2 - len(gone))
    assert [r.value for r in teacher.radio if r.key == door.MINUTE] == ([] if len(gone) == 2 else [None])
    if len(gone) == 2:  # nobody left who joined lately
        assert t("class_joins_none", minutes=admission.JOIN_MINUTES) in [c.value for c in teacher.caption]
    for name in gone:  # their browsers cannot come back
        assert t("err_class_removed") in messages(try_to_join(code, f"{name} again", jars[name]))


def test_the_teacher_removes_a_student_whose_answer_stops_counting_and_who_cannot_come_back():
    teacher = teach()
    code = code_of(teacher)
    bo_s = {}  # Bo's browser: its cookies
    ana, bo = join(code, "Ana"), try_to_join(code, "Bo", bo_s)
    pick(ana, "drank")
    pick(bo, "cat")
    opened(teacher)
    chooser = teacher.multiselect(key=door.PICKED)
    assert [o.split(" · ")[:2] for o in chooser.options] == [["1", "Ana"], ["2", "Bo"]]
    chooser.set_value([2]).run()
    button(teacher, "class_remove").click().run()
    assert t("class_removed", n=1) in [s.value for s in teacher.success]
    assert metrics(teacher)[t("class_joined")] == "1" and metrics(teacher)[t("class_answered")] == "1"
    assert [o.split(" · ")[1] for o in teacher.multiselect(key=door.PICKED).options] == ["Ana"]
    pick(ana, "cat")  # who stays answers on
    bo.radio(key=next(r.key for r in bo.radio if r.key.startswith("_class_pick_"))).set_value("drank")
    button(bo, "class_send").click().run()
    assert t("err_class_removed") in messages(bo)
    assert [s.nickname for s in admission.roster(store_engine(), code, teacher.session_state["_class"]["key"],
                                                  now=time.time())] == ["Ana"]
    again = try_to_join(code, "Bo again", bo_s)  # a new tab of Bo's browser
    assert t("err_class_removed") in messages(again) and "_class" not in again.session_state


def test_a_session_that_never_loads_its_pixel_has_no_seat_and_joins_nothing(monkeypatch):
    monkeypatch.setattr(visitor, "CLAIM_WAIT_S", 0.0)
    code = code_of(teach())
    at = run_page(CLASS, {"room": code})  # a script on the websocket alone: no image loaded, no cookie kept
    next(b for b in at.button if b.label == t("class_join")).click().run()
    assert t("err_class_no_seat") in messages(at) and "_class" not in at.session_state
    at = run_page("pages/2_Factor_matrix.py", {"predict": "1"})
    button(at, "class_ask").click().run()
    assert t("err_class_no_seat") in messages(at) and "_class" not in at.session_state


@pytest.mark.parametrize("limit", ["join", "start"])
def test_a_browser_is_limited_by_its_seat_whatever_session_it_opens(monkeypatch, limit):
    from classroom.limiter import Limiter

    monkeypatch.setitem(visitor.RATES, limit, Limiter(1, 60.0))
    code = code_of(teach()) if limit == "join" else ""
    jar = {}
    for attempt in range(2):  # the same browser (its cookie jar) in two fresh sessions
        at = run_page(CLASS if limit == "join" else "pages/2_Factor_matrix.py",
                      {"room": code} if limit == "join" else {"predict": "1"})
        load_pixels(at, jar)
        if limit == "join":
            next(b for b in at.button if b.label == t("class_join")).click().run()
        else:
            button(at, "class_ask").click().run()
        assert ("_class" in at.session_state) == (attempt == 0), messages(at)
    assert t("err_class_rate_limited", seconds=60) in messages(at)
