"""A class through a database outage, in AppTest: an answer the database did not take is kept by the student's panel,
shown and sent again once the database answers, so that no answer given while it was away is lost."""
from classroom import store
from kit.text import t
from tests.app.test_class import (
    button,
    code_of,
    database,  # noqa: F401 (the fixture: a database of each test's own)
    join,
    metrics,
    teach,
)
from tests.apptest_helpers import messages


def down(monkeypatch) -> None:
    """Every class query fails at once, as after a deadline missed."""
    monkeypatch.setattr(store, "_paused", [float("inf")])


def test_an_answer_given_while_the_database_is_away_is_sent_when_it_answers_again(monkeypatch):
    teacher = teach()
    student = join(code_of(teacher), "Ana")
    down(monkeypatch)
    pick = next(r for r in student.radio if r.key.startswith("_class_pick_"))
    pick.set_value("drank")
    button(student, "class_send").click().run()
    assert t("class_db_down") in messages(student)
    student.run()  # a look while it is still away: the panel cannot draw the question's choices
    assert not [r for r in student.radio if r.key.startswith("_class_pick_")]
    monkeypatch.setattr(store, "_paused", [0.0])
    student.run()  # the watch's rerun once the class can be read again
    assert t("class_sent", answer="drank") in [c.value for c in student.caption]
    assert metrics(teacher.run())[t("class_answered")] == "1"
