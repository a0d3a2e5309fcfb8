"""Class mode in headless Chromium on a real server: a teacher and three students, each in a browser context of their
own; the students join by the teacher's link, answer, and see the reveal on their pages without a reload."""
import re
import time

import pytest

from classroom import watch
from kit.text import in_language, t
from tests import browser_helpers as b

STUDENTS = (("Ana", "drank"), ("Bo", "drank"), ("Cy", "cat"))


def texts(lang: str, *keys: str, **values) -> list[str]:
    with in_language(lang):
        return [t(key, **values) for key in keys]


def metric(page, label: str) -> str:
    """A metric's value on the page, read off its label once the page has settled: during a run, Streamlit still shows
    the last run's elements (faded, stale) beside the new ones."""
    b.settle(page)
    box = page.locator("[data-testid=stMetric]").filter(has=page.get_by_text(label, exact=True))
    return box.locator("[data-testid=stMetricValue]").inner_text()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_teacher_and_three_students_answer_and_the_reveal_reaches_every_student(chromium, app_url, lang):
    pages = one_question(chromium, app_url, lang, shots=True)
    try:
        if lang != "en":
            return
        asked = {page: [] for page in pages}
        for page, urls in asked.items():
            page.on("request", lambda r, urls=urls: watch.ROUTE in r.url and urls.append(r.url))
        pages[0].wait_for_timeout(3000)
        # the class stands still after the reveal: each student's watch holds one question (a timer would have asked 3
        # times); the teacher's may ask twice, when the window takes in its panel's beat (due every BEAT_S, a slow
        # machine's screenshots can bring it there): its stage says the beat is due, and again once it is done
        assert max(len(urls) for page, urls in asked.items() if page is not pages[0]) <= 1, asked
        assert len(asked[pages[0]]) <= 2, asked
    finally:
        for page in pages:
            b.leave(page)


def one_question(chromium, base: str, lang: str, shots: bool = False, student_bases: tuple[str, ...] = ()) -> list:
    """A teacher asks on page 2 of the server at `base`, three students join by the link (each on its own of
    `student_bases`, if given: other replicas of the same class) and answer, the teacher reveals: the reveal shows on
    every student's page without a reload. The pages, the teacher's first, for the caller to close."""
    ask, link_is, answered, reveal, answer_is = texts(lang, "class_ask", "class_link_is", "class_answered",
                                                     "class_reveal", "class_answer", order="“drank”")
    teacher = b.new_page(chromium)
    pages = [teacher]
    try:
        b.visit(teacher, f"{base}/{b.url_path('pages/2_Factor_matrix.py')}?predict=1&lang={lang}")
        b.rerun(teacher, lambda: teacher.get_by_role("button", name=ask).click())
        teacher.get_by_text(link_is).wait_for()
        link = teacher.locator("[data-testid=stCode]").inner_text().strip()
        assert re.fullmatch(rf"{re.escape(base)}/Class\?room=[A-Z2-9]{{8}}", link), link
        bases = student_bases or (base,) * len(STUDENTS)
        pages += [join_and_answer(chromium, link.replace(base, there, 1), lang, nickname, word)
                  for (nickname, word), there in zip(STUDENTS, bases, strict=True)]
        teacher.wait_for_function(
            "([label]) => [...document.querySelectorAll('[data-testid=stMetric]')].some(m => "
            "m.innerText.includes(label) && m.querySelector('[data-testid=stMetricValue]').innerText.trim() === '3')",
            arg=[answered], timeout=b.TIMEOUT_MS)
        assert not b.charts(teacher).count()  # the room's answers wait for the reveal
        if shots:
            b.screenshot(teacher, f"class-teacher-asking-{lang}")
        for student in pages[1:]:
            student.evaluate("window.__same_document = true")  # a reload would forget it
        teacher.get_by_role("button", name=reveal).click()
        for student in pages[1:]:
            student.get_by_text(answer_is).first.wait_for()  # the panel's own look: no reload
            assert student.evaluate("window.__same_document === true")
            b.charts(student).first.locator("svg, canvas").first.wait_for()
        b.charts(teacher).first.locator("svg, canvas").first.wait_for()
        if shots:
            b.screenshot(pages[1], f"class-student-revealed-{lang}")
            b.screenshot(teacher, f"class-teacher-revealed-{lang}")
        assert metric(teacher, answered) == "3"
        for page in pages:
            assert b.problems(page) == []
        return pages
    except BaseException:
        for page in pages:
            b.leave(page)
        raise


def join_and_answer(chromium, link: str, lang: str, nickname: str, word: str | None):
    """A student's page that opened the link, joined with a nickname and picked `word` (None: not yet)."""
    nickname_box, join = texts(lang, "class_nickname", "class_join")
    page = b.new_page(chromium)
    b.visit(page, f"{link}&lang={lang}")
    page.get_by_role("textbox", name=nickname_box).fill(nickname)
    b.rerun(page, lambda: page.get_by_role("button", name=join).click())
    if word is not None:
        pick(page, lang, word)
    return page


def pick(page, lang: str, word: str) -> None:
    """The student picks `word`, presses Send and sees it sent."""
    sent, send = texts(lang, "class_sent", "class_send", answer=word)
    page.locator("[data-testid=stRadio] label").filter(has_text=re.compile(rf"^{re.escape(word)}$")).click()
    page.get_by_role("button", name=send).click()
    page.get_by_text(sent).wait_for()


def test_a_reload_keeps_the_teacher_s_class_and_the_student_s_seat_and_leaving_forgets_it(chromium, app_url):
    """The browser keeps each one's part (classroom/seat.py): after a reload the teacher can still reveal, the student
    still holds their seat and answer, and the room does not count them twice."""
    ask, link_is, joined, reveal, answer_is, sent, leave, join = texts(
        "en", "class_ask", "class_link_is", "class_joined", "class_reveal", "class_answer", "class_sent",
        "class_leave", "class_join", order="“drank”", answer="drank")
    teacher = b.new_page(chromium)
    try:
        b.visit(teacher, f"{app_url}/{b.url_path('pages/2_Factor_matrix.py')}?predict=1")
        b.rerun(teacher, lambda: teacher.get_by_role("button", name=ask).click())
        teacher.get_by_text(link_is).wait_for()
        link = teacher.locator("[data-testid=stCode]").inner_text().strip()
        student = join_and_answer(chromium, link, "en", "Ana", "drank")
        try:
            student.reload()
            student.get_by_text(sent).wait_for()  # the seat and its answer, not the join form
            assert not student.get_by_role("button", name=join).count()
            teacher.reload()
            teacher.get_by_role("button", name=reveal).click()  # still the class's teacher
            student.get_by_text(answer_is).first.wait_for()
            assert metric(teacher, joined) == "1"  # the reloaded student is not counted twice
            for page in (teacher, student):
                assert b.problems(page) == []
            b.rerun(student, lambda: student.get_by_role("button", name=leave).click())
            student.get_by_role("button", name=join).wait_for()
            student.reload()
            student.get_by_role("button", name=join).wait_for()  # the browser forgot the seat too
        finally:
            b.leave(student)
    finally:
        b.leave(teacher)


HIDE = ("() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true}); "
        "document.dispatchEvent(new Event('visibilitychange')); }")
SHOW = ("() => { Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true}); "
        "document.dispatchEvent(new Event('visibilitychange')); }")


def test_a_watch_runs_under_the_site_s_policy_and_a_hidden_tab_holds_no_question(chromium, app_url):
    """The teacher's page keeps the server's Content-Security-Policy, which must let the watch's module (a blob:
    script) run: its count follows the students. Hidden, the page asks nothing once the question it held is answered
    (a browser has six connections to a site to share between its tabs), so its counts wait; shown again, they catch
    up at once. Whether a question is held at the moment the tab hides depends on timing (an answer, the teacher's
    beat), so the test waits for none to be held before it looks."""
    from playwright.sync_api import expect

    ask, link_is, answered, joined = texts("en", "class_ask", "class_link_is", "class_answered", "class_joined")
    context = chromium.new_context(viewport=b.VIEWPORT)  # no bypass_csp: the policy the server sent holds
    context.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', "
                            "e => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));")
    teacher, asked, held, console = context.new_page(), [], set(), []
    teacher.on("request", lambda r: watch.ROUTE in r.url and (asked.append(r.url), held.add(r)))
    teacher.on("requestfinished", lambda r: held.discard(r))
    teacher.on("requestfailed", lambda r: held.discard(r))
    teacher.on("console", lambda m: m.type == "error" and console.append(m.text[:200]))
    students = []
    try:
        teacher.goto(f"{app_url}/{b.url_path('pages/2_Factor_matrix.py')}?predict=1")
        teacher.get_by_role("button", name=ask).click()
        teacher.get_by_text(link_is).wait_for(timeout=b.TIMEOUT_MS)
        link = teacher.locator("[data-testid=stCode]").inner_text().strip()
        count, heads = (teacher.locator("[data-testid=stMetric]").filter(has=teacher.get_by_text(label, exact=True))
                        .locator("[data-testid=stMetricValue]") for label in (answered, joined))
        students.append(join_and_answer(chromium, link, "en", "Ana", "drank"))
        expect(count).to_have_text("1", timeout=b.TIMEOUT_MS)  # the watch ran, under the policy
        teacher.evaluate(HIDE)
        students.append(join_and_answer(chromium, link, "en", "Bo", None))  # ends a question held, if one is
        deadline = time.monotonic() + watch.HOLD_S + b.TIMEOUT_MS / 1000
        while held and time.monotonic() < deadline:  # a question held when the tab hid is answered within HOLD_S
            teacher.wait_for_timeout(100)
        assert not held
        asked_while_hidden = len(asked)
        pick(students[1], "en", "cat")
        students[1].wait_for_timeout(2000)
        assert (len(asked), count.inner_text()) == (asked_while_hidden, "1")  # no question asked, the count waits
        teacher.evaluate(SHOW)
        expect(heads).to_have_text("2", timeout=b.TIMEOUT_MS)
        expect(count).to_have_text("2", timeout=b.TIMEOUT_MS)
        assert teacher.evaluate("window.__csp") == [] and console == []
    finally:
        for page in students:
            b.leave(page)
        context.close()


def test_a_refused_or_failed_watch_waits_longer_each_time_and_as_long_as_it_is_told(chromium, app_url):
    """The teacher's watch, every question refused: first 429 with Retry-After 4 s, then a failed request, then 429s
    with no Retry-After. Each tab waits a spread of 0.5–1.5 times the wait: at least 2 s after the Retry-After, then
    at least 1 s and 2 s as the failures double the wait (2 s, 4 s), so a refused class is not asked again at once
    (a loop without the back-off asks hundreds of times in the same seconds)."""
    ask, link_is = texts("en", "class_ask", "class_link_is")
    teacher, times = b.new_page(chromium), []

    def refuse(route):
        times.append(time.monotonic())
        if len(times) == 2:
            route.abort()
        else:
            route.fulfill(status=429, body="later", headers={"Retry-After": "4"} if len(times) == 1 else {})

    teacher.route(f"**{watch.ROUTE}*", refuse)
    try:
        b.visit(teacher, f"{app_url}/{b.url_path('pages/2_Factor_matrix.py')}?predict=1")
        b.rerun(teacher, lambda: teacher.get_by_role("button", name=ask).click())
        teacher.get_by_text(link_is).wait_for()
        deadline = time.monotonic() + 30
        while len(times) < 4 and time.monotonic() < deadline:
            teacher.wait_for_timeout(250)
        gaps = [round(later - first, 2) for first, later in zip(times, times[1:], strict=False)]
        assert len(gaps) >= 3, times
        assert gaps[0] >= 2.0 and gaps[1] >= 1.0 and gaps[2] >= 2.0, gaps
    finally:
        teacher.unroute(f"**{watch.ROUTE}*")
        b.leave(teacher)
