"""Class mode in AppTest: a teacher and students in separate sessions on one class database (a SQLite file made for
each test), from starting a class on a question page to the answers' CSV; and what goes wrong, said in a sentence."""
import io
import json
import time
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

from classroom import classes, holds, seat, store, visitor, watch
from classroom import panels as ui_class
from classroom.limiter import Bucket, Limiter
from classroom.questions import Question
from engine.errors import ClassError
from harness.apptest import run_page
from kit.text import in_language, t
from tests.apptest_helpers import chart_data, deferred, messages
from tests.class_helpers import load_pixels, pixel

FACTOR, RELEVANCE, CLASS = "pages/2_Factor_matrix.py", "pages/4_Relevance.py", "pages/9_Class.py"


@pytest.fixture(autouse=True)
def database(tmp_path, monkeypatch):
    """A class database of this test's own."""
    monkeypatch.setenv("CLASS_DATA", str(tmp_path))
    monkeypatch.delenv("CLASS_DATABASE_URL", raising=False)
    fresh = {name: Limiter(r.limit, r.window, r.keys) if isinstance(r, Limiter) else Bucket(r.burst, r.rate, r.keys)
             for name, r in visitor.RATES.items()}
    monkeypatch.setattr(visitor, "RATES", fresh)  # AppTest's sessions share one address: each test starts unlimited
    monkeypatch.setattr(seat, "NEW_SEATS", Bucket(10_000, 1.0))
    holds.forget_teachers()  # the classes of another test's database
    return tmp_path / "classes.sqlite"


def teach(page: str = FACTOR, query: dict | None = None, lang: str = "en"):
    """A teacher's session that asked the class the page's predict-first question: now on the class page."""
    at = run_page(page, {"predict": "1", "lang": lang, **(query or {})})
    load_pixels(at)  # the browser gets its seat
    with in_language(lang):
        next(b for b in at.button if b.label == t("class_ask")).click().run()
        assert any(t("class_link_is") == m.value for m in at.markdown)  # the button went to the class page
    assert not at.exception, [e.value for e in at.exception]
    return at.switch_page(CLASS).run()  # where the browser now is: AppTest's next runs stay on the page it names


def join(code: str, nickname: str = "", lang: str = "en"):
    """A student's session that opened the class's link and joined."""
    at = run_page(CLASS, {"room": code, "lang": lang})
    load_pixels(at)
    with in_language(lang):
        boxes = {box.label: box for box in at.text_input}
        assert boxes[t("class_code")].value == code
        boxes[t("class_nickname")].input(nickname)
        next(b for b in at.button if b.label == t("class_join")).click().run()
    assert not at.exception and "token" in at.session_state["_class"], messages(at)
    return at


def code_of(at) -> str:
    return at.session_state["_class"]["code"]


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def pick(at, word: str):
    """A student's answer to a one-word question, picked and sent."""
    next(r for r in at.radio if r.key.startswith("_class_pick_")).set_value(word)
    return send(at)


def send(at):
    """The student presses Send under their answer."""
    button(at, "class_send").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def button(at, label_key: str):
    return next(b for b in at.button if b.label == t(label_key))


def test_a_teacher_starts_a_class_on_a_question_and_sees_its_code_link_and_qr_code():
    at = teach()
    code = code_of(at)
    assert len(code) == 8 and at.session_state["_class"]["key"]
    assert any(f"{code[:4]} {code[4:]}" in m.value for m in at.markdown)
    assert any(f"Class?room={code}" in c.value for c in at.code)
    assert [img.caption for i in at.get("image") for img in i.proto.imgs] == [t("class_qr")]
    assert metrics(at) == {t("class_joined"): "0", t("class_answered"): "0", t("class_question_no"): "1"}
    assert t("class_asked", q="milk") in [h.value for h in at.subheader]  # the room is asked, not "your guess"
    assert not chart_data(at)  # the room's chart waits for the reveal


def test_students_answer_the_teacher_counts_and_reveals_and_every_student_sees_the_answer():
    teacher = teach()
    code = code_of(teacher)
    students = [join(code, name) for name in ("Ana", "Bo", "")]
    keys = next(r for r in students[0].radio if r.key.startswith("_class_pick_")).options
    assert set(keys) == {"the (1)", "black", "cat", "drank", "the (5)"}
    for student, word in zip(students, ("drank", "drank", "cat"), strict=True):
        pick(student, word)
        assert t("class_sent", answer="drank" if word == "drank" else "cat") in [c.value for c in student.caption]
    pick(students[2], "drank")  # changed before the reveal
    teacher.run()
    assert metrics(teacher)[t("class_joined")] == "3" and metrics(teacher)[t("class_answered")] == "3"
    assert not chart_data(teacher)
    button(teacher, "class_reveal").click().run()
    room = chart_data(teacher)[0].set_index("key")
    assert room.loc["drank", "students"] == 3 and room.loc["drank", "right"] and room["students"].sum() == 3
    reason = classes.room(store_engine(), code, now=now()).question.reason  # engine.relevance.winner's
    for student in students:
        student.run()
        said = " ".join(m.value for m in (*student.success, *student.info))
        assert t("class_answer", order="“drank”") in said and t(f"class_why_{reason}", k="drank", q="milk") in said
        assert chart_data(student)[0].set_index("key").loc["drank", "students"] == 3
        assert not [r for r in student.radio if r.key.startswith("_class_pick_")]  # answers closed


def test_the_room_order_question_counts_first_choices_and_whole_right_orders():
    teacher = teach(RELEVANCE)
    student = join(code_of(teacher))
    box = next(m for m in student.multiselect if m.key.startswith("_class_pick_"))
    box.set_value(["drank", "cat", "black"])
    send(student)
    room = classes.room(store_engine(), code_of(teacher), now=now())
    assert room.answered == 1 and room.question.ordered == 3 and room.question.answer == ("drank", "cat", "black")
    assert room.right == 1


def test_next_moves_every_student_to_the_new_question_and_end_gives_the_answers_as_csv(monkeypatch):
    files = deferred(monkeypatch)
    teacher = teach()
    code = code_of(teacher)
    student = join(code, "=HYPERLINK(1)")
    pick(student, "drank")
    teacher.switch_page(RELEVANCE).run()
    button(teacher, "class_ask_next").click().run()
    teacher.switch_page(CLASS).run()
    assert metrics(teacher)[t("class_question_no")] == "2"
    student.run()
    assert t("predict_order_ask", q="milk", m=3) in [h.value for h in student.subheader]
    button(teacher, "class_end").click().run()
    student.run()
    assert t("class_ended") in messages(student)
    writer = files[f"class-{code}.csv"][0]
    rows = pd.read_csv(io.BytesIO(writer if isinstance(writer, bytes) else writer()))
    assert list(rows["answer"]) == ["drank"] and list(rows["nickname"]) == ["'=HYPERLINK(1)"]
    assert not {"token", "token_hash", "teacher_key"} & set(rows.columns)


def test_the_class_page_speaks_chinese():
    teacher = teach(lang="zh")
    student = join(code_of(teacher), lang="zh")
    teacher.run()
    with in_language("zh"):
        assert t("predict_ask", q="milk") in [h.value for h in student.subheader]
        assert t("class_not_sent") in [c.value for c in student.caption]
        assert metrics(teacher)[t("class_joined")] == "1"


@pytest.mark.parametrize(("typed", "said"), [("ZZZZ 2222", "err_class_unknown"), ("hello", "err_class_bad_code"),
                                             ("'; DROP TABLE class_classes; --", "err_class_bad_code")])
def test_a_code_that_opens_no_class_gets_one_sentence_and_the_rest_works(typed, said):
    at = run_page(CLASS)
    load_pixels(at)
    boxes = {box.label: box for box in at.text_input}
    boxes[t("class_code")].input(typed)
    next(b for b in at.button if b.label == t("class_join")).click().run()
    assert not at.exception and t(said) in messages(at)
    assert "_class" not in at.session_state
    at.switch_page(FACTOR).run()
    assert not at.exception and chart_data(at)


def test_a_forged_teacher_key_cannot_reveal_and_a_forged_token_cannot_answer():
    teacher = teach()
    code = code_of(teacher)
    student = join(code)
    forger = run_page(CLASS)
    forger.session_state["_class"] = {"code": code, "key": "A" * 32}
    forger.run()
    button(forger, "class_reveal").click().run()
    assert t("err_class_not_teacher") in messages(forger)
    student.session_state["_class"] = {"code": code, "token": "B" * 32}
    student.run()
    assert t("err_class_not_student") in messages(student)
    assert classes.room(store_engine(), code, now=now()).status == "asking"


def test_a_closed_class_and_a_database_that_is_down_each_get_a_sentence(monkeypatch):
    teacher = teach()
    student = join(code_of(teacher))
    button(teacher, "class_end").click().run()
    student.run()
    assert t("class_ended") in messages(student)
    monkeypatch.setenv("CLASS_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:9/none")
    student.run()
    assert not student.exception and t("class_db_down") in messages(student)
    at = run_page(FACTOR, {"predict": "1"})
    button(at, "class_ask").click().run()
    assert not at.exception and t("class_db_down") in messages(at) and "_class" not in at.session_state


def store_engine():
    """The class database the pages use, read directly."""
    return store.engine()


def now() -> float:
    return time.time()


def test_a_question_too_big_for_a_class_is_refused_before_the_database():
    with pytest.raises(ClassError):
        Question("factor", "", "milk", tuple(f"w{i}" for i in range(65)), 1, ("w0",), "angle")


def test_a_student_who_keeps_answering_is_slowed_down_with_a_sentence():
    student = join(code_of(teach()))
    limit = visitor.RATES["answer"].limit
    for n in range(limit + 1):
        pick(student, ("drank", "cat")[n % 2])
    assert t("err_class_rate_limited", seconds=60) in messages(student)
    sent = classes.mine(store_engine(), code_of(student), student.session_state["_class"]["token"], now=now())
    assert sent == (("drank", "cat")[(limit - 1) % 2],)  # the last answer within the limit


def test_a_student_whose_teacher_has_gone_is_told_and_can_still_answer():
    teacher = teach()
    student = join(code_of(teacher))
    assert t("class_teacher_gone") not in messages(student)
    with store.engine().begin() as conn:  # the teacher's panel last looked two minutes ago
        conn.execute(classes.CLASSES.update().values(updated=now() - 120))
    store.ROOMS.clear()  # as another process would, after its ROOM_S
    student.run()
    assert t("class_teacher_gone") in messages(student)
    pick(student, "drank")
    teacher.run()  # the panel is open again: it says so
    student.run()
    assert t("class_teacher_gone") not in messages(student)


def test_a_class_s_students_share_one_read_of_its_room_and_see_the_teacher_s_changes_at_once(monkeypatch):
    teacher = teach()
    code = code_of(teacher)
    students = [join(code) for _ in range(3)]
    reads, real = [], classes.room
    monkeypatch.setattr(classes, "room", lambda *a, **k: reads.append(a[1]) or real(*a, **k))
    store.ROOMS.clear()
    start = time.monotonic()
    for student in students:
        student.run()
    assert len(reads) <= 1 + int((time.monotonic() - start) / store.ROOM_S), reads  # not one read a tab
    button(teacher, "class_reveal").click().run()
    reads.clear()
    for student in students:  # on this process, the reveal is not held back by the shared read
        student.run()
        assert any(m.value == t("class_no_answer") for m in student.markdown)
    assert reads.count(code) <= 1 + int((time.monotonic() - start) / store.ROOM_S)


def asked(code: str, teacher: bool = False) -> str:
    """The stage the class watch's route holds a panel's question against: what it would answer once it differs."""
    return watch.current(code, teacher)


def watch_data(at) -> dict:
    """What the session's panel gave its watch: the stage it shows, the route it asks, how often."""
    (watcher,) = [w for w in at.get("bidi_component") if w.proto.component_name == "class_watch"]
    return json.loads(watcher.proto.json)


def shown(at) -> str:
    return watch_data(at)["stage"]


def test_a_panel_s_watch_differs_from_its_route_exactly_when_the_panel_would_change():
    teacher = teach()
    code = code_of(teacher)
    student = join(code)
    teacher.run()
    assert watch_data(student) == {"url": f"{watch.ROUTE}?c={code}", "stage": asked(code),
                                   "retry": 1000, "backoff": 30_000, "every": 0}
    assert shown(teacher) == asked(code, teacher=True)  # nothing moved: no panel runs
    pick(student, "drank")
    assert shown(student) == asked(code)  # their own answer is on their screen already
    time.sleep(store.ROOM_S)  # an answer reaches the counts with the others, a moment later
    assert shown(teacher) != asked(code, teacher=True)  # the count moved: the teacher's panel runs
    teacher.run()
    assert shown(teacher) == asked(code, teacher=True) and metrics(teacher)[t("class_answered")] == "1"
    pick(student, "cat")  # the count stays; how the room answered is not told before the reveal
    assert shown(teacher) == asked(code, teacher=True) and "cat" not in asked(code, teacher=True)
    button(teacher, "class_reveal").click().run()
    assert shown(student) != asked(code)  # the reveal: every student's panel runs
    student.run()
    assert shown(student) == asked(code)
    assert t("class_yours", answer="“cat”") in [m.value for m in student.markdown]


def test_a_teacher_showing_the_room_s_chart_before_the_reveal_has_it_redrawn_every_look():
    teacher = teach()
    assert watch_data(teacher)["every"] == 0
    teacher.toggle(key="_class_show").set_value(True).run()
    assert watch_data(teacher)["every"] == 1000


def test_a_class_gone_or_a_database_down_is_said_once_and_its_route_says_which(monkeypatch):
    teacher = teach()
    code = code_of(teacher)
    student = join(code)
    assert asked("ZZZZ2222") == watch.UNKNOWN
    with store.engine().begin() as conn:  # the class expired and was swept
        conn.execute(classes.CLASSES.delete())
    store.forget(code)
    student.run()
    assert asked(code) == watch.UNKNOWN and t("err_class_unknown") in messages(student)
    assert not student.get("bidi_component")  # nothing left to watch
    monkeypatch.setenv("CLASS_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:9/none")
    student.run()
    assert asked(code) == watch.DOWN and t("class_db_down") in messages(student)
    assert not student.get("bidi_component")


def route_client():
    """The class watch's route in an app of its own, as a browser's fetch reaches it."""
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    return TestClient(Starlette(routes=watch.ROUTES))


def test_the_route_answers_a_stage_that_moved_at_once_and_holds_one_that_did_not_until_it_moves(monkeypatch):
    monkeypatch.setattr(watch, "FOLLOW_S", 600.0)  # read once, then only when the class changes on this process
    teacher = teach()
    code = code_of(teacher)
    student = join(code)
    path = f"{watch.ROUTE}?c={code}"
    with route_client() as client:
        started = time.monotonic()
        answer = client.get(f"{path}&shown=0.asking.0")  # a panel drawn before: told at once
        assert (answer.text, answer.headers["cache-control"]) == (asked(code), "no-store")
        assert time.monotonic() - started < watch.HOLD_S / 2
        started = time.monotonic()  # before the reveal's second starts: on a busy machine the question may go later
        revealing = ThreadPoolExecutor(1).submit(lambda: (time.sleep(1.0), classes.reveal(
            store_engine(), code, teacher.session_state["_class"]["key"], now=now()), store.forget(code)))
        answer = client.get(f"{path}&shown={asked(code)}")  # held until the teacher reveals, woken by it
        waited = time.monotonic() - started
        revealing.result()
        assert answer.text == asked(code) and answer.text.startswith("1.revealed.") and waited >= 1.0
        assert client.get(f"{watch.ROUTE}?c=not+a+code&shown=x").text == watch.UNKNOWN
    student.run()
    assert shown(student) == asked(code)


def test_a_held_question_is_answered_with_the_same_stage_after_the_hold(monkeypatch):
    teacher = teach()
    code, key = code_of(teacher), teacher.session_state["_class"]["key"]
    monkeypatch.setattr(watch, "HOLD_S", 0.5)
    with route_client() as client:
        started = time.monotonic()
        same = client.get(f"{watch.ROUTE}?c={code}&as=teacher&shown={asked(code, teacher=True)}",
                          headers={"Cookie": f"class_teacher={code}.{key}"}).text
        assert same == asked(code, teacher=True) and 0.5 <= time.monotonic() - started < 5
    assert not watch._watched  # nobody waits: nothing reads the room any more


def test_a_pixel_sets_its_cookie_once_httponly_and_strict_and_a_stale_or_forged_nonce_sets_none():
    nonce = seat.offer("token", "ABCD2345", "t" * 32, now=time.time())
    answer = pixel(nonce, forwarded="https")
    cookie = answer.headers["set-cookie"]
    assert answer.headers["content-type"] == "image/gif" and answer.body.startswith(b"GIF89a")
    assert cookie.startswith(f"class_student=ABCD2345.{'t' * 32};")
    assert all(part in cookie for part in ("HttpOnly", "SameSite=strict", "Secure", "Path=/", "Max-Age=43200"))
    assert "set-cookie" not in pixel(nonce).headers  # once
    assert "set-cookie" not in pixel("forged").headers
    old = seat.offer("key", "ABCD2345", "k" * 32, now=time.time() - seat.NONCE_S - 1)
    assert "set-cookie" not in pixel(old).headers
    gone = pixel(seat.offer("key", "ABCD2345", "", now=time.time())).headers["set-cookie"]
    assert gone.startswith('class_teacher="";') and "Max-Age=0" in gone and "Secure" not in gone


def test_a_returning_browser_gets_back_the_part_the_database_still_knows():
    teacher = teach()
    code = code_of(teacher)
    student = join(code)
    key, token = teacher.session_state["_class"]["key"], student.session_state["_class"]["token"]
    cookies = {"class_teacher": f"{code}.{key}", "class_student": f"{code}.{token}"}
    assert ui_class.returning(cookies, code) == {"code": code, "token": token}  # the address names its class
    assert ui_class.returning(cookies, "") == {"code": code, "key": key}
    assert ui_class.returning({"class_student": f"{code}.{token}"}, "") == {"code": code, "token": token}
    forged = {"class_teacher": f"{code}.{'A' * 32}", "class_student": f"{code}.{'B' * 32}"}
    assert ui_class.returning(forged, code) == {}
    assert ui_class.returning({"class_student": "junk", "class_teacher": "x.y.z"}, "") == {}
    with store.engine().begin() as conn:  # an expired class is not come back to
        conn.execute(classes.CLASSES.update().values(expires=now() - 1))
    assert ui_class.returning(cookies, code) == {}
