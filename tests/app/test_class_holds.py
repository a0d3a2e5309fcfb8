"""The class watch's route cannot be turned against the server (classroom/holds.py): a code no live class has is
answered at once, with no watch and one read of the live classes however many codes are asked; questions held are
capped per browser, per client address and per process, the rest answered at once with the stage and told to ask
again in a moment; a change is told at once whatever the allowance left; the teacher's stage goes only to the
browser holding the teacher key."""
import pytest

from classroom import classes, holds, seat, store, watch
from classroom.questions import ALPHABET
from server import files
from tests.app.test_class import (
    asked,
    code_of,
    database,  # noqa: F401 (the fixture: a database of each test's own)
    route_client,
    teach,
)

TESTCLIENT = "testclient"  # the address Starlette's TestClient's requests come from


@pytest.fixture
def reads(monkeypatch) -> list[float]:
    """Each read of the live classes' codes, as it is made."""
    made: list[float] = []
    teachers = classes.teachers

    def counted(db, *, now):
        made.append(now)
        return teachers(db, now=now)
    monkeypatch.setattr(classes, "teachers", counted)
    return made


@pytest.fixture
def nothing_held():
    """No question left counted as held by another test; none left by this one."""
    holds._held.clear()
    holds._seated.clear()
    holds._holding[0] = 0
    yield
    assert not holds._held and not holds._seated and holds._holding[0] == 0


def well_formed(n: int) -> str:
    """Four characters of the code alphabet, different for each n below 31 ** 4."""
    return "".join(ALPHABET[n // 31**i % 31] for i in range(4))


def no_watch(*args, **kwargs):
    raise AssertionError("a question was held")


def test_unknown_codes_are_answered_at_once_without_a_watch_each_after_a_read_of_its_own(monkeypatch, reads):
    monkeypatch.setattr(holds, "REFRESH_S", 0.0)
    monkeypatch.setattr(watch, "changed_from", no_watch)
    with route_client() as client:
        for n in range(20):
            answer = client.get(f"{watch.ROUTE}?c=ZZZZ{well_formed(n)}&shown=unknown")
            assert (answer.status_code, answer.text) == (200, watch.UNKNOWN)
            assert answer.headers["retry-after"] == str(holds.UNKNOWN_S)  # the watch waits before it asks again
    assert len(reads) == 20 and not watch._watched


def test_unknown_codes_asked_faster_than_the_live_classes_are_read_share_one_read(monkeypatch, reads):
    monkeypatch.setattr(holds, "REFRESH_S", 600.0)
    monkeypatch.setattr(watch, "changed_from", no_watch)
    with route_client() as client:
        first = client.get(f"{watch.ROUTE}?c=ZZZZ2222")
        assert first.text == watch.UNKNOWN
        for n in range(50):
            answer = client.get(f"{watch.ROUTE}?c=YYYY{well_formed(n)}")
            assert (answer.status_code, answer.text) == (429, holds.LATER)
            assert answer.headers["retry-after"] == str(holds.SOON_S)
    assert len(reads) == 1 and not watch._watched


def test_a_class_opened_after_the_last_read_is_found_by_the_next(monkeypatch, reads):
    monkeypatch.setattr(holds, "REFRESH_S", 0.0)
    monkeypatch.setattr(watch, "HOLD_S", 0.1)
    with route_client() as client:
        assert client.get(f"{watch.ROUTE}?c=ZZZZ2222").text == watch.UNKNOWN
        code = code_of(teach())
        assert client.get(f"{watch.ROUTE}?c={code}&shown={asked(code)}").text == asked(code)
    assert len(reads) == 2


def test_questions_over_the_seat_s_the_address_s_or_the_process_s_holds_are_answered_at_once_with_the_stage(
        monkeypatch, nothing_held):
    monkeypatch.setattr(holds, "HELD_PER_ADDRESS", 2)
    monkeypatch.setattr(holds, "HELD_PER_PROCESS", 3)
    monkeypatch.setattr(watch, "HOLD_S", 0.1)
    code = code_of(teach())
    path = f"{watch.ROUTE}?c={code}&shown={asked(code)}"
    with route_client() as client:
        assert holds.hold(TESTCLIENT, "a") and holds.hold(TESTCLIENT, "b")  # two of this address's questions held
        later = client.get(path)
        assert (later.status_code, later.text, later.headers["retry-after"]) == (200, asked(code), str(holds.LATER_S))
        holds.let_go(TESTCLIENT, "a")
        assert client.get(path).text == asked(code)  # a place free: held, then answered
        assert "retry-after" not in client.get(path).headers
        assert holds.hold("192.0.2.1") and holds.hold("192.0.2.2")  # the process holds three in all
        assert client.get(path).headers["retry-after"] == str(holds.LATER_S)
        assert not holds.hold("192.0.2.3")
        for address in ("192.0.2.1", "192.0.2.2"):
            holds.let_go(address)
        holds.let_go(TESTCLIENT, "b")
        assert "retry-after" not in client.get(path).headers


def test_one_browser_holding_its_allowance_leaves_the_address_s_allowance_to_the_rest_of_the_room(
        monkeypatch, nothing_held):
    monkeypatch.setattr(watch, "HOLD_S", 0.1)
    code = code_of(teach())
    path = f"{watch.ROUTE}?c={code}&shown={asked(code)}"
    cookie = {"Cookie": f"{seat.COOKIES['seat']}={seat.sign(store.secret(), 'classmate')}"}
    with route_client() as client:
        for _ in range(holds.HELD_PER_SEAT):
            assert holds.hold(TESTCLIENT, "classmate")
        assert client.get(path, headers=cookie).headers["retry-after"] == str(holds.LATER_S)  # its own: used up
        assert "retry-after" not in client.get(path).headers  # another browser at the address is held
        for _ in range(holds.HELD_PER_SEAT):
            holds.let_go(TESTCLIENT, "classmate")


def test_a_change_is_told_at_once_whatever_the_allowance_left(monkeypatch, nothing_held):
    teacher = teach()
    code = code_of(teacher)
    monkeypatch.setattr(holds, "HELD_PER_ADDRESS", 0)  # nothing could be held
    with route_client() as client:
        watch._watched[code] = watch.Watched(loop=None, stages=(asked(code), asked(code, teacher=True)))
        try:
            answer = client.get(f"{watch.ROUTE}?c={code}&shown=an-older-stage")
        finally:
            del watch._watched[code]
    assert (answer.status_code, answer.text) == (200, asked(code)) and "retry-after" not in answer.headers


def test_the_teacher_s_stage_goes_only_to_the_teacher_s_browser():
    teacher = teach()
    code, key = code_of(teacher), teacher.session_state["_class"]["key"]
    path = f"{watch.ROUTE}?c={code}&as=teacher&shown=x"
    with route_client() as client:
        assert client.get(path).text == asked(code)  # a student's stage: no counts
        assert client.get(path, headers={"Cookie": f"class_teacher={code}.{'A' * 32}"}).text == asked(code)
        teacher_s = client.get(path, headers={"Cookie": f"class_teacher={code}.{key}"}).text
    assert teacher_s == asked(code, teacher=True) != asked(code)


def test_a_process_short_of_open_files_holds_no_question(monkeypatch, nothing_held):
    code = code_of(teach())
    monkeypatch.setattr(files.room, "free", files.RESERVE - 1)
    with route_client() as client:
        answer = client.get(f"{watch.ROUTE}?c={code}&shown={asked(code)}")
    assert (answer.text, answer.headers["retry-after"]) == (asked(code), str(holds.LATER_S))
